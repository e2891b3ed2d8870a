/**
 * Grading one submission: build it once, run every case as its own process (several at a time),
 * judge each run, name the mistake and explain each failure (explain/), and hand each result to
 * the reporters in grading order: the visible cases, all run and judged first, then the private
 * ones (phases.ts).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { judge, type Reason, type Verdict } from "./verdict/verdict.ts";
import { isPrivateCase, visibleFirst, type Case, type FixtureSchemas } from "./cases/load.ts";
import { buildSubmission } from "./run/build.ts";
import { atExit, runProcess, type RawRun } from "./run/run-process.ts";
import {
  capRun,
  CappedText,
  STDERR_READ_BYTES,
  STDERR_TAIL_BYTES,
  type CappedRun,
} from "./verdict/capped-text.ts";
import { runIdentities } from "./run/identities.ts";
import { PROGRAM_DIR, programRun } from "./run/program.ts";
import { confinedSpec, sandboxFeatures, wallBackstops, type ConfinedRun } from "./run/sandbox.ts";
import { stackMapper } from "./run/stack-map.ts";
import { typeCheck } from "./run/typecheck.ts";
import type { Reporter } from "./report/reporter.ts";
import type { SubmissionTarget } from "./options.ts";
import {
  confirmNames,
  matchMistakes,
  mistakesFailing,
  outcomeMistakes,
  type NamedCase,
  type OutcomeSource,
} from "./diagnose/diagnose.ts";
import type { MemberBytes } from "./diagnose/data.ts";
import { explain } from "./explain/explain.ts";
import { passed, type CaseResult, type GradeResults } from "./results.ts";
import { ownPhases, type Phases } from "./phases.ts";

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
  /** The stamp of the case set's visible cases (hash.ts fixtureHash), what students are shown. */
  visibleFixtures: string;
  reporters: readonly Reporter[];
  /**
   * The command line that reruns one case, for failure messages: options.ts rerunCommand with
   * the arguments this grading was started with, a visible case's without the `--fixtures`
   * folders (context.ts caseRerun).
   */
  rerunCommand: (c: Pick<Case, "id" | "source">) => string;
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
  /** Runs one case's program (runCase; tests give a fake that records when cases run). */
  runCase?: typeof runCase;
}

/** How a case's result is explained, besides its verdict and run (see caseResult). */
export interface ResultContext {
  /** The command line that reruns the case (GradeOptions.rerunCommand). */
  rerun: string;
  /** Catalogued mistakes the outcome matches (diagnose/), most specific first. */
  mistakes?: string[];
  /** The recorded byte layouts of the case's members, for the explanation's hex dump. */
  layouts?: ReadonlyMap<string, MemberBytes> | undefined;
}

/**
 * What a report may say of a private case (isPrivateCase): the reason in fixed words, never a
 * member name, an answer, or what the program printed (which may echo its input). Reports reach
 * students on some platforms (Gradescope, Exercism).
 */
const PRIVATE_MESSAGES: Readonly<Record<Reason, string>> = {
  "wrong-output": "the program's outcome differs from Kafka's",
  "wrong-error": "the program did not reject exactly the member Kafka rejects",
  "invalid-output": "standard output is not the documented JSON",
  "not-implemented": "the program stopped at a stub",
  crash: "the program crashed",
  memory: "ran out of memory",
  "output-cap": "printed more than the output cap",
  "build-error": "the submission did not build",
  timeout: "did not finish within the time limit",
  "skipped-after-timeouts": "skipped after earlier cases hit a limit",
};

/**
 * One case's result: the verdict's fields, the points, the run's standard error and times, and
 * the case's explanation, built here once (explain/) so that every report formats the same data.
 * A private case keeps only fixed words: nothing of its input or answer, nor of the program's
 * output, goes any further.
 *
 * @param run what the process did, its output capped (capRun); null for a case that did not run
 *   (skipped, or no build)
 */
