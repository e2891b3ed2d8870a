// A class at once: `--batch` on a generated class of 14 folders (the reference, the starter,
// mutants with catalogued mistakes, the hostile programs of test/submissions/, a folder that is
// no submission, a name that needs escaping) writes a gradebook, results JSON that match the
// schema, and a self-contained report; and the instructor's GitHub workflow runs as written, its
// shards graded and merged. Cases are narrowed with --only to keep the batch short; the batches
// are real. Which folders a shard takes, what merge writes and refuses, and what --batch refuses
// before grading are shown in process (test/unit/shards.test.ts).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Ajv } from "ajv";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mainMistake, type SubmissionResults } from "../../grader/batch/gradebook.ts";
import { resultsFileName } from "../../grader/batch/output.ts";
import { writeMutant } from "../../grader/instructor/mutants/mutants.ts";
import { grade } from "../helpers/grader.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import { parseCsv } from "../helpers/readers.ts";
import { pathWithSudo } from "../helpers/shell.ts";

const validateResults = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "grader", "results.schema.json"), "utf8")) as object,
);

/** Cases that tell the chosen mutants apart (each is named on at least one of them). */
const ONLY = [
  "01-lesson-7-partitions-3-members",
  "03-per-topic-skew",
  "05-input-order-is-not-member-order",
  "06-uppercase-before-lowercase",
  "07-idle-members",
  "24-decode-negative-user-data-length",
  "31-static-members-first",
];
/** Mutants each told apart by one of the cases above (the class's mistakes chart has a bar each). */
const MUTANT_IDS = [
  "global-assignment",
  "arrival-order",
  "locale-order",
  "idle-members-dropped",
  "unsigned-user-data-length",
];
const HOSTILE = ["crash", "timeout", "memory", "import-answers"];
/** A solution copy whose name needs escaping in HTML and guarding in a spreadsheet. */
const ODD_NAME = `=<b>eve & "co" 'x'`;
// Short, for the busy loop's sake, but not so short that the memory hog's last garbage
// collections (a second or so of CPU, more when another test file loads the machine) reach it
// before the heap limit does: 2 s turned the hog into a timeout under load.
const TIMEOUT = ["--timeout", "3000"];
const onlyArgs = ONLY.flatMap((id) => ["--only", id]);
const caseJson = (id: string) =>
  JSON.parse(readFileSync(join(CASES_DIR, id, "case.json"), "utf8")) as {
    points: number;
    required: boolean;
  };
const points = (required: boolean) =>
  ONLY.map(caseJson)
    .filter((c) => c.required === required)
    .reduce((total, c) => total + c.points, 0);
const MAX = points(true);
const EXTENSION_MAX = points(false);

/** Writes the class: returns DIR and what each folder is. */
function writeClass(): { dir: string; names: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "kit-batch-"));
  const copy = (from: string, name: string) => cpSync(from, join(dir, name), { recursive: true });
  copy(join(ROOT, "solution"), "solution");
  copy(join(ROOT, "solution"), "solution-again");
  copy(join(ROOT, "solution"), ODD_NAME);
  copy(join(ROOT, "starter"), "starter");
  for (const id of MUTANT_IDS) {
    const mutant = writeMutant(id);
    copy(mutant, `mutant-${id}`);
    rmSync(dirname(mutant), { recursive: true, force: true });
  }
  for (const name of HOSTILE) copy(join(ROOT, "test", "submissions", name), `hostile-${name}`);
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes", "README.txt"), "not a submission\n");
  writeFileSync(join(dir, "stray-file.txt"), "files in DIR are not submissions\n");
  mkdirSync(join(dir, ".git"));
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name);
  return { dir, names };
}

/** The gradebook as maps from column to cell, by submission name. */
function gradebookRows(text: string): { header: string[]; rows: Map<string, Map<string, string>> } {
  const [header = [], ...body] = parseCsv(text);
  const rows = new Map<string, Map<string, string>>();
  for (const cells of body) {
    const row = new Map(header.map((column, i) => [column, cells[i] ?? ""]));
    rows.set(cells[0] ?? "", row);
  }
  return { header, rows };
}

function readResults(out: string): Map<string, SubmissionResults> {
  const manifest = JSON.parse(readFileSync(join(out, "shard.json"), "utf8")) as {
    submissions: { name: string; file: string }[];
  };
  return new Map(
    manifest.submissions.map(({ name, file }) => [
      name,
      JSON.parse(readFileSync(join(out, file), "utf8")) as SubmissionResults,
    ]),
  );
}

