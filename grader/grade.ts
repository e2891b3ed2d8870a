/**
 * Grading one submission: the loop. Its program is prepared once (run/prepare.ts), every case
 * runs as its own process (several at a time, in slots that may be shared with other gradings),
 * is judged (verdict/) and diagnosed (diagnose/case.ts), and becomes its record (record.ts),
 * handed to the reporters in grading order as soon as the cases before it are: the visible cases
 * first, all run and judged, then the private ones (phases.ts). The skip rule (skip-rule.ts)
 * decides which cases run; the names are confirmed at the end of each phase; the scores last.
 */
import pLimit, { type LimitFunction } from "p-limit";
import { isPrivateCase, visibleFirst, type Case, type FixtureSchemas } from "./cases/load.ts";
import { Confirmation, diagnoseCase } from "./diagnose/case.ts";
import type { OutcomeSource } from "./diagnose/diagnose.ts";
import type { SubmissionTarget } from "./options.ts";
import { ownPhases, type Phases } from "./phases.ts";
import {
  caseRecord,
  notRunRecord,
  privateCaseView,
  skippedRecord,
  type RecordContext,
  type RerunContext,
} from "./record.ts";
import type { Reporter } from "./report/reporter.ts";
import {
  scoresOf,
  type CaseResult,
  type CaseRun,
  type GradeResults,
  type NotGraded,
  type PrivateCaseView,
  boundedErrors,
} from "./results.ts";
import { prepareProgram, runCase, type PreparedProgram } from "./run/prepare.ts";
import type { RawRun } from "./run/run-process.ts";
import { runSharedGroup, sharedRawRun, type SharedReport } from "./run/shared-run.ts";
import { MIN_CASE_MS, SkipRule, skipBefore } from "./skip-rule.ts";
import { DEFAULT_EXTENSION_POLICY, type ExtensionPolicy } from "./totals.ts";
import { capRun, type CappedRun } from "./verdict/capped-text.ts";
import { judge, type Verdict } from "./verdict/verdict.ts";

/**
 * The fewest cases a group runs shared: a shared process starts no faster than a case's own, and
 * for a few cases the ones alone, side by side, end sooner.
 */
export const MIN_SHARED_CASES = 4;

export interface GradeOptions {
  /** A folder with src/main.ts (built once with esbuild), or any command (--cmd). */
  submission: SubmissionTarget;
  cases: readonly Case[];
  schemas: FixtureSchemas;
  /** Per-case CPU-time limit, milliseconds (the kernel enforces it in whole seconds, rounded up). */
  timeoutMs: number;
  /** Bytes kept per output stream before the program is stopped. */
  outputCapBytes: number;
  /** Heap limit for the program, MiB (Node's --max-old-space-size). */
  memoryMiB: number;
  /** Cases run at once. */
  concurrency: number;
  /**
   * Case slots shared with other gradings (a batch: the next submission's cases start in the
   * slots this one's last cases leave free); absent, this grading has `concurrency` of its own.
   * First come, first served, so a submission's cases all start before the next one's.
   */
  slots?: LimitFunction | undefined;
  /**
   * When the grading must end (--time-budget), as a performance.now() time in milliseconds: a
   * case not started with MIN_CASE_MS left before it is skipped, and a running case is stopped at
   * it (a time-out). Undefined: no limit. Unlike every other rule, this one depends on timing.
   */
  deadline?: number | undefined;
  /** Type-check a folder submission with tsc before grading (--types); errors fail the build. */
  typeCheck?: boolean;
  kit: { version: string; fixtures: string };
  /** How extension points enter the total (--extension); totals.ts's default when absent. */
  extension?: ExtensionPolicy | undefined;
  /** The stamp of the case set's visible cases (hash.ts fixtureHash), what students are shown. */
  visibleFixtures: string;
  reporters: readonly Reporter[];
  /** How this grading was started, for the commands that rerun one case (record.ts). */
  rerun: RerunContext;
  /** Where mutant outcomes come from, to name mistakes on failed cases (none: no diagnosis). */
  diagnosis?: OutcomeSource;
  /**
   * Stops the grading (watch mode, on a new save or Ctrl-C): running cases are killed, no case
   * starts after it fires, and gradeSubmission rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /**
   * The submission already being prepared (prepareProgram with these options' limits and hidden
   * folders), started while the cases were still loading; absent, gradeSubmission prepares it.
   * Its cleanup runs when the grading ends, as for one prepared here.
   */
  prepared?: Promise<PreparedProgram> | undefined;
  /**
   * When this grading's private phase may start (a batch's PhaseGate, shared by its gradings);
   * absent, right after its own visible phase.
   */
  phases?: Phases | undefined;
  /**
   * Receives the instructor's view of every private case (results.ts PrivateCaseView: input,
   * answer, diff, named mistakes) once the grading is over, in grading order: for outputs only
   * the instructor reads (`--show-private FILE`). Absent, no view is built. Never given to a
   * reporter.
   */
  privateViews?: ((views: readonly PrivateCaseView[]) => void) | undefined;
  /** Runs one case's program (runCase; tests give a fake that records when cases run). */
  runCase?: typeof runCase;
  /**
   * Every case its own process (--isolate). Otherwise a program that can (Program.shared) runs
   * each visibility group's cases in one shared process first (run/shared-run.ts), and every case
   * that did not pass cleanly there runs again alone, its verdict the one reported.
   */
  isolate?: boolean | undefined;
  /** Runs a group's cases shared (runSharedGroup; tests give a fake). */
  runShared?: typeof runSharedGroup;
}