export function caseResult(
  c: Case,
  verdict: Verdict,
  run: Pick<CappedRun, "stderr" | "durationMs" | "cpuMs"> | null,
  context: ResultContext,
): CaseResult {
  if (isPrivateCase(c) && verdict.reason !== null) {
    verdict = {
      status: verdict.status,
      reason: verdict.reason,
      // What the program printed as it crashed stays behind too.
      outcome:
        verdict.outcome.kind === "crash"
          ? { ...verdict.outcome, stderr: undefined }
          : verdict.outcome,
      message: `${PRIVATE_MESSAGES[verdict.reason]} (a private case: its input and answer are not shown)`,
    };
    run = run === null ? null : { ...run, stderr: CappedText.EMPTY_STDERR };
  }
  const mistakes = context.mistakes ?? [];
  const graded: Omit<CaseResult, "explanation"> = {
    id: c.id,
    title: c.title,
    required: c.required,
    status: verdict.status,
    reason: verdict.reason,
    points: passed(verdict) ? c.points : 0,
    maxPoints: c.points,
    mistake: mistakes[0] ?? null,
    mistakes,
    message: verdict.message,
    case: c,
    verdict,
    stderr: run?.stderr.text ?? "",
    durationMs: run?.durationMs ?? 0,
    cpuMs: run?.cpuMs ?? null,
  };
  return {
    ...graded,
    explanation: explain(graded, { rerun: context.rerun, layouts: context.layouts }),
  };
}

