/**
 * A case's record (results.ts CaseResult), built here and nowhere else: the status, the display
 * name, the points, the line saying why, the explanation (explain/), and the commands that rerun
 * the case, from the one RerunContext the command line, watch mode or a batch supplies. Every
 * report only formats records.
 *
 * A private case's record is made from fixed words: its message names the reason only, its
 * standard error is dropped, it has no example and no explanation details, so no field holds the
 * case's member ids, topics, bytes or answer, nor what the program printed (which may echo them).
 * Reports reach students on some platforms (Gradescope, Exercism).
 */
import { join } from "node:path";
import { inputBrief } from "./cases/brief.ts";
import { caseFolder, isPrivateCase, type Case } from "./cases/load.ts";
import type { MemberBytes } from "./diagnose/data.ts";
import { explain, explainInFull } from "./explain/explain.ts";
import { rerunCommand, withoutFixtures } from "./options.ts";
import {
  passed,
  type CaseExample,
  type CaseResult,
  type CaseRun,
  type NotGradedReason,
  type PrivateCaseView,
} from "./results.ts";
import type { CappedRun } from "./verdict/capped-text.ts";
import type { Reason, Verdict } from "./verdict/verdict.ts";

/**
 * How a grading was started, for the commands that rerun one case: the arguments that grade the
 * same way (options.ts GradeCommand.rerunArgs, after the submission as typed where there is one).
 * The command line, watch mode and a batch each supply their own.
 */
export interface RerunContext {
  args: readonly string[];
}

/** What a case's record says besides its verdict and run. */
export interface RecordContext {
  rerun: RerunContext;
  /** Catalogued mistakes the outcome matches (diagnose/), most specific first. */
  mistakes?: readonly string[];
  /** The recorded byte layouts of the case's members, for the explanation's hex dump. */
  layouts?: ReadonlyMap<string, MemberBytes> | undefined;
  /** How the case ran (results.ts CaseResult.ran); absent: it did not run. */
  ran?: CaseRun | undefined;
}

/**
 * What a report may say of a private case: the reason in fixed words, never a member name, an
 * answer, or what the program printed.
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
 * The command that reruns case `c`: the grading's arguments and `--only ID`; a visible case's
 * without the `--fixtures` folders (options.ts withoutFixtures), as a student may read it and
 * must not learn where the private cases are.
 */
export function rerunFor(c: Pick<Case, "id" | "source">, context: RerunContext): string {
  return rerunCommand(isPrivateCase(c) ? context.args : withoutFixtures(context.args), c.id);
}

/** A visible case's input in brief and its answer as one line. */
function example(c: Case): CaseExample {
  return {
    input: inputBrief(c),
    expected:
      "error" in c.expected
        ? `exit 1, standard error starts with: error: member ${JSON.stringify(c.expected.error.member)}: ...`
        : JSON.stringify(c.expected.output),
  };
}

/**
 * One case's record.
 *
 * @param run what the process did, its output capped (capRun); null for a case that did not run
 *   (skipped, or no build)
 */
export function caseRecord(
  c: Case,
  verdict: Verdict,
  run: Pick<CappedRun, "stderr" | "durationMs" | "cpuMs"> | null,
  context: RecordContext,
): CaseResult {
  const hidden = isPrivateCase(c);
  const mistakes = [...(context.mistakes ?? [])];
  // A case that did not run (notRunRecord) already says so in fixed words, the same on every case.
  const notRun =
    (verdict.reason === "build-error" || verdict.reason === "skipped-after-timeouts") &&
    (Object.values(NOT_RUN_MESSAGES) as string[]).includes(verdict.message);
  const message =
    hidden && verdict.reason !== null && !notRun
      ? `${PRIVATE_MESSAGES[verdict.reason]} (a private case: its input and answer are not shown)`
      : verdict.message;
  const stderr = hidden ? "" : (run?.stderr.text ?? "");
  // A case that did not run because nothing could (notRunRecord) has nothing of its own to
  // explain: the one failure is the submission's, shown once at the top of every report.
  const explanation =
    verdict.reason === "build-error" || notRun
      ? null
      : explain(
          { case: c, verdict, status: verdict.status, reason: verdict.reason, mistakes, stderr },
          { layouts: context.layouts },
        );
  return {
    id: c.id,
    title: c.title,
    name: `${c.id}: ${c.title}${c.required ? "" : " (extension)"}`,
    required: c.required,
    private: hidden,
    folder: caseFolder(c),
    caseFile: c.source?.kind === "built-in" ? join(c.dir, "case.json") : null,
    mode: c.mode,
    decodeOnly: !hidden && (c.mode === "decode" || "error" in c.expected),
    status: verdict.status,
    reason: verdict.reason,
    points: passed(verdict) ? c.points : 0,
    maxPoints: c.points,
    mistake: mistakes[0] ?? null,
    mistakes,
    message,
    why:
      verdict.reason === null || verdict.reason === "not-implemented"
        ? message
        : `${verdict.reason}: ${message}`,
    stderr,
    durationMs: run?.durationMs ?? 0,
    cpuMs: run?.cpuMs ?? null,
    ran: run === null ? null : (context.ran ?? null),
    rerun: rerunFor(c, context.rerun),
    handoutRerun: rerunCommand([], c.id),
    example: hidden ? null : example(c),
    explanation,
  };
}

