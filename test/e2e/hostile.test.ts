// Hostile submissions: each one gets the verdict it must get, zero credit, and a grader that exits 1
// with every report file written; afterwards the fixtures are byte-for-byte unchanged, no file or
// socket was left anywhere, no program is left running, no report holds an answer or a secret, and
// the verdicts do not depend on another grader running beside. (That they do not depend on the
// machine's load either is test/load/load.test.ts's, which .ci/run runs: it loads the machine.)
//
// The suite runs in whichever sandbox mode the machine gives this user: `root` (CI's first run) or
// `user-namespace` (CI's second run, as uid 65534); the few assertions about run identities say
// what each mode promises, and every other assertion holds in both modes. A machine with neither fails
// the mode test rather than skipping anything.
//
// Every submission is graded ONCE, with all the cases its assertions need, in beforeAll (two
// graders at a time); the tests only read the shared results. Nothing is timed: every wait is
// bounded by a count (of polls, of samples) or by killing the grader this test started.
//
// Signals are sent only to processes this test started (its graders, its CPU burners) and to the
// one program it stops and continues, which it finds under its own grader; the submissions send
// theirs only to their own parent or with signal 0.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { XMLValidator } from "fast-xml-parser";
import pLimit from "p-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantOfSolution } from "../helpers/grader.ts";
import {
  isIdentity,
  processes,
  programsUnder,
  sandboxMode,
  settledLeftovers,
  startGrading as startIn,
  verdictsOnly,
  type Graded,
  type GradingSpec,
  type Proc,
} from "../helpers/gradings.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import { userEnv } from "../helpers/shell.ts";
import { MEMORY_MIB } from "../../grader/limits.ts";
import { DATA_BEYOND_HEAP_MIB } from "../../grader/run/program.ts";
import { expectValidJunit } from "../helpers/xmllint.ts";

const isRoot = process.getuid?.() === 0;
/** The sandbox mode the grader must pick here: root, or (any other user) user namespaces. */
const MODE = isRoot ? "root" : "user-namespace";

const CASE_IDS = readdirSync(CASES_DIR).sort();
/** The case id that starts with `prefix` (e.g. "02"). */
function caseId(prefix: string): string {
  const id = CASE_IDS.find((c) => c.startsWith(`${prefix}-`));
  if (id === undefined) throw new Error(`no case ${prefix}`);
  return id;
}
const ONE = caseId("01");
const BAD_INPUT = caseId("25");
const SEVEN = ["01", "02", "03", "04", "05", "06", "07"].map(caseId);
/** The cases of the two-grader comparison: assign, decode and bad input. */
const PAIR_IDS = [ONE, caseId("02"), caseId("19"), BAD_INPUT];
const SECRET = "kit-test-secret-3f9a1c";
/** The data limit every program runs with (docs/sandbox.md): the heap and what Node needs beside. */
const DATA_LIMIT_MIB = MEMORY_MIB + DATA_BEYOND_HEAP_MIB;
/** A CPU limit of one second: the slow programs' verdicts come fast. */
const ONE_SECOND = ["--timeout", "1000"];

/** SHA-256 over every file under a folder, in path order. */
function treeHash(dir: string): string {
  const hash = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest("hex");
}

/** This test's graders' TMPDIR (what they build), so that what they leave there shows. */
const BUILD_TMP = mkdtempSync(join(tmpdir(), "kit-hostile-"));
chmodSync(BUILD_TMP, 0o755);
/** Where every grading writes its report files, one folder per grading. */
const REPORTS = mkdtempSync(join(tmpdir(), "kit-hostile-reports-"));
/** Starts one grading of this suite's (helpers/gradings.ts startGrading). */
const startGrading = (spec: GradingSpec) =>
  startIn(spec, { reports: REPORTS, buildTmp: BUILD_TMP, secret: SECRET });

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Every answer text a leak would show: each expected.json as the file holds it and as compact
 * JSON (`{"output":{...}}` or `{"error":{...}}`).
 */
function answerTexts(): string[] {
  return CASE_IDS.flatMap((id) => {
    const raw = readFileSync(join(CASES_DIR, id, "expected.json"), "utf8");
    return [raw.trim(), JSON.stringify(JSON.parse(raw))];
  });
}

