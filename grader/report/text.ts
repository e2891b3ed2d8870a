/**
 * `--format text` (the default): one line per case in fixture order (mark, id, points, and why it
 * did not pass); under a failure, the input in brief, expected against actual, the hint, the
 * LESSON.md section and the command that reruns just that case; last, the scores, required and
 * extension apart. Colour only when the sink is a terminal without NO_COLOR.
 *
 * Every line is escaped here, before colour is added (escape.ts): a line that quotes a program
 * goes through textLine, lines a program printed (standard error, build errors) through
 * programLines, behind a `|` gutter. The other formats reuse these lines and add only their own
 * container's escaping.
 */
import { createColors } from "picocolors";
import { lineDiff, outputLines } from "../explain/diff.ts";
import { firstLine, memberOfErrorLine } from "../verdict/verdict.ts";
import { describeMistakes, FileOutcomes } from "../diagnose/diagnose.ts";
import { assignmentGrid } from "../explain/grid.ts";
import { decodeFocus, hexDump } from "../explain/hexdump.ts";
import { describeOutcome } from "../verdict/outcome.ts";
import type { AssignmentOutput, Case, DecodeOutput } from "../cases/load.ts";
import type { CaseResult, GradeResults } from "../grade.ts";
import { GUTTER, printable, programLines, textLine } from "./escape.ts";
import type { Reporter, Sink } from "./reporter.ts";

const MARK = { pass: "✓", fail: "✗", error: "✗", timeout: "⧗", skipped: "-" } as const;
const STDERR_TAIL_LINES = 8;

/** "3 topics (t0:3, t1:3, t2:3); 2 members in input order: m1, m0 (static: i-1)". */
export function inputBrief(c: Case): string {
  const topics = Object.entries(c.input.topics);
  const shownTopics = topics.slice(0, 6).map(([t, n]) => `${JSON.stringify(t)}:${n}`);
  if (topics.length > 6) shownTopics.push(`+${topics.length - 6} more`);
  const members = c.input.members;
  const shownMembers = members
    .slice(0, 8)
    .map((m) =>
      m.groupInstanceId === undefined || m.groupInstanceId === null
        ? JSON.stringify(m.memberId)
        : `${JSON.stringify(m.memberId)} (static ${JSON.stringify(m.groupInstanceId)})`,
    );
  if (members.length > 8) shownMembers.push(`+${members.length - 8} more`);
  return `${topics.length} topic${topics.length === 1 ? "" : "s"} (${shownTopics.join(", ") || "none"}); ${members.length} member${members.length === 1 ? "" : "s"} in input order: ${shownMembers.join(", ") || "none"}`;
}

let recorded: FileOutcomes | undefined;
/** The recorded diagnosis data (field boundaries for hex dumps), read once. */
function recordedData(): FileOutcomes {
  recorded ??= new FileOutcomes();
  return recorded;
}

/** Up to eight names as JSON strings, then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 8).map((m) => JSON.stringify(m));
  return [...shown, ...(names.length > 8 ? [`+${names.length - 8} more`] : [])].join(", ");
}

/** Members present on one side only, for assignment answers. */
function memberSetLines(expected: AssignmentOutput, actual: AssignmentOutput): string[] {
  const missing = Object.keys(expected).filter((m) => !Object.hasOwn(actual, m));
  const extra = Object.keys(actual).filter((m) => !Object.hasOwn(expected, m));
  return [
    ...(missing.length > 0 ? [`missing members (${missing.length}): ${someNames(missing)}`] : []),
    ...(extra.length > 0
      ? [`members that are not in the group (${extra.length}): ${someNames(extra)}`]
      : []),
  ];
}

