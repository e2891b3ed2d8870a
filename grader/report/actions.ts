/**
 * What a GitHub Actions step writes, shared by `--format github` (github.ts) and `--format
 * classroom` (classroom.ts), all of it from the student's view (results.ts studentView: the
 * visible cases alone; the step's log and summary are the student's). Standard output gets the
 * text report (folded in a log group, with workflow commands stopped around it so nothing a
 * program printed can act as one) and one annotation per case that did not pass, within GitHub's
 * caps of 10 error and 10 warning annotations per step. The job summary (Markdown) is appended to the file named by
 * GITHUB_STEP_SUMMARY when it is set. Formats: GitHub's "Workflow commands for GitHub Actions"
 * (`::error title=...::message`, `::group::`, `::stop-commands::`, escaping as in
 * @actions/core's command.ts) and "Adding a job summary" (at most 1 MiB per step).
 *
 * Program text is escaped as in the text report (escape.ts textLine, programLines) before the
 * workflow-command escaping, and by markdownInline (or a fence) in the summary, so a message can
 * neither start a workflow command, nor break a table row, nor open a link or an HTML tag.
 */
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import {
  hasPrivateCases,
  passed,
  studentView,
  type CaseResult,
  type GradeResults,
} from "../results.ts";
import { capped, markdownInline, printable, textLine } from "./escape.ts";
import {
  adviceLines,
  detailLines,
  failureLine,
  notGradedLines,
  scoreLines,
  textReportCase,
  textReportEnd,
  textReportNotGraded,
  textReportStart,
} from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { BACKTICK_RUNS } from "../patterns.ts";

/** Annotations GitHub shows per step and per kind (more are dropped silently). */
export const ANNOTATIONS_PER_STEP = 10;
/** A step's job summary may not exceed 1 MiB; this leaves room for other steps' lines. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 16 * 1024;
const MESSAGE_MAX_CHARS = 4000;
const CELL_MAX_CHARS = 200;

/** Workflow-command data (the message): `%`, CR and LF escaped. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** A workflow-command property value: as data, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** `::<command> key=value,...::message`, every part escaped. */
export function workflowCommand(
  command: string,
  properties: Record<string, string>,
  message: string,
): string {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(",");
  return `::${command}${props === "" ? "" : ` ${props}`}::${escapeData(message)}`;
}

/** An annotation's message: what went wrong, the named mistake or the hint, the rerun command. */
function annotationMessage(r: CaseResult): string {
  const lines = [failureLine(r)];
  if (r.explanation !== null) {
    lines.push(...adviceLines(r.explanation.advice));
    lines.push(`rerun: ${textLine(r.rerun)}`);
  }
  return capped(lines.join("\n"), MESSAGE_MAX_CHARS);
}

/**
 * Annotations of one kind for the cases that did not pass: one each while they fit in the cap,
 * else `cap - 1` of them and one that counts the rest.
 */
function annotations(kind: "error" | "warning", failed: CaseResult[], label: string): string[] {
  const shown =
    failed.length <= ANNOTATIONS_PER_STEP ? failed : failed.slice(0, ANNOTATIONS_PER_STEP - 1);
  const lines = shown.map((r) =>
    workflowCommand(
      kind,
      { title: `${textLine(r.id)} (${r.points}/${r.maxPoints}${r.required ? "" : ", extension"})` },
      annotationMessage(r),
    ),
  );
  const rest = failed.length - shown.length;
  if (rest > 0) {
    lines.push(
      workflowCommand(
        kind,
        { title: `${rest} more ${label} cases did not pass` },
        capped(
          `${failed
            .slice(shown.length)
            .map((r) => textLine(r.id))
            .join(", ")}\nSee the job summary or the grading log for each one.`,
          MESSAGE_MAX_CHARS,
        ),
      ),
    );
  }
  return lines;
}

/**
 * The workflow commands for a run: at most 10 `::error` annotations for required cases that did
 * not pass and at most 10 `::warning` annotations for extension cases, each titled
 * `<case id> (<points>/<max>)` with the reason, hint, lesson section and rerun command as its
 * message. Passed and skipped cases get none, and private cases none (results.ts studentView).
 * A submission no case of which ran (results.ts NotGraded) gets one `::error` alone, titled by
 * lines.ts NOT_GRADED_HEADINGS, its message the build's errors.
 */
export function githubAnnotations(results: GradeResults): string[] {
  // One failure for a submission no case of which ran: the build's errors, no case's annotation.
  if (results.notGraded !== null) {
    const [heading = "", ...errors] = notGradedLines(results.notGraded, false);
    return [
      workflowCommand(
        "error",
        { title: heading.endsWith(":") ? heading.slice(0, -1) : heading },
        capped(errors.join("\n"), MESSAGE_MAX_CHARS),
      ),
    ];
  }
  const failed = studentView(results).cases.filter((r) => !passed(r) && r.status !== "skipped");
  return [
    ...annotations(
      "error",
      failed.filter((r) => r.required),
      "required",
    ),
    ...annotations(
      "warning",
      failed.filter((r) => !r.required),
      "extension",
    ),
  ];
}

/** Re-exported for the tests and tools that took it from here; escape.ts defines it. */
export { markdownInline } from "./escape.ts";

