/**
 * Plain-text renderings of results, shared by the formats that show text (text, github,
 * gradescope, exercism, junit) and the watch loop: the line saying why a case did not pass, its
 * explanation's details and advice, the build errors, the scores, and the text report's parts.
 * Not a reporter itself: formatting only, from the results' data (results.ts), no analysis.
 *
 * Every line is escaped here, before colour is added (escape.ts): a line that quotes a program
 * goes through textLine, lines a program printed (standard error, build errors) through
 * guttered/programLines behind a `|` gutter, the kit's own text through printable. A format adds
 * only its own container's escaping.
 */
import { createColors } from "picocolors";
import {
  passed,
  type Advice,
  type CaseResult,
  type GradeResults,
  type NotDrawn,
  type NotGraded,
  type NotGradedReason,
} from "../results.ts";
import { extensionPolicyName, extensionPolicyRule } from "../totals.ts";
import { GUTTER, guttered, printable, programLines, textLine } from "./escape.ts";
import type { RunInfo } from "./reporter.ts";

const MARK = { pass: "✓", fail: "✗", error: "✗", timeout: "⧗", skipped: "-" } as const;

/**
 * One line on why a case did not pass, escaped by textLine: `<reason>: <message>` (a stub's
 * message says it all). The message may quote the program (its output, keys, standard error).
 */
export function failureLine(r: CaseResult): string {
  return textLine(r.why);
}

/**
 * What to do about a failed case: the named mistake with its explanation and lesson section, or,
 * when no catalogued mistake matches, the case's hint and lesson section. Never shows the input
 * or the answer, so it suits private cases too. The kit's or instructor's text, made printable
 * (a hint may hold several lines, which stay).
 */
export function adviceLines(advice: Advice): string[] {
  const lines: string[] = [];
  if (advice.kind === "hint") {
    lines.push(`hint: ${advice.hint}`, `read: LESSON.md#${advice.lesson}`);
  } else if (advice.mistakes.length === 1) {
    const [only] = advice.mistakes;
    if (only !== undefined) {
      lines.push(
        `This looks like: ${only.name} (${only.id}).`,
        only.explanation,
        `Read LESSON.md#${only.lesson}`,
      );
    }
  } else {
    const names = advice.mistakes.map((m) => `${m.name} (${m.id})`).join("; ");
    lines.push(
      advice.together
        ? `This looks like these mistakes together: ${names}.`
        : `This looks like one of: ${names}.`,
      ...advice.mistakes.map((m) => `${m.id}: ${m.explanation} (LESSON.md#${m.lesson})`),
    );
  }
  if (advice.kind === "mistakes" && advice.stoppedShort) lines.push(MAY_FOLLOW);
  return lines.map(printable);
}

/**
 * Under mistakes named on a case the program stopped short on (Advice `stoppedShort`): what the
 * case checks after that point is untested.
 */
export const MAY_FOLLOW =
  "Your program stopped short of this case's answer, so the rest of the case is not checked yet: another mistake may follow once this one is fixed.";

/** adviceLines with a named mistake's first line in yellow. */
function coloredAdvice(advice: Advice, pc: ReturnType<typeof createColors>): string[] {
  const [first = "", ...rest] = adviceLines(advice);
  return [advice.kind === "mistakes" ? pc.yellow(first) : first, ...rest];
}

/** The line that stands for a drawing that could not be made: its error, printable, cut at 200. */
function notDrawnLine(part: NotDrawn): string {
  return `(the grader could not draw this case's explanation: ${printable(part.error).slice(0, 200)})`;
}

/**
 * What a case line written before the names are confirmed says where its own outcome names
 * mistakes: a name may not stand once every case has run, so the line gives none, and says
 * "if", as the pass over every case may withdraw them all (confirmedLines gives those that stand).
 */
export const NAMED_AT_THE_END =
  "(if a likely mistake holds up against every case, it is named at the end)";

/**
 * The detail block under a case that did not pass, one report line per entry (empty for a pass, a
 * stub and a skipped case): the input in brief, expected against actual (a grid, a diff or two
 * sentences), the hex dump, the end of standard error behind a `|` gutter, the advice, and with
 * `rerun` the command that reruns the case. Each line safe for a terminal; ANSI colour only when
 * `colour` is true.
 *
 * With `unconfirmed`, for a record whose names are not yet checked against every case: the case's
 * hint instead of the advice, and where the advice names mistakes, NAMED_AT_THE_END after it.
 */
