/**
 * `tsx scripts/equivalence.ts --out DIR [--only LABEL]... [--grader-arg ARG]...`: what a user sees
 * of the kit's gradings, written to DIR so that two kits (before and after a change), or the same
 * kit graded two ways (`--grader-arg=--isolate` against none), can be compared:
 * `tsx scripts/equivalence.ts --compare BEFORE AFTER` names the files that differ, grading by
 * grading, and `diff -r BEFORE AFTER` shows how. Not a test: it judges nothing.
 *
 * Graded, each with every report format at once (each to its own file, the GitHub job summary and
 * step output too): the reference, the starter, every mutant of the instructor kit, every program
 * in test/submissions (on the cases and options test/e2e/hostile.test.ts grades it with), the
 * reference, the starter and two mutants with a `--fixtures` folder of private cases, and one
 * `--batch` of those four with the private cases (gradebook, HTML report, results files).
 *
 * What differs between two runs of the same kit is normalised (normalise below): wall and CPU
 * times, the kit's version, temporary paths and the kit's own path, pids, and how each case ran
 * (the results files' `ran`: shared or alone, which decides no verdict). What is left to differ
 * is what a user would see differ.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CASES_DIR = join(ROOT, "fixtures", "cases");
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;
const CASE_IDS = readdirSync(CASES_DIR).sort();

/** The case id that starts with `prefix` (e.g. "02"). */
function caseId(prefix: string): string {
  const id = CASE_IDS.find((c) => c.startsWith(`${prefix}-`));
  if (id === undefined) throw new Error(`no case ${prefix}`);
  return id;
}

/** One grading: a label (its folder in DIR), the grader's arguments before the formats. */
interface Spec {
  label: string;
  args: () => string[];
}

const ONE = caseId("01");
const SEVEN = ["01", "02", "03", "04", "05", "06", "07"].map(caseId);
const ONE_SECOND = ["--timeout", "1000"];
const only = (ids: readonly string[]) => ids.flatMap((id) => ["--only", id]);

/**
 * How test/e2e/hostile.test.ts grades each program of test/submissions (its VERDICTS, PROBES and
 * the other gradings): the cases and extra options; absent, case 01 alone.
 */
const HOSTILE: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["timeout", ONE_SECOND],
  ["idle-timer", ONE_SECOND],
  ["print-then-hang", ONE_SECOND],
  ["low-duty", ONE_SECOND],
  ["typeof-answer", ["--types"]],
  ["reject-everyone", only([caseId("25")])],
  ["find-kit", [...only([caseId("19")]), "--cmd", "sh find-kit.sh"]],
  ["huge-partitions", only([caseId("02")])],
  ["write-outside", ["--cmd", "sh write-outside.sh"]],
  ["process-count", ["--cmd", "python3 process-count.py"]],
  ["keyring-leftover", [...only(SEVEN.slice(1)), "--cmd", "python3 keyring-leftover.py"]],
  ["memfd-hoard", ["--cmd", "python3 memfd-hoard.py"]],
  ["slow-crash", [...only(SEVEN.slice(1)), ...ONE_SECOND]],
  ["signal-probe", only(SEVEN.slice(1, 3))],
  ["stack-whitespace", only(SEVEN.slice(1))],
  ["memory", only([caseId("02"), caseId("19"), caseId("25")])],
]);

/** A folder of two private cases (copies of built-in 01 and 19), named `private`. */
function privateFolder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "kit-equivalence-private-")), "private");
  for (const id of [caseId("01"), caseId("19")])
    cpSync(join(CASES_DIR, id), join(dir, id), { recursive: true });
  return dir;
}

/** The mutants' names and a writer of each, from whichever mutants module the kit has. */
async function mutants(): Promise<{ ids: string[]; write: (id: string) => string }> {
  const module = (await import(join(ROOT, "grader", "instructor", "mutants", "mutants.ts"))) as {
    MUTANTS: ReadonlyMap<string, unknown>;
    writeMutant: (id: string) => string;
  };
  return { ids: [...module.MUTANTS.keys()], write: module.writeMutant };
}

/** Every grading, in the order they run. */
async function specs(): Promise<Spec[]> {
  const { ids, write } = await mutants();
  const list: Spec[] = [
    { label: "reference", args: () => ["solution"] },
    { label: "starter", args: () => [] },
  ];
  for (const id of ids)
    list.push({ label: `mutant-${id.replace(":", "-")}`, args: () => [write(id)] });
  const submissions = join(ROOT, "test", "submissions");
  for (const name of readdirSync(submissions).sort()) {
    // Not a submission: what each of test/e2e/shared-runs.test.ts's changes in the reference.
    if (name === "shared") continue;
    const folder = join("test", "submissions", name);
    const extra = HOSTILE.get(name) ?? [];
    const cmd = extra.indexOf("--cmd");
    const args =
      cmd >= 0
        ? [
            ...extra.slice(0, cmd),
            "--cmd",
            extra[cmd + 1] as string,
            folder,
            ...extra.slice(cmd + 2),
          ]
        : [folder, ...extra];
    if (!args.includes("--only")) args.push("--only", ONE);
    list.push({ label: `submission-${name}`, args: () => args });
  }
  const privateMutants = ids.filter(
    (id) => id === "idle-members-dropped" || id === "global-assignment",
  );
  for (const [label, target] of [
    ["private-reference", () => "solution"],
    ["private-starter", () => "starter"],
    ...privateMutants.map((id) => [`private-mutant-${id}`, () => write(id)] as const),
  ] as const) {
    list.push({
      label,
      args: () => [
        target(),
        "--fixtures",
        privateFolder(),
        ...only([...SEVEN.slice(0, 3), caseId("19")]),
      ],
    });
  }
  return list;
}

