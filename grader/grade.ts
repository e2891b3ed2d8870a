/**
 * Grading one submission: build it once, run every case as its own process (several at a time),
 * judge each run, and hand each result to the reporters in fixture order.
 */
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { judge, type Reason, type Status, type Verdict } from "./compare/verdict.ts";
import type { Case, FixtureSchemas } from "./fixtures/load.ts";
import { buildSubmission } from "./run/build.ts";
import { runProcess, type ProcessSpec, type RawRun } from "./run/run-process.ts";
import { acquireSlot, commandProgram, nodeProgram, releaseSlot } from "./run/sandbox.ts";
import { typeCheck } from "./run/typecheck.ts";
import type { Reporter } from "./report/reporter.ts";
import type { SubmissionTarget } from "./options.ts";
import { matchMistakes, type OutcomeSource } from "./diagnose/diagnose.ts";

export interface GradeOptions {
  /** A folder with src/main.ts (built once with esbuild), or any command (--cmd). */
  submission: SubmissionTarget;
  cases: readonly Case[];
  schemas: FixtureSchemas;
  /** Per-case wall-clock limit, milliseconds. */
  timeoutMs: number;
  /** Bytes kept per output stream before the program is stopped. */
  outputCapBytes: number;
  /** Heap limit for the program, MiB (Node's --max-old-space-size). */
  memoryMiB: number;
  /** Cases run at once. */
  concurrency: number;
  /** Type-check a folder submission with tsc before grading (--types); errors fail the build. */
  typeCheck?: boolean;
  kit: { version: string; fixtures: string };
  reporters: readonly Reporter[];
  /** Rebuilds the command line that reruns one case, for failure messages. */
  rerunCommand: (caseId: string) => string;
  /** Where mutant outcomes come from, to name mistakes on failed cases (none: no diagnosis). */
  diagnosis?: OutcomeSource;
  /**
   * Stops the grading (watch mode, on a new save or Ctrl-C): running cases are killed, no case
   * starts after it fires, and gradeSubmission rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** One case's result: the results file's fields plus what the text report shows. */
export interface CaseResult {
  id: string;
  title: string;
  required: boolean;
  status: Status;
  reason: Reason | null;
  points: number;
  maxPoints: number;
  /** The catalogued mistake the outcome matches, when one does (see diagnose/); the first of several. */
  mistake: string | null;
  /** Every catalogued mistake the outcome matches (most specific first; usually one). */
  mistakes: string[];
  message: string;
  case: Case;
  verdict: Verdict;
  /** Standard error as the program wrote it (capped). */
  stderr: string;
  durationMs: number;
  rerun: string;
}

export interface GradeResults {
  kit: { version: string; fixtures: string };
  submission: string;
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
  cases: CaseResult[];
  /** Build errors, when the submission did not build (every case is then `error`). */
  buildErrors: string[];
  durationMs: number;
}

function result(
  c: Case,
  verdict: Verdict,
  run: RawRun | null,
  rerun: string,
  mistakes: string[] = [],
): CaseResult {
  return {
    id: c.id,
    title: c.title,
    required: c.required,
    status: verdict.status,
    reason: verdict.reason,
    points: verdict.status === "pass" ? c.points : 0,
    maxPoints: c.points,
    mistake: mistakes[0] ?? null,
    mistakes,
    message: verdict.message,
    case: c,
    verdict,
    stderr: run?.stderr ?? "",
    durationMs: run?.durationMs ?? 0,
    rerun,
  };
}

/** A submission ready to run: how to start its program on one case, in a given slot. */
export interface Program {
  spec(c: Case, slot: number, sourceMaps?: boolean): ProcessSpec;
  /** True when a rerun with source maps gives a more readable stack (TypeScript bundles). */
  hasSourceMaps: boolean;
}

/**
 * Gets a submission ready: a folder is bundled once (and type-checked with --types); a command
 * needs nothing.
 *
 * @returns the program, or the build errors; and a cleanup for what was built
 */
export async function prepareProgram(
  target: SubmissionTarget,
  limits: Pick<GradeOptions, "memoryMiB" | "timeoutMs"> & { typeCheck?: boolean | undefined },
): Promise<{ program?: Program; errors: string[]; cleanup: () => void }> {
  if (target.kind === "command") {
    return {
      program: {
        spec: (c, slot) =>
          commandProgram(
            target.command,
            target.cwd,
            c.mode === "decode",
            c.inputText,
            limits,
            slot,
          ),
        hasSourceMaps: false,
      },
      errors: [],
      cleanup: () => {},
    };
  }
  const build = await buildSubmission(target.path);
  const cleanup = () => rmSync(build.outDir, { recursive: true, force: true });
  const errors = [...build.errors];
  if (build.bundle !== undefined && limits.typeCheck === true)
    errors.push(...(await typeCheck(target.path)));
  if (build.bundle === undefined || errors.length > 0) return { errors, cleanup };
  // The slots' users must be able to reach the bundle and the empty folder they start in.
  const workDir = join(build.outDir, "cwd");
  mkdirSync(workDir, { mode: 0o755 });
  chmodSync(build.outDir, 0o755);
  chmodSync(build.bundle, 0o644);
  const bundle = build.bundle;
  return {
    program: {
      spec: (c, slot, sourceMaps) =>
        nodeProgram(bundle, c.mode === "decode", c.inputText, workDir, limits, slot, sourceMaps),
      hasSourceMaps: true,
    },
    errors: [],
    cleanup,
  };
}

/** Runs one case: its own process in its own slot, the case's input on standard input. */
export async function runCase(
  program: Program,
  c: Case,
  limits: Pick<GradeOptions, "timeoutMs" | "outputCapBytes" | "signal">,
  sourceMaps = false,
): Promise<RawRun> {
  const slot = acquireSlot();
  try {
    return await runProcess(program.spec(c, slot, sourceMaps), {
      timeoutMs: limits.timeoutMs,
      outputCapBytes: limits.outputCapBytes,
      ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    });
  } finally {
    releaseSlot(slot);
  }
}

/** Three timeouts in a row, in fixture order, and the cases not yet started are skipped. */
const TIMEOUTS_BEFORE_SKIPPING = 3;

/**
 * Grades a submission against the cases.
 *
 * @returns every case's result in case order, and the scores (required and extension apart)
 */
export async function gradeSubmission(options: GradeOptions): Promise<GradeResults> {
  const started = performance.now();
  const { cases, reporters } = options;
  for (const r of reporters)
    r.onRunStart?.({ submission: options.submission.name, cases, kit: options.kit });

  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(cases.length);
  let reported = 0;
  const prepared = await prepareProgram(options.submission, options);
  let timeoutStreak = 0;
  let skipping = false;
  const publish = () => {
    // Reporters see results in fixture order even though cases finish in any order.
    while (reported < cases.length && results[reported] !== undefined) {
      const done = results[reported] as CaseResult;
      timeoutStreak = done.status === "timeout" ? timeoutStreak + 1 : 0;
      if (timeoutStreak >= TIMEOUTS_BEFORE_SKIPPING) skipping = true;
      for (const r of reporters) r.onCaseResult?.(done);
      reported++;
    }
  };
  try {
    if (prepared.program === undefined) {
      const message = `the submission did not build: ${prepared.errors[0] ?? "unknown error"}`;
      cases.forEach((c, i) => {
        results[i] = result(
          c,
          { status: "error", reason: "build-error", message, outcome: { kind: "build-error" } },
          null,
          options.rerunCommand(c.id),
        );
      });
      publish();
    } else {
      const program = prepared.program;
      let next = 0;
      const aborted = () => options.signal?.aborted === true;
      const worker = async () => {
        while (next < cases.length && !aborted()) {
          const index = next++;
          const c = cases[index] as Case;
          if (skipping) {
            results[index] = result(
              c,
              {
                status: "skipped",
                reason: "skipped-after-timeouts",
                message: `skipped: ${TIMEOUTS_BEFORE_SKIPPING} cases in a row ran out of time`,
                outcome: { kind: "timeout" },
              },
              null,
              options.rerunCommand(c.id),
            );
            publish();
            continue;
          }
          let run = await runCase(program, c, options);
          if (aborted()) return;
          const verdict = judge(c, run, options.schemas.output(c.mode));
          if (verdict.reason === "crash" && program.hasSourceMaps) {
            // The same crash again, with source maps, so its stack names src/*.ts lines.
            const mapped = await runCase(program, c, options, true);
            if (judge(c, mapped, options.schemas.output(c.mode)).reason === "crash") run = mapped;
          }
          let mistakes: string[] = [];
          if (verdict.status !== "pass" && options.diagnosis !== undefined) {
            const outcomes = await options.diagnosis.outcomesFor(c);
            const offsets = await options.diagnosis.offsetsFor?.(c);
            if (outcomes !== undefined) {
              mistakes = matchMistakes(verdict.outcome, outcomes, undefined, offsets);
            }
          }
          results[index] = result(c, verdict, run, options.rerunCommand(c.id), mistakes);
          publish();
        }
      };
      await Promise.all(
        Array.from({ length: Math.max(1, Math.min(options.concurrency, cases.length)) }, worker),
      );
    }
  } finally {
    prepared.cleanup();
  }
  options.signal?.throwIfAborted();

  const done = results as CaseResult[];
  const sum = (required: boolean, key: "points" | "maxPoints") =>
    done.filter((r) => r.required === required).reduce((total, r) => total + r[key], 0);
  const graded: GradeResults = {
    kit: options.kit,
    submission: options.submission.name,
    score: sum(true, "points"),
    maxScore: sum(true, "maxPoints"),
    extensionScore: sum(false, "points"),
    extensionMaxScore: sum(false, "maxPoints"),
    cases: done,
    buildErrors: prepared.errors,
    durationMs: performance.now() - started,
  };
  for (const r of reporters) r.onRunEnd?.(graded);
  return graded;
}

/** True when every required case passed (exit code 0). */
export function allRequiredPassed(results: GradeResults): boolean {
  return results.cases.every((r) => !r.required || r.status === "pass");
}
