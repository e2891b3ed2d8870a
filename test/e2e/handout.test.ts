// The student handout, built with `npm run handout -- OUT` through npm as instructors will: it
// holds exactly the files scripts/handout.ts lists and no line of the reference, and it works on
// its own. Installed once from its lockfile in a temporary folder, each submission is graded once:
// its workflow's grading step, run as GitHub runs it, on the untouched src/ (0, every case "not
// implemented", the kit's stamp) and on the reference's three files copied in (full marks); and a
// copy with a catalogued mistake, on a case that shows it, named from diagnosis.json (the handout
// has no mutants). Packages come from the npm cache when they can. `npm run upgrade-handout` is run
// on repositories made from an older copy of the built handout (before it is installed).
import type { SpawnSyncReturns } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { globSync } from "tinyglobby";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureHash } from "../../grader/cases/hash.ts";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR, kitVersion } from "../../grader/kit.ts";
import { handoutFiles } from "../../scripts/handout.ts";
import { graded } from "../helpers/graded.ts";
import type { ResultsJson } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";
import { pathWithSudo, run } from "../helpers/shell.ts";

/** The comment placed in each reference body (solution/src) to prove the body never ships. */
const CANARIES = [
  "// canary: reference body of decodeSubscription — must never appear in a handout",
  "// canary: reference body of assignRange — must never appear in a handout",
];
/**
 * Names only the reference's rack-aware path has (solution/src/range-assignor.ts): the starter's
 * assignRange is a stub, so none may appear anywhere in a handout.
 */
const REFERENCE_ONLY_NAMES = [
  "assignWithRackMatching",
  "assignCoPartitionedWithRackMatching",
  "TopicAssignmentState",
  "useRackAwareAssignment",
  "assignRackMatched",
  "assignLeftovers",
];
/** The grader's folder for what uses the reference: it stays in the instructor kit. */
const INSTRUCTOR_ONLY = ["grader/instructor/"];
/** Packages of the kit that grading does not need, so the handout must not install them. */
const NOT_FOR_STUDENTS = [
  "vitest",
  "vite",
  "kafkajs",
  "eslint",
  "typescript-eslint",
  "prettier",
  "playwright-core",
  "@sparticuz/chromium",
  "xmllint-wasm",
  "fast-check",
  "fast-xml-parser",
  "@actions/core",
  "yaml",
];

/** The temporary folder everything is built in, and the handout in it. */
const work = mkdtempSync(join(tmpdir(), "kit-handout-"));
const out = join(work, "handout");

/**
 * Every file under `dir`, relative to it, with `/`, sorted (code unit order); what is inside a
 * node_modules folder left out (a file named node_modules stays). Dot files count; symbolic links
 * do not.
 */
function filesUnder(dir: string): string[] {
  return globSync("**", {
    cwd: dir,
    dot: true,
    followSymbolicLinks: false,
    // Not `**/node_modules/**`, which would also drop a file named node_modules.
    ignore: ["**/node_modules/**/*"],
  }).sort();
}

const fold = (line: string) => line.trim().replace(/\s+/g, " ");
const foldText = (text: string) => text.split(/\r?\n/).map(fold).join("\n");

/**
 * The reference's own lines: every line of solution/ that is 40 characters or more with white
 * space folded and that no file of starter/ or of the grader the handout ships (grader/ without
 * the instructor-only folders) contains.
 */
function referenceOnlyLines(): Set<string> {
  const allowed = [
    ...filesUnder(join(ROOT, "starter")).map((rel) => join(ROOT, "starter", rel)),
    ...filesUnder(join(ROOT, "grader"))
      .filter((rel) => !INSTRUCTOR_ONLY.some((dir) => `grader/${rel}`.startsWith(dir)))
      .map((rel) => join(ROOT, "grader", rel)),
  ].map((path) => foldText(readFileSync(path, "utf8")));
  const lines = new Set<string>();
  for (const rel of filesUnder(join(ROOT, "solution"))) {
    for (const raw of readFileSync(join(ROOT, "solution", rel), "utf8").split(/\r?\n/)) {
      const line = fold(raw);
      if (line.length >= 40 && !allowed.some((text) => text.includes(line))) lines.add(line);
    }
  }
  return lines;
}

