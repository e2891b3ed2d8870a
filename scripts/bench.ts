/**
 * `npm run bench [-- --json FILE] [--quick] [--only PART]...`: the kit's speed and memory figures,
 * as a table (and JSON). Every figure says what its clock covers. Not a test: nothing here fails on
 * a number. `--only` (repeatable) measures some parts: grading, fixed-cost, batch, starter, watch,
 * diagnosis, large-group, decoder.
 *
 *   floor          (with grading, batch or starter) one case's process chain exactly as the grader
 *                  starts it (run/prepare.ts runCase: run identity, sandbox wrappers, Node's
 *                  permission model, limits) running an empty program, and the bare `node -e 0`
 *                  beside it; the floor for a grading is cases x that sandboxed start / the cores
 *                  available (os.availableParallelism()), and grading figures are given as ratios
 *                  to it
 *   grading        `node grader/launch.mjs solution` (what `npm run grade` runs; npm's own start is
 *                  given apart) over the built-in cases, command start to exit, shared (the
 *                  default) and with `--isolate`, against the naive way (one
 *                  `tsx solution/src/main.ts` process per case, in turn)
 *   fixed-cost     the grader's cost outside the cases, measured directly: grading `--only` one
 *                  case (shared and `--isolate`), and its parts one by one: the grader's start
 *                  (launch.mjs's cache check, its modules), loading the cases, the sandbox probe,
 *                  the build (the confined esbuild worker), a shared process's start, the reports
 *   batch          `node grader/launch.mjs --batch` of 50 submissions (solution copies and
 *                  mutants), shared and with `--isolate`
 *   starter        grading the starter (every case fails, so every case shared runs again alone),
 *                  shared and with `--isolate`
 *   watch          `--watch` on a copy of solution/: from a save of a src/ file to the end of the
 *                  regrade's report, shared and with `--isolate`
 *   diagnosis      `tsx scripts/generate.ts --only diagnosis --out TMP` (what
 *                  `npm run build:diagnosis` runs, written outside the kit), and with `--isolate`
 *                  once generate accepts it
 *   large group    the reference program end to end on 10,000 members, 1,000 topics of 100
 *                  partitions, 50 topics each (seeded): wall time and peak memory, and as a
 *                  ratio to its parse floor (a fresh Node reading and JSON.parse-ing the same
 *                  input file, start to exit); and in this
 *                  process, decoding every subscription and assigning; then the same group
 *                  with racks (members on 3 zones, every partition's replicas on 1-2 of them)
 *   decoder        decodeSubscription against kafkajs's MemberMetadata.decode, same bytes, same
 *                  process
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import kafkajs from "kafkajs";
import { CATALOGUE } from "../grader/diagnose/catalogue.ts";
import { caseConcurrency, prepareGrading } from "../grader/context.ts";
import { FixtureSchemas, loadCases, modeArgs } from "../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../grader/kit.ts";
import {
  prepareProgram,
  runCase,
  type PreparedProgram,
  type Program,
} from "../grader/run/prepare.ts";
import { runSharedGroup } from "../grader/run/shared-run.ts";
import { gradeSubmission } from "../grader/grade.ts";
import { parseGradeArgs } from "../grader/options.ts";
import { FORMATS } from "../grader/report/formats.ts";
import { MemorySink, type Reporter } from "../grader/report/reporter.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../grader/limits.ts";
import { programRun } from "../grader/run/program.ts";
import { detectSandbox, sandboxFeatures } from "../grader/run/sandbox.ts";
import { writeMutant } from "../grader/instructor/mutants/mutants.ts";
import { seededRandom } from "../grader/instructor/random/seeded.ts";
import { encodeSubscriptionV3 } from "../grader/instructor/random/subscription-v3.ts";
import { buildSubmission } from "../grader/run/build.ts";
import {
  assignRange,
  type MemberSubscription,
  type PartitionRacks,
} from "../solution/src/range-assignor.ts";
import { decodeSubscription } from "../solution/src/subscription.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The grader's launcher: what `npm run grade` runs (package.json). */
const LAUNCH = join(ROOT, "grader", "launch.mjs");
const { values } = parseArgs({
  options: {
    json: { type: "string" },
    quick: { type: "boolean", default: false },
    only: { type: "string", multiple: true },
  },
});
const RUNS = values.quick ? 1 : 3;
const PARTS = [
  "grading",
  "fixed-cost",
  "batch",
  "starter",
  "watch",
  "diagnosis",
  "large-group",
  "decoder",
] as const;
const only = values.only ?? [...PARTS];
for (const part of only) {
  if (!(PARTS as readonly string[]).includes(part)) {
    throw new Error(`--only ${part}: not a part (${PARTS.join(", ")})`);
  }
}
const measures = (part: (typeof PARTS)[number]) => only.includes(part);

interface Figure {
  name: string;
  value: number;
  unit: string;
  clock: string;
  target?: string;
}
const figures: Figure[] = [];
/** A figure's value as printed: whole milliseconds (tenths below 10 ms), else two decimals. */
const shown = (f: Figure) =>
  `${f.value.toFixed(f.unit !== "ms" ? 2 : Math.abs(f.value) < 10 ? 1 : 0)} ${f.unit}`;
