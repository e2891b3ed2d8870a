// Grading results built in-process, without running a program: a built-in case, a recorded or
// constructed run (what the process printed, how it ended), judged by the grader's own judge().
// For tests of what reporters write, where spawning a grader would only add time.
import type { CaseResult, GradeResults } from "../../grader/grade.ts";
import { judge } from "../../grader/verdict/verdict.ts";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { MemorySink, type Reporter, type Sink } from "../../grader/report/reporter.ts";
import type { RawRun } from "../../grader/run/run-process.ts";

const schemas = new FixtureSchemas();
let cases: Case[] | undefined;

/**
 * A built-in case by id.
 * @throws Error when there is no such case
 */
export function builtInCase(id: string): Case {
  cases ??= loadCases(BUILT_IN_CASES_DIR, [], schemas);
  const found = cases.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no built-in case ${id}`);
  return found;
}

/** A run that exited 0 with nothing printed, with `fields` over it. */
export function rawRun(fields: Partial<RawRun>): RawRun {
  return {
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    outputCapped: null,
    timedOut: false,
    idle: false,
    spawnError: null,
    sandboxError: null,
    cpuMs: 10,
    durationMs: 12,
    ...fields,
  };
}

/**
 * The result gradeSubmission would give `run` on case `id` (its fields filled as grade.ts's
 * private `result` fills them; the rerun command names `submission`).
 */
export function judgedResult(
  id: string,
  run: RawRun,
  submission: string,
  mistakes: string[] = [],
): CaseResult {
  const c = builtInCase(id);
  const verdict = judge(c, run, schemas.output(c.mode));
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
    stderr: run.stderr,
    durationMs: run.durationMs,
    cpuMs: run.cpuMs,
    rerun: `npm run grade -- ${submission} --only ${c.id}`,
  };
}

/** A run's results from its case results: the scores summed as gradeSubmission sums them. */
export function gradeResults(
  submission: string,
  results: CaseResult[],
  buildErrors: string[] = [],
): GradeResults {
  const sum = (required: boolean, key: "points" | "maxPoints") =>
    results.filter((r) => r.required === required).reduce((total, r) => total + r[key], 0);
  return {
    kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
    submission,
    score: sum(true, "points"),
    maxScore: sum(true, "maxPoints"),
    extensionScore: sum(false, "points"),
    extensionMaxScore: sum(false, "maxPoints"),
    cases: results,
    buildErrors,
    durationMs: 1234,
  };
}

/**
 * What a reporter writes for `results`, its hooks called as gradeSubmission calls them.
 *
 * @param colour the sink's colour flag (a terminal without NO_COLOR)
 */
export function report(
  makeReporter: (sink: Sink) => Reporter,
  results: GradeResults,
  colour = false,
): string {
  const memory = new MemorySink();
  const sink: Sink = { write: (text) => memory.write(text), colour };
  const reporter = makeReporter(sink);
  reporter.onRunStart?.({
    submission: results.submission,
    cases: results.cases.map((r) => r.case),
    kit: results.kit,
  });
  for (const r of results.cases) reporter.onCaseResult?.(r);
  reporter.onRunEnd?.(results);
  return memory.text();
}

/**
 * The results of a submission that did not build: every case `error` with reason `build-error`,
 * its message naming the first build error, as gradeSubmission gives them.
 */
export function buildFailure(submission: string, ids: string[], errors: string[]): GradeResults {
  const results = ids.map((id): CaseResult => {
    const c = builtInCase(id);
    return {
      id: c.id,
      title: c.title,
      required: c.required,
      status: "error",
      reason: "build-error",
      points: 0,
      maxPoints: c.points,
      mistake: null,
      mistakes: [],
      message: `the submission did not build: ${errors[0] ?? "unknown error"}`,
      case: c,
      verdict: {
        status: "error",
        reason: "build-error",
        message: `the submission did not build: ${errors[0] ?? "unknown error"}`,
        outcome: { kind: "build-error" },
      },
      stderr: "",
      durationMs: 0,
      cpuMs: null,
      rerun: `npm run grade -- ${submission} --only ${c.id}`,
    };
  });
  return gradeResults(submission, results, errors);
}