export function detailLines(
  r: Pick<CaseResult, "explanation" | "mode" | "rerun">,
  options: { colour: boolean; rerun: boolean; unconfirmed?: boolean },
): string[] {
  const details = r.explanation?.details;
  if (r.explanation === null || details === undefined || details === null) return [];
  const pc = createColors(options.colour);
  const lines: string[] = [
    `${pc.dim("input:")} ${textLine(`${details.input}${r.mode === "assign" ? "" : ` (run with --${r.mode})`}`)}`,
  ];
  const comparison = details.comparison;
  switch (comparison.kind) {
    case "grid":
      for (const l of comparison.memberSets) lines.push(textLine(l));
      if (comparison.grid.length > 0) {
        lines.push(
          `${pc.dim("who owns which partition")} (expected above actual, ^ where they differ):`,
        );
        for (const l of comparison.grid) lines.push(`  ${textLine(l)}`);
      }
      break;
    case "diff":
      lines.push(
        `${pc.dim("expected vs actual")} (${pc.red("- expected")}, ${pc.green("+ actual")}):`,
      );
      for (const d of comparison.lines) {
        const text = textLine(`${d.sign} ${d.text}`);
        lines.push(
          `  ${d.sign === "-" ? pc.red(text) : d.sign === "+" ? pc.green(text) : pc.dim(text)}`,
        );
      }
      break;
    case "fields":
      for (const l of comparison.memberSets) lines.push(textLine(l));
      // Each member's lines start with its own heading (assignmentFieldLines).
      for (const m of comparison.members) for (const l of m.lines) lines.push(textLine(l));
      if (comparison.more > 0) {
        lines.push(
          textLine(
            `and ${comparison.more} more member${comparison.more === 1 ? "" : "s"} whose bytes differ from Kafka's`,
          ),
        );
      }
      break;
    case "outcome":
      lines.push(`${pc.dim("expected:")} ${textLine(comparison.expected)}`);
      lines.push(`${pc.dim("actual:")}   ${textLine(comparison.actual)}`);
      break;
    case "not-drawn":
      lines.push(notDrawnLine(comparison));
      break;
  }
  const bytes = details.bytes;
  if (bytes?.kind === "not-drawn") {
    lines.push(notDrawnLine(bytes));
  } else if (bytes?.kind === "bytes") {
    lines.push(textLine(`bytes of member ${JSON.stringify(bytes.member)}, one field per line:`));
    for (const l of bytes.lines) lines.push(textLine(`  ${l}`));
  }
  if (details.stderrTail.length > 0) {
    lines.push(pc.dim(`last lines of standard error:`));
    lines.push(...guttered(details.stderrTail, { gutter: `  ${pc.dim("|")} ` }));
  }
  if (options.unconfirmed === true) {
    lines.push(...adviceLines(r.explanation.hint));
    if (r.explanation.advice.kind === "mistakes") lines.push(pc.dim(NAMED_AT_THE_END));
  } else {
    lines.push(...coloredAdvice(r.explanation.advice, pc));
  }
  if (options.rerun) lines.push(`${pc.dim("rerun:")} ${textLine(r.rerun)}`);
  return lines;
}

/**
 * The build errors (compiler messages quoting the submission's files and code) as report lines,
 * each behind the gutter: `  | src/main.ts:3:7: ...`.
 *
 * @param gutter what marks each line (the text report dims its `|`)
 */
export function buildErrorLines(errors: readonly string[], gutter = `  ${GUTTER}`): string[] {
  return errors.flatMap((e) => programLines(e, { gutter }));
}

/** The first line of a NotGraded block, by its reason: what happened, in the kit's words. */
export const NOT_GRADED_HEADINGS: Readonly<Record<NotGradedReason, string>> = {
  "build-error": "The submission did not build, so no case ran:",
  "not-a-submission": "This is not a submission, so no case ran:",
  "grader-error":
    "The grader failed on this submission (not the submission's fault), so no case ran:",
  timeout: "The grading's time budget ran out before any case could start, so no case ran:",
};

/**
 * The one failure of a submission no case of which ran (results.ts NotGraded), as report lines:
 * NOT_GRADED_HEADINGS' line (red with `colour`), then the errors behind the gutter
 * (buildErrorLines; the gutter dimmed with `colour`).
 */
export function notGradedLines(notGraded: NotGraded, colour: boolean): string[] {
  const pc = createColors(colour);
  return [
    pc.red(NOT_GRADED_HEADINGS[notGraded.reason]),
    ...buildErrorLines(notGraded.errors, `  ${pc.dim("|")} `),
  ];
}

/**
 * The score lines: required and extension apart, then the total under the extension policy with
 * the policy's name and rule (`Total:     54/61 points; extension policy bonus: ...`).
 */
export function scoreLines(results: GradeResults): string[] {
  const count = (required: boolean) => {
    const mine = results.cases.filter((r) => r.required === required);
    return `${mine.filter(passed).length} of ${mine.length} case${mine.length === 1 ? "" : "s"} passed`;
  };
  return [
    `Required:  ${results.score}/${results.maxScore} points, ${count(true)}`,
    `Extension: ${results.extensionScore}/${results.extensionMaxScore} points, ${count(false)}`,
    `Total:     ${results.total.points}/${results.total.maxPoints} points; extension policy ${extensionPolicyName(results.extension)}: ${extensionPolicyRule(results.extension)}`,
  ];
}