/**
 * The instructor's view of private case `c` (results.ts PrivateCaseView), built apart from its
 * record from the same verdict and run: the input and answer, the verdict's own message, and
 * the explanation with its details (explain/ explainInFull). For GradeOptions.privateViews
 * alone; never part of a CaseResult.
 *
 * @param run what the process did, its output capped; null for a case that did not run
 * @param context the mistakes named (confirmed against every case) and the byte layouts
 */
export function privateCaseView(
  c: Case,
  verdict: Verdict,
  run: Pick<CappedRun, "stderr"> | null,
  context: RecordContext,
): PrivateCaseView {
  const mistakes = [...(context.mistakes ?? [])];
  const explanation = explainInFull(
    {
      case: c,
      verdict,
      status: verdict.status,
      reason: verdict.reason,
      mistakes,
      stderr: run?.stderr.text ?? "",
    },
    { layouts: context.layouts },
  );
  return {
    instructorOnly: true,
    id: c.id,
    name: `${c.id}: ${c.title}${c.required ? "" : " (extension)"}`,
    mode: c.mode,
    status: verdict.status,
    reason: verdict.reason,
    score: `${passed(verdict) ? c.points : 0}/${c.points}`,
    why: verdict.reason === null ? "" : `${verdict.reason}: ${verdict.message}`,
    example: example(c),
    explanation,
    rerun: rerunFor(c, context.rerun),
  };
}

/**
 * The words every case of a submission that got no normal grading says, by the reason
 * (results.ts NotGradedReason): fixed, the same on every case, public or private.
 */
export const NOT_RUN_MESSAGES: Readonly<Record<NotGradedReason, string>> = {
  "build-error": "not run: the submission did not build (its errors are at the top of the report)",
  "not-a-submission": "not run: this is not a submission (why is at the top of the report)",
  "grader-error":
    "not run: the grader failed on this submission, not the submission's fault (see the top of the report)",
  timeout: "not run: the grading's time budget ran out before any case could start",
};

/**
 * The record of a case that did not run because no case of the submission could
 * (results.ts NotGraded): status `error` with reason `build-error` (status `skipped`, reason
 * `skipped-after-timeouts`, for `timeout`), the reason's NOT_RUN_MESSAGES line, no explanation,
 * hint or details (the submission's one failure is reported once, at the top), no points.
 */
export function notRunRecord(c: Case, why: NotGradedReason, rerun: RerunContext): CaseResult {
  const verdict: Verdict =
    why === "timeout"
      ? {
          status: "skipped",
          reason: "skipped-after-timeouts",
          message: NOT_RUN_MESSAGES[why],
          outcome: { kind: "timeout" },
        }
      : {
          status: "error",
          reason: "build-error",
          message: NOT_RUN_MESSAGES[why],
          outcome: { kind: "build-error" },
        };
  return caseRecord(c, verdict, null, { rerun });
}

/** The record of a case that did not run because the rule or the time budget skipped it. */
export function skippedRecord(c: Case, why: string, rerun: RerunContext): CaseResult {
  return caseRecord(
    c,
    {
      status: "skipped",
      reason: "skipped-after-timeouts",
      message: why,
      outcome: { kind: "timeout" },
    },
    null,
    { rerun },
  );
}
