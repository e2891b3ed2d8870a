/**
 * Shared runs: several cases of one TypeScript submission in one confined process, to spare each
 * case a process start (about 70-100 ms, where the program's own work on a case is about 1 ms).
 *
 * The grader's harness (shared-harness.mjs) imports the submission's bundle anew for every case
 * (a fresh instance of every one of its modules), calls main.ts's exported `run` with the case's
 * arguments and input, and reports what the call printed and returned, signed with a key the
 * program never sees. Nothing here judges: the grading loop (grade.ts) keeps a report only when it
 * is a clean pass (sharedRawRun), and runs every other case again in its own process, whose verdict
 * is the one reported. So a shared run can make a grading faster, never give a case a verdict of
 * its own. What shared runs can and cannot carry from one case to the next: docs/sandbox.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Case } from "../cases/load.ts";
import { STDERR_MAX_BYTES } from "../limits.ts";
import { runIdentities } from "./identities.ts";
import { cpuSecondsFor, sharedReportBytes } from "./program.ts";
import { finishedRun, runProcess, type RawRun, type StdoutReader } from "./run-process.ts";
import {
  confinedRunLimits,
  confinedSpec,
  sandboxFeatures,
  wallBackstops,
  type ConfinedRun,
  type KernelLimits,
} from "./sandbox.ts";

/** How a program starts a shared run (Program.shared): the cases, the run identity, the key (hex). */
export type SharedStart = (
  cases: readonly Case[],
  uid: number | undefined,
  key: string,
) => ConfinedRun;

/**
 * SHA-256 (run/build.ts entryDigest) of the kit's own src/main.ts, the starter's and the
 * reference's alike: this kit's, and kit 1.2's (before --sync), which a handout not yet upgraded
 * still has. Only a submission whose main.ts is one of these runs its cases shared: the harness
 * calls `run` as main.ts's program part would, and a main.ts changed around `run` could print
 * something else when run as a program. A unit test keeps the first equal to the kit's file.
 */
export const KIT_ENTRY_DIGESTS: ReadonlySet<string> = new Set([
  "b5deefa3b44bad3e51b3dd4e93b0721d4b9b7bd5ae209bb56208b73a920b9c7b",
  "1c200b9f2aab9c1827faeefb20cdcd7d8784cddbd783ddda3ffd1268e6688ae6",
]);

/** One case's report from the harness. */
export interface SharedReport {
  /** run's exit code (null when it gave none). */
  exitCode: number | null;
  /** Everything written to standard output during the case, then run's stdout text. */
  stdout: string;
  /** run's stderr text, and anything written to standard error around it. */
  stderr: string;
  /** CPU time of the import, the call and what it left for the next turn of the event loop. */
  cpuMs: number;
  /** Wall time of the same, ms. */
  wallMs: number;
  /**
   * What the harness noticed around the call (any of them: the case runs again alone): `around`
   * (standard output or error grew outside the captured streams), `no-run` (the bundle exports no
   * run), `result` (run returned something other than { exitCode, stdout, stderr }), `threw`
   * (run or the import threw), `stderr` (standard error beside run's returned text), `exit-code`
   * (process.exitCode set), `write` (a write of something other than text or bytes), `cap` (an
   * output over the cap), `pending` (timers, handles or requests left), `env` (the environment
   * changed), `globals` (the global object, a built-in, a built-in module, process or a stream).
   */
  flags: readonly string[];
  /**
   * The most CPU the case can have used, ms, by the grader's own count (its looks at the
   * process's CPU time as the reports came): what the harness says of itself is not taken alone.
   */
  cpuBoundMs: number;
}

/** How many shared processes a group may start (one per process that died) before the rest run alone. */
const MAX_SHARED_STARTS = 3;

/**
 * Reports not kept, beyond those kept, at which a group's shared run stops and its remaining
 * cases run alone: a program that fails most cases (the starter, at every stub) would have each
 * of them run twice.
 */
const GIVE_UP_AFTER_MISSES = 2;

/**
 * CPU a shared process may use beyond a case's own limit before the grader stops it, ms: its own
 * start, the case's module import, and the CPU both cores can spend between two of the grader's
 * looks on a busy machine.
 */
const SHARED_CPU_ALLOWANCE_MS = 1500;

/** Reads the harness's signed report lines; stops at the first line that is not one. */
export class ReportReader {
  private sequence = 0;
  private pending: Buffer = Buffer.alloc(0);
  private broken = false;
  readonly reports: SharedReport[] = [];

  /**
   * @param key the key the harness signs with
   * @param expected how many reports the harness can give (its cases)
   * @param maxLineBytes the longest report line it can write (sharedReportBytes)
   */
  constructor(
    private readonly key: Buffer,
    private readonly expected: number,
    private readonly maxLineBytes: number,
  ) {}

  /** Whether more reports may come (not all given, no line refused). */
  get open(): boolean {
    return !this.broken && this.reports.length < this.expected;
  }

