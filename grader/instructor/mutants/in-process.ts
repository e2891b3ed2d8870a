/**
 * Running a mutant on a case without a process of its own: a worker thread (mutant-worker.mjs)
 * calls the `run` function of the mutant's bundle, which main.ts exports, with the case's
 * arguments and input. About a millisecond a case instead of a sandboxed Node start (some 0.3 s of
 * CPU), which is most of what live outcomes cost (live.ts).
 *
 * Only the kit's own mutants run this way: each is the reference with one catalogued mistake,
 * code the kit wrote, never a submission's. A thread's answer is kept only when the run ended the
 * way a finished program ends (exit 0 to 3, outputs under the caps, nothing printed around `run`);
 * for anything else (a bug's exit 70, a thread that ran out of memory or time) the caller runs the
 * case as a sandboxed process, whose outcome then counts, so a limit is always the kernel's.
 * `npm run generate -- --check` compares these outcomes with diagnosis.json, which
 * `npm run build:diagnosis` records from processes alone: every mutant on every built-in case.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import Tinypool from "tinypool";
import { modeArgs, type Case } from "../../cases/load.ts";
import { KIT_ROOT } from "../../kit.ts";
import { STDERR_READ_BYTES } from "../../limits.ts";
import { finishedRun, type RawRun } from "../../run/run-process.ts";

/** Exit codes of a program that finished (docs/program.md): success, bad subscription, bad input, a stub. */
const FINISHED = new Set([0, 1, 2, 3]);

/** What mutant-worker.mjs returns for one run. */
interface ThreadRun {
  /** True when `run` threw (main.ts's run never does: it turns every error into exit 70). */
  threw: boolean;
  exitCode: number;
  stdout: string;
  stderr: string;
  wroteAround: boolean;
  durationMs: number;
}

/** A pool of worker threads that run mutant bundles (one run at a time per thread). */
export class MutantThreads {
  private pool: Tinypool | undefined;

  /**
   * @param limits the heap limit of each thread (MiB, as a process's --max-old-space-size), the
   *   wall-clock time after which a run is given up (ms; its process then decides), and the
   *   output cap (bytes per stream)
   */
  constructor(
    private readonly limits: { memoryMiB: number; timeoutMs: number; outputCapBytes: number },
  ) {}

  /**
   * Runs the bundle on the case in a thread.
   *
   * @param bundle the path of a mutant's bundle (its main.ts bundled, as prepareProgram builds it)
   * @returns the run, shaped as a process's would be; undefined when the thread's answer is not
   *   kept (see the file's comment) and the case must run as a process
   */
  async run(bundle: string, c: Case): Promise<RawRun | undefined> {
    this.pool ??= new Tinypool({
      filename: join(KIT_ROOT, "grader", "instructor", "mutants", "mutant-worker.mjs"),
      maxThreads: availableParallelism(),
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMiB },
    });
    let ran: ThreadRun;
    try {
      ran = (await this.pool.run(
        { bundle, argv: modeArgs(c.mode), stdin: c.inputText },
        { signal: AbortSignal.timeout(this.limits.timeoutMs) },
      )) as ThreadRun;
    } catch (error) {
      // A limit: the process run decides. Anything else is the kit's own fault (a bundle that does
      // not load, a main.ts without `run`), and hiding it would quietly make every run a process.
      if (isLimit(error)) return undefined;
      throw new Error(`a mutant's thread failed on ${bundle}: ${String(error)}`, { cause: error });
    }
    // What a process's pipes would carry: the text as UTF-8, read back.
    const stdout = Buffer.from(ran.stdout, "utf8");
    const stderr = Buffer.from(ran.stderr, "utf8");
    if (
      ran.threw ||
      !FINISHED.has(ran.exitCode) ||
      ran.wroteAround ||
      stdout.length > this.limits.outputCapBytes ||
      stderr.length >= STDERR_READ_BYTES
    ) {
      return undefined;
    }
    return finishedRun({
      exitCode: ran.exitCode,
      stdout: stdout.toString("utf8"),
      stderr: stderr.toString("utf8"),
      cpuMs: null,
      durationMs: ran.durationMs,
    });
  }

  /** Stops the threads (runs still going are given up). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}

/** True for a thread stopped by its time limit (the run's AbortSignal) or its heap limit. */
function isLimit(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AbortError" ||
      (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY")
  );
}