const add = (f: Figure) => {
  figures.push(f);
  process.stderr.write(`  ${f.name}: ${shown(f)}\n`);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Wall time of a command, milliseconds; its standard output when `keepStdout`, else discarded. */
function timeCommand(
  command: string,
  args: string[],
  keepStdout = false,
): { ms: number; status: number | null; stdout: string } {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    ms: performance.now() - started,
    status: result.status,
    stdout: result.stdout?.toString("utf8") ?? "",
  };
}

// ---------------------------------------------------------------------------------------------
// The floor: grading is bound by process starts (one sandboxed Node process per case), so a
// grading's floor on this machine is cases x one sandboxed start / the cores. Measured in the same
// run as the gradings, so the ratios hold from machine to machine.
const CORES = availableParallelism();
// Two parts of the grader's fixed cost, timed here because only a process's first call shows
// them: the sandbox probe (its result is kept, and the floor below needs it) and loading the
// cases (the schemas compiled, every case read and validated).
let probeMs: number | undefined;
if (measures("fixed-cost")) {
  const started = performance.now();
  await detectSandbox();
  probeMs = performance.now() - started;
}
const casesStarted = performance.now();
const schemas = new FixtureSchemas();
const builtInCases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
const loadCasesMs = performance.now() - casesStarted;
/** One sandboxed start, ms (median); undefined until measured. */
let sandboxedStartMs: number | undefined;
/** The same with `-e 0` in place of the program file, ms (median). */
let evalZeroStartMs: number | undefined;
if (measures("grading") || measures("batch") || measures("starter")) {
  process.stderr.write("the floor: one case's sandboxed process running an empty program\n");
  const STARTS = values.quick ? 5 : 15;
  const bare: number[] = [];
  for (let i = 0; i < STARTS + 1; i++) bare.push(timeCommand(process.execPath, ["-e", "0"]).ms);
  add({
    name: "floor: bare `node -e 0`",
    value: median(bare.slice(1)),
    unit: "ms",
    clock: `spawn to exit, median of ${STARTS} after one warm-up`,
  });
  // An empty file is `-e 0` through the grader's own launch path: a "bundle" in a folder laid out
  // as prepareProgram lays out a build (readable by the run identities), run by runCase with the
  // grader's default limits, on a built-in case's input.
  const floorDir = mkdtempSync(join(tmpdir(), "kit-bench-floor-"));
  const bundlePath = join(floorDir, "main.mjs");
  writeFileSync(bundlePath, "");
  mkdirSync(join(floorDir, "cwd"), { mode: 0o755 });
  chmodSync(floorDir, 0o755);
  chmodSync(bundlePath, 0o644);
  const limits = { timeoutMs: 10_000, memoryMiB: MEMORY_MIB, outputCapBytes: OUTPUT_CAP_BYTES };
  const program: Program = {
    run: (c, uid) =>
      programRun({ kind: "bundle", path: bundlePath }, c, limits, uid, join(floorDir, "cwd")),
    mapStderr: (t) => t,
  };
  // The same chain with Node running `-e 0` instead of the file: Node's ES module loader, which
  // every program file goes through, left out too (the issue's own wording of the floor).
  const evalZero: Program = {
    ...program,
    run: (c, uid) => {
      // An assign case: the program file is the last argument (a decode case adds --decode).
      const run = program.run(c, uid);
      return { ...run, args: [...run.args.slice(0, -1), "-e", "0"] };
    },
  };
  const firstCase = builtInCases[0];
  if (firstCase === undefined) throw new Error("no built-in cases");
  /** runCase on `p`, STARTS times after one warm-up: the median, ms. */
  const startsOf = async (p: Program) => {
    const times: number[] = [];
    for (let i = 0; i < STARTS + 1; i++) {
      const started = performance.now();
      const run = await runCase(p, firstCase, {
        timeoutMs: limits.timeoutMs,
        outputCapBytes: OUTPUT_CAP_BYTES,
      });
      times.push(performance.now() - started);
      if (run.exitCode !== 0 || run.sandboxError !== null || run.spawnError !== null)
        throw new Error(
          `the empty program did not exit 0 in the sandbox: ${run.sandboxError ?? run.spawnError ?? run.stderr}`,
        );
    }
    return median(times.slice(1));
  };
  sandboxedStartMs = await startsOf(program);
  evalZeroStartMs = await startsOf(evalZero);
  rmSync(floorDir, { recursive: true, force: true });
  add({
    name: `floor: one sandboxed start (mode ${sandboxFeatures().mode})`,
    value: sandboxedStartMs,
    unit: "ms",
    clock: `run/prepare.ts runCase on an empty program file, start to end, median of ${STARTS} after one warm-up`,
  });
  add({
    name: "floor: the same chain running `-e 0`",
    value: evalZeroStartMs,
    unit: "ms",
    clock: "the chain above with `node ... -e 0` for the file (no ES module loader), median",
  });
}
/** The floor for grading one submission over `cases` cases, ms. */
const floorMs = (cases: number) => (cases * (sandboxedStartMs ?? NaN)) / CORES;

/** The `time` attributes of a JUnit report's test cases, ms, in report order. */
const junitCaseMs = (junit: string) =>
  [...junit.matchAll(/<testcase [^>]*\btime="([\d.]+)"/g)].map((m) => Number(m[1]) * 1000);

/**
 * `node grader/launch.mjs ARGS` RUNS times: the median wall time (ms), and the last run's standard
 * output. Exit 0 or 1 (a case did not pass) both count as graded.
 */
