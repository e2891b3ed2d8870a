// Grading results built in-process, without running a program: a built-in case, a recorded or
// constructed run (what the process printed, how it ended), judged by the grader's own judge().
// For tests of what reporters write, where spawning a grader would only add time.
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { FileOutcomes } from "../../grader/diagnose/diagnose.ts";
import type { MemberBytes } from "../../grader/diagnose/data.ts";
import { caseRecord, notRunRecord } from "../../grader/record.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import {
  scoresOf,
  type CaseResult,
  type GradeResults,
  type NotGraded,
} from "../../grader/results.ts";
import { DEFAULT_EXTENSION_POLICY, type ExtensionPolicy } from "../../grader/totals.ts";
import { judge, type Verdict } from "../../grader/verdict/verdict.ts";
import { MemorySink, type Reporter, type Sink } from "../../grader/report/reporter.ts";
import type { PreparedProgram } from "../../grader/run/prepare.ts";
import { finishedRun, type RawRun } from "../../grader/run/run-process.ts";
import { capRun } from "../../grader/verdict/capped-text.ts";

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

let recorded: FileOutcomes | undefined;
/** The recorded byte layouts of a case's members (diagnosis.json), as grading gets them. */
export function recordedLayouts(c: Case): ReadonlyMap<string, MemberBytes> | undefined {
  recorded ??= new FileOutcomes();
  return recorded.caseData(c)?.members;
}

/** A run that exited 0 with nothing printed, with `fields` over it. */
export function rawRun(fields: Partial<RawRun>): RawRun {
  return {
    ...finishedRun({ exitCode: 0, stdout: "", stderr: "", cpuMs: 10, durationMs: 12 }),
    ...fields,
  };
}

/**
 * The run of a program that answers `c` as Kafka does: its expected output, or exit 1 with the
 * documented error line naming the expected member.
 */
export function rightRun(c: Case): RawRun {
  if ("error" in c.expected) {
    const member = JSON.stringify(c.expected.error.member);
    return rawRun({ exitCode: 1, stderr: `error: member ${member}: topics[0]: cut short\n` });
  }
  return rawRun({ stdout: `${JSON.stringify(c.expected.output)}\n` });
}

/**
 * A built-in case as a private one would load from `--fixtures <folder>` (its id
 * `<folder>/<name>`, its source private), with `meta` over its case.json fields.
 */
export function privateCase(
  id: string,
  folder: string,
  name: string,
  meta: Partial<Pick<Case, "title" | "hint" | "required">> = {},
): Case {
  return {
    ...builtInCase(id),
    ...meta,
    id: `${folder}/${name}`,
    source: { kind: "private", folder },
  };
}

/**
 * The result gradeSubmission would give `run` on case `id` (a built-in case's id, or a case made
 * with privateCase) (the run capped by capRun, judged, then record.ts's caseRecord, with the
 * recorded byte layouts as the diagnosis has them; the rerun command names `submission`).
 */
export function judgedResult(
  id: string | Case,
  run: RawRun,
  submission: string,
  mistakes: string[] = [],
): CaseResult & { verdict: Verdict } {
  const c = typeof id === "string" ? builtInCase(id) : id;
  const capped = capRun(run);
  const verdict = judge(c, capped, schemas.output(c.mode));
  // The verdict beside the record, for tests of judging; no report reads it.
  const record = caseRecord(c, verdict, capped, {
    rerun: { args: [submission] },
    mistakes,
    layouts: recordedLayouts(c),
  });
  return { ...record, verdict };
}

/** The case-set stamp of the results gradeResults makes. */
export const FIXTURES_STAMP = "0123456789abcdef";
/** Their visible cases' stamp when some case is private (else it is FIXTURES_STAMP, as in context.ts). */
export const VISIBLE_STAMP = "fedcba9876543210";

/**
 * A run's results from its case results: the scores and the total summed as gradeSubmission sums
 * them (results.ts scoresOf, under `extension`, by default the grader's default policy); a
 * grading of 1234 ms whose visible phase took 1000 ms.
 */
export function gradeResults(
  submission: string,
  results: CaseResult[],
  notGraded: NotGraded | null = null,
  extension: ExtensionPolicy = DEFAULT_EXTENSION_POLICY,
): GradeResults {
  return {
    kit: { version: "1.0.0", fixtures: FIXTURES_STAMP },
    visibleFixtures: results.some((r) => r.private) ? VISIBLE_STAMP : FIXTURES_STAMP,
    submission,
    ...scoresOf(results, extension),
    extension,
    cases: results,
    notGraded,
    durationMs: 1234,
    visibleDurationMs: 1000,
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
    cases: results.cases,
    kit: results.kit,
  });
  if (results.notGraded !== null) reporter.onNotGraded?.(results.notGraded);
  for (const r of results.cases) reporter.onCaseResult?.(r);
  reporter.onRunEnd?.(results);
  return memory.text();
}

/**
 * The result of a case skipped after earlier cases hit a limit, as gradeSubmission gives it.
 */
export function skippedResult(id: string, submission: string): CaseResult {
  const c = builtInCase(id);
  return caseRecord(
    c,
    {
      status: "skipped",
      reason: "skipped-after-timeouts",
      message: "skipped: 3 earlier cases hit a limit (time, memory, output size)",
      outcome: { kind: "timeout" },
    },
    null,
    { rerun: { args: [submission] } },
  );
}

/**
 * The results of a submission that did not build: `notGraded` with the errors, every case's
 * record record.ts notRunRecord's, as gradeSubmission gives them.
 */
export function buildFailure(submission: string, ids: string[], errors: string[]): GradeResults {
  const results = ids.map((id) =>
    notRunRecord(builtInCase(id), "build-error", { args: [submission] }),
  );
  return gradeResults(submission, results, { reason: "build-error", errors });
}

/** A program that does nothing itself: the fake runner stands for its runs. */
export const noProgram: PreparedProgram = {
  program: {
    run: () => {
      throw new Error("the fake runner runs the cases");
    },
    mapStderr: (text) => text,
  },
  errors: [],
  cleanup: () => {},
};
