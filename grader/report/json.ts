/**
 * `--format json`: the results file of DESIGN.md ("The grader"), checked against
 * grader/results.schema.json in the kit's tests.
 *
 * Strings keep exactly what the program printed (a message quoting its output, a submission's
 * folder name): JSON is already an escape, and the batch reads these files back (the gradebook,
 * the report and --merge check names against them). The bytes are written by safeJson, so the
 * control, bidi and line-separator characters JSON.stringify leaves raw are `\uXXXX` escapes
 * too: the file is safe to print on a terminal, and parses to the same strings.
 */
import type { GradeResults } from "../results.ts";
import { extensionPolicyName, type ExtensionPolicy, type Total } from "../totals.ts";
import { safeJson } from "./escape.ts";
import type { Reporter, Sink } from "./reporter.ts";

/**
 * The results file's total fields: `total` and `maxTotal` (the total under the policy and what it
 * is out of; `total` may exceed `maxTotal` under `bonus`) and `extensionPolicy`, the policy as
 * `--extension` spells it.
 */
export function totalFields(total: Total, policy: ExtensionPolicy) {
  return {
    total: total.points,
    maxTotal: total.maxPoints,
    extensionPolicy: extensionPolicyName(policy),
  };
}

/**
 * The results as the documented JSON object (no internal fields). `notGraded` (results.ts
 * NotGraded: the reason and the build's errors, or null) comes before the scores and cases, so a
 * submission that did not build shows its one failure first.
 */
export function resultsJson(results: GradeResults) {
  return {
    kit: results.kit,
    submission: results.submission,
    notGraded: results.notGraded,
    score: results.score,
    maxScore: results.maxScore,
    extensionScore: results.extensionScore,
    extensionMaxScore: results.extensionMaxScore,
    ...totalFields(results.total, results.extension),
    cases: results.cases.map((r) => ({
      id: r.id,
      title: r.title,
      required: r.required,
      status: r.status,
      reason: r.reason,
      points: r.points,
      maxPoints: r.maxPoints,
      mistake: r.mistake,
      mistakes: r.mistakes,
      message: r.message,
      ran: r.ran,
    })),
  };
}

/** Writes the results JSON once, at the end of the run. */
export function jsonReporter(sink: Sink): Reporter {
  return {
    onRunEnd(results) {
      sink.write(`${safeJson(resultsJson(results))}\n`);
    },
  };
}