  /** Takes the next bytes of the harness's standard output. */
  feed(bytes: Buffer): void {
    if (!this.open || bytes.length === 0) return;
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    while (this.open) {
      const end = this.pending.indexOf(0x0a);
      if (end < 0) {
        if (this.pending.length > this.maxLineBytes) this.broken = true;
        return;
      }
      const line = this.pending.subarray(0, end).toString("latin1");
      this.pending = this.pending.subarray(end + 1);
      const report = this.verify(line);
      if (report === undefined) this.broken = true;
      else this.reports.push(report);
    }
  }

  private verify(line: string): SharedReport | undefined {
    const dot = line.lastIndexOf(".");
    if (dot < 0) return undefined;
    const payload = line.slice(0, dot);
    const mac = Buffer.from(line.slice(dot + 1), "hex");
    const own = createHmac("sha256", this.key).update(`${this.sequence}:${payload}`).digest();
    if (mac.length !== own.length || !timingSafeEqual(mac, own)) return undefined;
    // `n exitCode cpuMs wallMs flags stdout stderr` (shared-harness.mjs report).
    const parts = payload.split(" ");
    if (parts.length !== 7) return undefined;
    const [n, exitCode, cpuMs, wallMs, flags, stdout, stderr] = parts as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const integer = (text: string) => {
      const value = Number(text);
      return Number.isSafeInteger(value) && String(value) === text ? value : undefined;
    };
    const cpu = integer(cpuMs);
    const wall = integer(wallMs);
    const code = exitCode === "null" ? null : integer(exitCode);
    if (
      integer(n) !== this.sequence ||
      cpu === undefined ||
      wall === undefined ||
      code === undefined
    )
      return undefined;
    this.sequence++;
    const text = (base64: string) =>
      base64 === "-" ? "" : Buffer.from(base64, "base64").toString("utf8");
    return {
      exitCode: code,
      stdout: text(stdout),
      stderr: text(stderr),
      cpuMs: cpu,
      wallMs: wall,
      flags: flags === "-" ? [] : flags.split(","),
      cpuBoundMs: Number.POSITIVE_INFINITY,
    };
  }
}

/** The limits a shared run keeps per case (the grading's), and what stops it. */
export interface SharedLimits {
  /** The per-case CPU limit, ms. */
  timeoutMs: number;
  /** Bytes kept per output stream (a case's longer output is not vouched for). */
  outputCapBytes: number;
  /** Stops the run (watch mode, on a new save or Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** When the grading must end, as a performance.now() time in ms (--time-budget). */
  deadline?: number | undefined;
}

/**
 * runProcess's limits for a shared process (confinedRunLimits): its kernel limits are every case's
 * together, but the idle check is one case's (a window of twice the per-case CPU limit, at least
 * 5 s, with almost no CPU used): a case that sleeps stops the process as soon as it would stop the
 * case alone, not after every case's window together.
 *
 * @param limits the shared process's kernel limits (sharedProgramRun)
 * @param perCase the per-case CPU limit (ms) and the grading's deadline
 */
export function sharedRunLimits(
  limits: KernelLimits,
  perCase: Pick<SharedLimits, "timeoutMs" | "deadline">,
): ReturnType<typeof confinedRunLimits> {
  return {
    ...confinedRunLimits(limits, perCase.deadline),
    idle: wallBackstops(cpuSecondsFor(perCase.timeoutMs)).idle,
  };
}

/** Bytes of a shared run's standard output read at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * One shared process over `cases`, each report handed to `emit` as soon as the grader has seen
 * it (the run goes on meanwhile): the reports it gave, in order (a prefix of the cases).
 */