/** The gradings also graded with `--format classroom` (which excludes `--format github`). */
const CLASSROOM =
  /^(reference|starter|private-.*|mutant-(global-assignment|idle-members-dropped|little-endian)|submission-(report-injection|crash))$/;

/** The formats written to files, by file name. */
const FORMAT_FILES: readonly [string, string][] = [
  ["text", "report.txt"],
  ["json", "results.json"],
  ["junit", "junit.xml"],
  ["junit-files", "junit-files.xml"],
  ["gradescope", "gradescope.json"],
  ["github", "github.txt"],
  ["exercism", "exercism.json"],
];

/**
 * Makes a grading's text comparable between runs: times, the kit version, the kit's path,
 * temporary paths and pids replaced by fixed words.
 */
export function normalise(text: string): string {
  return (
    text
      // The Classroom step output: base64 JSON, read as its JSON.
      .replace(
        /^result=([A-Za-z0-9+/=]+)$/gm,
        (_, base64: string) => `result (decoded)=${Buffer.from(base64, "base64").toString("utf8")}`,
      )
      .replaceAll(ROOT.replace(/\/$/, ""), "<kit>")
      .replace(
        /\/tmp\/[A-Za-z0-9._+-]+(?:\/[A-Za-z0-9._+-]+)*/g,
        (path) =>
          // Keep the last part of a temporary path (a submission's folder name), drop the rest.
          `<tmp>/${path.split("/").at(-1) ?? ""}`,
      )
      .replace(/kit-mutant-[a-z0-9-]+?-[A-Za-z0-9]{6}/g, "kit-mutant-<x>")
      .replaceAll(`"version":"${VERSION}"`, `"version":"<version>"`)
      .replaceAll(`"version": "${VERSION}"`, `"version": "<version>"`)
      .replaceAll(`kit ${VERSION}`, "kit <version>")
      .replaceAll(`v${VERSION}`, "v<version>")
      // JSON times (results, Gradescope, Exercism, the batch's files).
      .replace(
        /("(?:durationMs|cpuMs|visibleDurationMs|execution_time|time|duration|elapsedMs|wallMs)"\s*:\s*)[0-9.e+-]+/g,
        "$10",
      )
      // JUnit's time attributes.
      .replace(/\btime="[0-9.]+"/g, 'time="0"')
      .replace(/\btimestamp="[^"]*"/g, 'timestamp="<t>"')
      // How a case ran: in a shared process or alone (`"ran": "shared"`).
      .replace(/("ran"\s*:\s*)"(?:shared|isolated)"/g, '$1"<ran>"')
      // Times in prose: "in 1.2 s", "(340 ms)", "12.5s".
      .replace(/\b\d+(?:\.\d+)?\s?(ms|s)\b/g, "<t>$1")
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, "<date>")
      // Pids (the signal probe's line), and GitHub's random stop-commands token.
      .replace(/\b(probe|parent) \d+/g, "$1 <pid>")
      .replace(/::stop-commands::[0-9a-f-]+/g, "::stop-commands::<token>")
      .replace(/^::[0-9a-f-]{36}::$/gm, "::<token>::")
      .replace(/(ghadelimiter_)[0-9a-f-]+/g, "$1<token>")
  );
}

/** Copies every file under `from` into `to`, normalised (binary files copied as they are). */
function copyNormalised(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) {
      mkdirSync(target, { recursive: true });
      copyNormalised(source, target);
    } else {
      const bytes = readFileSync(source);
      writeFileSync(target, bytes.includes(0) ? bytes : normalise(bytes.toString("utf8")));
    }
  }
}

/**
 * Runs the grader (as `npm run -s grade` does) with `args` and then `extra` (--grader-arg), and
 * keeps what it wrote in `out`.
 */
