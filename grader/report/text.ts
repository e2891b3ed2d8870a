/**
 * `--format text` (the default): one line per case in grading order, the visible cases first
 * (mark, id, points, and why it did not pass), each written as soon as it and the cases before it
 * are graded; under a failure, the input in brief, expected against actual, the hint, the
 * LESSON.md section and the command that reruns just that case; last, the scores over every case,
 * required and extension apart. A mistake named on one case is checked against the others once
 * they have run (diagnose/case.ts): where that changes the names a case line gave, the end of the
 * report says so, case by case, before the scores. Colour only when the sink is a terminal
 * without NO_COLOR. This is the instructor's report where there are private cases (each by its
 * reason in fixed words); the student's formats are built from results.ts studentView.
 *
 * The lines are lines.ts's, which escape everything a program printed before colour is added.
 */
import type { CaseResult } from "../results.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { renamedLines, textReportCase, textReportEnd, textReportStart } from "./lines.ts";

/** The human-readable report, written case by case as the results come in. */
export function textReporter(sink: Sink): Reporter {
  let idWidth = 0;
  const written = new Map<string, CaseResult>();
  return {
    onRunStart(info) {
      const start = textReportStart(info, sink.colour);
      idWidth = start.idWidth;
      sink.write(start.text);
    },
    onCaseResult(r) {
      written.set(r.id, r);
      sink.write(textReportCase(r, idWidth, sink.colour));
    },
    onRunEnd(results) {
      sink.write(renamedLines(written, results.cases, sink.colour));
      sink.write(textReportEnd(results, sink.colour));
    },
  };
}
