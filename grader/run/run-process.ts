/**
 * Running one process to its end: its input from a file, its standard output and error into
 * files, and what it did decided from what was measured for it, never from when the grader got
 * round to looking. The process leads its own process group, and the whole group is killed at a
 * limit and when the grader exits, so nothing a case starts outlives it (unless it leaves the
 * group itself: see docs/sandbox.md).
 *
 * Nothing the program does waits on the grader: its input is a file, its output goes to files
 * that the kernel caps (the sandbox's RLIMIT_FSIZE), so a grader that is busy or blocked can make
 * a run's result come later, never different. A wall-clock stop is decided only for a run that has
 * not ended: the sandbox's wrapper writes the program's status to its report file as the program
 * ends, and every timer reads that file before it acts.
 */
import { spawn } from "node:child_process";
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { constants as osConstants } from "node:os";
import { runFileStem } from "./run-files.ts";

export interface RunLimits {
  /**
   * Wall-clock cap, milliseconds: a run still going then is stopped (`timedOut`). The sandbox's
   * caps (wallBackstops) are long enough that only a run using almost no CPU can reach them.
   */
  timeoutMs: number;
  /**
   * Stop the process earlier when, over a window, its process tree used less than `minCpuFraction`
   * of the time that passed in CPU: it sleeps or waits. A busy program, however slowed by a loaded
   * machine, always gets some CPU, so this does not depend on load (Linux only; elsewhere not
   * checked).
   */
  idle?: { windowMs: number; minCpuFraction: number };
  /**
   * When the grading's time budget (--time-budget) ends, milliseconds from now: a run still going
   * then is stopped and marked `budget`. The one limit that depends on the clock, by design.
   */
  budgetMs?: number;
  /**
   * Limits on the whole process tree, polled every half second from /proc (Linux): CPU time in
   * ms and resident memory in bytes, summed over every process of the run. The kernel's per-process
   * limits cannot see a program that spreads its work over forked children (a --cmd program can).
   */
  tree?: { cpuMs: number; rssBytes: number };
  /** Bytes of standard output kept; a longer output is `outputCapped`. */
  outputCapBytes: number;
  /**
   * Bytes of standard error kept, from its start (default: outputCapBytes); its whole length
   * still counts against outputCapBytes.
   */
  stderrKeepBytes?: number;
  /**
   * Bytes of standard error's end also kept when the start did not hold it all (RawRun's
   * stderrTail; default none): where a runtime's last words are (an out-of-memory message).
   */
  stderrTailBytes?: number;
  /** Kills the process group when it fires (watch mode: a new save, or Ctrl-C). */
  signal?: AbortSignal;
  /**
   * Follows the run's standard output as it is written (a shared run's reports, shared-run.ts).
   * `check` is polled every `everyMs` while the run lasts (Linux) with the CPU time its process
   * tree has used so far (ms) and a reader of standard output (from a byte offset, at most a
   * number of bytes, up to what is written now); true stops the run as over its tree's CPU limit.
   * `done` is called once when the run has ended, with the CPU time the sandbox measured (null
   * when it did not), before the output is removed.
   */
  watch?: {
    everyMs: number;
    check(cpuMs: number, stdoutFrom: StdoutReader): boolean;
    done(cpuMs: number | null, stdoutFrom: StdoutReader): void;
  };
}

/** Reads a running process's standard output: at most `max` bytes from byte `offset`. */
export type StdoutReader = (offset: number, max: number) => Buffer;

export interface ProcessSpec {
  /** The executable and its arguments (no shell). */
  command: string;
  args: string[];
  /** The working directory. */
  cwd?: string;
  /** The complete environment (nothing is inherited beyond it). */
  env: NodeJS.ProcessEnv;
  /** The process's standard input (a file it reads at its own pace). */
  stdin: string;
  /**
   * The process reports on fd 3 (the sandbox's wrapper shell, sandbox.ts): `start` and `end`
   * (seconds since boot), `status N` for the program's exit status, then the output of `times`,
   * whose last line is the CPU time of the program. Without it, exit status and signal are the
   * process's own and CPU time is unknown.
   */
  reportFd?: boolean;
  /** Called once the process has ended (e.g. to remove its mount tables). */
  cleanup?: () => void;
}