/**
 * The text report's first lines: `Grading <submission>: N cases (kit ..., fixtures ...)` and a
 * blank line; and the width of the id column, for textReportCase: the visible cases' longest id
 * (capped), so that their lines are the same whatever the private cases are called (a longer
 * private id sticks out); the longest of all when every case is private.
 */
export function textReportStart(info: RunInfo, colour: boolean): { text: string; idWidth: number } {
  const pc = createColors(colour);
  const visible = info.cases.filter((c) => !c.private);
  let longest = 0;
  for (const c of visible.length > 0 ? visible : info.cases)
    longest = Math.max(longest, textLine(c.id).length);
  return {
    text: `${pc.bold(`Grading ${textLine(info.submission)}`)}: ${info.cases.length} case${info.cases.length === 1 ? "" : "s"} ${pc.dim(`(kit ${info.kit.version}, fixtures ${info.kit.fixtures})`)}\n\n`,
    idWidth: Math.min(44, longest),
  };
}

/**
 * One case in the text report: its line (mark, id, points, why it did not pass) and, indented
 * under it, its detail lines with the rerun command (detailLines; `unconfirmed` as there).
 */
export function textReportCase(
  r: CaseResult,
  idWidth: number,
  colour: boolean,
  unconfirmed = false,
): string {
  const pc = createColors(colour);
  const mark = passed(r)
    ? pc.green(MARK.pass)
    : r.status === "skipped"
      ? pc.dim(MARK.skipped)
      : pc.red(MARK[r.status]);
  const points = `${r.points}/${r.maxPoints}`.padStart(5);
  const tag = r.required ? "" : pc.dim(" (extension)");
  const why = passed(r) ? "" : `  ${failureLine(r)}`;
  const details = detailLines(r, { colour, rerun: true, unconfirmed });
  return `${mark} ${textLine(r.id).padEnd(idWidth)} ${points}${tag}${why}\n${details.length > 0 ? `${details.map((l) => `      ${l}`).join("\n")}\n` : ""}`;
}

/**
 * The mistakes that stand once every case has run (diagnose/case.ts confirms them), for case
 * lines written before that (textReportCase with `unconfirmed`): a heading, then the cases whose
 * detail lines would name mistakes, by display name (indented, so that only the grader's own
 * words start a line), those with the same advice listed together and that advice once under
 * them, as indented there; groups in the grading order of their first case. Empty when no case
 * names one.
 *
 * @param final every case's record, its names confirmed
 */
export function confirmedLines(final: readonly CaseResult[], colour: boolean): string {
  const pc = createColors(colour);
  const groups = new Map<string, { names: string[]; advice: string[] }>();
  for (const r of final) {
    const explanation = r.explanation;
    if (explanation === null || explanation.details === null) continue;
    if (explanation.advice.kind !== "mistakes") continue;
    const advice = coloredAdvice(explanation.advice, pc).map((l) => `      ${l}`);
    const key = advice.join("\n");
    const group = groups.get(key) ?? { names: [], advice };
    group.names.push(`  ${textLine(r.name)}`);
    groups.set(key, group);
  }
  const blocks = [...groups.values()].map((g) => [...g.names, ...g.advice].join("\n"));
  if (blocks.length === 0) return "";
  return `\n${pc.bold("Checked against every case, these mistakes stand:")}\n${blocks.join("\n")}\n`;
}

/**
 * The text report's block for a submission no case of which ran (notGradedLines), written right
 * after textReportStart's lines, before the cases' "not run" lines; a blank line after it.
 */
export function textReportNotGraded(notGraded: NotGraded, colour: boolean): string {
  return `${notGradedLines(notGraded, colour).join("\n")}\n\n`;
}

/**
 * The text report's end: when every case graded stopped at a stub, a pointer to the task to do
 * next (decodeSubscription while any case reached its stub, else assignRange, else
 * encodeAssignment: `--only` cases past the others), and the score lines. (A build failure is at the top: textReportNotGraded.)
 */
export function textReportEnd(results: GradeResults): string {
  let text = "";
  const stubs = results.cases.filter((r) => r.reason === "not-implemented");
  if (stubs.length === results.cases.length && stubs.length > 0) {
    // The stubs' own first lines (starter/src/not-implemented.ts) say which one a case reached.
    const reached = (name: string) =>
      stubs.some((r) => r.message.startsWith(`not implemented yet: ${name} `));
    text += reached("decodeSubscription")
      ? `\nNothing is implemented yet: start with decodeSubscription in src/subscription.ts (LESSON.md#the-subscription-bytes).\n`
      : reached("assignRange")
        ? `\nEvery case stopped at assignRange's stub: implement assignRange in src/range-assignor.ts next (LESSON.md#the-range-assignor).\n`
        : `\nEvery case stopped at encodeAssignment's stub: implement encodeAssignment in src/assignment.ts next (LESSON.md#the-assignment-bytes).\n`;
  }
  return `${text}\n${scoreLines(results).join("\n")}\n`;
}
