/**
 * `--format json`: the results file of DESIGN.md ("The grader"), checked against
 * grader/results.schema.json in the kit's tests.
 */
import type { GradeResults } from "../grade.ts";
import type { Reporter, Sink } from "./reporter.ts";

/** The results as the documented JSON object (no internal fields). */
export function resultsJson(results: GradeResults) {
  return {
    kit: results.kit,
    submission: results.submission,
    score: results.score,
    maxScore: results.maxScore,
    extensionScore: results.extensionScore,
    extensionMaxScore: results.extensionMaxScore,
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
    })),
  };
}

/** Writes the results JSON once, at the end of the run. */
export function jsonReporter(sink: Sink): Reporter {
  return {
    onRunEnd(results) {
      sink.write(`${JSON.stringify(resultsJson(results), null, 2)}\n`);
    },
  };
}
