/**
 * `npm run bench [-- --json FILE] [--quick] [--only PART]...`: the kit's speed and memory figures,
 * as a table (and JSON). Every figure says what its clock covers. Not a test: nothing here fails on
 * a number. `--only` (repeatable) measures some parts: grading, batch, large-group, decoder.
 *
 *   floor          (with grading or batch) one case's process chain exactly as the grader starts
 *                  it (run/prepare.ts runCase: run identity, sandbox wrappers, Node's permission model,
 *                  limits) running an empty program, and the bare `node -e 0` beside it; the
 *                  floor for a grading is cases x that sandboxed start / the cores available
 *                  (os.availableParallelism()), and grading figures are given as ratios to it
 *   grading        `node grader/launch.mjs solution` (what `npm run grade` runs; npm's own start is
 *                  given apart) over the built-in cases, command start to exit, against the naive
 *                  way (one `tsx solution/src/main.ts` process per case, in turn)
 *   batch          `node grader/launch.mjs --batch` of 50 submissions (solution copies and mutants)
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
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import kafkajs from "kafkajs";
import { CATALOGUE } from "../grader/diagnose/catalogue.ts";
import { caseConcurrency } from "../grader/context.ts";
import { FixtureSchemas, loadCases } from "../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../grader/kit.ts";
import { runCase, type Program } from "../grader/run/prepare.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../grader/limits.ts";
import { programRun } from "../grader/run/program.ts";
import { sandboxFeatures } from "../grader/run/sandbox.ts";
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
const PARTS = ["grading", "batch", "large-group", "decoder"] as const;
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
const add = (f: Figure) => {
  figures.push(f);
  process.stderr.write(`  ${f.name}: ${f.value.toFixed(f.unit === "ms" ? 0 : 2)} ${f.unit}\n`);
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
const schemas = new FixtureSchemas();
const builtInCases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
/** One sandboxed start, ms (median); undefined until measured. */
let sandboxedStartMs: number | undefined;
/** The same with `-e 0` in place of the program file, ms (median). */
let evalZeroStartMs: number | undefined;
if (measures("grading") || measures("batch")) {
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

// ---------------------------------------------------------------------------------------------
if (measures("grading")) {
  process.stderr.write("grading the reference over the built-in cases\n");
  const cases = builtInCases;
  // JUnit on standard output: the only report format with every case's wall time. The grader's
  // own command, as `npm run grade` runs it; npm's own start is measured apart below.
  const gradeArgs = ["solution", "--format", "junit"];
  const gradeRuns = Array.from({ length: RUNS }, () =>
    timeCommand(process.execPath, [LAUNCH, ...gradeArgs], true),
  );
  const gradeMs = median(gradeRuns.map((r) => r.ms));
  const floor = floorMs(cases.length);
  add({
    name: `floor: grading ${cases.length} cases on ${CORES} cores`,
    value: floor,
    unit: "ms",
    clock: "cases x one sandboxed start / os.availableParallelism()",
  });
  add({
    name: "grade solution (all cases)",
    value: gradeMs,
    unit: "ms",
    clock:
      "`node grader/launch.mjs solution --format junit` (what `npm run grade` runs) start to exit, median",
  });
  const viaNpmMs = median(
    Array.from(
      { length: RUNS },
      () => timeCommand("npm", ["run", "-s", "grade", "--", ...gradeArgs], true).ms,
    ),
  );
  add({
    name: "the same through `npm run -s grade`",
    value: viaNpmMs,
    unit: "ms",
    clock: `npm's own start added (${(viaNpmMs - gradeMs).toFixed(0)} ms); ${(viaNpmMs / floor).toFixed(2)}x the floor`,
  });
  add({
    name: "grade solution / floor",
    value: gradeMs / floor,
    unit: "x",
    clock: "the grading above / its floor",
    target: "<= 1.3x",
  });
  add({
    name: "grade solution / floor of `-e 0` starts",
    value: gradeMs / ((cases.length * (evalZeroStartMs ?? NaN)) / CORES),
    unit: "x",
    clock: "the same against cases x one `-e 0` start / cores",
  });
  // Every case's wall time (runProcess's durationMs: spawn to close), from the last grading.
  const caseMs = [
    ...(gradeRuns.at(-1)?.stdout ?? "").matchAll(/<testcase [^>]*\btime="([\d.]+)"/g),
  ].map((m) => Number(m[1]) * 1000);
  if (caseMs.length === cases.length) {
    const perCase = median(caseMs);
    add({
      name: "per case: wall time",
      value: perCase,
      unit: "ms",
      clock: `median over the ${caseMs.length} cases of one grading (${caseConcurrency()} at a time)`,
    });
    add({
      name: "per case: beyond the sandboxed start",
      value: perCase - (sandboxedStartMs ?? NaN),
      unit: "ms",
      clock: "that median minus one sandboxed start of the empty program",
    });
    add({
      name: "fixed cost outside the cases",
      value: gradeMs - caseMs.reduce((a, b) => a + b, 0) / caseConcurrency(),
      unit: "ms",
      clock:
        "grading wall time minus the cases' summed wall time / cases at once (start, build, reports)",
    });
  } else {
    process.stderr.write(`  per-case times: found ${caseMs.length} of ${cases.length}\n`);
  }

  // The naive way: the tsx command (node_modules/.bin/tsx) once per case, one case after another;
  // and, for comparison, node --import tsx per case (one Node start fewer than the tsx command).
  const naive = (command: string, prefix: string[]) => {
    const started = performance.now();
    for (const c of cases) {
      const args = [
        ...prefix,
        join(ROOT, "solution/src/main.ts"),
        ...(c.mode === "decode" ? ["--decode"] : []),
      ];
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
  const batch = timeCommand(process.execPath, [
    LAUNCH,
    "--batch",
    batchDir,
    "--report-dir",
    batchOut,
  ]);
  if (batch.status === 0) {
    const floor = 50 * floorMs(builtInCases.length);
    add({
      name: "floor: 50 submissions",
      value: floor / 1000,
      unit: "s",
      clock: "50 x the one-submission floor",
    });
    add({
      name: "batch of 50 submissions",
      value: batch.ms / 1000,
      unit: "s",
      clock: "`node grader/launch.mjs --batch DIR --report-dir OUT` start to exit",
    });
    add({
      name: "batch / 50 floors",
      value: batch.ms / floor,
      unit: "x",
      clock: "the batch above / its floor",
      target: "<= 1.3x",
    });
    add({
      name: "batch / 50 floors of `-e 0` starts",
      value: batch.ms / ((50 * builtInCases.length * (evalZeroStartMs ?? NaN)) / CORES),
      unit: "x",
      clock: "the same against 50 x cases x one `-e 0` start / cores",
    });
    add({
      name: "batch throughput",
      value: 50 / (batch.ms / 1000),
      unit: "submissions/s",
      clock: "50 / batch wall time",
    });
  } else {
    process.stderr.write(`  batch exited ${batch.status}: not measured\n`);
  }
  rmSync(batchDir, { recursive: true, force: true });
  rmSync(batchOut, { recursive: true, force: true });
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
const rows = figures.map((f) => [
  f.name,
  `${f.value.toFixed(f.unit === "ms" ? 0 : 2)} ${f.unit}`,
  f.target ?? "",
  f.clock,
]);
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