/** What happened when a process ran; the verdict is decided elsewhere (verdict/). */
export interface RawRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /**
   * The end of standard error when `stderr` (its start) did not hold it all, at most
   * RunLimits.stderrTailBytes bytes ("" otherwise); its first character may be cut.
   */
  stderrTail: string;
  /** Which stream went over the output cap, if one did (the kernel then stopped the program). */
  outputCapped: "stdout" | "stderr" | null;
  /** Stopped by the wall clock before it ended (idle, the cap, or the time budget). */
  timedOut: boolean;
  /** Stopped by the idle check (it used almost no CPU for a whole window), not the cap. */
  idle: boolean;
  /** Stopped because the grading's time budget ran out (RunLimits.budgetMs). */
  budget: boolean;
  /** Its process tree as a whole went over a limit (RunLimits.tree). */
  treeLimit: "cpu" | "memory" | null;
  /** The process could not be started at all (e.g. a --cmd that does not exist). */
  spawnError: string | null;
  /** The sandbox itself failed to start the program (not the program's fault). */
  sandboxError: string | null;
  /** CPU time (user + system) the program used, in milliseconds, when the sandbox reported it. */
  cpuMs: number | null;
  /**
   * Wall time of the program, ms: from the sandbox's wrapper (just before and after the program)
   * where it reports, else from the grader's spawn to its noticing the end.
   */
  durationMs: number;
}

/**
 * A run that ended by itself with `exitCode`, no limit reached, as a run in process (a worker
 * thread's, a shared run's case) describes it: what a process that did the same would give.
 */
export function finishedRun(ran: {
  exitCode: number;
  stdout: string;
  stderr: string;
  cpuMs: number | null;
  durationMs: number;
}): RawRun {
  return {
    ...ran,
    signal: null,
    stderrTail: "",
    outputCapped: null,
    timedOut: false,
    idle: false,
    budget: false,
    treeLimit: null,
    spawnError: null,
    sandboxError: null,
  };
}