/**
 * Grades a submission against the cases, in two phases (phases.ts): every visible case is run
 * and judged, its names confirmed against the visible cases alone, before any private case
 * starts; a private case's names are confirmed against every case.
 *
 * @returns every case's result in grading order (visible first: cases/load.ts visibleFirst), and
 *   the scores (required and extension apart, and their total under options.extension)
 */
export async function gradeSubmission(options: GradeOptions): Promise<GradeResults> {
  const started = performance.now();
  const { reporters } = options;
  // The skip rule and the reporters follow this order: a visible case's result never depends on
  // a private one's.
  const cases = visibleFirst(options.cases);
  const visibleCount = cases.filter((c) => !isPrivateCase(c)).length;
  const phases = options.phases ?? ownPhases();
  let visibleDurationMs: number | undefined;
  const endVisiblePhase = () => {
    visibleDurationMs ??= performance.now() - started;
    phases.visibleDone();
  };
  const headings = cases.map((c) => ({ id: c.id, private: isPrivateCase(c) }));
  for (const r of reporters)
    r.onRunStart?.({ submission: options.submission.name, cases: headings, kit: options.kit });

  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(cases.length);
  let reported = 0;
  const prepared = await (options.prepared ?? prepareProgram(options.submission, options));
  const skip = new SkipRule(options.timeoutMs);
  const skipped = (c: Case, why: string) => skippedRecord(c, why, options.rerun);
  // Names are checked against other cases at the end of each phase (diagnose/case.ts); a record
  // whose names that changes is rebuilt, after its first version was published.
  const confirmation = new Confirmation();
  const rebuild = new Map<number, (mistakes: readonly string[]) => CaseResult>();
  // What the instructor's view of a private case is built from (only with options.privateViews).
  const judged = new Map<
    number,
    { verdict: Verdict; run: CappedRun; layouts: RecordContext["layouts"] }
  >();
  const publish = () => {
    // Reporters see results in grading order even though cases finish in any order; a case run
    // before the rule said to skip it is skipped all the same, so skipping never depends on timing.
    while (reported < cases.length && results[reported] !== undefined) {
      const why = skip.reason();
      if (why !== undefined) results[reported] = skipped(cases[reported] as Case, why);
      const done = results[reported] as CaseResult;
      skip.add(done);
      for (const r of reporters) r.onCaseResult?.(done);
      reported++;
    }
  };
  const confirmUpTo = (to: number) => {
    for (const [index, names] of confirmation.confirm(to)) {
      const result = results[index];
      const again = rebuild.get(index);
      // A case the rule skipped after it ran keeps its skipped record.
      if (again !== undefined && result !== undefined && result.status !== "skipped")
        results[index] = again(names);
    }
  };
  let notGraded: NotGraded | null = null;
  try {
    if (prepared.program === undefined) {
      // One failure for the submission, before any case's line; each case then says "not run".
      notGraded = {
        reason: "build-error",
        errors: prepared.errors.length > 0 ? boundedErrors(prepared.errors) : ["unknown error"],
      };
      for (const r of reporters) r.onNotGraded?.(notGraded);
      cases.forEach((c, i) => {
        results[i] = notRunRecord(c, "build-error", options.rerun);
      });
      publish();
    } else if (
      options.deadline !== undefined &&
      options.deadline - performance.now() < MIN_CASE_MS
    ) {
      // The build took what --time-budget left: no case can start, which is one failure too.
      notGraded = {
        reason: "timeout",
        errors: [
          `the time budget (--time-budget) ran out while the submission was prepared, before any case could start`,
        ],
      };
      for (const r of reporters) r.onNotGraded?.(notGraded);
      cases.forEach((c, i) => {
        results[i] = notRunRecord(c, "timeout", options.rerun);
      });
      publish();
    } else {
      const program = prepared.program;
      const runOne = options.runCase ?? runCase;
      const aborted = () => options.signal?.aborted === true;
      /** Judges a finished run, diagnoses it and publishes its record. */
      const judgeRun = async (c: Case, index: number, raw: RawRun, ran: CaseRun) => {
        // What the program wrote, capped once for everything after the run (capped-text.ts);
        // stack frames name src/ files, never the sandbox's bundle path, in every message.
        const run = capRun(raw, program.mapStderr);
        const verdict = judge(c, run, options.schemas.output(c.mode), options.timeoutMs);
        await recordCase(c, index, verdict, run, ran);
      };
      const recordCase = async (
        c: Case,
        index: number,
        verdict: Verdict,
        run: CappedRun,
        ran: CaseRun,
      ) => {
        const diagnosis = await diagnoseCase(c, verdict, options.diagnosis);
        const record = (mistakes: readonly string[]) =>
          caseRecord(c, verdict, run, {
            rerun: options.rerun,
            mistakes,
            layouts: diagnosis.layouts,
            ran,
          });
        if (options.privateViews !== undefined && isPrivateCase(c))
          judged.set(index, { verdict, run, layouts: diagnosis.layouts });
        confirmation.add(index, diagnosis.named);
        rebuild.set(index, record);
        results[index] = record(diagnosis.mistakes);
        publish();
      };
      /** Why a case is not to run now: the skip rule, or the time budget; undefined to run it. */
      const skipNow = (index: number) =>
        options.deadline !== undefined && options.deadline - performance.now() < MIN_CASE_MS
          ? `skipped: the grading's time budget ran out before this case started`
          : skipBefore(results, index, options.timeoutMs);
      const gradeCase = async (c: Case, index: number): Promise<void> => {
        // Once aborted, the cases still queued start and end at once: none runs.
        if (aborted()) return;
        // The earlier cases already make the rule skip this one (skipBefore): no need to run it.
        // Past the deadline (--time-budget), skipped whatever came before.
        const why = skipNow(index);
        if (why !== undefined) {
          results[index] = skipped(c, why);
          publish();
          return;
        }
        const raw = await runOne(program, c, options);
        if (aborted()) return;
        await judgeRun(c, index, raw, "isolated");
      };
      // Each phase's cases start in grading order, `concurrency` at a time (p-limit keeps the
      // queue) or in the slots shared with other gradings.
      const slots = options.slots ?? pLimit(Math.max(1, options.concurrency));
      const shared = options.isolate === true ? undefined : program.shared;
      const runShared = options.runShared ?? runSharedGroup;
      /**
       * A phase's cases. With a shared run, its process runs them all (in a batch, in one of the
       * shared slots; otherwise beside this grading's own), and each report is dealt with as it
       * comes: a clean pass is judged and recorded as run shared, every other case queued to run
       * alone in the slots meanwhile, as is every case the shared run gave no report for.
       */
      const gradePhase = async (from: number, to: number) => {
        const all = Array.from({ length: to - from }, (_, k) => from + k);
        const tasks: Promise<void>[] = [];
        const alone = (index: number) =>
          tasks.push(slots(() => gradeCase(cases[index] as Case, index)));
        const wanted = all.filter((i) => skipNow(i) === undefined);
        if (shared === undefined || aborted() || wanted.length < MIN_SHARED_CASES)
          all.forEach(alone);
        else {
          const dealt = new Set<number>();
          const deal = (k: number, report: SharedReport) => {
            const index = wanted[k] as number;
            const c = cases[index] as Case;
            dealt.add(index);
            const raw = sharedRawRun(report, options.timeoutMs);
            if (raw !== undefined && !aborted()) {
              const run = capRun(raw, program.mapStderr);
              const verdict = judge(c, run, options.schemas.output(c.mode), options.timeoutMs);
              // Only a clean pass is kept: every other outcome is the one a run alone decides.
              if (verdict.status === "pass") {
                tasks.push(recordCase(c, index, verdict, run, "shared"));
                return true;
              }
            }
            alone(index);
            return false;
          };
          const group = wanted.map((i) => cases[i] as Case);
          // In a batch the shared process takes one of the slots the gradings share; a grading
          // with slots of its own runs it beside them, so that the cases it does not pass start
          // alone at once in every slot (it is one process, mostly waiting for its start).
          const sharedRun = () => runShared(shared, group, options, deal);
          await (options.slots === undefined ? sharedRun() : slots(sharedRun));
          for (const index of all) if (!dealt.has(index)) alone(index);
        }
        await Promise.all(tasks);
        confirmUpTo(to);
      };
      await gradePhase(0, visibleCount);
      endVisiblePhase();
      if (visibleCount < cases.length && !aborted()) {
        await phases.privateStart();
        await gradePhase(visibleCount, cases.length);
      }
    }
  } finally {
    // Also when the build failed or the grading threw: other gradings wait for this.
    endVisiblePhase();
    prepared.cleanup();
  }
  options.signal?.throwIfAborted();

  const done = results as CaseResult[];
  const extension = options.extension ?? DEFAULT_EXTENSION_POLICY;
  const graded: GradeResults = {
    kit: options.kit,
    visibleFixtures: options.visibleFixtures,
    submission: options.submission.name,
    ...scoresOf(done, extension),
    extension,
    cases: done,
    notGraded,
    durationMs: performance.now() - started,
    visibleDurationMs: visibleDurationMs ?? 0,
  };
  if (options.privateViews !== undefined) {
    // Each view from its case's verdict and run, with the names its record ended with; a case
    // not run (skipped, or no build) from its record's fixed words.
    const views = cases.flatMap((c, i) => {
      const record = done[i] as CaseResult;
      if (!record.private) return [];
      const ran = judged.get(i);
      const context = { rerun: options.rerun, mistakes: record.mistakes, layouts: ran?.layouts };
      if (ran !== undefined && record.status !== "skipped")
        return [privateCaseView(c, ran.verdict, ran.run, context)];
      const verdict: Verdict = {
        status: record.status,
        reason: record.reason,
        message: record.message,
        outcome: { kind: record.status === "skipped" ? "timeout" : "build-error" },
      };
      return [privateCaseView(c, verdict, null, context)];
    });
    options.privateViews(views);
  }
  for (const r of reporters) r.onRunEnd?.(graded);
  return graded;
}