function gradeTimes(args: string[], runs = RUNS): { ms: number; stdout: string } {
  const times = Array.from({ length: runs }, () =>
    timeCommand(process.execPath, [LAUNCH, ...args], true),
  );
  const failed = times.find((t) => t.status !== 0 && t.status !== 1);
  if (failed !== undefined) throw new Error(`grade ${args.join(" ")} exited ${failed.status}`);
  return { ms: median(times.map((t) => t.ms)), stdout: times.at(-1)?.stdout ?? "" };
}

/** How the last grading's results file says its cases ran: "shared" and "isolated" counts. */
function ranCounts(resultsFile: string): { shared: number; isolated: number } {
  const results = JSON.parse(readFileSync(resultsFile, "utf8")) as {
    cases: { ran: string | null }[];
  };
  return {
    shared: results.cases.filter((c) => c.ran === "shared").length,
    isolated: results.cases.filter((c) => c.ran === "isolated").length,
  };
}

// ---------------------------------------------------------------------------------------------
if (measures("grading")) {
  process.stderr.write("grading the reference over the built-in cases, shared and --isolate\n");
  const cases = builtInCases;
  const resultsFile = join(tmpdir(), `kit-bench-results-${process.pid}.json`);
  // JUnit on standard output: the report format with every case's wall time. The grader's own
  // command, as `npm run grade` runs it; npm's own start is measured apart below. The results
  // file (a few ms to write) says which cases ran shared.
  const gradeArgs = ["solution", "--format", "junit"];
  const shared = gradeTimes([...gradeArgs, "--format", `json=${resultsFile}`]);
  const sharedRan = ranCounts(resultsFile);
  const isolated = gradeTimes([...gradeArgs, "--isolate", "--format", `json=${resultsFile}`]);
  rmSync(resultsFile, { force: true });
  const gradeMs = shared.ms;
  const floor = floorMs(cases.length);
  add({
    name: `floor: grading ${cases.length} cases on ${CORES} cores`,
    value: floor,
    unit: "ms",
    clock: "cases x one sandboxed start / os.availableParallelism()",
  });
  add({
    name: "grade solution, shared (all cases)",
    value: gradeMs,
    unit: "ms",
    clock: `\`node grader/launch.mjs solution --format junit\` (what \`npm run grade\` runs) start to exit, median; ${sharedRan.shared} of ${cases.length} cases ran shared`,
  });
  add({
    name: "grade solution --isolate (all cases)",
    value: isolated.ms,
    unit: "ms",
    clock: "the same with `--isolate`: every case its own sandboxed process, median",
  });
  const viaNpmMs = median(
    Array.from(
      { length: RUNS },
      () => timeCommand("npm", ["run", "-s", "grade", "--", ...gradeArgs], true).ms,
    ),
  );
  add({
    name: "the same (shared) through `npm run -s grade`",
    value: viaNpmMs,
    unit: "ms",
    clock: `npm's own start added (${(viaNpmMs - gradeMs).toFixed(0)} ms); ${(viaNpmMs / floor).toFixed(2)}x the floor`,
  });
  add({
    name: "grade solution / floor",
    value: gradeMs / floor,
    unit: "x",
    clock: "the shared grading above / its floor",
    target: "<= 0.5x",
  });
  add({
    name: "grade solution --isolate / floor",
    value: isolated.ms / floor,
    unit: "x",
    clock: "the --isolate grading above / its floor",
  });
  add({
    name: "grade solution / floor of `-e 0` starts",
    value: gradeMs / ((cases.length * (evalZeroStartMs ?? NaN)) / CORES),
    unit: "x",
    clock: "the shared grading against cases x one `-e 0` start / cores",
  });
  // Every case's wall time from the last grading of each kind: alone, runProcess's durationMs
  // (spawn to close); shared, the harness's import of the bundle and call of run.
  const aloneMs = junitCaseMs(isolated.stdout);
  const sharedMs = junitCaseMs(shared.stdout);
  if (aloneMs.length === cases.length && sharedMs.length === cases.length) {
    const perCase = median(aloneMs);
    add({
      name: "per case alone: wall time",
      value: perCase,
      unit: "ms",
      clock: `median over the ${cases.length} cases of the --isolate grading (${caseConcurrency()} at a time)`,
    });
    add({
      name: "per case alone: beyond the sandboxed start",
      value: perCase - (sandboxedStartMs ?? NaN),
      unit: "ms",
      clock: "that median minus one sandboxed start of the empty program",
    });
    add({
      name: "per case shared: import + call",
      value: median(sharedMs),
      unit: "ms",
      clock:
        "median over the cases of the shared grading (a shared case's time is the harness's fresh import of the bundle and its call of run, no process start)",
    });
  } else {
    process.stderr.write(
      `  per-case times: found ${aloneMs.length} and ${sharedMs.length} of ${cases.length}\n`,
    );
  }

  // The naive way: the tsx command (node_modules/.bin/tsx) once per case, one case after another;
  // and, for comparison, node --import tsx per case (one Node start fewer than the tsx command).
  const naive = (command: string, prefix: string[]) => {
    const started = performance.now();
    for (const c of cases) {
      const args = [...prefix, join(ROOT, "solution/src/main.ts"), ...modeArgs(c.mode)];
      spawnSync(command, args, {
        input: c.inputText,
        stdio: ["pipe", "pipe", "pipe"],
        maxBuffer: 64 * 1024 * 1024,
      });
    }
    return performance.now() - started;
  };
  const naiveMs = naive(join(ROOT, "node_modules", ".bin", "tsx"), []);
  add({
    name: "naive grading (tsx per case, in turn)",
    value: naiveMs,
    unit: "ms",
    clock: "`tsx solution/src/main.ts` once per case, sequentially",
  });
  const naiveNodeMs = naive(process.execPath, ["--import", "tsx"]);
  add({
    name: "naive, node --import tsx per case",
    value: naiveNodeMs,
    unit: "ms",
    clock: "`node --import tsx solution/src/main.ts` once per case, sequentially",
  });
  add({
    name: "speed-up over naive",
    value: naiveMs / gradeMs,
    unit: "x",
    clock: "naive (tsx per case) / grade",
    target: ">= 5x",
  });
  add({
    name: "speed-up over node --import tsx per case",
    value: naiveNodeMs / gradeMs,
    unit: "x",
    clock: "that naive variant / grade",
  });
}