async function runSharedOnce(
  start: SharedStart,
  cases: readonly Case[],
  limits: SharedLimits,
  emit: (k: number, report: SharedReport) => void,
  giveUp: () => boolean,
): Promise<SharedReport[]> {
  const key = randomBytes(32);
  const root = sandboxFeatures().mode === "root";
  const uid = root ? await runIdentities.acquire() : undefined;
  try {
    const run = start(cases, uid, key.toString("hex"));
    const reader = new ReportReader(key, cases.length, sharedReportBytes(limits.outputCapBytes));
    let offset = 0;
    // The process's CPU time at each look (the first: its start), and at which look each report
    // was first seen: case i ran after report i-1 was written, so after the look before the one
    // that saw it, and before the look that saw report i. What the harness says of its own CPU
    // time is checked against this count of the grader's.
    const looks = [0];
    const seenAt: number[] = [];
    const reports: SharedReport[] = [];
    let wallAtLastReport = performance.now();
    const perCaseCapMs = wallBackstops(cpuSecondsFor(limits.timeoutMs)).capMs;
    const look = (cpuMs: number, stdoutFrom: StdoutReader) => {
      for (;;) {
        const bytes = stdoutFrom(offset, READ_CHUNK_BYTES);
        offset += bytes.length;
        reader.feed(bytes);
        if (bytes.length < READ_CHUNK_BYTES || !reader.open) break;
      }
      looks.push(cpuMs);
      while (reports.length < reader.reports.length) {
        const i = reports.length;
        seenAt.push(looks.length - 1);
        const from = i === 0 ? 0 : Math.max(0, (seenAt[i - 1] ?? 0) - 1);
        const report = {
          ...(reader.reports[i] as SharedReport),
          cpuBoundMs: cpuMs - (looks[from] ?? 0),
        };
        reports.push(report);
        emit(i, report);
      }
    };
    await runProcess(confinedSpec(run), {
      ...sharedRunLimits(run.limits, limits),
      // The reports are read as they come (watch); none of the output is kept besides.
      outputCapBytes: 0,
      stderrKeepBytes: 0,
      watch: {
        // Often, so that a case the shared run does not pass starts alone soon.
        everyMs: 25,
        // A case that has used more than its own CPU limit (and the allowance) since the last
        // report ends the process, and so does one that has taken a case's whole wall-clock cap
        // (it sleeps, or barely runs: the per-case idle check sees most of those sooner); the
        // case then runs alone.
        check: (cpuMs, stdoutFrom) => {
          const reportsBefore = reports.length;
          look(cpuMs, stdoutFrom);
          if (reports.length !== reportsBefore) wallAtLastReport = performance.now();
          const sinceLastReport = cpuMs - (looks[seenAt.at(-1) ?? 0] ?? 0);
          return (
            sinceLastReport > limits.timeoutMs + SHARED_CPU_ALLOWANCE_MS ||
            performance.now() - wallAtLastReport > perCaseCapMs ||
            giveUp()
          );
        },
        done: (cpuMs, stdoutFrom) => look(cpuMs ?? Number.POSITIVE_INFINITY, stdoutFrom),
      },
      ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    });
    return reports;
  } finally {
    if (uid !== undefined) runIdentities.release(uid);
  }
}

/**
 * Runs a visibility group's cases shared: one process for all of them, a new one after a case
 * that ended the process (that case gets no report), at most MAX_SHARED_STARTS; after a case that
 * changed the global object, a built-in, a built-in module, process or the environment, none
 * (the harness stops there).
 *
 * @param start how the program starts a shared run (Program.shared)
 * @param cases the group's cases, in grading order
 * @param onReport called with each report as soon as it is seen (its index in `cases`); true when
 *   the report was kept (a clean pass). Once GIVE_UP_AFTER_MISSES more were not kept than were,
 *   the shared run stops, and the cases after are left to run alone.
 * @returns each case's report, or undefined where it has none (it must run alone)
 */
export async function runSharedGroup(
  start: SharedStart,
  cases: readonly Case[],
  limits: SharedLimits,
  onReport: (index: number, report: SharedReport) => boolean = () => true,
): Promise<(SharedReport | undefined)[]> {
  const reports = new Array<SharedReport | undefined>(cases.length).fill(undefined);
  let misses = 0;
  const givenUp = () => misses >= GIVE_UP_AFTER_MISSES;
  let from = 0;
  for (let starts = 0; starts < MAX_SHARED_STARTS && from < cases.length; starts++) {
    if (limits.signal?.aborted === true || givenUp()) break;
    const at = from;
    const emit = (k: number, r: SharedReport) => {
      reports[at + k] = r;
      misses += onReport(at + k, r) ? -1 : 1;
    };
    const got = await runSharedOnce(start, cases.slice(at), limits, emit, givenUp);
    const last = got.at(-1);
    if (last?.flags.some((f) => f === "globals" || f === "env") === true) break;
    if (last?.flags.includes("around") === true) from += got.length;
    else from += got.length + 1; // the case that ended the process
  }
  return reports;
}

/** Whether text names the harness or the URL it imported a case's modules under. */
const namesHarness = (text: string) =>
  text.includes("kit-case=") || text.includes("kit-shared-harness");

/**
 * A report as the run the grader judges, or undefined when it cannot be vouched for (a flag, no
 * exit code, a CPU time near the case's limit, standard error longer than judging reads, or text
 * that names the harness): the case then runs alone.
 */
export function sharedRawRun(report: SharedReport, timeoutMs: number): RawRun | undefined {
  if (report.flags.length > 0 || report.exitCode === null) return undefined;
  // Alone, the case's CPU time is this and a process start (a few hundred ms at most): still a
  // second under the kernel's limit, which counts whole seconds.
  const most = Math.max(timeoutMs / 2, cpuSecondsFor(timeoutMs) * 1000 - 1000);
  if (report.cpuMs > most || report.cpuBoundMs > most) return undefined;
  if (Buffer.byteLength(report.stderr) > STDERR_MAX_BYTES) return undefined;
  if (namesHarness(report.stdout) || namesHarness(report.stderr)) return undefined;
  return finishedRun({
    exitCode: report.exitCode,
    stdout: report.stdout,
    stderr: report.stderr,
    cpuMs: report.cpuMs,
    durationMs: report.wallMs,
  });
}

/** Whether a bundle built from this main.ts (BuildResult.entryDigest) may run shared. */
export function sharedEntry(digest: string | undefined): boolean {
  return digest !== undefined && KIT_ENTRY_DIGESTS.has(digest);
}