/** A submission ready to run: how to start its program on one case, as a given run identity. */
export interface Program {
  run(c: Case, uid: number | undefined): ConfinedRun;
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

/** Limits for preparing a program (GradeOptions' fields of the same names). */
export type PrepareLimits = Pick<GradeOptions, "memoryMiB" | "timeoutMs" | "outputCapBytes"> & {
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
 * grading's time budget (GradeOptions.deadline) ends.
 */
export async function runCase(
  program: Program,
  c: Case,
  limits: Pick<GradeOptions, "timeoutMs" | "outputCapBytes" | "signal" | "deadline">,
): Promise<RawRun> {
  const root = sandboxFeatures().mode === "root";
  const uid = root ? await runIdentities.acquire() : undefined;
  try {
    const run = program.run(c, uid);
    const backstops = wallBackstops(run.limits.cpuSeconds);
    return await runProcess(confinedSpec(run), {
      timeoutMs: backstops.capMs,
      idle: backstops.idle,
      ...(limits.deadline === undefined
        ? {}
        : { budgetMs: Math.max(1, limits.deadline - performance.now()) }),
      // The same limits for the run's processes together (a --cmd program may fork); a little
      // above the kernel's per-process ones, so a single process meets the kernel's first.
      tree: {
        cpuMs: run.limits.cpuSeconds * 1000 + 500,
        rssBytes: (run.limits.dataMiB + 128) * 1024 * 1024,
      },
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

/**
 * When the cases not yet graded are skipped: after this many limit verdicts (time, memory,
 * output cap, or a failure that used half the CPU limit or slept a whole limit of wall time), in
 * grading order (visible cases first, so a private case never counts towards a visible one's skip).
 */
export const LIMIT_VERDICTS_BEFORE_SKIPPING = 3;
/** A submission's total CPU time across its cases, in multiples of the per-case limit. */
export const CPU_BUDGET_CASES = 10;
/** With a deadline, the least time left for a case to start, milliseconds (Node starts in ~0.1 s). */
export const MIN_CASE_MS = 1000;

/**
 * True when a result counts towards skipping: it hit a limit, used half the CPU limit, or slept
 * a whole limit of wall time (less than 5% of it in CPU) before failing.
 */
export function isLimitVerdict(r: CaseResult, timeoutMs: number): boolean {
  if (passed(r) || r.status === "skipped") return false;
  if (r.status === "timeout" || r.reason === "memory" || r.reason === "output-cap") return true;
  // A failure that used half the CPU limit counts, and so does one that slept a whole limit of
  // wall time: under 5% of it in CPU (Node's own start is a few percent of a 2 s sleep). A
  // program that only waited for a CPU on a busy machine gets far more (a seventh of a core beside
  // a dozen busy loops on two), so the count, like every verdict, does not depend on the load.
  const cpuMs = r.cpuMs ?? 0;
  return cpuMs >= timeoutMs / 2 || (r.durationMs >= timeoutMs && cpuMs < r.durationMs / 20);
}

/**
 * Decides skipping from the results before a case, in case order only: a pure function of those
 * verdicts, never of which cases happened to run at the same time.
 */
class SkipRule {
  private limitVerdicts = 0;
  private cpuMs = 0;
  constructor(private readonly timeoutMs: number) {}

  /** Takes the next result in case order. */
  add(r: CaseResult): void {
    if (isLimitVerdict(r, this.timeoutMs)) this.limitVerdicts++;
    this.cpuMs += r.cpuMs ?? 0;
  }

  /** Why the cases from here on are skipped, or undefined while they are graded. */
  reason(): string | undefined {
    if (this.limitVerdicts >= LIMIT_VERDICTS_BEFORE_SKIPPING)
      return `skipped: ${LIMIT_VERDICTS_BEFORE_SKIPPING} earlier cases hit a limit (time, memory, output size) or came close to the time limit`;
    const budgetMs = CPU_BUDGET_CASES * this.timeoutMs;
    if (this.cpuMs > budgetMs)
      return `skipped: the earlier cases used the submission's CPU budget (${budgetMs / 1000} s)`;
    return undefined;
  }
}

/**
 * Why case `index` is skipped, decided before it starts from the earlier cases that have
 * finished (undefined entries are still running): the skip rule's counts only grow along the
 * case order, so once the finished earlier cases alone reach a limit, the rule applied in case
 * order to every earlier result will too, whatever the running ones end as. Skipping early is
 * therefore never a different verdict, only less work (with cases running in parallel, waiting
 * for every earlier case to be published would run nearly every case of a hanging program).
 *
 * @param results results by case index so far (undefined: not finished)
 * @param index the case about to start
 * @param timeoutMs the per-case time limit, milliseconds
 * @returns the skip message, or undefined when the case must run
 */
export function skipBefore(
  results: readonly (CaseResult | undefined)[],
  index: number,
  timeoutMs: number,
): string | undefined {
  const rule = new SkipRule(timeoutMs);
  for (let i = 0; i < index; i++) {
    const r = results[i];
    if (r !== undefined) rule.add(r);
  }
  return rule.reason();
}

/**
 * Grades a submission against the cases, in two phases (phases.ts): every visible case is run
 * and judged, its names confirmed against the visible cases alone, before any private case
 * starts; a private case's names are confirmed against every case.
 *
 * @returns every case's result in grading order (visible first: cases/load.ts visibleFirst), and
 *   the scores (required and extension apart)
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
  for (const r of reporters)
    r.onRunStart?.({ submission: options.submission.name, cases, kit: options.kit });

  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(cases.length);
  let reported = 0;
  const prepared = await (options.prepared ?? prepareProgram(options.submission, options));
  const skip = new SkipRule(options.timeoutMs);
  const skipped = (c: Case, why: string) =>
    caseResult(
      c,
      {
        status: "skipped",
        reason: "skipped-after-timeouts",
        message: why,
        outcome: { kind: "timeout" },
      },
      null,
      { rerun: options.rerunCommand(c) },
    );
  // Names are checked against other cases (confirmNames) at the end of each phase: what each
  // case tells about them, and how to rebuild a result that named a mistake, held back until then.
  const named: (NamedCase | undefined)[] = new Array<NamedCase | undefined>(cases.length);
  const held = new Map<number, (mistakes: string[]) => CaseResult>();
  // Results before this index have their final names.
  let confirmedUpTo = 0;
  const publish = () => {
    // Reporters see results in grading order even though cases finish in any order; a case run
    // before the rule said to skip it is skipped all the same, so skipping never depends on timing.
    while (reported < cases.length && results[reported] !== undefined) {
      if (held.has(reported) && reported >= confirmedUpTo) break;
      const why = skip.reason();
      if (why !== undefined) results[reported] = skipped(cases[reported] as Case, why);
      const done = results[reported] as CaseResult;
      skip.add(done);
      for (const r of reporters) r.onCaseResult?.(done);
      reported++;
    }
  };
  /** Confirms the names of the cases from confirmedUpTo to `to` against every case before `to`. */
  const confirmUpTo = (to: number) => {
    // Cases that did not run (aborted) have nothing to say.
    const graded = named.slice(0, to).flatMap((n, i) => (n === undefined ? [] : [[i, n] as const]));
    const confirmed = confirmNames(graded.map(([, n]) => n));
    graded.forEach(([index], k) => {
      const rebuild = held.get(index);
      if (index >= confirmedUpTo && rebuild !== undefined && results[index] !== undefined)
        results[index] = rebuild(confirmed[k] ?? []);
    });
    confirmedUpTo = to;
    publish();
  };
  try {
    if (prepared.program === undefined) {
      const message = `the submission did not build: ${prepared.errors[0] ?? "unknown error"}`;
      cases.forEach((c, i) => {
        results[i] = caseResult(
          c,
          { status: "error", reason: "build-error", message, outcome: { kind: "build-error" } },
          null,
          { rerun: options.rerunCommand(c) },
        );
      });
      publish();
    } else {
      const program = prepared.program;
      const runOne = options.runCase ?? runCase;
      const aborted = () => options.signal?.aborted === true;
      const gradeCase = async (c: Case, index: number): Promise<void> => {
        // Once aborted, the cases still queued start and end at once: none runs.
        if (aborted()) return;
        // The earlier cases already make the rule skip this one (skipBefore): no need to run it.
        // Past the deadline (--time-budget), skipped whatever came before.
        const why =
          options.deadline !== undefined && options.deadline - performance.now() < MIN_CASE_MS
            ? `skipped: the grading's time budget ran out before this case started`
            : skipBefore(results, index, options.timeoutMs);
        if (why !== undefined) {
          results[index] = skipped(c, why);
          publish();
          return;
        }
        const raw = await runOne(program, c, options);
        if (aborted()) return;
        // What the program wrote, capped once for everything after the run (capped-text.ts);
        // stack frames name src/ files, never the sandbox's bundle path, in every message.
        const run = capRun(raw, program.mapStderr);
        const verdict = judge(c, run, options.schemas.output(c.mode), options.timeoutMs);
        // The diagnosis: the mistakes the outcome shows, and the bytes' recorded layouts.
        let mistakes: string[] = [];
        let fallback: string[] = [];
        let layouts: ReadonlyMap<string, MemberBytes> | undefined;
        let diagnosed = false;
        let failedByEveryMutantOf: ReadonlySet<string> = new Set();
        if (options.diagnosis !== undefined) {
          // A passed case is evidence too, from data at hand (never run mutants just for it).
          const outcomes = passed(verdict)
            ? await options.diagnosis.knownOutcomesFor?.(c)
            : await options.diagnosis.outcomesFor(c);
          if (outcomes !== undefined) failedByEveryMutantOf = mistakesFailing(c, outcomes);
          if (!passed(verdict)) {
            layouts = await options.diagnosis.layoutsFor?.(c);
            if (outcomes !== undefined) {
              diagnosed = true;
              const offsets = await options.diagnosis.offsetsFor?.(c);
              mistakes = matchMistakes(verdict.outcome, c.expected, outcomes, { offsets, layouts });
              fallback = outcomeMistakes(verdict.outcome, c.expected, layouts);
            }
          }
        }
        const result = (names: string[]) =>
          caseResult(c, verdict, run, {
            rerun: options.rerunCommand(c),
            mistakes: names,
            layouts,
          });
        named[index] = {
          passed: passed(verdict),
          named: mistakes,
          fallback,
          diagnosed,
          crashed: verdict.outcome.kind === "crash",
          failedByEveryMutantOf,
        };
        if (mistakes.length > 0) held.set(index, result);
        results[index] = result(mistakes);
        publish();
      };
      // Each phase's cases start in grading order, `concurrency` at a time (p-limit keeps the
      // queue) or in the slots shared with other gradings.
      const slots = options.slots ?? pLimit(Math.max(1, options.concurrency));
      const gradePhase = async (from: number, to: number) => {
        await slots.map(cases.slice(from, to), (c, k) => gradeCase(c, from + k));
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
  const sum = (required: boolean, key: "points" | "maxPoints") =>
    done.filter((r) => r.required === required).reduce((total, r) => total + r[key], 0);
  const graded: GradeResults = {
    kit: options.kit,
    visibleFixtures: options.visibleFixtures,
    submission: options.submission.name,
    score: sum(true, "points"),
    maxScore: sum(true, "maxPoints"),
    extensionScore: sum(false, "points"),
    extensionMaxScore: sum(false, "maxPoints"),
    cases: done,
    buildErrors: prepared.errors,
    durationMs: performance.now() - started,
    visibleDurationMs: visibleDurationMs ?? 0,
  };
  for (const r of reporters) r.onRunEnd?.(graded);
  return graded;
}