/** Signal names by number, for a status above 128 reported by the wrapper shell. */
const SIGNAL_NAMES = new Map(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/** Seconds in `times` output: `0m0.080000s` (dash) or `0m0.080s` (bash). */
function timesSeconds(field: string): number {
  const match = /^(\d+)m([\d.]+)s$/.exec(field);
  return match === null ? Number.NaN : Number(match[1]) * 60 + Number(match[2]);
}

/**
 * Reads the wrapper's report (see ProcessSpec.reportFd).
 *
 * @returns the program's status (exit code, or signal for a status above 128), its CPU time in
 *   ms, its wall time in ms (from the wrapper's `start` and `end`, 10 ms steps), and the sandbox's
 *   own failure line, each null when absent; `ended` once the status line is there (the program
 *   has ended, by itself or by the kernel's limits)
 */
export function parseReport(text: string): {
  ended: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  cpuMs: number | null;
  wallMs: number | null;
  sandboxError: string | null;
} {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const failure = lines.find((l) => l.startsWith("sandbox "));
  const status = lines.find((l) => l.startsWith("status "));
  const uptime = (word: string) => {
    const line = lines.find((l) => l.startsWith(`${word} `));
    const seconds = line === undefined ? Number.NaN : Number(line.slice(word.length + 1));
    return Number.isFinite(seconds) ? seconds : undefined;
  };
  let exitCode: number | null = null;
  let signal: NodeJS.Signals | null = null;
  if (status !== undefined) {
    const n = Number(status.slice("status ".length));
    if (n > 128 && SIGNAL_NAMES.has(n - 128)) signal = SIGNAL_NAMES.get(n - 128) ?? null;
    else exitCode = n;
  }
  let cpuMs: number | null = null;
  const children = lines.at(-1)?.trim().split(/\s+/);
  if (status !== undefined && children?.length === 2) {
    const seconds = timesSeconds(children[0] ?? "") + timesSeconds(children[1] ?? "");
    if (Number.isFinite(seconds)) cpuMs = Math.round(seconds * 1000);
  }
  const start = uptime("start");
  const end = uptime("end");
  const wallMs = start === undefined || end === undefined ? null : Math.round((end - start) * 1000);
  return {
    ended: status !== undefined,
    exitCode,
    signal,
    cpuMs,
    wallMs,
    sandboxError: failure ?? null,
  };
}

/** Process groups still running, killed if the grader exits or is interrupted. */
const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** What must be removed however the grader ends (a built bundle's folder): see atExit. */
const exitTasks = new Set<() => void>();

/**
 * Runs `task` when the grader exits, normally or on SIGINT/SIGTERM/SIGHUP (not on SIGKILL), unless
 * the returned function is called first.
 */
export function atExit(task: () => void): () => void {
  installCleanup();
  exitTasks.add(task);
  return () => exitTasks.delete(task);
}

let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid);
    for (const task of exitTasks) {
      try {
        task();
      } catch {
        // Best effort: the grader is ending.
      }
    }
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      for (const pid of running) killGroup(pid);
      // A mode that handles the signal itself (watch: Ctrl-C exits 0) decides how to exit.
      if (process.listenerCount(signal) === 0) process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

/**
 * Makes the grader stop with whatever started it: SIGINT, SIGTERM and SIGHUP kill every running
 * program and exit at once (from the first moment, not only once a case runs), and when the
 * parent process goes away (a killed `npm run`, a closed CI step) the grader notices within a
 * second and exits the same way, so it never outlives the process that started it. Programs
 * themselves also get SIGKILL when the grader dies (the sandbox's parent-death signal).
 */
export function guardGrader(): void {
  installCleanup();
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      for (const pid of running) killGroup(pid);
      process.exit(129);
    }
  }, 1000);
  watch.unref();
}

/** Clock ticks per second of /proc/<pid>/stat's CPU fields (USER_HZ: 100 on Linux). */
const USER_HZ = 100;
/** Bytes per page of /proc/<pid>/stat's rss field (4 KiB on the platforms the kit runs on). */
const PAGE_BYTES = 4096;

/**
 * CPU time (user + system, ms) and resident memory (bytes) used now by a running process and
 * every descendant it has, read from /proc (0 for what cannot be read: a process that just ended).
 */