function runGrader(args: string[], out: string, files: string, extra: string[] = []): void {
  mkdirSync(out, { recursive: true });
  const run = spawnSync(process.execPath, [join(ROOT, "grader", "launch.mjs"), ...args, ...extra], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      INIT_CWD: ROOT,
      NO_COLOR: "1",
      GITHUB_STEP_SUMMARY: join(files, "step-summary.md"),
      GITHUB_OUTPUT: join(files, "step-output.txt"),
    },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 900_000,
  });
  writeFileSync(join(out, "exit.txt"), `${run.status ?? run.signal}\n`);
  writeFileSync(join(out, "stdout.txt"), normalise(run.stdout ?? ""));
  writeFileSync(join(out, "stderr.txt"), normalise(run.stderr ?? ""));
  // Without the --grader-arg arguments: two ways of grading compared differ by them alone.
  writeFileSync(join(out, "args.txt"), `${normalise(args.join("\n"))}\n`);
  copyNormalised(files, out);
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix))
    .sort()
    .flatMap((name) => {
      const path = prefix === "" ? name : join(prefix, name);
      return statSync(join(dir, path)).isDirectory() ? filesUnder(dir, path) : [path];
    });
}

/**
 * `--compare BEFORE AFTER`: one line per grading whose files differ, naming them (`diff -r`
 * shows how), and the gradings only one side has.
 */
function compare(before: string, after: string): void {
  const labels = [...new Set([...readdirSync(before), ...readdirSync(after)])].sort();
  let same = 0;
  for (const label of labels) {
    const [a, b] = [join(before, label), join(after, label)];
    if (!existsSync(a) || !existsSync(b)) {
      process.stdout.write(`${label}: only in ${existsSync(a) ? before : after}\n`);
      continue;
    }
    const files = [...new Set([...filesUnder(a), ...filesUnder(b)])].sort();
    const differ = files.filter((f) => {
      const [x, y] = [join(a, f), join(b, f)];
      return !existsSync(x) || !existsSync(y) || !readFileSync(x).equals(readFileSync(y));
    });
    if (differ.length === 0) same++;
    else process.stdout.write(`${label}: ${differ.join(", ")}\n`);
  }
  process.stdout.write(`${same} of ${labels.length} gradings the same\n`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      out: { type: "string" },
      only: { type: "string", multiple: true },
      compare: { type: "boolean" },
      "grader-arg": { type: "string", multiple: true },
    },
    allowPositionals: true,
  });
  // Given to every grading, after its own arguments (`--isolate`).
  const extra = values["grader-arg"] ?? [];
  if (values.compare === true) {
    const [before, after] = positionals;
    if (before === undefined || after === undefined)
      throw new Error("usage: tsx scripts/equivalence.ts --compare BEFORE AFTER");
    compare(before, after);
    return;
  }
  if (values.out === undefined)
    throw new Error(
      "usage: tsx scripts/equivalence.ts --out DIR [--only LABEL]... [--grader-arg ARG]...",
    );
  const out = values.out;
  mkdirSync(out, { recursive: true });
  const wanted = values.only;
  const all = await specs();
  for (const spec of all) {
    if (wanted !== undefined && !wanted.includes(spec.label)) continue;
    const files = mkdtempSync(join(tmpdir(), "kit-equivalence-"));
    const started = performance.now();
    const args = [
      ...spec.args(),
      ...FORMAT_FILES.flatMap(([format, file]) => ["--format", `${format}=${join(files, file)}`]),
    ];
    runGrader(args, join(out, spec.label), files, extra);
    rmSync(files, { recursive: true, force: true });
    if (CLASSROOM.test(spec.label)) {
      // Classroom writes what github does and its points: one of the two per grading.
      const more = mkdtempSync(join(tmpdir(), "kit-equivalence-"));
      const classroom = [...spec.args(), "--format", `classroom=${join(more, "classroom.txt")}`];
      runGrader(classroom, join(out, spec.label, "classroom"), more, extra);
      rmSync(more, { recursive: true, force: true });
    }
    process.stderr.write(`${spec.label}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  if (wanted === undefined || wanted.includes("batch")) {
    // One batch: the reference, the starter and two mutants, with the private cases.
    const batch = join(mkdtempSync(join(tmpdir(), "kit-equivalence-batch-")), "class");
    mkdirSync(batch);
    cpSync(join(ROOT, "solution"), join(batch, "alice"), { recursive: true });
    cpSync(join(ROOT, "starter"), join(batch, "bob"), { recursive: true });
    const { ids, write } = await mutants();
    for (const [name, id] of [
      ["carol", "idle-members-dropped"],
      ["dave", "global-assignment"],
    ] as const) {
      if (ids.includes(id)) cpSync(write(id), join(batch, name), { recursive: true });
    }
    const reportDir = mkdtempSync(join(tmpdir(), "kit-equivalence-report-"));
    const started = performance.now();
    runGrader(
      [
        "--batch",
        batch,
        "--report-dir",
        join(reportDir, "out"),
        "--fixtures",
        privateFolder(),
        ...only([...SEVEN.slice(0, 3), caseId("19")]),
      ],
      join(out, "batch"),
      reportDir,
      extra,
    );
    process.stderr.write(`batch: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  process.stderr.write(`written to ${relative(process.cwd(), out) || "."}\n`);
}

await main();