/** A fenced block that its content cannot close; the content is made printable. */
function fenced(raw: string): string {
  const text = printable(raw);
  // A loop, not Math.max(...runs): a spread of a long array overflows the stack.
  let longest = 2;
  for (const run of text.match(BACKTICK_RUNS) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/**
 * The line a report a student reads whole ends with when the grading had private cases, which it
 * leaves out: fixed words, the same whatever the private cases are and however they went.
 */
export const PRIVATE_CASES_LEFT_OUT =
  "Private cases (--fixtures) are not part of this report; their results are in the text, JSON and JUnit reports.";

/**
 * The job summary (GitHub-flavoured Markdown) of the student's view (results.ts studentView: the
 * visible cases alone): a heading with both scores, the one failure of a submission no case of which ran (its build errors, fenced), a table of every visible case (mark, id,
 * title, points, why it did not pass), and a folded block of details for each that did not pass;
 * PRIVATE_CASES_LEFT_OUT last when there were private cases. Kept under 1 MiB: details are
 * dropped from the end when it would not fit.
 */
export function githubSummary(graded: GradeResults): string {
  const results = studentView(graded);
  const mark = (r: CaseResult) =>
    passed(r) ? "✅" : r.status === "skipped" ? "➖" : r.required ? "❌" : "⚠️";
  const head = [
    `## Grading ${markdownInline(results.submission)}: ${results.score}/${results.maxScore} required points`,
    ``,
    ...scoreLines(results).map((l) => `- ${markdownInline(l)}`),
    `- kit ${markdownInline(results.kit.version)}, fixtures \`${textLine(results.kit.fixtures)}\``,
    ``,
    ...(results.notGraded === null
      ? []
      : [fenced(notGradedLines(results.notGraded, false).join("\n")), ``]),
    `| | Case | Points | Result |`,
    `| --- | --- | --- | --- |`,
    ...results.cases.map(
      (r) =>
        `| ${mark(r)} | ${markdownInline(r.id)}${r.required ? "" : " (extension)"}: ${markdownInline(r.title, CELL_MAX_CHARS)} | ${r.points}/${r.maxPoints} | ${passed(r) ? "passed" : markdownInline(failureLine(r), CELL_MAX_CHARS)} |`,
    ),
    ``,
    ``,
  ].join("\n");
  let summary = head;
  let dropped = 0;
  for (const r of results.cases) {
    if (passed(r) || r.status === "skipped") continue;
    const details = detailLines(r, { colour: false, rerun: true });
    if (details.length === 0) continue;
    const block = `<details><summary>${markdownInline(r.id)}: ${markdownInline(failureLine(r))}</summary>\n\n${fenced(details.join("\n"))}\n\n</details>\n`;
    if (Buffer.byteLength(summary + block) + 200 > SUMMARY_MAX_BYTES) dropped++;
    else summary += block;
  }
  if (dropped > 0) summary += `\n${dropped} more cases' details left out (the log has them).\n`;
  if (hasPrivateCases(graded)) summary += `\n${PRIVATE_CASES_LEFT_OUT}\n`;
  return `${summary}\n`;
}

/**
 * The text report of the student's view, as the text format writes it (never coloured).
 */
function studentText(results: GradeResults): string {
  const start = textReportStart(
    { submission: results.submission, cases: results.cases, kit: results.kit },
    false,
  );
  const cases = results.cases.map((r) => textReportCase(r, start.idWidth, false));
  const notGraded = results.notGraded === null ? "" : textReportNotGraded(results.notGraded, false);
  return `${start.text}${notGraded}${cases.join("")}${textReportEnd(results)}`;
}

/**
 * A GitHub Actions step's reporter, for a log, annotations and a summary the student sees: all of
 * it written from the student's view (results.ts studentView: the visible cases alone, the
 * scores over them), once, at the end of the run. Standard output (the sink): that text report
 * inside `::group::`/`::endgroup::` and `::stop-commands::<token>`/`::<token>::`, then the
 * annotations of githubAnnotations, then the score lines, then PRIVATE_CASES_LEFT_OUT when there
 * were private cases, then the lines `after` gives the view (none by default). When
 * `env.GITHUB_STEP_SUMMARY` names a file, githubSummary is appended to it (appendFileSync).
 */
export function actionsStepReporter(
  sink: Sink,
  env: NodeJS.ProcessEnv = process.env,
  after: (results: GradeResults) => string[] = () => [],
): Reporter {
  return {
    onRunEnd(graded) {
      const results = studentView(graded);
      const text = studentText(results);
      const token = randomUUID();
      const out = [
        `::group::Grading ${escapeData(textLine(results.submission))}: every case`,
        `::stop-commands::${token}`,
        text.trimEnd(),
        `::${token}::`,
        `::endgroup::`,
        ...githubAnnotations(results),
        ...scoreLines(results),
        ...(hasPrivateCases(graded) ? [PRIVATE_CASES_LEFT_OUT] : []),
        ...after(results),
        ``,
      ];
      sink.write(out.join("\n"));
      const summaryFile = env.GITHUB_STEP_SUMMARY;
      if (summaryFile !== undefined && summaryFile !== "") {
        appendFileSync(summaryFile, githubSummary(graded));
      }
    },
  };
}
