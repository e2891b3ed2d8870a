// The platform templates in templates/, run here as far as they can be: the GitLab job's grading
// command through npm exactly as written in .gitlab-ci.yml, and the Gradescope bundle built with
// `npm run gradescope-bundle`, its answers locked by setup.sh --permissions-only, and its
// run_autograder graded once in full, on a folder upload in the locked bundle; a two-file upload
// shows which folder run_autograder grades, graded on one case. Gradescope's setup.sh installs
// Node.js on Gradescope's image, so only its --permissions-only part runs here. As root, that
// full grading is the template README's local recipe, its commands run as written (npm ci
// standing in for by the repository's packages); a bundle built with --types passes --types.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { unzipSync } from "fflate";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { globSync } from "tinyglobby";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureHash } from "../../grader/cases/hash.ts";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { kitVersion } from "../../grader/kit.ts";
import type { GradescopeResults } from "../../grader/report/gradescope.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import { pathWithSudo, run } from "../helpers/shell.ts";
import { bakeOptions } from "../../scripts/gradescope-options.ts";
import { expectValidJunit } from "../helpers/xmllint.ts";

const TEMPLATES = join(ROOT, "templates");
const validateGradescope = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(
    readFileSync(join(ROOT, "grader", "schemas", "gradescope-results.schema.json"), "utf8"),
  ) as object,
);

/** A folder that looks like the repository (each top-level entry a symlink), to write into. */
function repoMirror(): string {
  const dir = mkdtempSync(join(tmpdir(), "kit-repo-"));
  for (const entry of readdirSync(ROOT)) {
    if (entry !== ".git") symlinkSync(join(ROOT, entry), join(dir, entry));
  }
  return dir;
}

/**
 * The Unix mode (st_mode: file type and permissions) of every entry of a zip, by name, read from
 * the upper half of each central directory record's external attributes: fflate's unzipSync
 * gives names and contents but not these attributes.
 */
function unixModes(zip: Buffer): Map<string, number> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = zip.readUInt32LE(end + 16);
  const modes = new Map<string, number>();
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extra = zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    modes.set(name, zip.readUInt32LE(offset + 38) >>> 16);
    offset += 46 + nameLength + extra;
  }
  return modes;
}

/**
 * The commands of templates/gradescope/README.md's local recipe: the sh block under "Running it
 * locally", one per line.
 */