/** A copy of a handout folder (its node_modules linked, not copied), as a student's clone. */
function cloneOf(handout: string, name: string): string {
  const dir = join(handout, "..", name);
  cpSync(handout, dir, {
    recursive: true,
    filter: (src) => !src.startsWith(join(handout, "node_modules")),
  });
  symlinkSync(join(handout, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** A clone of the handout with the reference's three files copied into src/ (made once). */
function withReference(): string {
  const dir = join(out, "..", "with-reference");
  if (existsSync(dir)) return dir;
  const clone = cloneOf(out, "with-reference");
  for (const name of ["subscription.ts", "range-assignor.ts", "assignment.ts"]) {
    cpSync(join(ROOT, "solution", "src", name), join(clone, "src", name));
  }
  return clone;
}

/**
 * `npm run -s grade -- ARGS` in a handout: the text report, and the JSON results written on the
 * side.
 */
function gradeHandout(
  dir: string,
  args: string[],
): { run: SpawnSyncReturns<string>; results: ResultsJson } {
  const file = join(dir, "..", `${dir.split("/").pop() ?? "out"}-results.json`);
  const result = run("npm", ["run", "-s", "grade", "--", ...args, "--format", `json=${file}`], dir);
  const results = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as ResultsJson)
    : ({ cases: [] } as unknown as ResultsJson);
  return { run: result, results };
}

/** The built-in case on which the locale-order mistake alone is named (diagnosis.json). */
const LOCALE_ORDER_CASE = "06-uppercase-before-lowercase";

/** The stamp a text report prints on its first line: `kit 1.0.0, fixtures <hash>`. */
function printedStamp(text: string): string | undefined {
  return /^Grading [^\n]*\((kit [^,]+, fixtures [0-9a-f]+)\)$/m.exec(text)?.[1];
}

/** The rows of a job summary's case table: mark, case (with its title), points, result. */
function summaryRows(summary: string): { mark: string; points: string; result: string }[] {
  return [...summary.matchAll(/^\| (✅|❌|⚠️|➖) \| [^|]+ \| (\d+\/\d+) \| ([^|]+) \|$/gmu)].map(
    ([, mark = "", points = "", result = ""]) => ({ mark, points, result }),
  );
}

/** `lines` as the github format prints them: in the text report, then again after the annotations. */
const twice = <T>(lines: T[]): T[] => [...lines, ...lines];

/** The score lines a text report ends with. */
const scoreLines = (text: string) =>
  text.split("\n").filter((line) => /^(Required|Extension):/.test(line));

const listed = handoutFiles().map((f) => f.path);
const cases = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas());
const kitStamp = { version: kitVersion(), fixtures: fixtureHash(cases) };
const scores: string[] = [];
let built: SpawnSyncReturns<string>;

beforeAll(() => {
  built = run("npm", ["run", "-s", "handout", "--", out], ROOT);
}, 120_000);

afterAll(() => {
  if (scores.length > 0) console.log(`handout grading runs:\n${scores.join("\n")}`);
  rmSync(work, { recursive: true, force: true });
});

describe("npm run handout -- OUT: what the handout holds", () => {
  it("writes exactly the files scripts/handout.ts lists", () => {
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toContain(`Student handout: kit ${kitStamp.version}`);
    expect(filesUnder(out)).toEqual(listed);
    for (const path of [
      "README.md",
      "LESSON.md",
      "LICENSE",
      ".gitignore",
      "tsconfig.json",
      "package.json",
      "package-lock.json",
      "kit-stamp.json",
      ".github/workflows/grade.yml",
      "src/main.ts",
      "src/subscription.ts",
      "src/range-assignor.ts",
      "src/input-validator.js",
      "src/input-validator.d.ts",
      "grader/cli.ts",
      "grader/diagnose/diagnosis.json",
      "fixtures/schema/case.schema.json",
      "fixtures/cases/07-idle-members/expected.json",
    ]) {
      expect(listed, path).toContain(path);
    }
    for (const prefix of [
      "solution/",
      "starter/",
      "test/",
      "scripts/",
      "templates/",
      "handout/",
      "fixtures/recipes/",
      ...INSTRUCTOR_ONLY,
    ]) {
      expect(
        listed.filter((p) => p.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    // The cases' recipes stay in the kit: the handout ships their JSON only.
    expect(listed.filter((p) => p.endsWith("/recipe.ts"))).toEqual([]);
  });

  it("src/ is the starter, byte for byte, and every built-in case ships with its answer", () => {
    for (const name of readdirSync(join(ROOT, "starter", "src"))) {
      expect(readFileSync(join(out, "src", name)), name).toEqual(
        readFileSync(join(ROOT, "starter", "src", name)),
      );
    }
    for (const c of cases) {
      for (const file of ["case.json", "input.json", "expected.json"]) {
        expect(listed, `${c.id}/${file}`).toContain(`fixtures/cases/${c.id}/${file}`);
      }
    }
  });

  it("no file contains a canary of the reference or a line only the reference has", () => {
    const reference = filesUnder(join(ROOT, "solution"))
      .map((rel) => readFileSync(join(ROOT, "solution", rel), "utf8"))
      .join("\n");
    for (const canary of CANARIES) expect(reference, "canary in solution/src").toContain(canary);
    const secret = referenceOnlyLines();
    for (const canary of CANARIES) expect(secret.has(canary)).toBe(true);
    for (const name of REFERENCE_ONLY_NAMES) expect(reference, "in solution/src").toContain(name);
    expect(secret.size).toBeGreaterThan(30);

    const found: string[] = [];
    for (const path of filesUnder(out)) {
      const raw = readFileSync(join(out, path), "utf8");
      for (const canary of CANARIES) if (raw.includes(canary)) found.push(`${path}: canary`);
      for (const name of REFERENCE_ONLY_NAMES)
        if (raw.includes(name)) found.push(`${path}: ${name}`);
      const text = foldText(raw);
      for (const line of secret) if (text.includes(line)) found.push(`${path}: ${line}`);
    }
    expect(found).toEqual([]);
  });

  it("package.json and the lockfile hold only what grading needs, at the kit's versions", () => {
    const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8")) as {
      name: string;
      version: string;
      private: boolean;
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      allowScripts?: Record<string, boolean>;
    };
    const kitPkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg).toMatchObject({ version: kitStamp.version, private: true, type: "module" });
    expect(pkg.scripts.grade).toBe(kitPkg.scripts.grade);
    // What grading runs on, and nothing the shipped code does not import (tsx runs the grader).
    expect(Object.keys(pkg.dependencies)).toEqual(
      expect.arrayContaining(["ajv", "diff", "esbuild", "picocolors", "tsx"]),
    );
    const shippedCode = filesUnder(out)
      .filter((p) => /^(grader|src)\/.*\.(ts|js)$/.test(p))
      .map((p) => readFileSync(join(out, p), "utf8"))
      .join("\n");
    for (const name of Object.keys(pkg.dependencies)) {
      if (name === "tsx") continue;
      expect(shippedCode, `${name} is imported by grader/ or src/`).toMatch(
        new RegExp(`(from |import\\()"${name}(/[^"]*)?"`),
      );
    }
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(["@types/node", "typescript"]);
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect(version, name).toBe(kitPkg.dependencies[name] ?? kitPkg.devDependencies[name]);
    }
    const lock = JSON.parse(readFileSync(join(out, "package-lock.json"), "utf8")) as {
      name: string;
      packages: Record<string, { dependencies?: Record<string, string>; hasInstallScript?: true }>;
    };
    expect(lock.name).toBe(pkg.name);
    expect(lock.packages[""]?.dependencies).toEqual(pkg.dependencies);
    // npm 11 asks a student about no install script: esbuild's, the only one, is approved.
    expect(
      Object.keys(lock.packages).filter((path) => lock.packages[path]?.hasInstallScript),
    ).toEqual(["node_modules/esbuild"]);
    expect(pkg.allowScripts).toEqual({ esbuild: true });
    for (const name of NOT_FOR_STUDENTS) {
      expect(Object.keys(lock.packages), name).not.toContain(`node_modules/${name}`);
    }
  });

  it("kit-stamp.json records the kit version and the case set's hash the grader computes", () => {
    const stamp = JSON.parse(readFileSync(join(out, "kit-stamp.json"), "utf8")) as {
      kit: { version: string; fixtures: string };
      cases: number;
    };
    expect(stamp.kit).toEqual(kitStamp);
    expect(stamp.cases).toBe(cases.length);
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
      `kit ${kitStamp.version}, fixtures ${kitStamp.fixtures}`,
    );
  });

  it("refuses to write a handout when a listed file quotes the reference", () => {
    // A copy of the kit whose LESSON.md quotes one line of a reference body.
    const kit = join(work, "kit-copy");
    for (const entry of readdirSync(ROOT)) {
      if ([".git", "node_modules", ".tmp", "test"].includes(entry)) continue;
      cpSync(join(ROOT, entry), join(kit, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(kit, "node_modules"));
    const quoted = [...referenceOnlyLines()].find((line) => !line.includes("canary"));
    expect(quoted).toBeDefined();
    writeFileSync(
      join(kit, "LESSON.md"),
      `${readFileSync(join(kit, "LESSON.md"), "utf8")}\n\`\`\`ts\n    ${quoted ?? ""}\n\`\`\`\n`,
    );
    const leaky = join(work, "leaky-handout");
    const result = run("npm", ["run", "-s", "handout", "--", leaky], kit);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain("LESSON.md contains a line of the reference");
    expect(existsSync(leaky)).toBe(false);
  }, 60_000);
});

// npm run upgrade-handout, through npm from another folder as an instructor types it, on student
// repositories made from an older copy of this handout: the copy lacks the cases after 46 (47-71) and
// the rack figure, has a grader file the new one dropped, another src/main.ts and starter
// range-assignor.ts, and the stamp of kit 1.1.0 over its 46 cases.
describe("npm run upgrade-handout: a previous version's repositories with a student's work in them", () => {
  const old = join(work, "handout-old");
  const repos = join(work, "repos");
  const LATER_CASES = /^fixtures\/cases\/(4[7-9]|5[0-9]|6[0-9]|7[01])-/;
  const NOTES = "what I learned\n";
  const upgrade = (args: string[]) =>
    run("npm", ["--prefix", ROOT, "run", "-s", "upgrade-handout", "--", ...args], work);
  let dropped: string[] = [];

  beforeAll(() => {
    cpSync(out, old, { recursive: true, filter: (src) => !src.includes("node_modules") });
    dropped = listed.filter((p) => LATER_CASES.test(p) || p === "figures/rack-aware-7-3.svg");
    expect(dropped.length).toBe(25 * 3 + 1);
    for (const path of dropped) rmSync(join(old, path));
    for (const path of listed.filter((p) => LATER_CASES.test(p))) {
      rmSync(dirname(join(old, path)), { recursive: true, force: true });
    }
    writeFileSync(join(old, "grader", "dropped-in-1.2.ts"), "export {};\n");
    for (const path of ["src/main.ts", "src/range-assignor.ts"]) {
      writeFileSync(join(old, path), `// 1.1\n${readFileSync(join(out, path), "utf8")}`);
    }
    const oldCases = loadCases(join(old, "fixtures", "cases"), [], new FixtureSchemas());
    expect(oldCases).toHaveLength(46);
    const oldStamp = { version: "1.1.0", fixtures: fixtureHash(oldCases) };
    writeFileSync(
      join(old, "kit-stamp.json"),
      `${JSON.stringify({ kit: oldStamp, cases: 46, builtFrom: null }, null, 2)}\n`,
    );
    const readme = readFileSync(join(out, "README.md"), "utf8");
    const stampText = `kit ${kitStamp.version}, fixtures ${kitStamp.fixtures}`;
    expect(readme).toContain(stampText);
    writeFileSync(
      join(old, "README.md"),
      readme.replaceAll(stampText, `kit 1.1.0, fixtures ${oldStamp.fixtures}`),
    );
    // Two students' repositories from the old handout: the reference's two files and notes;
    // bob also wrote in README.md, which the new handout changes.
    for (const name of ["alice", "bob"]) {
      cpSync(old, join(repos, name), { recursive: true });
      for (const file of ["subscription.ts", "range-assignor.ts"]) {
        cpSync(join(ROOT, "solution", "src", file), join(repos, name, "src", file));
      }
      writeFileSync(join(repos, name, "NOTES.md"), NOTES);
    }
    writeFileSync(join(repos, "bob", "README.md"), `${readme}\nbob's line\n`);
  });

  it("upgrades the repository the student did not touch the kit in, reports the other's conflict (exit 1, JSON)", () => {
    const result = upgrade([
      "--from",
      "handout-old",
      "--to",
      "handout",
      "--json",
      "repos/alice",
      "repos/bob",
    ]);
    expect(result.status, result.stderr).toBe(1);
    const summary = JSON.parse(result.stdout) as {
      from: unknown;
      to: unknown;
      repositories: {
        repository: string;
        status: string;
        added: string[];
        updated: string[];
        removed: string[];
        conflicts: { path: string; reason: string }[];
        starterChanged: string[];
      }[];
    };
    expect(summary.to).toEqual(kitStamp);
    const [alice, bob] = summary.repositories;
    expect(alice).toMatchObject({
      repository: "repos/alice",
      status: "upgraded",
      added: [...dropped].sort(),
      updated: ["README.md", "src/main.ts", "kit-stamp.json"],
      removed: ["grader/dropped-in-1.2.ts"],
      conflicts: [],
      starterChanged: ["src/range-assignor.ts"],
    });
    expect(bob).toMatchObject({
      repository: "repos/bob",
      status: "conflicts",
      conflicts: [
        {
          path: "README.md",
          reason: `changed in the repository, and ${kitStamp.version} changes it`,
        },
      ],
    });
    // alice: exactly the new handout's files, her two files and her notes.
    expect(filesUnder(join(repos, "alice"))).toEqual([...listed, "NOTES.md"].sort());
    for (const path of listed) {
      const expected = ["src/subscription.ts", "src/range-assignor.ts"].includes(path)
        ? readFileSync(join(ROOT, "solution", path))
        : readFileSync(join(out, path));
      expect(readFileSync(join(repos, "alice", path)), path).toEqual(expected);
    }
    expect(readFileSync(join(repos, "alice", "NOTES.md"), "utf8")).toBe(NOTES);
    // bob: README.md as he wrote it, the stamp still the old one.
    expect(readFileSync(join(repos, "bob", "README.md"), "utf8")).toContain("bob's line");
    expect(readFileSync(join(repos, "bob", "kit-stamp.json"), "utf8")).toContain('"1.1.0"');
  }, 60_000);

  // The first run wrote bob's other files, so only the stamp is left to write.
  it("finishes bob with --keep README.md, and finds alice already done (exit 0)", () => {
    const args = ["--from", "handout-old", "--to", "handout", "--keep", "README.md"];
    const result = upgrade([...args, "repos/bob", "repos/alice"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      `repos/bob: upgraded 1.1.0 -> ${kitStamp.version}: 1 updated, 0 added, 0 removed`,
      "  note src/range-assignor.ts: the starter's version changed; the student's is kept",
      `repos/alice: already at ${kitStamp.version}`,
      "",
    ]);
    expect(readFileSync(join(repos, "bob", "kit-stamp.json"), "utf8")).toBe(
      readFileSync(join(out, "kit-stamp.json"), "utf8"),
    );
  }, 60_000);

  it("refuses a repository of another version, exit 2, and writes nothing to it", () => {
    const result = upgrade(["--from", "handout-old", "--to", "handout", "handout-old/grader"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^handout-old\/grader: refused, no kit-stamp\.json/);
  }, 60_000);
});

describe("the handout on its own: installed from its lockfile, graded through npm", () => {
  let installed: SpawnSyncReturns<string>;
  beforeAll(() => {
    // Offline from the npm cache when it has every package; esbuild's binary is its optional
    // dependency package, so no install script is needed.
    const flags = ["--ignore-scripts", "--no-audit", "--no-fund"];
    installed = run("npm", ["ci", "--offline", ...flags], out);
    if (installed.status !== 0) installed = run("npm", ["ci", "--prefer-offline", ...flags], out);
  }, 180_000);

  it("installs with npm ci, without the kit's development packages", () => {
    expect(installed.status, installed.stderr).toBe(0);
    expect(existsSync(join(out, "node_modules", "tsx"))).toBe(true);
    for (const name of NOT_FOR_STUDENTS) {
      expect(existsSync(join(out, "node_modules", name)), name).toBe(false);
    }
  });

  it("names a catalogued mistake from the data file, without any mutant", () => {
    expect(existsSync(join(out, "grader", "instructor"))).toBe(false);
    const clone = cloneOf(out, "with-locale-order");
    cpSync(join(ROOT, "solution", "src", "subscription.ts"), join(clone, "src", "subscription.ts"));
    const source = readFileSync(join(ROOT, "solution", "src", "range-assignor.ts"), "utf8");
    const comparison = "return a < b ? -1 : a > b ? 1 : 0;";
    expect(source.split(comparison)).toHaveLength(2);
    writeFileSync(
      join(clone, "src", "range-assignor.ts"),
      source.replace(comparison, "return a.localeCompare(b);"),
    );
    // One case shows the mistake: uppercase ids, lowercase ids and "_" (LESSON.md#member-order).
    const { run: result, results } = gradeHandout(clone, ["--only", LOCALE_ORDER_CASE]);
    scores.push(`a copy with localeCompare:\n  ${scoreLines(result.stdout).join("\n  ")}`);
    expect(result.status, result.stderr).toBe(1);
    expect(results.cases.map((c) => [c.id, c.status, c.mistake])).toEqual([
      [LOCALE_ORDER_CASE, "fail", "locale-order"],
    ]);
    expect(result.stdout).toContain("(locale-order)");
  }, 120_000);

  it("npm run typecheck accepts the untouched src/ with the handout's tsconfig.json", () => {
    const result = run("npm", ["run", "-s", "typecheck"], out);
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  }, 120_000);

  describe(".github/workflows/grade.yml", () => {
    interface Step {
      uses?: string;
      run?: string;
      with?: Record<string, string | number>;
    }
    interface Workflow {
      on: Record<string, unknown>;
      jobs: Record<string, { "runs-on": string; steps: Step[] }>;
    }
    const workflow = () =>
      parseYaml(readFileSync(join(out, ".github", "workflows", "grade.yml"), "utf8")) as Workflow;

    it("grades on push and pull request: checkout, Node.js 24 with npm's cache, npm ci, grade as root", () => {
      const { on, jobs } = workflow();
      expect(Object.keys(on).sort()).toEqual(["pull_request", "push"]);
      const steps = Object.values(jobs)[0]?.steps ?? [];
      expect(steps.map((s) => s.uses ?? s.run)).toEqual([
        "actions/checkout@v5",
        "actions/setup-node@v5",
        "npm ci",
        'sudo -E env "PATH=$PATH" npm run -s grade -- --format github',
      ]);
      expect(steps[1]?.with).toEqual({ "node-version": 24, cache: "npm" });
    });

    /** Runs the grading step's command as GitHub runs a `run:` step: `bash -e {0}`. */
    function runGradingStep(dir: string) {
      const command = workflow()
        .jobs.grade?.steps.map((s) => s.run)
        .find((r) => r?.includes("npm run -s grade"));
      expect(command).toBeDefined();
      const script = join(dir, "..", `${dir.split("/").pop() ?? "out"}-step.sh`);
      const summary = join(dir, "..", `${dir.split("/").pop() ?? "out"}-summary.md`);
      writeFileSync(script, `${command ?? ""}\n`);
      writeFileSync(summary, "");
      const result = run("bash", ["-e", script], dir, {
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_STEP_SUMMARY: summary,
        PATH: pathWithSudo(),
      });
      return { result, summary: readFileSync(summary, "utf8") };
    }

    // The step's command graded once on each handout: the untouched src/ and the reference's
    // files. Its log holds the text report, so the same run shows what `npm run grade` prints.
    it("its grading command fails the job on the untouched src/: 0 points, every case not implemented, with guidance and the kit's stamp", () => {
      const { result, summary } = runGradingStep(out);
      scores.push(`untouched src/:\n  ${scoreLines(result.stdout).join("\n  ")}`);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toContain("::group::Grading src: every case\n");
      expect(result.stdout).toMatch(new RegExp(`^Grading src: ${cases.length} cases `, "m"));
      expect(result.stdout).toContain("start with decodeSubscription in src/subscription.ts");
      expect(result.stdout).toMatch(/^::error title=01-[\w-]+ \(0\/\d+\)::not implemented yet: /m);
      const required = cases.filter((c) => c.required).length;
      expect(scoreLines(result.stdout)).toEqual(
        twice([
          expect.stringMatching(
            new RegExp(`^Required: {2}0/\\d+ points, 0 of ${required} cases passed$`),
          ),
          expect.stringMatching(
            new RegExp(`^Extension: 0/\\d+ points, 0 of ${cases.length - required} cases passed$`),
          ),
        ]),
      );
      // The stamp: what the instructor kit computes for the same cases, and prints.
      const stamp = `kit ${kitStamp.version}, fixtures ${kitStamp.fixtures}`;
      expect(printedStamp(result.stdout)).toBe(stamp);
      expect(printedStamp(graded("reference").text)).toBe(stamp);
      expect(summary).toMatch(/^## Grading src: 0\/\d+ required points/m);
      expect(summary).toContain(kitStamp.fixtures);
      const rows = summaryRows(summary);
      expect(rows).toHaveLength(cases.length);
      for (const row of rows) {
        expect(row.mark).toMatch(/^(❌|⚠️)$/u);
        expect(row.points).toMatch(/^0\//);
        expect(row.result).toMatch(/^not implemented yet: \w+ \(src\/[\w-]+\.ts\)/);
      }
    }, 120_000);

    it("its grading command passes the job with the reference's three files: full marks", () => {
      const { result, summary } = runGradingStep(withReference());
      scores.push(`reference's three files:\n  ${scoreLines(result.stdout).join("\n  ")}`);
      expect(result.status, result.stdout).toBe(0);
      expect(result.stdout).not.toMatch(/^::(error|warning)/m);
      const required = cases.filter((c) => c.required).length;
      expect(scoreLines(result.stdout)).toEqual(
        twice([
          expect.stringMatching(
            new RegExp(`^Required: {2}(\\d+)/\\1 points, ${required} of ${required} cases passed$`),
          ),
          expect.stringMatching(
            new RegExp(
              `^Extension: (\\d+)/\\1 points, ${cases.length - required} of ${cases.length - required} cases passed$`,
            ),
          ),
        ]),
      );
      expect(summary).toMatch(/^## Grading src: (\d+)\/\1 required points/m);
      const rows = summaryRows(summary);
      expect(rows).toHaveLength(cases.length);
      for (const row of rows) expect(row).toMatchObject({ mark: "✅", result: "passed" });
    }, 120_000);
  });
});