/** Socket files under `dirs` (at most `depth` folders down), found with `find -type s`. */
function socketFiles(dirs: readonly string[], depth: number): string[] {
  const there = dirs.filter((d) => existsSync(d));
  if (there.length === 0) return [];
  try {
    return execFileSync("find", [...there, "-maxdepth", String(depth), "-type", "s"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\n")
      .filter((line) => line !== "");
  } catch (error) {
    // find exits 1 when some folder could not be read (another user's): keep what it printed.
    return String((error as { stdout?: string }).stdout ?? "")
      .split("\n")
      .filter((line) => line !== "");
  }
}

/** The probe's line: its pid, its parent's, and every pid signal 0 reached. */
function probeLine(message: string): { probe: number; parent: number; signalable: number[] } {
  const match = /probe (\d+) \(parent (\d+)\) could signal: (\[[\d,]*\])/.exec(message);
  if (match === null) throw new Error(`no probe line in ${JSON.stringify(message)}`);
  return {
    probe: Number(match[1]),
    parent: Number(match[2]),
    signalable: JSON.parse(match[3] ?? "[]") as number[],
  };
}

// ---------------------------------------------------------------------------------------------
// The gradings

/** The reference with a 1.5 s sleep before it starts: slow in wall time, light on CPU. */
const SLEEPY = variantOfSolution([
  {
    file: "main.ts",
    search: "if (isProgram()) {",
    replace:
      "// Sleeps 1.5 s first: wall time, not CPU time.\nawait new Promise((resolve) => setTimeout(resolve, 1500));\nif (isProgram()) {",
  },
]);

/** A hostile submission under test/submissions, graded on `ids`. */
const hostile = (name: string, ids: readonly string[], extra: readonly string[] = []) => ({
  label: name,
  submission: join("test", "submissions", name),
  ids,
  extra,
});

/** The verdict each hostile submission must get on each of its cases. */
const VERDICTS: readonly (readonly [GradingSpec, string, string])[] = [
  [hostile("timeout", [ONE], ONE_SECOND), "timeout", "timeout"],
  [hostile("idle-timer", [ONE], ONE_SECOND), "timeout", "timeout"],
  [hostile("print-then-hang", [ONE], ONE_SECOND), "timeout", "timeout"],
  [hostile("output-flood", [ONE]), "error", "output-cap"],
  [hostile("stderr-flood", [ONE]), "error", "output-cap"],
  [hostile("offheap-memory", [ONE]), "error", "memory"],
  [hostile("crash", [ONE]), "error", "crash"],
  [hostile("uncaught", [ONE]), "error", "crash"],
  [hostile("silent-exit", [ONE]), "fail", "invalid-output"],
  [hostile("invalid-output", [ONE]), "fail", "invalid-output"],
  [hostile("wrong-shape", [ONE]), "fail", "invalid-output"],
  [hostile("proto-pollution", [ONE]), "fail", "wrong-output"],
  [hostile("search-disk", [ONE]), "error", "crash"],
  [hostile("rewrite-answers", [ONE]), "error", "crash"],
  [hostile("write-files", [ONE]), "error", "crash"],
  [hostile("detached-child", [ONE]), "error", "crash"],
  [hostile("socket-files", [ONE]), "error", "crash"],
  [hostile("import-answers", [ONE]), "error", "build-error"],
  [hostile("symlink-answers", [ONE]), "error", "build-error"],
  [hostile("template-import", [ONE]), "error", "build-error"],
  [hostile("tsconfig-paths", [ONE]), "error", "build-error"],
  // Source maps that list the answers: stripped before the bundler reads them, so the program
  // finds no answer in its own bundle and says so (exit 70).
  [hostile("inline-source-map", [ONE]), "error", "crash"],
  [hostile("external-source-map", [ONE]), "error", "crash"],
  [hostile("glob-import", [ONE]), "error", "build-error"],
  [hostile("typeof-answer", [ONE], ["--types"]), "error", "build-error"],
  [hostile("ansi-stderr", [ONE]), "error", "crash"],
  [hostile("key-injection", [ONE]), "fail", "wrong-output"],
  [hostile("text-injection", [ONE]), "fail", "invalid-output"],
  [hostile("print-env", [ONE]), "error", "crash"],
  [hostile("signal-parent", [ONE]), "error", "crash"],
  [hostile("reject-everyone", [BAD_INPUT]), "fail", "wrong-error"],
  // Judged on a capped view (grader/verdict/capped-text.ts): patterns that backtracked
  // quadratically over one multi-MB line kept the grader busy for minutes to hours.
  [hostile("fatal-error-line", [ONE]), "error", "crash"],
  [hostile("src-frame-line", [ONE]), "error", "crash"],
  // Judged by its size (grader/verdict/answer-size.ts), never compared or drawn in full.
  [hostile("huge-answer", [ONE]), "fail", "wrong-output"],
  // A --cmd program that looks for the kit's Python reference (from its folder up, its mount
  // table, the whole tree) to run it: its root holds nothing of the kit, so it answers `{}`.
  [hostile("find-kit", [ONE, caseId("19")], ["--cmd", "sh find-kit.sh"]), "fail", "wrong-output"],
  // Relies on the bounded explanations (grader/explain/grid.ts): a grid as wide as the largest
  // partition number ran the grader out of stack or heap.
  [
    {
      ...hostile("huge-partitions", [ONE, caseId("02")]),
      graderHeapMiB: 1024,
      killAfterMs: 120_000,
    },
    "fail",
    "wrong-output",
  ],
  // Names that no report format may carry raw: XML's forbidden characters, HTML, Markdown, CSV
  // formulas, GitHub workflow commands (its own test below checks the JUnit report).
  [hostile("report-injection", [ONE]), "fail", "wrong-output"],
  // Writes outside its run's private folders (its own test below reads what it could write).
  [hostile("write-outside", [ONE], ["--cmd", "sh write-outside.sh"]), "error", "crash"],
  // Up to 600 processes, of which a run may have 256 (its own test below reads how many).
  [hostile("process-count", [ONE], ["--cmd", "python3 process-count.py"]), "error", "crash"],
  // A key in its user keyring, which outlives the run, read back by a later run of the same run
  // identity (its own test below); seven cases, three at a time, so identities are reused.
  [hostile("keyring-leftover", SEVEN, ["--cmd", "python3 keyring-leftover.py"]), "error", "crash"],
];

/**
 * Gradings whose verdict alone does not say whether the attack worked; each has its own test
 * below, and each must still give zero credit.
 */
const PROBES: readonly GradingSpec[] = [
  // Kernel memory outside the data limit: socket buffers (TypeScript) and memory files (--cmd).
  hostile("socket-buffers", [ONE]),
  hostile("memfd-hoard", [ONE], ["--cmd", "python3 memfd-hoard.py"]),
  // Every case: about 2,400 stack frames on standard error, each costing a scan of a 1 MB run of
  // spaces in the bundle's line (grader/run/stack-map.ts). Bounded by the test at 2 minutes: a
  // grader whose work on standard error is bounded by the caps grades 71 crashing cases in a
  // fraction of that, however busy the machine.
  { ...hostile("stack-whitespace", CASE_IDS), killAfterMs: 120_000, killSignal: "SIGTERM" },
];

const SLOW_CRASH = hostile("slow-crash", SEVEN, ONE_SECOND);
/** Graded alone first: the reference, the memory hog, a slow program (compared with a pair). */
const ALONE: readonly GradingSpec[] = [
  { label: "solution", submission: "solution", ids: PAIR_IDS },
  hostile("memory", PAIR_IDS),
  { label: "sleepy", submission: SLEEPY, ids: PAIR_IDS },
];
const PROBE = hostile("signal-probe", SEVEN.slice(0, 3));
/** Each hostile grading's label (they must all give zero credit). */
const HOSTILE_LABELS = [
  ...VERDICTS.map(([spec]) => spec.label),
  ...PROBES.map((spec) => spec.label),
  SLOW_CRASH.label,
  PROBE.label,
  "memory",
];

/** Every grading, shared by the tests below. */
const graded = new Map<string, Graded>();
/** The programs the test stopped and continued (one is expected). */
const stopped: Proc[] = [];
/** Run identities and program uids seen under grader A (the probe) and grader B (sleepy). */
const pair = { uidsA: new Set<number>(), uidsB: new Set<number>(), samples: 0 };
let pairB: Graded | undefined;
let fixturesBefore = "";
let leftoversBefore: string[] = [];

/** Gets a grading by label (failing the test that asks for one that did not run). */
function get(label: string): Graded {
  const g = graded.get(label);
  if (g === undefined) throw new Error(`no grading ${label}`);
  return g;
}

/**
 * Grades `spec` and, while it runs, finds its program (under this grader only), stops it with
 * SIGSTOP for 2 s (longer than its whole CPU limit) and continues it. Polls at most 400 times.
 */
async function gradeWhileStopping(spec: GradingSpec): Promise<Graded> {
  const grading = startGrading(spec);
  try {
    for (let poll = 0; poll < 400 && grading.running() && stopped.length === 0; poll++) {
      for (const p of programsUnder(await processes(), grading.pid)) {
        try {
          process.kill(p.pid, "SIGSTOP");
          stopped.push(p);
        } catch {
          // It ended between ps and now: the next poll finds no program, or the next one.
        }
      }
      if (stopped.length === 0) await sleep(25);
    }
    if (stopped.length > 0) await sleep(2000);
  } finally {
    for (const p of stopped) {
      try {
        process.kill(p.pid, "SIGCONT");
      } catch {
        // It ended (killed with its sandbox): the verdict will say so.
      }
    }
  }
  return grading.done;
}

/** Grades A (the probe) and B (the sleepy reference) at once, sampling their programs' uids. */
async function gradePair(): Promise<void> {
  const a = startGrading(PROBE);
  const b = startGrading({ label: "sleepy-beside-probe", submission: SLEEPY, ids: PAIR_IDS });
  for (let i = 0; i < 1200 && (a.running() || b.running()); i++) {
    const procs = await processes();
    for (const p of programsUnder(procs, a.pid)) pair.uidsA.add(p.uid);
    for (const p of programsUnder(procs, b.pid)) pair.uidsB.add(p.uid);
    pair.samples++;
    await sleep(50);
  }
  graded.set(PROBE.label, await a.done);
  pairB = await b.done;
}

describe(`hostile submissions (sandbox mode ${MODE})`, () => {
  beforeAll(async () => {
    fixturesBefore = treeHash(join(ROOT, "fixtures"));
    leftoversBefore = await settledLeftovers();
    // Graded one at a time, with nothing else of this test running.
    for (const spec of ALONE) graded.set(spec.label, await startGrading(spec).done);
    // Every other submission once, two graders at a time.
    const tasks = [
      ...[...VERDICTS.map(([spec]) => spec), ...PROBES, SLOW_CRASH].map(
        (spec) => async () => graded.set(spec.label, await startGrading(spec).done),
      ),
      async () =>
        graded.set(
          "sleepy-stopped",
          await gradeWhileStopping({
            label: "sleepy-stopped",
            submission: SLEEPY,
            ids: [ONE],
            extra: ONE_SECOND,
          }),
        ),
    ];
    await pLimit(2).map(tasks, (task) => task());
    // Two graders at once: the probe beside a slow reference.
    await gradePair();
  }, 900_000);

  afterAll(() => {
    rmSync(REPORTS, { recursive: true, force: true });
    rmSync(dirname(SLEEPY), { recursive: true, force: true });
    rmSync(BUILD_TMP, { recursive: true, force: true });
  });

  it("the grader isolated every program with the sandbox mode this user allows", () => {
    expect(graded.size).toBeGreaterThan(30);
    for (const g of graded.values())
      expect(sandboxMode(g.stderr), `${g.label}: ${g.stderr}`).toBe(MODE);
  });

  it.each(
    VERDICTS.map(([spec, status, reason]) => [spec.label, spec.ids, status, reason] as const),
  )("%s on %j: %s / %s", (label, ids, status, reason) => {
    const g = get(label);
    for (const id of ids)
      expect(g.byId.get(id), `${label} ${id}: ${g.stderr}`).toMatchObject({
        status,
        reason,
        points: 0,
      });
  });

  it("the memory hog runs out of memory", () => {
    expect(get("memory").byId.get(ONE)).toMatchObject({ status: "error", reason: "memory" });
  });

  it.each(HOSTILE_LABELS)(
    "%s: zero credit, the grader exits 1 and writes every report file",
    (label) => {
      const g = get(label);
      expect(g.killed, `${label} was still grading at the test's bound`).toBe(false);
      expect(g.exitCode, `${label}: ${g.stderr.slice(0, 2000)}`).toBe(1);
      expect(g.results, `${label}: results.json`).toBeDefined();
      expect(g.results?.score).toBe(0);
      expect(g.results?.extensionScore).toBe(0);
      expect(g.results?.cases.every((c) => c.points === 0)).toBe(true);
      expect(XMLValidator.validate(g.junit ?? ""), `${label}: junit.xml`).toBe(true);
      expect(g.text).toMatch(/^Grading /);
      expect(g.text).toMatch(/Required: +0\/\d+ points/);
    },
  );

  it("every junit.xml written is valid against Ant's and Jenkins' JUnit XSDs (xmllint)", async () => {
    const junit = [...graded.values()].flatMap((g) =>
      g.junit === undefined ? [] : [[g.label, g.junit] as const],
    );
    expect(junit.length).toBeGreaterThan(30);
    await expectValidJunit(new Map(junit));
  });

  it("a program that searches the disk is denied every read", () => {
    const text = get("search-disk").text;
    expect(text).toMatch(/search of \/work failed: Access to this API has been restricted/);
    expect(text).toMatch(/search of \/ failed: Access to this API has been restricted/);
  });

  it("a program that rewrites the answers is denied every write", () => {
    expect(get("rewrite-answers").text).toContain("writes denied: 3 of 3");
    expect(treeHash(join(ROOT, "fixtures"))).toBe(fixturesBefore);
  });

  it("a program that leaves files behind leaves none", () => {
    expect(readdirSync("/tmp").filter((name) => name.startsWith("hostile-was-here"))).toEqual([]);
    expect(existsSync(join(ROOT, "left-behind.txt"))).toBe(false);
  });

  it("a program that creates socket files leaves none in the kit, the reports or /tmp", () => {
    // Where it could listen at all: only folders private to its own run (the report says so).
    const text = get("socket-files").text;
    expect(text).toMatch(/sockets listening: \d+ of \d+/);
    for (const line of text.split("\n").filter((l) => l.endsWith(": listening")))
      expect(line).toMatch(
        /\| (\.|\/tmp|\/var\/tmp|\/dev\/shm|\/dev\/shm\/program\/\.\.)\/hostile-socket-\d+: listening$/,
      );
    expect(socketFiles([ROOT, REPORTS, BUILD_TMP], 64)).toEqual([]);
    const named = (dirs: string[], depth: number) =>
      socketFiles(dirs, depth).filter((path) => path.includes("hostile-socket-"));
    expect(named(["/tmp", "/var/tmp", "/dev/shm"], 4)).toEqual([]);
    // The absolute folders it tried (it cannot know the kit's own), and the root folder itself.
    const guesses = ["/work", "/root", "/home", "/autograder", "/github", "/builds", "/workspace"];
    expect(named([...guesses, "/app", "/srv"], 2)).toEqual([]);
    expect(named(["/"], 1)).toEqual([]);
  });

  it.each([
    // Its standard error, in the report's last lines.
    ["ansi-stderr", [/\\u001b\[1A\\u001b\[2K\\u000d/]],
    // Member ids are shown as JSON strings (\r for the carriage return) or with \u escapes.
    [
      "key-injection",
      [
        /\\u001b\[2K(\\r|\\u000d)✓ 01-lesson/,
        /\\u009b2K\\u009b1Aconsumer-b/i,
        /consumer-\\u202ec/i,
      ],
    ],
    // The grader's own message, which quotes the start of the output.
    ["text-injection", [/standard output is not JSON: .*\\u001b\[2K/]],
  ] as const)("%s: terminal escapes are shown as visible text, never acted on", (label, shown) => {
    const text = get(label).text;
    for (const pattern of shown) expect(text).toMatch(pattern);
  });

  it.each(["ansi-stderr", "key-injection", "text-injection"])(
    "%s: no report holds a control character or a bidirectional override",
    (label) => {
      const g = get(label);
      for (const [file, text] of [
        ["text", g.text],
        ["results.json", g.json ?? ""],
        ["junit.xml", g.junit ?? ""],
      ] as const) {
        const found = UNPRINTABLE.exec(text);
        expect(
          found === null
            ? null
            : `${file}: ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 10))}`,
        ).toBeNull();
      }
    },
  );

  it("a multi-MB line of standard error is read to 4096 bytes, and the report says so", () => {
    for (const label of ["fatal-error-line", "src-frame-line"]) {
      expect(get(label).text).toContain(
        "[… 1 line cut at 4096 bytes; the rest not read (the grader reads the first 64 lines and 64 KiB of standard error)]",
      );
    }
    expect(get("src-frame-line").byId.get(ONE)?.message).toBe(
      'the program exited with code 70: an uncaught exception: "Error: boom"',
    );
  });

  it("an answer of 150,000 members is explained by its counts alone", () => {
    expect(get("huge-answer").byId.get(ONE)?.message).toBe(
      "the answer is far larger than Kafka's: 150,000 members, 150,000 topics and 150,000 partitions, where Kafka's has 3 members, 3 topics and 7 partitions",
    );
    expect(get("huge-answer").text).not.toMatch(/^ +partition /m);
  });

  it("the build refuses a link in src/, a computed import and an import from outside", () => {
    expect(get("symlink-answers").text).toMatch(/src\/answers\.json is a symbolic link/);
    expect(get("template-import").text).toMatch(/import\(\) with a computed path/);
    expect(get("import-answers").text).toMatch(/reaches outside the submission folder/);
  });

  it("the environment holds none of the grader's variables, nor where the grader runs", () => {
    const text = get("print-env").text;
    const env = /environment: (\{.*\})/.exec(text)?.[1];
    expect(env, text).toBeDefined();
    const vars = new Map(Object.entries(JSON.parse(env ?? "{}") as Record<string, string>));
    // PWD is the program's own working folder, which a shell exports: it tells nothing.
    const extra = [...vars.keys()].filter(
      (k) => !["LANG", "LC_ALL", "PATH", "TZ", "PWD"].includes(k),
    );
    expect(extra).toEqual([]);
    expect(vars.get("LANG")).toBe("C.UTF-8");
    expect(vars.get("TZ")).toBe("UTC");
    const kit = ROOT.replace(/\/$/, "");
    for (const [name, value] of vars) expect(value.includes(kit), `${name}=${value}`).toBe(false);
  });

  it("no report of any grading holds the grader's secret or an answer", () => {
    const answers = answerTexts();
    const all = [...graded.values()];
    for (const g of pairB === undefined ? all : [...all, pairB]) {
      for (const report of [g.text, g.json ?? "", g.junit ?? ""]) {
        expect(report.includes(SECRET), g.label).toBe(false);
        expect(report.includes("KIT_SECRET_TOKEN"), g.label).toBe(false);
        const leaked = answers.find((answer) => report.includes(answer));
        expect(leaked, `${g.label} shows an answer`).toBeUndefined();
      }
    }
  });

  it("signalling the grader is not allowed: EPERM as its own identity; unreachable without root", () => {
    // As root the program is another uid than the grader's; without root it is the grader's own
    // uid, and only the PID namespace keeps the grader out of its reach (the next test).
    if (isRoot) expect(get("signal-parent").text).toMatch(/could not signal parent \d+: EPERM/);
    else expect(get("signal-parent").text).not.toMatch(/signalled parent (?!1\b)\d+/);
  });

  it("signalling its parent reaches at most its own sandbox's first process, never the grader", () => {
    // In a PID namespace the parent is pid 1 of that namespace: the sandbox's wrapper shell.
    const message = get("signal-parent").byId.get(ONE)?.message ?? "";
    expect(message).toMatch(/(could not signal|signalled) parent 1\b/);
  });

  it("the probe can signal only itself (without root: also its own namespace pid 1)", () => {
    const g = get(PROBE.label);
    expect(g.results?.cases).toHaveLength(3);
    for (const c of g.results?.cases ?? []) {
      const { probe, parent, signalable } = probeLine(c.message);
      expect(parent).toBe(1);
      expect(signalable).toContain(probe);
      // kill(tid, 0) also succeeds for the probe's own threads, which Node starts right after it.
      // As root nothing else: pid 1, the sandbox's wrapper shell, runs as root. In user-namespace
      // mode that wrapper runs as the same user, so pid 1 of the probe's own namespace may show.
      const others = signalable.filter((pid) => pid < probe || pid >= probe + 64);
      expect(others).toEqual(isRoot ? [] : others.filter((pid) => pid === 1));
    }
  });

  it("after three slow failures every later case is skipped, in case order", () => {
    const cases = get(SLOW_CRASH.label).results?.cases ?? [];
    expect(cases.map((c) => [c.status, c.reason])).toEqual([
      ["error", "crash"],
      ["error", "crash"],
      ["error", "crash"],
      ["skipped", "skipped-after-timeouts"],
      ["skipped", "skipped-after-timeouts"],
      ["skipped", "skipped-after-timeouts"],
      ["skipped", "skipped-after-timeouts"],
    ]);
  });

  it("a program stopped for longer than its CPU limit still passes: wall time is not the limit", () => {
    expect(stopped, "the test found the program under its grader and stopped it").toHaveLength(1);
    if (isRoot) expect(isIdentity(stopped[0]?.uid ?? 0)).toBe(true);
    else expect(stopped[0]?.uid).toBe(process.getuid?.());
    const g = get("sleepy-stopped");
    expect(g.byId.get(ONE), g.text).toMatchObject({ status: "pass" });
    expect(g.exitCode).toBe(0);
  });

  it("two graders at once: the second's verdicts are what it gets alone", () => {
    expect(pairB, "grader B ran").toBeDefined();
    expect(pairB === undefined ? "" : verdictsOnly(pairB)).toBe(verdictsOnly(get("sleepy")));
    // B's programs all ran to the end: none was killed by A's probe or A's grader.
    expect(pairB?.results?.cases.every((c) => c.status === "pass")).toBe(true);
  });

  it("two graders at once: as root, disjoint run identities; without root, this user", () => {
    expect(pair.uidsA.size, `${pair.samples} samples`).toBeGreaterThan(0);
    expect(pair.uidsB.size, `${pair.samples} samples`).toBeGreaterThan(0);
    if (isRoot) {
      for (const uid of [...pair.uidsA, ...pair.uidsB]) expect(isIdentity(uid)).toBe(true);
      expect([...pair.uidsA].filter((uid) => pair.uidsB.has(uid))).toEqual([]);
    } else {
      for (const uid of [...pair.uidsA, ...pair.uidsB]) expect(uid).toBe(process.getuid?.());
    }
  });

  it("the reference passes every case", () => {
    expect(get("solution").exitCode).toBe(0);
    expect(get("solution").results?.cases.every((c) => c.status === "pass")).toBe(true);
  });

  it.each(["socket-buffers", "memfd-hoard"])(
    "%s: kernel memory a program pins counts against its data limit (stopped for memory, or held no more)",
    (label) => {
      const c = get(label).byId.get(ONE);
      expect(c, get(label).stderr).toMatchObject({ status: "error", points: 0 });
      if (c?.reason === "memory") return;
      // It says how much it held: no more than the data limit the sandbox promises.
      const held = /held (\d+) MiB/.exec(c?.message ?? "");
      expect(held, c?.message).not.toBeNull();
      expect(Number(held?.[1]), c?.message).toBeLessThanOrEqual(DATA_LIMIT_MIB);
    },
  );

  it("a bundle line of 1 MB of spaces does not make the grader's work on standard error grow with it", () => {
    // Every case crashes with 64 KiB of stack frames that name that line: graded to the end
    // within the test's bound, every case a crash.
    const g = get("stack-whitespace");
    expect(g.killed, "still grading at the test's bound (2 minutes)").toBe(false);
    expect(g.results?.cases.map((c) => c.reason)).toEqual(CASE_IDS.map(() => "crash"));
  });

  it("a --cmd program writes nowhere outside its run's private folders", () => {
    expect(get("write-outside").byId.get(ONE)?.message).toBe(
      "the program exited with code 2: writes outside the private folders: none",
    );
  });

  it("a --cmd program starts at most 256 processes, the first step of a fork bomb stopped", () => {
    const message = get("process-count").byId.get(ONE)?.message ?? "";
    const started = /processes started: (\d+) of/.exec(message);
    expect(started, message).not.toBeNull();
    expect(Number(started?.[1]), message).toBeLessThanOrEqual(256);
  });

  it("no run finds what an earlier run left in the kernel (a key in its user keyring)", () => {
    const messages = [...get("keyring-leftover").byId.values()].map((c) => c.message);
    expect(messages).toHaveLength(SEVEN.length);
    for (const message of messages)
      expect(message).toBe("the program exited with code 2: found no key of an earlier run");
  });

  it("report-injection: the JUnit report holds nothing XML 1.0 forbids, no text line is a workflow command", () => {
    const g = get("report-injection");
    const forbidden =
      // eslint-disable-next-line no-control-regex -- finding forbidden characters is the point
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    expect(forbidden.exec(g.junit ?? "")?.[0]).toBeUndefined();
    expect(g.text.split("\n").filter((line) => /^(::|##\[)/.test(line))).toEqual([]);
    // The names are in the report, escaped (the grid quotes them as JSON strings).
    expect(g.text).toContain(String.raw`"\n::error title=pwned::injected annotation"`);
  });

  it("Gradescope's run_autograder grades the upload, never a folder elsewhere that a file name points to", () => {
    // In /tmp itself: run_autograder looks 6 folders deep, and the path below must fit.
    const work = mkdtempSync("/tmp/kit-hostile-upload-");
    chmodSync(work, 0o755);
    try {
      // Any folder on the autograder's disk: here the kit's reference, through a short path.
      symlinkSync(join(ROOT, "solution"), join(work, "e"));
      const upload = join(work, "submission");
      // A folder named `x<newline><work>` holding e/src/main.ts: `find -printf` writes its path
      // as two lines, the second naming <work>/e/src/main.ts, the reference's.
      const nested = join(upload, `x\n${work}`, "e", "src");
      mkdirSync(nested, { recursive: true });
      cpSync(
        join(ROOT, "test", "submissions", "upload-elsewhere", "src", "main.ts"),
        join(nested, "main.ts"),
      );
      const results = join(work, "results");
      const run = spawnSync("bash", [join(ROOT, "templates", "gradescope", "run_autograder")], {
        cwd: work,
        env: userEnv({ KIT_ROOT: ROOT, SUBMISSION_DIR: upload, RESULTS_DIR: results }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        timeout: 240_000,
      });
      const json = JSON.parse(readFileSync(join(results, "results.json"), "utf8")) as {
        tests: { score: number }[];
      };
      const score = json.tests.reduce((total, t) => total + t.score, 0);
      expect(score, run.stdout.split("\n").slice(0, 3).join("\n")).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);

  it("in a batch, a classmate's hard link or stalls leave a submission's grade alone", () => {
    const work = mkdtempSync(join(tmpdir(), "kit-hostile-batch-"));
    chmodSync(work, 0o755);
    try {
      const dir = join(work, "class");
      const copy = (from: string, name: string) =>
        cpSync(join(ROOT, from), join(dir, name), { recursive: true });
      // bob and dave: the reference. alice: the starter, its range-assignor.ts a hard link to
      // bob's (test/submissions/hardlink-classmate). carol: stack-whitespace, graded beside dave.
      copy("solution", "bob");
      copy("solution", "dave");
      copy(join("test", "submissions", "stack-whitespace"), "carol");
      copy("starter", "alice");
      const main = join(ROOT, "test", "submissions", "hardlink-classmate", "src", "main.ts");
      expect(readFileSync(main, "utf8")).toContain("Tries (a folder of a --batch)");
      rmSync(join(dir, "alice", "src", "range-assignor.ts"));
      linkSync(
        join(dir, "bob", "src", "range-assignor.ts"),
        join(dir, "alice", "src", "range-assignor.ts"),
      );
      execFileSync("chmod", ["-R", "a+rX", work]);
      const out = join(work, "out");
      const run = spawnSync(
        process.execPath,
        [
          join(ROOT, "grader", "launch.mjs"),
          "--batch",
          dir,
          "--report-dir",
          out,
          ...[ONE, caseId("02")].flatMap((id) => ["--only", id]),
        ],
        { cwd: ROOT, env: userEnv({ TMPDIR: BUILD_TMP }), encoding: "utf8", timeout: 240_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const rows = new Map(
        readFileSync(join(out, "gradebook.csv"), "utf8")
          .trim()
          .split("\n")
          .slice(1)
          .map((line) => {
            const [name, score, max] = line.split(",");
            return [name ?? "", `${score ?? ""}/${max ?? ""}`] as const;
          }),
      );
      expect(Object.fromEntries(rows)).toEqual({
        alice: "0/3",
        bob: "3/3",
        carol: "0/3",
        dave: "3/3",
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);

  it("nothing is left running, and every grading removed what it built", async () => {
    expect(leftoversBefore, leftoversBefore.join("\n")).toEqual([]);
    const left = await settledLeftovers();
    expect(left, left.join("\n")).toEqual([]);
    expect(readdirSync(BUILD_TMP).filter((name) => name.startsWith("kit-"))).toEqual([]);
  });
});
