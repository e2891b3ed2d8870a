/**
 * Running one case: the submission's program as its own process, its input on standard input,
 * with a wall-clock limit and a cap on each output stream. The process leads its own process
 * group, and the whole group is killed at a limit and when the grader exits, so nothing a case
 * starts outlives it (unless it leaves the group itself: see the README's sandbox section).
 */
import { spawn } from "node:child_process";

export interface RunLimits {
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
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
  /** Run as this user and group (the grader must be root to set them). */
  uid?: number;
  gid?: number;
}

/** What happened when a process ran; the verdict is decided elsewhere (compare/). */
export interface RawRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Which stream went over the output cap, if one did (the process was then killed). */
  outputCapped: "stdout" | "stderr" | null;
  timedOut: boolean;
  /** The process could not be started at all (e.g. a --cmd that does not exist). */
  spawnError: string | null;
  durationMs: number;
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

let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid);
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
      ...(spec.uid === undefined ? {} : { uid: spec.uid }),
      ...(spec.gid === undefined ? {} : { gid: spec.gid }),
      detached: process.platform !== "win32", // its own process group, so the group can be killed
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);

    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    let outputCapped: RawRun["outputCapped"] = null;
    let timedOut = false;
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
      // The program has exited: kill what it left in its group, and stop waiting for pipes that a
      // process outside the group may still hold open.
      if (pid !== undefined) killGroup(pid);
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 250).unref();
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
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
      resolve({
        exitCode,
        signal,
        stdout: text("stdout"),
        stderr: text("stderr"),
        outputCapped,
        timedOut,
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
