/**
 * Running one case: the submission's program as its own process, its input on standard input,
 * with a wall-clock limit and a cap on each output stream. The process leads its own process
 * group, and the whole group is killed at a limit and when the grader exits, so nothing a case
 * starts outlives it (unless it leaves the group itself: see docs/sandbox.md).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { constants as osConstants } from "node:os";

export interface RunLimits {
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /**
   * Stop the process earlier when, over a whole window, its process tree used less than
   * `minCpuMs` of CPU: it sleeps or waits. A busy program, however slowed by a loaded machine,
   * always gets some CPU, so this does not depend on load (Linux only; elsewhere not checked).
   */
  idle?: { windowMs: number; minCpuMs: number };
  /**
   * Limits on the whole process tree, polled every half second from /proc (Linux): CPU time in
   * ms and resident memory in bytes, summed over every process of the run. The kernel's per-process
   * limits cannot see a program that spreads its work over forked children (a --cmd program can).
   */
  tree?: { cpuMs: number; rssBytes: number };
  /** Bytes kept from each of standard output and standard error; more kills the process. */
  outputCapBytes: number;
  /** Kills the process group when it fires (watch mode: a new save, or Ctrl-C). */
  signal?: AbortSignal;
}

export interface ProcessSpec {
  /** The executable and its arguments (no shell). */
  command: string;
  args: string[];
  /** The working directory. */
  cwd?: string;
  /** The complete environment (nothing is inherited beyond it). */
  env: NodeJS.ProcessEnv;
  /** Written to standard input, which is then closed. */
  stdin: string;
  /**
   * The process reports on fd 3 (the sandbox's wrapper shell, sandbox.ts): `status N` for the
   * program's exit status, then the output of `times`, whose last line is the CPU time of the
   * program. Without it, exit status and signal are the process's own and CPU time is unknown.
   */
  reportFd?: boolean;
  /** Called once the process has ended (e.g. to remove its mount table). */
  cleanup?: () => void;
  /**
   * Every process that could hold the output pipes dies with this one (a PID namespace with
   * --kill-child): after it exits, the pipes are read to their end, however long the grader takes
   * to read them. Without it, a process that escaped the group could hold them open forever, so
   * they are given up once nothing has come through them for a while after the exit.
   */
  pipesCloseOnExit?: boolean;
}

/**
 * Without pipesCloseOnExit: how long after the exit, with nothing read, before the pipes are
 * given up. Reset by every chunk, so a big answer still being read is never cut short.
 */
const PIPES_IDLE_AFTER_EXIT_MS = 2000;

/** What happened when a process ran; the verdict is decided elsewhere (verdict/). */
export interface RawRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Which stream went over the output cap, if one did (the process was then killed). */
  outputCapped: "stdout" | "stderr" | null;
  timedOut: boolean;
  /** Stopped by the idle check (it used almost no CPU for a whole window), not the hard limit. */
  idle: boolean;
  /** Stopped because its process tree as a whole went over a limit (RunLimits.tree). */
  treeLimit: "cpu" | "memory" | null;
  /** The process could not be started at all (e.g. a --cmd that does not exist). */
  spawnError: string | null;
  /** The sandbox itself failed to start the program (not the program's fault). */
  sandboxError: string | null;
  /** CPU time (user + system) the program used, in milliseconds, when the sandbox reported it. */
  cpuMs: number | null;
  durationMs: number;
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
 *   ms, and the sandbox's own failure line, each null when absent
 */
