/**
 * `--format text` (the default): one line per case in grading order, the visible cases first
 * (mark, id, points, and why it did not pass), each written as soon as it and the cases before it
 * are graded; under a failure, the input in brief, expected against actual, the case's hint and
 * LESSON.md section, and the command that reruns just that case. A mistake named on one case is a
 * promise about the whole program, kept only if it holds up against every case (diagnose/case.ts),
 * so no case line names one: a case whose outcome suggests one says it is named at the end, and
 * the end gives, case by case, the mistakes that stand. Last, the scores over every case, required
 * and extension apart, and the total under the extension policy. A submission no case of which
 * ran (it did not build) gets its one failure, the build's errors, right under the first line,
 * and one "not run" line per case. Colour only when the sink is a terminal without NO_COLOR. This is the
 * instructor's report where there are private cases (each by its reason in fixed words); the
 * student's formats are built from results.ts studentView.
 *
 * The lines are lines.ts's, which escape everything a program printed before colour is added.
 */
import type { Reporter, Sink } from "./reporter.ts";
import {
  confirmedLines,
  textReportCase,
  textReportEnd,
  textReportNotGraded,
  textReportStart,
} from "./lines.ts";

/** The human-readable report, written case by case as the results come in. */
export function textReporter(sink: Sink): Reporter {
  let idWidth = 0;
  return {
    onRunStart(info) {
      const start = textReportStart(info, sink.colour);
      idWidth = start.idWidth;
      sink.write(start.text);
    },
    onNotGraded(notGraded) {
      sink.write(textReportNotGraded(notGraded, sink.colour));
    },
    onCaseResult(r) {
      sink.write(textReportCase(r, idWidth, sink.colour, true));
    },
    onRunEnd(results) {
      sink.write(confirmedLines(results.cases, sink.colour));
      sink.write(textReportEnd(results));
    },
  };
}
