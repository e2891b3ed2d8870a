/**
 * The instructor's view of private cases as text (`--show-private FILE`; the Gradescope
 * autograder prints it on its instructor-only standard output): each private case in full, in
 * grading order: its line (mark, id, points, why it did not pass in the verdict's own words),
 * the input in brief, Kafka's answer, and for a case that did not pass the text report's details
 * (grid or diff, bytes, standard error's end, the mistakes named or the hint) and the rerun
 * command. Not a format of `--format` and not a reporter: it formats results.ts PrivateCaseView,
 * which only GradeOptions.privateViews receives, never a student-facing report.
 *
 * Every line is escaped as the text report's (lines.ts, escape.ts), never coloured: the file is
 * read later, in an editor or a log.
 */
import type { NotGraded, PrivateCaseView } from "../results.ts";
import { textLine } from "./escape.ts";
import { detailLines, notGradedLines } from "./lines.ts";

const MARK = { pass: "✓", fail: "✗", error: "✗", timeout: "⧗", skipped: "-" } as const;

/** One private case in full: its line, then indented, input, answer and details. */
function viewLines(v: PrivateCaseView): string[] {
  const head = `${MARK[v.status]} ${textLine(v.name)}  ${v.score}${v.why === "" ? "" : `  ${textLine(v.why)}`}`;
  const details = detailLines(v, { colour: false, rerun: true });
  return [
    head,
    ...[
      `input: ${textLine(`${v.example.input}${v.mode === "assign" ? "" : ` (run with --${v.mode})`}`)}`,
      `expected: ${textLine(v.example.expected)}`,
      // The details start with the input again: shown once, above.
      ...details.filter((l) => !l.startsWith("input: ")),
    ].map((l) => `      ${l}`),
  ];
}

/**
 * The whole text: a heading naming the submission and saying who may read it, the submission's
 * one failure when no case ran (lines.ts notGradedLines), then every private case (viewLines),
 * or a line saying there were none.
 */
export function privateViewText(
  submission: string,
  views: readonly PrivateCaseView[],
  notGraded: NotGraded | null,
): string {
  const lines = [
    `Private cases of ${textLine(submission)}, in full: for the instructor only (their input and answers)`,
    ``,
  ];
  if (notGraded !== null) lines.push(...notGradedLines(notGraded, false), ``);
  if (views.length === 0) lines.push(`No private case in this grading.`);
  for (const v of views) lines.push(...viewLines(v));
  return `${lines.join("\n")}\n`;
}