// ---------------------------------------------------------------------------------------------
// The grader's fixed cost: what a grading takes besides its cases. With shared runs the cases of a
// group run one after another inside one process, so it cannot be worked out from the cases' own
// times (a shared case's time leaves out its process); it is measured directly instead, as a
// grading of one case, and part by part. The parts overlap in a grading (the probe runs while the
// schemas load, the build while the cases load), so they add up to more than the whole.
if (measures("fixed-cost")) {
  process.stderr.write("the grader's fixed cost: one case graded, and its parts\n");
  const STARTS = values.quick ? 5 : 15;
  const firstCase = builtInCases[0];
  if (firstCase === undefined) throw new Error("no built-in cases");
  const one = ["solution", "--only", firstCase.id, "--format", "junit"];
  const oneShared = gradeTimes(one);
  const oneAlone = gradeTimes([...one, "--isolate"]);
  add({
    name: "grade solution --only one case, shared",
    value: oneShared.ms,
    unit: "ms",
    clock: `\`node grader/launch.mjs solution --only ${firstCase.id} --format junit\` start to exit, median: the fixed cost, a shared process's start and one case`,
  });
  add({
    name: "grade solution --only one case --isolate",
    value: oneAlone.ms,
    unit: "ms",
    clock: "the same with `--isolate`: the fixed cost and one case's own process",
  });
  const [oneCaseMs] = junitCaseMs(oneAlone.stdout);
  add({
    name: "fixed cost outside the cases",
    value: oneAlone.ms - (oneCaseMs ?? NaN),
    unit: "ms",
    clock:
      "the --isolate grading of one case minus that case's wall time (its process, spawn to close, from the JUnit report)",
  });

  const helpMs = median(
    Array.from(
      { length: STARTS + 1 },
      () => timeCommand(process.execPath, [LAUNCH, "--help"]).ms,
    ).slice(1),
  );
  add({
    name: "  grader start: `node grader/launch.mjs --help`",
    value: helpMs,
    unit: "ms",
    clock: `Node's start, launch.mjs's cache check, the grader bundle's modules, the usage printed; median of ${STARTS} after one warm-up`,
  });
  // launch.mjs's cache check as it does it (sourceKey): every grader source's path, size and mtime,
  // and package.json's, hashed; the folder walked in name order.
  const cacheCheck = () => {
    const started = performance.now();
    const hash = createHash("sha256").update(process.version);
    const walk = (dir: string) => {
      const entries = readdirSync(dir, { withFileTypes: true }).sort((x, y) =>
        x.name < y.name ? -1 : 1,
      );
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|json|mjs)$/.test(entry.name)) {
          const st = statSync(path);
          hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
        }
      }
    };
    walk(join(ROOT, "grader"));
    const pkg = statSync(join(ROOT, "package.json"));
    hash.update(`package.json\0${pkg.size}\0${pkg.mtimeMs}\n`);
    hash.digest("hex");
    return performance.now() - started;
  };
  add({
    name: "  of which launch.mjs's cache check",
    value: median(Array.from({ length: STARTS }, cacheCheck)),
    unit: "ms",
    clock: "its walk of grader/ (stat and hash of every source) done in this process, median",
  });
  add({
    name: "  loading the cases",
    value: loadCasesMs,
    unit: "ms",
    clock: `the schemas compiled and the ${builtInCases.length} built-in cases read and validated (loadCases), the bench's first call`,
  });
  add({
    name: "  sandbox probe",
    value: probeMs ?? NaN,
    unit: "ms",
    clock:
      "detectSandbox (both probes at once), the bench's first call; in a grading it runs while the schemas load",
  });
  const limits = { timeoutMs: 10_000, memoryMiB: MEMORY_MIB, outputCapBytes: OUTPUT_CAP_BYTES };
  const target = { kind: "folder" as const, path: join(ROOT, "solution"), name: "solution" };
  const builds: number[] = [];
  let prepared: PreparedProgram | undefined;
  for (let i = 0; i < RUNS; i++) {
    prepared?.cleanup();
    const started = performance.now();
    prepared = await prepareProgram(target, limits);
    builds.push(performance.now() - started);
  }
  add({
    name: "  build",
    value: median(builds),
    unit: "ms",
    clock:
      "prepareProgram on solution/ (the confined esbuild worker and the stack map), median; in a grading it runs while the cases load",
  });
  const shared = prepared?.program?.shared;
  if (shared === undefined) throw new Error("solution/ does not build, or cannot run shared");
  const sharedStarts: number[] = [];
  for (let i = 0; i < STARTS + 1; i++) {
    const started = performance.now();
    const [report] = await runSharedGroup(shared, [firstCase], limits);
    const wall = performance.now() - started;
    if (report === undefined || report.flags.length > 0)
      throw new Error(`the shared run gave no clean report: ${report?.flags.join(",") ?? "none"}`);
    sharedStarts.push(wall - report.wallMs);
  }
  prepared?.cleanup();
  add({
    name: "  a shared process's start",
    value: median(sharedStarts.slice(1)),
    unit: "ms",
    clock: `runSharedGroup on one case, start to end, minus the case's own import and call; median of ${STARTS} after one warm-up`,
  });
  // The reports: the time spent in the reporters' hooks during a grading in this process.
  let reportsMs = 0;
  const timed = (reporter: Reporter): Reporter => {
    const wrap =
      <A extends unknown[]>(hook: ((...args: A) => void) | undefined) =>
      (...args: A) => {
        const started = performance.now();
        hook?.(...args);
        reportsMs += performance.now() - started;
      };
    return {
      onRunStart: wrap(reporter.onRunStart?.bind(reporter)),
      onNotGraded: wrap(reporter.onNotGraded?.bind(reporter)),
      onCaseResult: wrap(reporter.onCaseResult?.bind(reporter)),
      onRunEnd: wrap(reporter.onRunEnd?.bind(reporter)),
    };
  };
  const command = parseGradeArgs(["solution"]);
  const context = await prepareGrading(command);
  try {
    await gradeSubmission(
      context.gradeOptions(command.submission, [
        timed(FORMATS.text(new MemorySink())),
        timed(FORMATS.junit(new MemorySink())),
      ]),
    );
  } finally {
    context.dispose();
  }
  add({
    name: "  reports (text and JUnit)",
    value: reportsMs,
    unit: "ms",
    clock: `time in the text and JUnit reporters' hooks over the ${builtInCases.length} cases of a grading in this process`,
  });
}