/** The hex dump for a decode-related failure, when the recorded data has the member's fields. */
function bytesLines(r: CaseResult): string[] {
  const c = r.case;
  const layouts = recordedData().caseData(c)?.members;
  if (layouts === undefined || layouts.size === 0) return [];
  const stderrFirstLine = firstLine(r.stderr);
  const focus = decodeFocus(
    c.mode,
    c.expected,
    {
      output: c.mode === "decode" ? (r.verdict.actual as DecodeOutput | undefined) : undefined,
      rejected:
        r.verdict.outcome.kind === "error"
          ? r.verdict.outcome.member
          : memberOfErrorLine(stderrFirstLine),
      stderrFirstLine,
    },
    c.input.members.map((m) => m.memberId),
    layouts,
  );
  const member =
    focus === undefined ? undefined : c.input.members.find((m) => m.memberId === focus.member);
  const layout = focus === undefined ? undefined : layouts.get(focus.member);
  if (focus === undefined || member === undefined || layout === undefined) return [];
  const bytes = new Uint8Array(Buffer.from(member.metadata.replace(/\s+/g, ""), "hex"));
  return [
    `bytes of member ${JSON.stringify(focus.member)}, one field per line:`,
    ...hexDump(bytes, layout, focus.caret).map((l) => `  ${l}`),
  ];
}

/**
 * Appends the lines `build` returns to `lines`, or, when it throws, one line saying so: drawing
 * one case's explanation (a grid, a diff, a hex dump of what a program printed) must never stop
 * the rest of the report. The message is cut to its first line and 200 characters.
 */
export function explain(lines: string[], build: () => readonly string[]): void {
  let built: readonly string[];
  try {
    built = build();
  } catch (error) {
    let message: string;
    try {
      message = String(error instanceof Error ? error.message : error);
    } catch {
      message = "an error that cannot be printed";
    }
    const end = message.indexOf("\n");
    message = printable(end === -1 ? message : message.slice(0, end)).slice(0, 200);
    built = [`(the grader could not draw this case's explanation: ${message})`];
  }
  // A loop, not lines.push(...built): spreading a long array overflows the stack.
  for (const line of built) lines.push(line);
}

/**
 * The detail block under a case that did not pass (empty for stubs and skipped cases), one report
 * line per entry, each safe for a terminal: quoted program text escaped by textLine, the end of
 * standard error behind a `|` gutter (programLines), ANSI colour only when `colour` is true.
 */
export function failureDetails(r: CaseResult, colour: boolean): string[] {
  const pc = createColors(colour);
  if (r.status === "pass" || r.reason === "not-implemented" || r.status === "skipped") return [];
  const c = r.case;
  const lines: string[] = [];
  lines.push(
    `${pc.dim("input:")} ${textLine(`${inputBrief(c)}${c.mode === "decode" ? " (run with --decode)" : ""}`)}`,
  );
  const expected = c.expected;
  const actual = r.verdict.actual;
  if (
    "output" in expected &&
    actual !== undefined &&
    r.reason === "wrong-output" &&
    c.mode === "assign"
  ) {
    const want = expected.output as AssignmentOutput;
    const got = actual as AssignmentOutput;
    explain(lines, () => {
      const shown = memberSetLines(want, got).map((l) => textLine(l));
      const grid = assignmentGrid(c.input.topics, want, got);
      if (grid.length > 0) {
        shown.push(
          `${pc.dim("who owns which partition")} (expected above actual, ^ where they differ):`,
        );
        for (const l of grid) shown.push(`  ${textLine(l)}`);
      }
      return shown;
    });
  } else if ("output" in expected && actual !== undefined && r.reason === "wrong-output") {
    explain(lines, () => {
      const shown = [
        `${pc.dim("expected vs actual")} (${pc.red("- expected")}, ${pc.green("+ actual")}):`,
      ];
      for (const d of lineDiff(outputLines(c.mode, expected.output), outputLines(c.mode, actual))) {
        const text = textLine(`${d.sign} ${d.text}`);
        shown.push(
          `  ${d.sign === "-" ? pc.red(text) : d.sign === "+" ? pc.green(text) : pc.dim(text)}`,
        );
      }
      return shown;
    });
  } else {
    const want =
      "error" in expected
        ? `exit 1, first line of standard error: error: member ${JSON.stringify(expected.error.member)}: ...`
        : "an answer on standard output (exit 0)";
    lines.push(`${pc.dim("expected:")} ${textLine(want)}`);
    lines.push(
      `${pc.dim("actual:")}   ${textLine(`the program ${describeOutcome(r.verdict.outcome)}`)}`,
    );
  }
  if (r.status === "fail" || r.reason === "crash")
    explain(lines, () => bytesLines(r).map((l) => textLine(l)));
  if (r.status === "error" && r.stderr.trim() !== "") {
    lines.push(pc.dim(`last lines of standard error:`));
    const gutter = `  ${pc.dim("|")} `;
    lines.push(...programLines(r.stderr, { last: STDERR_TAIL_LINES, gutter }));
  }
  const [first = "", ...rest] = adviceLines(r);
  lines.push(r.mistakes.length > 0 ? pc.yellow(first) : first, ...rest);
  lines.push(`${pc.dim("rerun:")} ${textLine(r.rerun)}`);
  return lines;
}