export function treeUsage(pid: number): { cpuMs: number; rssBytes: number } {
  let ticks = 0;
  let pages = 0;
  const pending = [pid];
  const seen = new Set<number>();
  while (pending.length > 0 && seen.size < 4096) {
    const next = pending.pop() as number;
    if (seen.has(next)) continue;
    seen.add(next);
    try {
      const stat = readFileSync(`/proc/${next}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) in parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
      pages += Number(fields[21]);
      for (const tid of readdirSync(`/proc/${next}/task`)) {
        const children = readFileSync(`/proc/${next}/task/${tid}/children`, "utf8").trim();
        if (children !== "") for (const child of children.split(" ")) pending.push(Number(child));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return { cpuMs: (ticks * 1000) / USER_HZ, rssBytes: pages * PAGE_BYTES };
}

/** CPU time (user + system, ms) used so far by a process tree (see treeUsage). */
export function treeCpuMs(pid: number): number {
  return treeUsage(pid).cpuMs;
}

/** `length` bytes of an open file from byte `from` (fewer at its end). */
function readBytesAt(fd: number, from: number, length: number): Buffer {
  const buffer = Buffer.alloc(Math.max(0, length));
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, from + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** `length` bytes of an open file from byte `from` (fewer at its end), as UTF-8 text. */
function readAt(fd: number, from: number, length: number): string {
  return readBytesAt(fd, from, length).toString("utf8");
}

/** The first `keep` bytes of an open file, and its whole length in bytes. */
function readStart(fd: number, keep: number): { text: string; size: number } {
  const size = fstatSync(fd).size;
  return { text: readAt(fd, 0, Math.min(size, keep)), size };
}

/** True once /proc says the process has ended (a zombie not yet reaped, or gone); Linux only. */
function processEnded(pid: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Why the grader stopped a run (the first reason wins). */
type StopReason = "idle" | "cap" | "budget" | "tree-cpu" | "tree-memory" | "abort";

/**
 * Runs a process to completion or to a limit. Never rejects: every outcome is a RawRun.
 *
 * Its standard input, output and error are files of the grader's (runFileStem), so the process
 * never waits on the grader. A stop by a timer or a poll (idle, the cap, the time budget, the
 * tree's limits) applies only while the run has not ended: each first reads the wrapper's report
 * (or /proc) and does nothing once the program has ended; and a run whose report shows how the
 * program ended is judged by that, whatever the grader did after.
 *
 * @param spec what to run, where, with which environment and input
 * @param limits the wall-clock stops, the tree limits and the bytes kept of each output
 */
export function runProcess(spec: ProcessSpec, limits: RunLimits): Promise<RawRun> {
  installCleanup();
  const started = performance.now();
  const stem = runFileStem();
  const files = {
    stdin: `${stem}.in`,
    stdout: `${stem}.out`,
    stderr: `${stem}.err`,
    report: `${stem}.report`,
  };
  writeFileSync(files.stdin, spec.stdin, { mode: 0o600 });
  const fds = {
    stdin: openSync(files.stdin, "r"),
    stdout: openSync(files.stdout, "w+", 0o600),
    stderr: openSync(files.stderr, "w+", 0o600),
    report: spec.reportFd === true ? openSync(files.report, "w+", 0o600) : undefined,
  };
  const reportNow = () =>
    fds.report === undefined ? undefined : parseReport(readStart(fds.report, 4096).text);
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: process.platform !== "win32", // its own process group, so the group can be killed
      stdio: [fds.stdin, fds.stdout, fds.stderr, ...(fds.report === undefined ? [] : [fds.report])],
      windowsHide: true,
    });
    // The child has its own copies; the grader reads the output files through its own later.
    closeSync(fds.stdin);
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);

    let stopped: StopReason | null = null;
    let spawnError: string | null = null;
    let settled = false;
    // Ended by itself (or by the kernel): the wrapper's report has its status, or the process
    // has exited. Every stop below asks first, so a late timer never touches a finished run.
    const ended = () => reportNow()?.ended === true || (pid !== undefined && processEnded(pid));
    const stop = (reason: StopReason) => {
      if (stopped !== null) return;
      if (reason !== "abort" && ended()) return;
      stopped = reason;
      if (pid !== undefined) killGroup(pid);
      else child.kill("SIGKILL");
    };
    const timers: NodeJS.Timeout[] = [];
    timers.push(setTimeout(() => stop("cap"), Math.max(1, limits.timeoutMs)));
    if (limits.budgetMs !== undefined)
      timers.push(setTimeout(() => stop("budget"), Math.max(1, limits.budgetMs)));
    if (limits.idle !== undefined && pid !== undefined && process.platform === "linux") {
      const { windowMs, minCpuFraction } = limits.idle;
      let last = { at: performance.now(), cpuMs: 0 };
      timers.push(
        setInterval(() => {
          // Measured over the time that really passed, however late this timer fires.
          const now = { at: performance.now(), cpuMs: treeCpuMs(pid) };
          if (now.cpuMs - last.cpuMs < minCpuFraction * (now.at - last.at)) stop("idle");
          last = now;
        }, windowMs),
      );
    }
    if (limits.tree !== undefined && pid !== undefined && process.platform === "linux") {
      const tree = limits.tree;
      timers.push(
        setInterval(() => {
          const usage = treeUsage(pid);
          if (usage.cpuMs > tree.cpuMs) stop("tree-cpu");
          else if (usage.rssBytes > tree.rssBytes) stop("tree-memory");
        }, 500),
      );
    }
    const stdoutFrom: StdoutReader = (offset, max) => {
      const size = fstatSync(fds.stdout).size;
      return readBytesAt(fds.stdout, offset, Math.max(0, Math.min(max, size - offset)));
    };
    if (limits.watch !== undefined && pid !== undefined && process.platform === "linux") {
      const watch = limits.watch;
      timers.push(
        setInterval(() => {
          if (watch.check(treeCpuMs(pid), stdoutFrom)) stop("tree-cpu");
        }, watch.everyMs),
      );
    }
    const abort = () => stop("abort");
    limits.signal?.addEventListener("abort", abort, { once: true });
    if (limits.signal?.aborted === true) abort();

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      limits.signal?.removeEventListener("abort", abort);
      // The leader has exited; anything it left behind in its group goes now.
      if (pid !== undefined) {
        killGroup(pid);
        running.delete(pid);
      }
      const report = reportNow();
      limits.watch?.done(report?.cpuMs ?? null, stdoutFrom);
      const cap = limits.outputCapBytes;
      const out = readStart(fds.stdout, cap);
      const errKept = Math.min(cap, limits.stderrKeepBytes ?? cap);
      const err = readStart(fds.stderr, errKept);
      const tailFrom = Math.max(errKept, Math.min(err.size, cap) - (limits.stderrTailBytes ?? 0));
      const errTail =
        err.size > errKept && limits.stderrTailBytes !== undefined
          ? readAt(fds.stderr, tailFrom, Math.min(err.size, cap) - tailFrom)
          : "";
      for (const fd of [fds.stdout, fds.stderr, fds.report]) if (fd !== undefined) closeSync(fd);
      for (const file of Object.values(files)) rmSync(file, { force: true });
      spec.cleanup?.();
      const outputCapped = out.size > cap ? "stdout" : err.size > cap ? "stderr" : null;
      const text = (stream: "stdout" | "stderr", body: string) =>
        outputCapped === stream
          ? `${body}\n[… ${stream} truncated by the grader at ${cap} bytes]`
          : body;
      // How the program ended, when the wrapper saw it end: then no stop of the grader's counts.
      const own = report?.ended === true ? report : undefined;
      const by = own === undefined ? stopped : stopped === "abort" ? "abort" : null;
      // The tree's CPU read at the end too: a poll that came late changes nothing.
      const treeCpuOver =
        own !== undefined &&
        own.signal === null &&
        limits.tree !== undefined &&
        (own.cpuMs ?? 0) > limits.tree.cpuMs;
      resolve({
        exitCode: own !== undefined ? own.exitCode : exitCode,
        signal: own !== undefined ? own.signal : signal,
        sandboxError: report?.sandboxError ?? null,
        cpuMs: report?.cpuMs ?? null,
        stdout: text("stdout", out.text),
        stderr: text("stderr", err.text),
        stderrTail: errTail,
        outputCapped,
        timedOut: by === "idle" || by === "cap" || by === "budget",
        idle: by === "idle",
        budget: by === "budget",
        treeLimit:
          by === "tree-cpu" || treeCpuOver ? "cpu" : by === "tree-memory" ? "memory" : null,
        spawnError,
        durationMs: report?.wallMs ?? performance.now() - started,
      });
    };
    child.on("close", finish);
    child.on("error", (error) => {
      spawnError = error.message;
      if (pid === undefined) finish(null, null); // never started: no "close" will follow
    });
  });
}