// ---------------------------------------------------------------------------------------------
if (measures("batch")) {
  process.stderr.write("a batch of 50 submissions\n");
  const batchDir = mkdtempSync(join(tmpdir(), "kit-bench-batch-"));
  // Half reference copies, half mutants (none of which hangs or runs out of memory on a built-in
  // case: diagnosis.json records no such outcome), as the batch asks.
  const ids = [...CATALOGUE.keys()];
  for (let i = 0; i < 50; i++) {
    const name = `s${String(i + 1).padStart(2, "0")}`;
    const source =
      i % 2 === 0 ? join(ROOT, "solution") : writeMutant(ids[(i >> 1) % ids.length] ?? "");
    cpSync(source, join(batchDir, name), { recursive: true });
  }
  const batchOut = join(batchDir, "..", `${batchDir.split("/").pop()}-out`);
  const floor = 50 * floorMs(builtInCases.length);
  add({
    name: "floor: 50 submissions",
    value: floor / 1000,
    unit: "s",
    clock: "50 x the one-submission floor",
  });
  /** The batch, shared (the default) or with --isolate: its wall time (ms), or undefined. */
  const timeBatch = (isolate: boolean) => {
    rmSync(batchOut, { recursive: true, force: true });
    const batch = timeCommand(process.execPath, [
      LAUNCH,
      "--batch",
      batchDir,
      "--report-dir",
      batchOut,
      ...(isolate ? ["--isolate"] : []),
    ]);
    if (batch.status === 0) return batch.ms;
    process.stderr.write(
      `  batch${isolate ? " --isolate" : ""} exited ${batch.status}: not measured\n`,
    );
    return undefined;
  };
  const sharedMs = timeBatch(false);
  const isolatedMs = timeBatch(true);
  if (sharedMs !== undefined) {
    add({
      name: "batch of 50 submissions, shared",
      value: sharedMs / 1000,
      unit: "s",
      clock: "`node grader/launch.mjs --batch DIR --report-dir OUT` start to exit",
    });
    add({
      name: "batch / 50 floors",
      value: sharedMs / floor,
      unit: "x",
      clock: "the shared batch above / its floor",
      target: "<= 0.45x",
    });
    add({
      name: "batch / 50 floors of `-e 0` starts",
      value: sharedMs / ((50 * builtInCases.length * (evalZeroStartMs ?? NaN)) / CORES),
      unit: "x",
      clock: "the same against 50 x cases x one `-e 0` start / cores",
    });
    add({
      name: "batch throughput, shared",
      value: 50 / (sharedMs / 1000),
      unit: "submissions/s",
      clock: "50 / batch wall time",
    });
  }
  if (isolatedMs !== undefined) {
    add({
      name: "batch of 50 submissions --isolate",
      value: isolatedMs / 1000,
      unit: "s",
      clock: "the same with `--isolate` start to exit",
    });
    add({
      name: "batch --isolate / 50 floors",
      value: isolatedMs / floor,
      unit: "x",
      clock: "the --isolate batch above / its floor",
    });
    add({
      name: "batch throughput --isolate",
      value: 50 / (isolatedMs / 1000),
      unit: "submissions/s",
      clock: "50 / batch wall time",
    });
  }
  rmSync(batchDir, { recursive: true, force: true });
  rmSync(batchOut, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
if (measures("starter")) {
  process.stderr.write("grading the starter (every case fails), shared and --isolate\n");
  // Every case fails, so a shared run's reports are all misses: the shared run gives up after a
  // few and every case runs alone, as with --isolate; the difference is what the attempt costs.
  const args = ["starter", "--format", "junit"];
  const shared = gradeTimes(args);
  const isolated = gradeTimes([...args, "--isolate"]);
  const floor = floorMs(builtInCases.length);
  add({
    name: "grade starter, shared",
    value: shared.ms,
    unit: "ms",
    clock: `\`node grader/launch.mjs starter --format junit\` start to exit, median; ${(shared.ms / floor).toFixed(2)}x the floor`,
  });
  add({
    name: "grade starter --isolate",
    value: isolated.ms,
    unit: "ms",
    clock: `the same with \`--isolate\`, median; ${(isolated.ms / floor).toFixed(2)}x the floor`,
  });
  add({
    name: "grade starter, shared / --isolate",
    value: shared.ms / isolated.ms,
    unit: "x",
    clock: "the shared grading / the --isolate one: what the shared run's attempt costs",
    target: "<= 1.1x",
  });
}

// ---------------------------------------------------------------------------------------------
/**
 * `--watch` on a copy of solution/ (the grader started as the e2e watch test starts it, output
 * piped: no screen clearing), shared or with --isolate: after the first report, a src/ file
 * rewritten with its own content RUNS times, each time the wall time from the write to the end
 * of the regrade's report (ms, median). Then Ctrl-C (SIGINT to the grader started here).
 */
async function watchRegrade(isolate: boolean): Promise<number> {
  const copy = mkdtempSync(join(tmpdir(), "kit-bench-watch-"));
  const submission = join(copy, "submission");
  cpSync(join(ROOT, "solution"), submission, { recursive: true });
  const grader = spawn(
    process.execPath,
    [LAUNCH, submission, "--watch", ...(isolate ? ["--isolate"] : [])],
    {
      cwd: ROOT,
      env: { ...process.env, INIT_CWD: ROOT, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  /** When output from `from` on first held a whole report (performance.now()). */
  let seen: { from: number; at: number } | undefined;
  let watching = 0;
  grader.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (seen === undefined && output.includes("Ctrl-C to stop", watching)) {
      seen = { from: watching, at: performance.now() };
    }
  });
  grader.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((done) => grader.on("exit", () => done()));
  const nextReport = async (from: number) => {
    watching = from;
    seen = output.includes("Ctrl-C to stop", from) ? { from, at: performance.now() } : undefined;
    const deadline = Date.now() + 120_000;
    while (seen === undefined) {
      if (grader.exitCode !== null) throw new Error(`--watch exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`--watch: no report after 120 s: ${output}`);
      await new Promise((wait) => setTimeout(wait, 5));
    }
    return seen.at;
  };
  try {
    await nextReport(0);
    const file = join(submission, "src", "range-assignor.ts");
    const text = readFileSync(file);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A pause, so that the save is not joined to anything before it.
      await new Promise((wait) => setTimeout(wait, 500));
      const from = output.length;
      watching = from;
      seen = undefined;
      const saved = performance.now();
      writeFileSync(file, text);
      times.push((await nextReport(from)) - saved);
      if (!output.slice(from).includes("Every case passes."))
        throw new Error(`--watch: the regrade did not pass: ${output.slice(from)}`);
    }
    return median(times);
  } finally {
    if (grader.exitCode === null) grader.kill("SIGINT");
    const stopped = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((wait) => setTimeout(() => wait(false), 10_000)),
    ]);
    if (!stopped) grader.kill("SIGKILL");
    rmSync(copy, { recursive: true, force: true });
  }
}

if (measures("watch")) {
  process.stderr.write("--watch: a save to the end of the regrade's report\n");
  const clock =
    "a src/ file of a copy of solution/ rewritten (same content) to the end of the regrade's report, the 150 ms debounce included";
  add({
    name: "watch: regrade after a save, shared",
    value: await watchRegrade(false),
    unit: "ms",
    clock: `${clock}; median of ${RUNS}`,
    target: "<= 1000 ms on idle cores",
  });
  add({
    name: "watch: regrade after a save --isolate",
    value: await watchRegrade(true),
    unit: "ms",
    clock: `the same with \`--watch --isolate\`; median of ${RUNS}`,
  });
}

// ---------------------------------------------------------------------------------------------
if (measures("diagnosis")) {
  process.stderr.write("regenerating the diagnosis (outside the kit)\n");
  // What `npm run build:diagnosis` runs, written into a temporary folder (never the kit's tracked
  // diagnosis.json). Once generate takes --isolate, both ways are timed; until then, the default.
  const tsx = join(ROOT, "node_modules", ".bin", "tsx");
  const generate = join(ROOT, "scripts", "generate.ts");
  const usage = timeCommand(tsx, [generate, "--help"], true).stdout;
  const variants: { label: string; args: string[] }[] = [{ label: "", args: [] }];
  if (usage.includes("--isolate")) variants.push({ label: " --isolate", args: ["--isolate"] });
  else process.stderr.write("  generate takes no --isolate: its default only\n");
  for (const { label, args } of variants) {
    const out = mkdtempSync(join(tmpdir(), "kit-bench-diagnosis-"));
    const run = timeCommand(tsx, [generate, "--only", "diagnosis", "--out", out, ...args]);
    rmSync(out, { recursive: true, force: true });
    if (run.status !== 0) {
      process.stderr.write(`  generate${label} exited ${run.status}: not measured\n`);
      continue;
    }
    add({
      name: `diagnosis regenerated${label}`,
      value: run.ms / 1000,
      unit: "s",
      clock: `\`tsx scripts/generate.ts --only diagnosis --out TMP${label}\` start to exit, once (every mutant on every built-in case)`,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The group is built for the decoder comparison too.
process.stderr.write("a group of 10,000 members\n");
// Seeded: the same group on every run.
const random = seededRandom(20261130);
const topicNames = Array.from({ length: 1000 }, (_, i) => `topic-${String(i).padStart(4, "0")}`);
const members = Array.from({ length: 10_000 }, (_, i) => {
  const chosen = new Set<string>();
  while (chosen.size < 50) chosen.add(topicNames[Math.floor(random() * topicNames.length)] ?? "");
  const topics = [...chosen];
  const bytes = kafkajs.AssignerProtocol.MemberMetadata.encode({
    version: 0,
    topics,
    userData: Buffer.alloc(0),
  });
  return { memberId: `consumer-${i}-${Math.floor(random() * 1e9).toString(36)}`, topics, bytes };
});
const views = members.map(
  (m) => new Uint8Array(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength),
);
const workDir = mkdtempSync(join(tmpdir(), "kit-bench-"));

// The same group with racks, drawn after it (so the group itself is unchanged): every member on
// one of 3 zones, at version 3; every partition's replicas on 1 or 2 of those zones, so partitions
// differ in racks and every topic needs rack matching (Kafka's rack-aware path runs on all).
const ZONES = ["use1-az1", "use1-az2", "use1-az3"];
const rackOf = members.map(() => ZONES[Math.floor(random() * ZONES.length)] ?? "");
const rackBytes = members.map((m, k) =>
  encodeSubscriptionV3({
    topics: m.topics,
    userData: Buffer.alloc(0),
    ownedPartitions: [],
    generationId: -1,
    rackId: rackOf[k] ?? null,
  }),
);
const partitionRacks = new Map(
  topicNames.map((t) => [
    t,
    Array.from({ length: 100 }, () => {
      const first = Math.floor(random() * ZONES.length);
      const racks = [ZONES[first] ?? ""];
      // A second replica on another zone for about half the partitions.
      if (random() < 0.5) racks.push(ZONES[(first + 1 + Math.floor(random() * 2)) % 3] ?? "");
      return racks;
    }),
  ]),
);

if (measures("large-group")) {
  process.stderr.write("the reference on a group of 10,000 members, without and with racks\n");
  const built = await buildSubmission(join(ROOT, "solution"));
  if (built.bundle === undefined)
    throw new Error(`solution does not build: ${built.errors.join("; ")}`);
  const rssProbe = join(workDir, "rss.cjs");
  writeFileSync(
    rssProbe,
    'process.on("exit", () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`));\n',
  );

  /** The bundle on one input file, RUNS times: median wall time (ms) and peak memory (MB). */
  const endToEnd = async (input: string, label: string) => {
    const inputFile = join(workDir, `${label}.json`);
    writeFileSync(inputFile, input);
    const times: number[] = [];
    const peaks: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const result = await new Promise<{ stderr: string; status: number | null }>((resolve) => {
        const child = spawn(process.execPath, ["-r", rssProbe, built.bundle ?? "", inputFile], {
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("close", (status) => resolve({ stderr, status }));
      });
      times.push(performance.now() - started);
      if (result.status !== 0)
        throw new Error(`the reference failed on the large group (${label}): ${result.stderr}`);
      peaks.push(Number(/maxrss (\d+)/.exec(result.stderr)?.[1] ?? NaN) / 1024);
    }
    return { ms: median(times), mb: median(peaks), inputFile };
  };
  /**
   * The parse floor of an input file: a fresh Node reading it and JSON.parse-ing it, start to
   * exit, median of RUNS (ms). Whatever the program does beyond this is the program's own work.
   */
  const parseFloor = (inputFile: string) =>
    median(
      Array.from(
        { length: RUNS },
        () =>
          timeCommand(process.execPath, [
            "-e",
            'JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))',
            inputFile,
          ]).ms,
      ),
    );

  const topicsJson = Object.fromEntries(topicNames.map((t) => [t, 100]));
  const plain = await endToEnd(
    JSON.stringify({
      topics: topicsJson,
      members: members.map((m) => ({ memberId: m.memberId, metadata: m.bytes.toString("hex") })),
    }),
    "plain",
  );
  add({
    name: "10,000-member group end to end",
    value: plain.ms,
    unit: "ms",
    clock: "`node main.mjs input.json` (the esbuild bundle of solution/) start to exit, median",
    target: "<= 1900 ms on idle cores (Kafka's Java client: 1.8-1.9 s)",
  });
  const plainParse = parseFloor(plain.inputFile);
  add({
    name: "parse floor: Node reads and parses that input",
    value: plainParse,
    unit: "ms",
    clock: "`node -e` readFileSync + JSON.parse of the same file, start to exit, median",
  });
  add({
    name: "10,000-member group / parse floor",
    value: plain.ms / plainParse,
    unit: "x",
    clock: "end to end above / its parse floor",
    target: "<= 9x",
  });
  add({
    name: "10,000-member group peak memory",
    value: plain.mb,
    unit: "MB",
    clock: "the process's maxRSS at exit",
    target: "<= 300 MB",
  });
  const racked = await endToEnd(
    JSON.stringify({
      topics: topicsJson,
      partitionRacks: Object.fromEntries(partitionRacks),
      members: members.map((m, k) => ({
        memberId: m.memberId,
        metadata: rackBytes[k]?.toString("hex") ?? "",
      })),
    }),
    "racks",
  );
  add({
    name: "10,000-member group with racks end to end",
    value: racked.ms,
    unit: "ms",
    clock: "the same, members on 3 racks (version 3) and partitionRacks for every topic",
  });
  const rackParse = parseFloor(racked.inputFile);
  add({
    name: "parse floor of the input with racks",
    value: rackParse,
    unit: "ms",
    clock: "`node -e` readFileSync + JSON.parse of that file, start to exit, median",
  });
  add({
    name: "10,000-member group with racks / parse floor",
    value: racked.ms / rackParse,
    unit: "x",
    clock: "end to end with racks / its parse floor",
    target: "<= 9x",
  });
  add({
    name: "10,000-member group with racks peak memory",
    value: racked.mb,
    unit: "MB",
    clock: "the process's maxRSS at exit",
    target: "<= 300 MB",
  });

  const decodeRuns: number[] = [];
  let subscriptions = new Map<string, MemberSubscription>();
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now();
    subscriptions = new Map(
      members.map((m, k) => [
        m.memberId,
        {
          topics: decodeSubscription(views[k] as Uint8Array).topics,
          groupInstanceId: null,
          rackId: null,
        },
      ]),
    );
    decodeRuns.push(performance.now() - started);
  }
  add({
    name: "decode 10,000 subscriptions (in process)",
    value: median(decodeRuns),
    unit: "ms",
    clock: "decodeSubscription over every member, median of warm runs",
  });
  const partitionsPerTopic = new Map(topicNames.map((t) => [t, 100]));
  /** assignRange on the group, RUNS + 2 times: the median, ms. */
  const assignMs = (subs: ReadonlyMap<string, MemberSubscription>, racks?: PartitionRacks) => {
    const runs: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      const started = performance.now();
      assignRange(partitionsPerTopic, subs, racks);
      runs.push(performance.now() - started);
    }
    return median(runs);
  };
  add({
    name: "assign 10,000 members (in process)",
    value: assignMs(subscriptions),
    unit: "ms",
    clock: "assignRange, median of warm runs",
  });
  const rackSubscriptions = new Map(
    members.map((m, k) => [
      m.memberId,
      { topics: m.topics, groupInstanceId: null, rackId: rackOf[k] ?? null },
    ]),
  );
  add({
    name: "assign 10,000 members with racks (in process)",
    value: assignMs(rackSubscriptions, partitionRacks),
    unit: "ms",
    clock: "assignRange with every member's rack and partitionRacks, median of warm runs",
  });
  rmSync(built.outDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
if (measures("decoder")) {
  process.stderr.write("decoder against kafkajs on the same bytes\n");
  const ROUNDS = values.quick ? 5 : 21;
  // Rounds alternate between the two decoders (after a warm-up of each), so garbage collection and
  // the JIT treat both alike; each figure is the median of its rounds.
  const decodeAll = (decode: (k: number) => unknown) => {
    const started = performance.now();
    for (let k = 0; k < members.length; k++) decode(k);
    return performance.now() - started;
  };
  const oursOnce = () => decodeAll((k) => decodeSubscription(views[k] as Uint8Array));
  const theirsOnce = () =>
    decodeAll((k) =>
      kafkajs.AssignerProtocol.MemberMetadata.decode(members[k]?.bytes ?? Buffer.alloc(0)),
    );
  for (let r = 0; r < 3; r++) {
    oursOnce();
    theirsOnce();
  }
  const oursRuns: number[] = [];
  const theirsRuns: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    oursRuns.push(oursOnce());
    theirsRuns.push(theirsOnce());
  }
  const ours = median(oursRuns);
  const theirs = median(theirsRuns);
  add({
    name: "decodeSubscription, 10,000 subscriptions",
    value: ours,
    unit: "ms",
    clock: "median of alternating rounds, same process",
  });
  add({
    name: "kafkajs MemberMetadata.decode, same bytes",
    value: theirs,
    unit: "ms",
    clock: "median of alternating rounds, same process",
  });
  add({
    name: "kafkajs time / ours",
    value: theirs / ours,
    unit: "x",
    clock: "above 1: ours is faster",
    target: ">= 1x",
  });
}

rmSync(workDir, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------
const machine = `${cpus()[0]?.model ?? "?"} (${availableParallelism()} cores), Node ${process.versions.node}`;
const rows = figures.map((f) => [f.name, shown(f), f.target ?? "", f.clock]);
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? "").length), 6));
process.stdout.write(`${machine}\n\n`);
for (const r of [["figure", "value", "target", "what the clock covers"], ...rows]) {
  process.stdout.write(
    `${r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join("  ")}\n`,
  );
}
if (values.json !== undefined) {
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), values.json);
  writeFileSync(file, `${JSON.stringify({ machine, figures }, null, 2)}\n`);
  process.stderr.write(`wrote ${file}\n`);
}
