/**
 * Running a submission's program: getting it ready once (a folder bundled, and type-checked with
 * --types; a command as it is), then running it on one case as its own confined process. The
 * grading loop (grade.ts), the mutants' live outcomes, --random's answers, new-case and the bench
 * all run programs this way.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import type { Case } from "../cases/load.ts";
import type { SubmissionTarget } from "../options.ts";
import { STDERR_READ_BYTES, STDERR_TAIL_BYTES } from "../limits.ts";
import { buildSubmission } from "./build.ts";
import { runIdentities } from "./identities.ts";
import { PROGRAM_DIR, programRun, sharedProgramRun } from "./program.ts";
import { atExit, runProcess, type RawRun } from "./run-process.ts";
import { confinedRunLimits, confinedSpec, sandboxFeatures, type ConfinedRun } from "./sandbox.ts";
import { sharedEntry, type SharedStart } from "./shared-run.ts";
import { stackMapper } from "./stack-map.ts";
import { typeCheck } from "./typecheck.ts";

/** The limits a program runs under (the grading's options of the same names). */
export interface RunLimits {
  /** Per-case CPU-time limit, milliseconds (the kernel enforces it in whole seconds, rounded up). */
  timeoutMs: number;
  /** Bytes kept per output stream before the program is stopped. */
  outputCapBytes: number;
  /** Heap limit for the program, MiB (Node's --max-old-space-size). */
  memoryMiB: number;
}

/** A submission ready to run: how to start its program on one case, as a given run identity. */
export interface Program {
  run(c: Case, uid: number | undefined): ConfinedRun;
  /**
   * Several cases in one confined process, by the grader's harness (shared-run.ts), signed with
   * `key` (hex); absent when the program cannot run shared (a --cmd program, a main.ts that is not
   * the kit's).
   */
  shared?: SharedStart | undefined;
  /**
   * Rewrites text of the program's standard error (a line, as judging applies it) for reports:
   * stack frames in src/ terms (stack-map.ts).
   */
  mapStderr(text: string): string;
}

/** A submission made ready to run, or why it could not be (prepareProgram). */
export interface PreparedProgram {
  /** Undefined when the build failed. */
  program?: Program;
  /** Build (and --types) errors, one line each. */
  errors: string[];
  /** Removes what was built. */
  cleanup: () => void;
}

/** Limits for preparing a program, and whether to type-check it first (--types). */
export type PrepareLimits = RunLimits & {
  typeCheck?: boolean | undefined;
};

/**
 * Gets a submission ready: a folder is bundled once (and type-checked with --types); a command
 * needs nothing.
 *
 * @param bundler how a folder is bundled (the instructor kit's mutants come from a cache of their
 *   bundles, instructor/mutants/bundle-cache.ts)
 * @returns the program, or the build errors; and a cleanup for what was built
 */
export async function prepareProgram(
  target: SubmissionTarget,
  limits: PrepareLimits,
  bundler: typeof buildSubmission = buildSubmission,
): Promise<PreparedProgram> {
  if (target.kind === "command") {
    return {
      program: { run: (c, uid) => programRun(target, c, limits, uid), mapStderr: (t) => t },
      errors: [],
      cleanup: () => {},
    };
  }
  // The bundler and tsc run confined over a copy of src/.
  const build = await bundler(target.path, { within: target.within });
  const removeBuild = () => rmSync(build.outDir, { recursive: true, force: true });
  // Also when the grader is interrupted mid-run.
  const forget = atExit(removeBuild);
  const cleanup = () => {
    forget();
    removeBuild();
  };
  const errors = [...build.errors];
  if (build.bundle !== undefined && limits.typeCheck === true)
    errors.push(...(await typeCheck(target.path, { within: target.within })));
  if (build.bundle === undefined || build.sourceMap === undefined || errors.length > 0)
    return { errors, cleanup };
  // The program gets a copy of its bundle and starts in an empty folder; in the unisolated mode
  // both are real folders that the run identities must be able to reach.
  const workDir = join(build.outDir, "cwd");
  mkdirSync(workDir, { mode: 0o755 });
  chmodSync(build.outDir, 0o755);
  chmodSync(build.bundle, 0o644);
  const bundle = { kind: "bundle" as const, path: build.bundle };
  const mapStderr = stackMapper({
    map: build.sourceMap,
    bundleText: readFileSync(build.bundle, "utf8"),
    // Where programRun has it run: in the sandbox, or on disk in mode none.
    bundlePaths: [`${PROGRAM_DIR}/${basename(build.bundle)}`, build.bundle],
  });
  return {
    program: {
      run: (c, uid) => programRun(bundle, c, limits, uid, workDir),
      shared: sharedEntry(build.entryDigest)
        ? (cases, uid, key) => sharedProgramRun(bundle.path, cases, limits, uid, key, workDir)
        : undefined,
      mapStderr,
    },
    errors: [],
    cleanup,
  };
}

/**
 * Runs one case: its own confined process as a run identity of its own (root mode), the case's
 * input on standard input, limited in CPU time, data memory and output by the kernel; the wall
 * clock stops only a run that uses almost no CPU (wallBackstops), or one still running when the
 * grading's time budget (`limits.deadline`) ends.
 */
export async function runCase(
  program: Program,
  c: Case,
  limits: Pick<RunLimits, "timeoutMs" | "outputCapBytes"> & {
    /** Stops the run (watch mode, on a new save or Ctrl-C). */
    signal?: AbortSignal | undefined;
    /** When the grading must end, as a performance.now() time in milliseconds (--time-budget). */
    deadline?: number | undefined;
  },
): Promise<RawRun> {
  const root = sandboxFeatures().mode === "root";
  const uid = root ? await runIdentities.acquire() : undefined;
  try {
    const run = program.run(c, uid);
    return await runProcess(confinedSpec(run), {
      ...confinedRunLimits(run.limits, limits.deadline),
      outputCapBytes: limits.outputCapBytes,
      // What judging reads of standard error: its start (its whole length still counts).
      stderrKeepBytes: STDERR_KEEP_BYTES,
      stderrTailBytes: STDERR_TAIL_BYTES,
      ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    });
  } finally {
    if (uid !== undefined) runIdentities.release(uid);
  }
}

/**
 * Bytes of a program's standard error the grader reads: the first 64 KiB that judging reads
 * (verdict/capped-text.ts), and a character more to tell whether anything followed.
 */
export const STDERR_KEEP_BYTES = STDERR_READ_BYTES;