describe("--batch on a class of 14 folders", () => {
  let dir: string;
  let names: string[];
  let out: string;
  let run: ReturnType<typeof grade>;
  let seconds: number;
  beforeAll(() => {
    ({ dir, names } = writeClass());
    out = join(dir, "..", `${dir.split("/").pop() ?? "x"}-out`);
    const started = performance.now();
    run = grade(["--batch", dir, "--report-dir", out, ...TIMEOUT, ...onlyArgs]);
    seconds = (performance.now() - started) / 1000;
  }, 240_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it("runs to the end with exit 0 and one plain progress line per folder (not a terminal)", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(names.length).toBe(14);
    expect(run.stdout).toMatch(
      new RegExp(`^Grading ${names.length} submissions in .*: ${ONLY.length} cases each`),
    );
    const lines = run.stdout.split("\n").filter((l) => /^\[\d+\/\d+\] /.test(l));
    expect(lines).toHaveLength(names.length);
    expect(lines.map((l) => /^\[(\d+)\//.exec(l)?.[1])).toEqual(names.map((_, i) => String(i + 1)));
    expect(run.stdout).toContain(
      `solution: ${MAX}/${MAX} (extension ${EXTENSION_MAX}/${EXTENSION_MAX})`,
    );
    expect(run.stdout).toContain("notes: not a submission (no src/main.ts)");
    // Before grading: what DIR holds that is not graded, and why.
    expect(run.stdout).toContain("\nskipped .git: a hidden folder\n");
    expect(run.stdout).toContain("\nskipped stray-file.txt: not a folder\n");
    expect(run.stdout).toContain("\nnot a submission, every case error: notes: no src/main.ts\n");
    expect(run.stdout).toContain(`Graded ${names.length} submissions in`);
    expect(run.stdout).not.toContain("\x1b[");
    console.log(`batch of ${names.length} folders x ${ONLY.length} cases: ${seconds.toFixed(1)} s`);
  });

  it("writes a gradebook row per folder: scores, a status per case, the main mistake", () => {
    const text = readFileSync(join(out, "gradebook.csv"), "utf8");
    const { header, rows } = gradebookRows(text);
    expect(header).toEqual([
      "submission",
      "score",
      "max",
      "extension_score",
      "extension_max",
      "total",
      "total_max",
      "extension_policy",
      ...ONLY,
      "main_mistake",
      "mistakes",
      "not_graded",
    ]);
    // Rows in code-unit order; the odd name is guarded against spreadsheet formulas.
    const guarded = `'${ODD_NAME}`;
    expect([...rows.keys()]).toEqual(
      names.map((n) => (n === ODD_NAME ? guarded : n)).sort((a, b) => (a < b ? -1 : 1)),
    );
    const row = (name: string) => rows.get(name) ?? new Map<string, string>();
    for (const name of ["solution", "solution-again", guarded]) {
      expect(Object.fromEntries(row(name))).toMatchObject({
        score: String(MAX),
        max: String(MAX),
        extension_score: String(EXTENSION_MAX),
        extension_max: String(EXTENSION_MAX),
        // The default policy, bonus: every required case passed, so the extension points on top.
        total: String(MAX + EXTENSION_MAX),
        total_max: String(MAX),
        extension_policy: "bonus",
        main_mistake: "",
        mistakes: "",
        not_graded: "",
      });
      for (const id of ONLY) expect(row(name).get(id)).toBe("pass");
    }
    expect(row("starter").get("score")).toBe("0");
    expect(row("starter").get("total")).toBe("0");
    expect(row("starter").get("not_graded")).toBe("");
    expect(row("notes").get("not_graded")).toBe("not-a-submission");
    expect(row("hostile-import-answers").get("not_graded")).toBe("build-error");
    for (const id of ONLY) expect(row("starter").get(id)).toBe("error");
    for (const id of MUTANT_IDS) {
      const r = row(`mutant-${id}`);
      expect(r.get("main_mistake"), id).toBe(id);
      expect(r.get("mistakes")?.split(" ")[0], id).toBe(id);
      expect(Number(r.get("score")), id).toBeLessThan(MAX);
      expect(
        ONLY.some((c) => r.get(c) === "fail" || r.get(c) === "error"),
        id,
      ).toBe(true);
    }
    expect(row("hostile-timeout").get(ONLY[0] as string)).toBe("timeout");
    expect(row("hostile-timeout").get(ONLY[ONLY.length - 1] as string)).toBe("skipped");
    for (const name of ["hostile-crash", "notes"]) {
      expect(
        ONLY.map((c) => row(name).get(c)),
        name,
      ).toEqual(ONLY.map(() => "error"));
      expect(row(name).get("score")).toBe("0");
    }
    // Memory (like output caps) is a limit verdict: after three, in case order, the rest is skipped.
    for (const name of ["hostile-memory"]) {
      expect(
        ONLY.map((c) => row(name).get(c)),
        name,
      ).toEqual(ONLY.map((_, i) => (i < 3 ? "error" : "skipped")));
      expect(row(name).get("score")).toBe("0");
    }
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toContain("\r");
  });

  it("writes each folder's results JSON, valid against results.schema.json", () => {
    const results = readResults(out);
    expect([...results.keys()].sort()).toEqual([...names].sort());
    for (const [name, r] of results) {
      validateResults(r);
      expect(validateResults.errors ?? [], name).toEqual([]);
      expect(r.submission).toBe(name);
      expect(r.cases.map((c) => c.id)).toEqual(ONLY);
    }
    // Each byte that is not a lower-case letter, digit, "_" or "-" as %NN (names.ts).
    expect(resultsFileName(ODD_NAME)).toBe("results/%3d%3cb%3eeve%20%26%20%22co%22%20%27x%27.json");
    const reason = (name: string) => new Set(results.get(name)?.cases.map((c) => c.reason));
    expect(reason("hostile-memory")).toEqual(new Set(["memory", "skipped-after-timeouts"]));
    expect(reason("hostile-import-answers")).toEqual(new Set(["build-error"]));
    expect(reason("hostile-crash")).toEqual(new Set(["crash"]));
    expect(reason("starter")).toEqual(new Set(["not-implemented"]));
    const notes = results.get("notes");
    expect(notes?.cases.every((c) => c.reason === "build-error")).toBe(true);
    expect(notes?.notGraded?.reason).toBe("not-a-submission");
    expect(notes?.notGraded?.errors[0]).toMatch(
      /^not a submission: .*"notes" has no src\/main\.ts/,
    );
    expect(notes?.cases[0]?.message).toBe(
      "not run: this is not a submission (why is at the top of the report)",
    );
    expect(results.get("hostile-import-answers")?.notGraded?.reason).toBe("build-error");
    // The rerun command names the submission's folder.
    const mutant = results.get("mutant-locale-order");
    expect(mutant && mainMistake(mutant)).toBe("locale-order");
  });

  it("writes one self-contained report.html: charts, every submission, escaped names", () => {
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/\s(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html.match(/<svg /g)).toHaveLength(2);
    // One pass-rate bar per case, one mistake bar per catalogued mistake at least.
    const passRate = html.slice(html.indexOf('<svg id="pass-rate"'), html.indexOf("</svg>"));
    expect(passRate.match(/class="bar /g)).toHaveLength(ONLY.length);
    const results = readResults(out);
    const passed = (id: string) =>
      [...results.values()].filter((r) => r.cases.find((c) => c.id === id)?.status === "pass")
        .length;
    const shares = [...passRate.matchAll(/data-share="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(shares).toEqual(ONLY.map((id) => Number((passed(id) / names.length).toFixed(4))));
    expect(passed(ONLY[0] as string)).toBeGreaterThanOrEqual(3);
    const mistakes = html.slice(html.indexOf('<svg id="mistakes"'));
    for (const id of MUTANT_IDS) {
      const bar = new RegExp(`<title>${id}: [^<]*Named on (\\d+) of ${names.length} submissions`);
      expect(Number(bar.exec(mistakes)?.[1]), id).toBeGreaterThanOrEqual(1);
    }
    for (const id of MUTANT_IDS) expect(html).toContain(`>${id}</text>`);
    expect(html.match(/<details id="submission-/g)).toHaveLength(names.length);
    expect(html).not.toContain("<b>eve");
    expect(html).toContain("=&#60;b&#62;eve &#38; &#34;co&#34; &#39;x&#39;");
  });
});

// ---- templates/github-instructor/grade-class.yml ----

interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  if?: string;
}
interface WorkflowJob {
  needs?: string | string[];
  "runs-on": string;
  strategy?: { "fail-fast"?: boolean; matrix: { shard: number[] } };
  steps: WorkflowStep[];
}

/** A folder that looks like the repository (each top-level entry a symlink), to write into. */
function repoMirror(): string {
  const mirror = mkdtempSync(join(tmpdir(), "kit-repo-"));
  for (const entry of readdirSync(ROOT)) {
    if (entry !== ".git" && entry !== "out" && entry !== "submissions")
      symlinkSync(join(ROOT, entry), join(mirror, entry));
  }
  return mirror;
}

/** The environment a user's shell would have: no vitest or npm variables leaking in. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.create(null) as NodeJS.ProcessEnv;
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|INIT_CWD$|VITEST|NODE_ENV$|TEST$)/.test(key)) env[key] = value;
  }
  return { ...env, NO_COLOR: "1" };
}

describe("--batch finds a submission one folder down, never through a link, by its exact name", () => {
  it("grades DIR/alice/alice-main/ as alice; links, a slug's clash and a name not UTF-8 apart", () => {
    const dir = mkdtempSync(join(tmpdir(), "kit-batch-nested-"));
    const out = `${dir}-out`;
    try {
      // A repository downloaded as a zip and unpacked: the handout is one folder down.
      cpSync(join(ROOT, "solution"), join(dir, "alice", "alice-main"), { recursive: true });
      cpSync(join(ROOT, "solution"), join(dir, "Bob"), { recursive: true });
      // Named as Bob's results file once was (slug + sha256("Bob")'s first 10 hex digits).
      cpSync(join(ROOT, "starter"), join(dir, "bob-cd9fb1e148"), { recursive: true });
      // The reference through the grader's working folder (the kit), and a classmate's folder.
      mkdirSync(join(dir, "mallory"));
      symlinkSync("/proc/self/cwd/solution", join(dir, "mallory", "work"));
      mkdirSync(join(dir, "oscar"));
      symlinkSync("../Bob", join(dir, "oscar", "work"));
      symlinkSync("Bob", join(dir, "copycat"));
      // J o s 0xE9: Latin-1, not UTF-8.
      const latin1 = Buffer.from(`${dir}/Jos\xe9`, "latin1");
      mkdirSync(Buffer.concat([latin1, Buffer.from("/src")]), { recursive: true });
      writeFileSync(Buffer.concat([latin1, Buffer.from("/src/main.ts")]), "export {};\n");
      const only = ["--only", "01-lesson-7-partitions-3-members"];
      const run = grade(["--batch", dir, "--report-dir", out, ...only]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain("\ngraded one folder down: alice/alice-main/\n");
      for (const line of [
        "Bob: 2/2",
        "Jos\\xe9: not a submission (name not UTF-8)",
        "alice: 2/2",
        "bob-cd9fb1e148: 0/2",
        "copycat: not a submission (a symbolic link)",
        "mallory: not a submission (only symbolic links inside it (work))",
        "oscar: not a submission (only symbolic links inside it (work))",
      ])
        expect(run.stdout).toContain(line);
      const results = readResults(out);
      expect([...results].map(([name, r]) => [name, r.score, r.maxScore])).toEqual([
        ["Bob", 2, 2],
        ["Jos\udce9", 0, 2],
        ["alice", 2, 2],
        ["bob-cd9fb1e148", 0, 2],
        ["copycat", 0, 2],
        ["mallory", 0, 2],
        ["oscar", 0, 2],
      ]);
      expect(readdirSync(join(out, "results")).sort()).toEqual([
        "%42ob.json",
        "%4aos%e9.json",
        "alice.json",
        "bob-cd9fb1e148.json",
        "copycat.json",
        "mallory.json",
        "oscar.json",
      ]);
      const { rows } = gradebookRows(readFileSync(join(out, "gradebook.csv"), "utf8"));
      expect([...rows.keys()]).toEqual([
        "Bob",
        "Jos\\xe9",
        "alice",
        "bob-cd9fb1e148",
        "copycat",
        "mallory",
        "oscar",
      ]);
      expect(results.get("copycat")?.notGraded?.errors).toEqual([
        'not a submission: the folder "copycat" is a symbolic link: a batch grades real folders only, never what a link points to',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("templates/github-instructor/grade-class.yml", () => {
  const text = readFileSync(
    join(ROOT, "templates", "github-instructor", "grade-class.yml"),
    "utf8",
  );
  const workflow = parseYaml(text) as { jobs: Record<string, WorkflowJob> };
  const gradeJob = workflow.jobs.grade as WorkflowJob;
  const mergeJob = workflow.jobs.merge as WorkflowJob;

  it("grades a matrix of 4 shards and merges them after, uploading each report", () => {
    expect(gradeJob.strategy?.matrix.shard).toEqual([1, 2, 3, 4]);
    expect(gradeJob.strategy?.["fail-fast"]).toBe(false);
    expect(mergeJob.needs).toBe("grade");
    for (const job of [gradeJob, mergeJob]) {
      expect(job.steps.some((s) => s.run === "npm ci")).toBe(true);
      expect(job.steps.some((s) => s.uses?.startsWith("actions/setup-node@"))).toBe(true);
    }
    const upload = gradeJob.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with).toMatchObject({
      name: "shard-${{ matrix.shard }}",
      path: "out/shard-${{ matrix.shard }}",
    });
    const download = mergeJob.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"));
    expect(download?.with).toMatchObject({ pattern: "shard-*", path: "out" });
    const report = mergeJob.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(report?.with).toMatchObject({ path: "out/class" });
  });

  it("its commands, run locally as written (matrix values substituted), merge the class", () => {
    const mirror = repoMirror();
    const submissions = join(mirror, "submissions");
    mkdirSync(submissions);
    const copy = (from: string, name: string) =>
      cpSync(from, join(submissions, name), { recursive: true });
    copy(join(ROOT, "solution"), "alice");
    copy(join(ROOT, "starter"), "bob");
    // A folder with no program, and a program that does not build: no case runs, so their
    // shards cost little (the starter runs every case to its stub).
    mkdirSync(join(submissions, "carol"));
    writeFileSync(join(submissions, "carol", "README.txt"), "not a submission\n");
    mkdirSync(join(submissions, "erin", "src"), { recursive: true });
    writeFileSync(join(submissions, "erin", "src", "main.ts"), "export const = ;\n");
    const commands = (job: WorkflowStep[]) =>
      job.map((s) => s.run).filter((r): r is string => r !== undefined && r.includes("grade"));
    const shardCommands = commands(gradeJob.steps);
    expect(shardCommands).toEqual([
      'sudo -E env "PATH=$PATH" npm run -s grade -- --batch submissions --shard ${{ matrix.shard }}/4 --report-dir out/shard-${{ matrix.shard }}',
    ]);
    for (const shard of gradeJob.strategy?.matrix.shard ?? []) {
      for (const command of shardCommands) {
        const result = spawnSync(
          "bash",
          ["-ec", command.replaceAll("${{ matrix.shard }}", String(shard))],
          {
            cwd: mirror,
            env: { ...userEnv(), PATH: pathWithSudo() },
            encoding: "utf8",
            timeout: 240_000,
          },
        );
        expect(result.status, result.stderr).toBe(0);
        // Four folders in code-unit order, one per shard (round-robin).
        expect(result.stdout).toContain(`(shard ${shard}/4: 1 of 4)`);
      }
    }
    const mergeCommands = commands(mergeJob.steps);
    expect(mergeCommands).toEqual([
      "npm run -s grade -- --merge out/shard-* --report-dir out/class",
    ]);
    const merged = spawnSync("bash", ["-ec", mergeCommands[0] ?? ""], {
      cwd: mirror,
      env: userEnv(),
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(
      "Merged 4 shards: 4 submissions, 1 passed every required case.",
    );
    const { rows } = gradebookRows(
      readFileSync(join(mirror, "out", "class", "gradebook.csv"), "utf8"),
    );
    expect([...rows.keys()]).toEqual(["alice", "bob", "carol", "erin"]);
    expect(rows.get("alice")?.get("score")).toBe(rows.get("alice")?.get("max"));
    expect(rows.get("bob")?.get("score")).toBe("0");
    expect(rows.get("carol")?.get("score")).toBe("0");
    expect(rows.get("erin")?.get("score")).toBe("0");
    const caseColumns = [...(rows.get("alice")?.keys() ?? [])].filter((c) => /^\d\d-/.test(c));
    expect(caseColumns.length).toBeGreaterThan(40);
    for (const id of caseColumns) {
      expect(rows.get("alice")?.get(id), id).toBe("pass");
      for (const name of ["bob", "carol", "erin"])
        expect(rows.get(name)?.get(id), id).toBe("error");
    }
    const results = readResults(join(mirror, "out", "class"));
    expect(new Set(results.get("bob")?.cases.map((c) => c.reason))).toEqual(
      new Set(["not-implemented"]),
    );
    expect(new Set(results.get("erin")?.cases.map((c) => c.reason))).toEqual(
      new Set(["build-error"]),
    );
    expect(readFileSync(join(mirror, "out", "class", "report.html"), "utf8")).toContain(
      '<svg id="mistakes"',
    );
    rmSync(mirror, { recursive: true, force: true });
  }, 240_000);
});