function localRecipe(): string[] {
  const readme = readFileSync(join(TEMPLATES, "gradescope", "README.md"), "utf8");
  const section = readme.split("\n## Running it locally\n")[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block.split("\n").filter((line) => line.trim() !== "");
}

/** The case the two-file upload is graded on (the folder upload is graded on every case). */
const ONE_CASE = "01-lesson-7-partitions-3-members";

const builtInCases = readdirSync(CASES_DIR).filter((name) =>
  statSync(join(CASES_DIR, name)).isDirectory(),
);

/** The built-in required (or extension) cases' points, from their case.json files. */
function casePoints(required: boolean): number {
  return builtInCases
    .map(
      (name) =>
        JSON.parse(readFileSync(join(CASES_DIR, name, "case.json"), "utf8")) as {
          required: boolean;
          points: number;
        },
    )
    .filter((c) => c.required === required)
    .reduce((sum, c) => sum + c.points, 0);
}

interface GitlabJob {
  image: string;
  variables: Record<string, string>;
  script: string[];
  artifacts: { when: string; reports: { junit: string }; paths?: string[] };
}

describe("templates/gitlab/.gitlab-ci.yml", () => {
  const text = readFileSync(join(TEMPLATES, "gitlab", ".gitlab-ci.yml"), "utf8");
  const job = (parseYaml(text) as { grade: GitlabJob }).grade;

  it("is a job that installs from the lockfile and publishes junit.xml even when grading fails", () => {
    expect(job.image).toBe("node:24");
    expect(job.script[0]).toMatch(/^npm ci\b/);
    expect(job.artifacts.when).toBe("always");
    expect(job.artifacts.reports.junit).toBe("junit.xml");
    expect(job.variables.SUBMISSION).toBe(".");
  });

  it("its grading command, run through npm as written, writes a JUnit report GitLab can read", async () => {
    const command = job.script.find((line) => line.startsWith("npm run -s grade"));
    expect(command).toBe(
      'npm run -s grade -- "$SUBMISSION" --format junit=junit.xml --format text',
    );
    const dir = repoMirror();
    const result = run("bash", ["-ec", command ?? ""], dir, { SUBMISSION: "solution" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Grading solution: \d+ cases/);
    expect(result.stdout).toMatch(/\nRequired: {2}(\d+)\/\1 points/);
    const xml = readFileSync(join(dir, "junit.xml"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    await expectValidJunit(new Map([["the GitLab job's junit.xml", xml]]));
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      testsuites: { testsuite: { tests: string; failures: string; errors: string } };
    };
    expect(doc.testsuites.testsuite).toMatchObject({
      tests: String(builtInCases.length),
      failures: "0",
      errors: "0",
    });
  });
});

describe("templates/gradescope: the bundle and run_autograder", () => {
  // The README's recipe names the folder of private cases ../private-cases.
  const privateName = "private-cases";
  let bundle: string;
  let built: SpawnSyncReturns<string>;
  beforeAll(() => {
    const work = mkdtempSync(join(tmpdir(), "kit-gradescope-"));
    const privateDir = join(work, privateName);
    mkdirSync(privateDir);
    // A private case is its three JSON files (no recipe: those are for built-in cases only).
    cpSync(join(CASES_DIR, "07-idle-members"), join(privateDir, "01-idle-again"), {
      recursive: true,
      filter: (source) => !source.endsWith("recipe.ts"),
    });
    bundle = join(work, "autograder");
    built = run(
      "npm",
      ["run", "-s", "gradescope-bundle", "--", bundle, "--fixtures", privateDir],
      ROOT,
    );
    // On Gradescope, setup.sh runs `npm ci`; here the repository's packages stand in.
    if (existsSync(bundle)) symlinkSync(join(ROOT, "node_modules"), join(bundle, "node_modules"));
  });
  afterAll(() => {
    rmSync(join(bundle, ".."), { recursive: true, force: true });
  });

  it("npm run gradescope-bundle writes the kit without solution/ or test/, and the private cases", () => {
    expect(built.status, built.stderr).toBe(0);
    for (const entry of [
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "LESSON.md",
      "LICENSE",
      "grader/cli.ts",
      "fixtures/schema",
      "starter/src/main.ts",
      `private-cases/${privateName}/01-idle-again/expected.json`,
    ]) {
      expect(existsSync(join(bundle, entry)), entry).toBe(true);
    }
    expect(existsSync(join(bundle, "solution"))).toBe(false);
    expect(existsSync(join(bundle, "test"))).toBe(false);
    for (const file of ["setup.sh", "run_autograder"]) {
      expect(statSync(join(bundle, file)).mode & 0o111, `${file} is executable`).not.toBe(0);
    }
    expect(built.stdout).toContain(`wrote ${bundle}/private-cases/ (3 files)`);
    expect(built.stdout).toContain(`Upload ${bundle}.zip on Gradescope`);
    expect(built.stdout).toContain(
      "Type errors are not checked (build with --types to fail them).",
    );
    // The default policy, baked in for run_autograder; the total to set is the required points,
    // the private case (a copy of 07-idle-members) adding 2.
    expect(readFileSync(join(bundle, "extension-policy"), "utf8")).toBe("bonus\n");
    expect(built.stdout).toContain(
      `\nExtension policy: bonus (extension points added once every required case passes).\nSet the assignment's total points on Gradescope to ${casePoints(true) + 2}.\n`,
    );
    // The stamps: the built-in cases' (a handout's kit-stamp.json), then the whole set's.
    const schemas = new FixtureSchemas();
    const builtIn = loadCases(CASES_DIR, [], schemas);
    const all = loadCases(CASES_DIR, [join(bundle, "..", privateName)], schemas);
    expect(built.stdout).toContain(
      `\nKit ${kitVersion()}, fixtures ${fixtureHash(builtIn)} (${builtIn.length} cases): the stamp students see, as in the handout's kit-stamp.json.\nWith the private cases: fixtures ${fixtureHash(all)} (${builtIn.length + 1} cases), the stamp of the text report instructors see.\n`,
    );
  });

  it("refuses a private case whose case.json still says TODO, naming the case and the field", () => {
    const work = mkdtempSync(join(tmpdir(), "kit-gradescope-todo-"));
    try {
      const drafts = join(work, "drafts");
      cpSync(join(CASES_DIR, "07-idle-members"), join(drafts, "01-draft"), {
        recursive: true,
        filter: (source) => !source.endsWith("recipe.ts"),
      });
      const file = join(drafts, "01-draft", "case.json");
      const meta = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...meta, hint: "TODO: what to look at" }));
      const out = join(work, "autograder");
      const refused = run(
        "npm",
        ["run", "-s", "gradescope-bundle", "--", out, "--fixtures", drafts],
        ROOT,
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("\n  drafts/01-draft/case.json: hint still says TODO\n");
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.zip`)).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("OUT.zip holds the same files, setup.sh and run_autograder at its root and executable", () => {
    const zip = readFileSync(`${bundle}.zip`);
    const files = unzipSync(zip);
    // Every file of OUT, byte for byte (node_modules, linked in after the build, is a symlink,
    // and .grader/ the grader's compile cache, written by later tests' runs).
    const onDisk = globSync("**", {
      cwd: bundle,
      dot: true,
      followSymbolicLinks: false,
      ignore: [".grader/**"],
    }).sort();
    expect(Object.keys(files).sort()).toEqual(onDisk);
    for (const name of onDisk) {
      expect(Buffer.from(files[name] ?? []).equals(readFileSync(join(bundle, name))), name).toBe(
        true,
      );
    }
    const modes = unixModes(zip);
    expect(modes.size).toBe(onDisk.length);
    expect((modes.get("run_autograder") ?? 0) & 0o111).not.toBe(0);
    expect((modes.get("setup.sh") ?? 0) & 0o111).not.toBe(0);
    expect(modes.get("grader/cli.ts")).toBe(
      0o100000 | (statSync(join(bundle, "grader/cli.ts")).mode & 0o777),
    );
    expect(onDisk).toContain("grader/cli.ts");
    expect(onDisk).toContain(`private-cases/${privateName}/01-idle-again/case.json`);
    expect(onDisk.some((name) => name.startsWith("solution/"))).toBe(false);
    expect(onDisk.some((name) => name.startsWith("node_modules/"))).toBe(false);
    const unzip = spawnSync("unzip", ["-tq", `${bundle}.zip`], { encoding: "utf8" });
    if (unzip.error === undefined) expect(unzip.status, unzip.stdout).toBe(0);
  });

  it("a bundle built with --types: run_autograder grades with --types (baked in); setup.sh stays valid bash", () => {
    // The bundle's own scripts, with --types baked in as gradescope-bundle --types bakes it.
    const work = mkdtempSync(join(tmpdir(), "kit-gradescope-types-"));
    const stand = join(work, "bin");
    mkdirSync(stand);
    writeFileSync(join(stand, "npm"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${work}/args\n`, {
      mode: 0o755,
    });
    try {
      const script = join(work, "run_autograder");
      const text = readFileSync(join(bundle, "run_autograder"), "utf8");
      writeFileSync(script, bakeOptions(text, "run_autograder", { types: true }), { mode: 0o755 });
      const submission = join(work, "submission");
      cpSync(join(ROOT, "solution"), submission, { recursive: true });
      const result = run(script, [], work, {
        KIT_ROOT: bundle,
        SUBMISSION_DIR: submission,
        RESULTS_DIR: join(work, "results"),
        PATH: `${stand}:${process.env.PATH ?? ""}`,
      });
      // The stand-in grades nothing: run_autograder says so, after passing the arguments.
      expect(result.status, result.stderr).toBe(0);
      const args = readFileSync(join(work, "args"), "utf8").split("\n").slice(0, -1);
      expect(args.slice(0, 6)).toEqual(["run", "-s", "grade", "--", submission, "--types"]);
      expect(args.filter((a) => a === "--types")).toHaveLength(1);
      // Built without --types (the bundle above): no --types (the two-file upload's arguments).
      expect(readFileSync(join(bundle, "run_autograder"), "utf8")).toContain("\nGRADE_TYPES=0\n");
      const setup = bakeOptions(readFileSync(join(bundle, "setup.sh"), "utf8"), "setup.sh", {
        types: true,
      });
      const check = run("bash", ["-n", "-c", setup], work);
      expect(check.status, check.stderr).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("setup.sh and run_autograder are valid bash (setup.sh runs only on Gradescope)", () => {
    for (const file of ["setup.sh", "run_autograder"]) {
      const check = run("bash", ["-n", join(bundle, file)], bundle);
      expect(check.status, check.stderr).toBe(0);
    }
    expect(readFileSync(join(bundle, "setup.sh"), "utf8")).toContain("npm ci");
  });

  /** Runs a bundle's run_autograder on an upload; returns its output and results.json. */
  function autograde(
    upload: (dir: string) => void,
    kit: string = bundle,
    env: NodeJS.ProcessEnv = {},
  ) {
    const work = mkdtempSync(join(tmpdir(), "kit-autograde-"));
    const submission = join(work, "submission");
    mkdirSync(submission);
    upload(submission);
    const results = join(work, "results");
    const result = run(join(kit, "run_autograder"), [], work, {
      KIT_ROOT: kit,
      SUBMISSION_DIR: submission,
      RESULTS_DIR: results,
      ...env,
    });
    const json = JSON.parse(
      readFileSync(join(results, "results.json"), "utf8"),
    ) as GradescopeResults & { score?: number };
    return { result, json };
  }

  function expectFullMarks(json: GradescopeResults): void {
    validateGradescope(json);
    expect(validateGradescope.errors ?? []).toEqual([]);
    expect(json.tests).toHaveLength(builtInCases.length + 1);
    expect(json.tests.every((t) => t.status === "passed" && t.score === t.max_score)).toBe(true);
    const secret = json.tests.filter((t) => t.name.startsWith(`${privateName}/`));
    expect(secret.map((t) => t.visibility)).toEqual(["after_published"]);
  }

  /**
   * The one full grading of the bundle: an upload of the handout folder (src/main.ts) graded by
   * a bundle's run_autograder, private cases included, in full marks; plain-text formats. `graded`
   * is that run: autograde's, or the README's local recipe's.
   */
  function expectFolderUploadGraded(graded: {
    result: SpawnSyncReturns<string>;
    json: GradescopeResults;
  }): void {
    const { result, json } = graded;
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("Upload: a submission folder (src/main.ts at the top).");
    expect(result.stdout).toContain(`✓ ${privateName}/01-idle-again`);
    expect(result.stdout).toMatch(/\nRequired: {2}(\d+)\/\1 points/);
    expectFullMarks(json);
    // The instructor-only standard output shows the private case in full: its answer too.
    const answer = JSON.parse(
      readFileSync(join(CASES_DIR, "07-idle-members", "expected.json"), "utf8"),
    ) as { output: unknown };
    expect(result.stdout).toMatch(
      /\nPrivate cases of \S+, in full: for the instructor only \(their input and answers\)\n/,
    );
    expect(result.stdout).toContain(`      expected: ${JSON.stringify(answer.output)}\n`);
    expect(JSON.stringify(json)).not.toContain(JSON.stringify(answer.output));
    // Plain-text formats; the output's total leaves out the private case until it is shown.
    expect([json.output_format, json.test_output_format, json.test_name_format]).toEqual([
      "text",
      "text",
      "text",
    ]);
    const required = builtInCases
      .map(
        (name) =>
          JSON.parse(readFileSync(join(CASES_DIR, name, "case.json"), "utf8")) as {
            required: boolean;
            points: number;
          },
      )
      .filter((c) => c.required);
    const points = required.reduce((sum, c) => sum + c.points, 0);
    // The private case is a copy of 07-idle-members: 2 required points.
    expect(json.output).toContain(
      `\nRequired:  ${points}/${points} points, ${required.length} of ${required.length} cases passed (the cases shown now)\n`,
    );
    expect(json.output).toMatch(
      /\nPrivate cases: 1 \(2 required points, 0 extension points\), not counted above, shown when the grades are published\.$/,
    );
    // The top-level score: the total under the bundle's policy (bonus: every required case
    // passed, so every extension point on top of the required ones, the private case's 2 included).
    expect(json.score).toBe(points + 2 + casePoints(false));
  }

  it("an upload of just the student files (subscription.ts, range-assignor.ts, assignment.ts): copied over a fresh starter, graded with the private cases", () => {
    // npm stands in on PATH: it keeps the grader's arguments and the folder it was given (a
    // temporary copy run_autograder removes), then grades that folder on one case. What the
    // grader makes of a folder is the folder upload's business (below); here, what is graded.
    const stand = mkdtempSync(join(tmpdir(), "kit-npm-stand-in-"));
    const realNpm = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
    expect(realNpm).not.toBe("");
    writeFileSync(
      join(stand, "npm"),
      `#!/bin/sh
set -e
printf '%s\\n' "$@" > ${stand}/args
cp -R "$5" ${stand}/graded
exec ${realNpm} "$@" --only ${ONE_CASE}
`,
      { mode: 0o755 },
    );
    try {
      const { result, json } = autograde(
        (dir) => {
          mkdirSync(join(dir, "src"));
          cpSync(join(ROOT, "solution", "src", "subscription.ts"), join(dir, "subscription.ts"));
          cpSync(
            join(ROOT, "solution", "src", "range-assignor.ts"),
            join(dir, "src", "range-assignor.ts"),
          );
          cpSync(join(ROOT, "solution", "src", "assignment.ts"), join(dir, "src", "assignment.ts"));
        },
        bundle,
        { PATH: `${stand}:${process.env.PATH ?? ""}` },
      );
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        "Upload: subscription.ts copied over the starter's src/subscription.ts.\n",
      );
      expect(result.stdout).toContain(
        "Upload: src/range-assignor.ts copied over the starter's src/range-assignor.ts.\n",
      );
      expect(result.stdout).toContain(
        "Upload: src/assignment.ts copied over the starter's src/assignment.ts.\n",
      );
      const args = readFileSync(join(stand, "args"), "utf8").split("\n").slice(0, -1);
      expect(args).toEqual([
        "run",
        "-s",
        "grade",
        "--",
        expect.stringMatching(/^\/.*\/submission$/),
        "--fixtures",
        join(bundle, "private-cases", privateName),
        "--extension",
        "bonus",
        "--show-private",
        expect.stringMatching(/^\/.*\/private-cases\.txt$/),
        "--format",
        expect.stringMatching(/^gradescope=\/.*\/results\/results\.json$/),
        "--format",
        "text",
      ]);
      // The starter's files, with the three uploaded ones in place of its stubs.
      const graded = join(stand, "graded");
      expect(readdirSync(join(graded, "src")).sort()).toEqual(
        readdirSync(join(ROOT, "starter", "src")).sort(),
      );
      for (const name of readdirSync(join(ROOT, "starter", "src"))) {
        const from = ["subscription.ts", "range-assignor.ts", "assignment.ts"].includes(name)
          ? join(ROOT, "solution", "src", name)
          : join(ROOT, "starter", "src", name);
        expect(readFileSync(join(graded, "src", name)).equals(readFileSync(from)), name).toBe(true);
      }
      validateGradescope(json);
      expect(validateGradescope.errors ?? []).toEqual([]);
      expect(
        json.tests.map((t) => [t.name.split(":")[0], t.status, t.score === t.max_score]),
      ).toEqual([[ONE_CASE, "passed", true]]);
    } finally {
      rmSync(stand, { recursive: true, force: true });
    }
  });

  it("an upload with nothing to grade gets 0 and says what to upload", () => {
    const { result, json } = autograde((dir) => writeFileSync(join(dir, "notes.txt"), "hello"));
    expect(result.status).toBe(0);
    validateGradescope(json);
    expect(validateGradescope.errors ?? []).toEqual([]);
    expect(json.score).toBe(0);
    expect(json.output).toMatch(
      /^Nothing to grade: upload subscription\.ts and range-assignor\.ts/,
    );
    // The message can quote the upload's file names: plain text, not Gradescope's HTML default.
    expect(json.output_format).toBe("text");
  });

  it("setup.sh --permissions-only: the answers readable by root alone; an upload of the handout folder (src/main.ts) graded in full, private cases included; text formats", () => {
    const script = join(bundle, "setup.sh");
    if (process.getuid?.() !== 0) {
      const refused = run("bash", [script, "--permissions-only"], bundle);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain("setup.sh: run it as root");
      expectFolderUploadGraded(
        autograde((dir) => cpSync(join(ROOT, "solution"), dir, { recursive: true }), bundle),
      );
      return;
    }
    // A copy, with every folder above it open to others (mkdtemp makes 0700 folders), so what
    // another identity cannot read it cannot read because of setup.sh alone.
    const work = mkdtempSync(join(tmpdir(), "kit-locked-"));
    chmodSync(work, 0o755);
    const locked = join(work, "autograder");
    cpSync(bundle, locked, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !source.includes(`${bundle}/.grader`),
    });
    try {
      // The README's recipe from `cd ../autograder` on, typed in a kit beside the bundle
      // (work/kit), a handout folder in work/alice; its first command built `bundle` above.
      const recipe = localRecipe();
      expect(recipe[0]).toBe(
        "npm run gradescope-bundle -- ../autograder --fixtures ../private-cases",
      );
      expect(recipe[1]).toBe("cd ../autograder");
      expect(recipe).toContain("npm ci --omit=dev");
      mkdirSync(join(work, "kit"));
      cpSync(join(ROOT, "solution"), join(work, "alice"), { recursive: true });
      // No download here: npm ci --omit=dev is the repository's packages, linked in (the
      // copy has the link already); every other command runs as written, sudo as on a runner.
      const npmCi = `npm() { if [ "$*" = "ci --omit=dev" ]; then test -e node_modules; else command npm "$@"; fi; }`;
      const result = run(
        "bash",
        ["-ec", [npmCi, ...recipe.slice(1)].join("\n")],
        join(work, "kit"),
        {
          PATH: pathWithSudo(),
        },
      );
      const results = join(work, "autograder-run", "results", "results.json");
      const recipeRun = {
        result,
        json: JSON.parse(readFileSync(results, "utf8")) as GradescopeResults,
      };
      const notRoot = spawnSync("find", [locked, "-not", "-user", "0"], { encoding: "utf8" });
      expect(notRoot.stdout).toBe("");
      /** `cat FILE` as nobody (uid and gid 65534, no groups): its exit status. */
      const nobodyReads = (file: string) =>
        spawnSync(
          "setpriv",
          ["--reuid=65534", "--regid=65534", "--clear-groups", "cat", join(locked, file)],
          { encoding: "utf8" },
        );
      for (const answer of [
        "fixtures/cases/07-idle-members/expected.json",
        `private-cases/${privateName}/01-idle-again/expected.json`,
        "grader/diagnose/diagnosis.json",
        "grader/instructor/mutants/mutants.ts",
      ]) {
        const read = nobodyReads(answer);
        expect(read.status, answer).toBe(1);
        expect(read.stderr, answer).toContain("Permission denied");
      }
      // What a run identity needs (the build worker) and the rest of the kit stay readable.
      for (const open of ["LESSON.md", "grader/run/build-worker/build-worker.mjs"]) {
        const read = nobodyReads(open);
        expect(read.status, `${open}: ${read.stderr}`).toBe(0);
      }
      const writable = spawnSync(
        "setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", "test", "-w", join(locked, "grader")],
        { encoding: "utf8" },
      );
      expect(writable.status).toBe(1);

      expectFolderUploadGraded(recipeRun);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