export function parseReport(text: string): {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  cpuMs: number | null;
  sandboxError: string | null;
} {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const failure = lines.find((l) => l.startsWith("sandbox "));
  const status = lines.find((l) => l.startsWith("status "));
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
  return { exitCode, signal, cpuMs, sandboxError: failure ?? null };
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

/**
 * Runs a process to completion or to a limit. Never rejects: every outcome is a RawRun.
 *
 * @param spec what to run, where, with which environment and input
 * @param limits the wall-clock limit and the per-stream output cap
 */
export function runProcess(spec: ProcessSpec, limits: RunLimits): Promise<RawRun> {
  installCleanup();
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: process.platform !== "win32", // its own process group, so the group can be killed
      stdio: spec.reportFd === true ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);

    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    // The wrapper's report: a few short lines; capped all the same.
    let report = "";
    const reportStream = spec.reportFd === true ? child.stdio[3] : null;
    reportStream?.on("data", (chunk: Buffer) => {
      if (report.length < 4096) report += chunk.toString("utf8");
    });
    reportStream?.on("error", () => {});
    const sizes = { stdout: 0, stderr: 0 };
    let outputCapped: RawRun["outputCapped"] = null;
    let timedOut = false;
    let idle = false;
    let treeLimit: RawRun["treeLimit"] = null;
    let spawnError: string | null = null;
    let settled = false;

    const stop = () => {
      if (pid !== undefined) killGroup(pid);
      else child.kill("SIGKILL");
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, limits.timeoutMs);
    let lastCpu = 0;
    const idleCheck =
      limits.idle === undefined || pid === undefined || process.platform !== "linux"
        ? undefined
        : setInterval(() => {
            const cpu = treeCpuMs(pid);
            if (cpu - lastCpu < (limits.idle?.minCpuMs ?? 0)) {
              timedOut = true;
              idle = true;
              stop();
            }
            lastCpu = cpu;
          }, limits.idle.windowMs);
    const treeCheck =
      limits.tree === undefined || pid === undefined || process.platform !== "linux"
        ? undefined
        : setInterval(() => {
            const usage = treeUsage(pid);
            if (usage.cpuMs > (limits.tree?.cpuMs ?? Infinity)) treeLimit = "cpu";
            else if (usage.rssBytes > (limits.tree?.rssBytes ?? Infinity)) treeLimit = "memory";
            if (treeLimit !== null) stop();
          }, 500);
    limits.signal?.addEventListener("abort", stop, { once: true });
    if (limits.signal?.aborted === true) stop();

    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].on("data", (chunk: Buffer) => {
        const room = limits.outputCapBytes - sizes[stream];
        if (room > 0) chunks[stream].push(room >= chunk.length ? chunk : chunk.subarray(0, room));
        sizes[stream] += chunk.length;
        if (sizes[stream] > limits.outputCapBytes && outputCapped === null) {
          outputCapped = stream;
          stop();
        }
      });
    }
    // A program that exits without reading its input makes the write fail with EPIPE: harmless.
    child.stdin.on("error", () => {});
    child.stdin.end(spec.stdin);

    child.on("exit", () => {
      // The program has exited: kill what it left in its group. What is still in the pipes is
      // the program's output and is read to the end (cutting it after a fixed time made a big
      // answer invalid JSON on a busy machine). Only where an escaped process might hold a pipe
      // open, the pipes are given up once they have been quiet for a while.
      if (pid !== undefined) killGroup(pid);
      if (spec.pipesCloseOnExit === true) return;
      let quiet: NodeJS.Timeout | undefined;
      const giveUpWhenQuiet = () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          reportStream?.destroy();
        }, PIPES_IDLE_AFTER_EXIT_MS).unref();
      };
      giveUpWhenQuiet();
      child.stdout.on("data", giveUpWhenQuiet);
      child.stderr.on("data", giveUpWhenQuiet);
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (idleCheck !== undefined) clearInterval(idleCheck);
      if (treeCheck !== undefined) clearInterval(treeCheck);
      limits.signal?.removeEventListener("abort", stop);
      // The leader has exited; anything it left behind in its group goes now.
      if (pid !== undefined) {
        killGroup(pid);
        running.delete(pid);
      }
      const text = (stream: "stdout" | "stderr") => {
        const body = Buffer.concat(chunks[stream]).toString("utf8");
        return outputCapped === stream
          ? `${body}\n[… ${stream} truncated by the grader at ${limits.outputCapBytes} bytes]`
          : body;
      };
      spec.cleanup?.();
      const reported = spec.reportFd === true ? parseReport(report) : undefined;
      const fromReport =
        reported !== undefined && (reported.exitCode !== null || reported.signal !== null);
      resolve({
        exitCode: fromReport ? reported.exitCode : exitCode,
        signal: fromReport ? reported.signal : signal,
        sandboxError: reported?.sandboxError ?? null,
        cpuMs: reported?.cpuMs ?? null,
        stdout: text("stdout"),
        stderr: text("stderr"),
        outputCapped,
        timedOut,
        idle,
        treeLimit,
        spawnError,
        durationMs: performance.now() - started,
      });
    };
    child.on("close", finish);
    child.on("error", (error) => {
      spawnError = error.message;
      if (pid === undefined) finish(null, null); // never started: no "close" will follow
    });
  });
}