/**
 * What to do about a failed case: the named mistake with its explanation and lesson section, or,
 * when no catalogued mistake matches, the case's hint and lesson section. Never shows the input
 * or the answer, so it suits private cases too. The kit's or instructor's text, made printable
 * (a hint may hold several lines, which stay).
 */
export function adviceLines(r: CaseResult): string[] {
  const diagnosis = describeMistakes(r.mistakes);
  return (
    diagnosis.length > 0 ? diagnosis : [`hint: ${r.case.hint}`, `read: LESSON.md#${r.case.lesson}`]
  ).map(printable);
}

/**
 * One line on why a case did not pass, escaped by textLine: `<reason>: <message>` (a stub's
 * message says it all). The message may quote the program (its output, keys, standard error).
 */
export function failureLine(r: CaseResult): string {
  return textLine(
    r.reason === null || r.reason === "not-implemented" ? r.message : `${r.reason}: ${r.message}`,
  );
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

/** The score lines: required and extension apart. */
export function scoreLines(results: GradeResults): string[] {
  const count = (required: boolean) => {
    const mine = results.cases.filter((r) => r.required === required);
    return `${mine.filter((r) => r.status === "pass").length} of ${mine.length} case${mine.length === 1 ? "" : "s"} passed`;
  };
  return [
    `Required:  ${results.score}/${results.maxScore} points, ${count(true)}`,
    `Extension: ${results.extensionScore}/${results.extensionMaxScore} points, ${count(false)}`,
  ];
}

/** The human-readable report. */
export function textReporter(sink: Sink): Reporter {
  const pc = createColors(sink.colour);
  let idWidth = 0;
  return {
    onRunStart(info) {
      idWidth = Math.min(44, Math.max(0, ...info.cases.map((c) => textLine(c.id).length)));
      sink.write(
        `${pc.bold(`Grading ${textLine(info.submission)}`)}: ${info.cases.length} case${info.cases.length === 1 ? "" : "s"} ${pc.dim(`(kit ${info.kit.version}, fixtures ${info.kit.fixtures})`)}\n\n`,
      );
    },
    onCaseResult(r) {
      const mark =
        r.status === "pass"
          ? pc.green(MARK.pass)
          : r.status === "skipped"
            ? pc.dim(MARK.skipped)
            : pc.red(MARK[r.status]);
      const points = `${r.points}/${r.maxPoints}`.padStart(5);
      const tag = r.required ? "" : pc.dim(" (extension)");
      const why =
        r.status === "pass"
          ? ""
          : `  ${textLine(r.reason === "not-implemented" ? r.message : `${r.reason ?? r.status}: ${r.message}`)}`;
      sink.write(`${mark} ${textLine(r.id).padEnd(idWidth)} ${points}${tag}${why}\n`);
      const details = failureDetails(r, sink.colour);
      if (details.length > 0) sink.write(`${details.map((l) => `      ${l}`).join("\n")}\n`);
    },
    onRunEnd(results) {
      if (results.buildErrors.length > 0) {
        sink.write(
          `\n${pc.red("The submission did not build:")}\n${buildErrorLines(results.buildErrors, `  ${pc.dim("|")} `).join("\n")}\n`,
        );
      }
      const stubs = results.cases.filter((r) => r.reason === "not-implemented").length;
      if (stubs === results.cases.length && stubs > 0) {
        sink.write(
          `\nNothing is implemented yet: start with decodeSubscription in src/subscription.ts (LESSON.md#the-subscription-bytes).\n`,
        );
      }
      sink.write(`\n${scoreLines(results).join("\n")}\n`);
    },
  };
}
