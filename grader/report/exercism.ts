/**
 * `--format exercism`: results.json as Exercism's test runners write it, version 3 of "The Test
 * Runner Interface" (exercism/docs, building/tooling/test-runners/interface.md); checked against
 * grader/schemas/exercism-results.schema.json in the kit's tests.
 *
 * Exercism shows `message`, `output` and `test_code` to the student as text: they are escaped as
 * the text report's (escape.ts), and the JSON bytes are written by safeJson.
 */
import { passed, studentView, type CaseResult, type GradeResults } from "../results.ts";
import { capped, cappedEnd, printable, safeJson, textLine } from "./escape.ts";
import { adviceLines, detailLines, failureLine, notGradedLines } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { CRLF } from "../patterns.ts";

/** The interface's limits: `message` 65535 characters, `output` 500. */
const MESSAGE_MAX_CHARS = 65_535;
export const OUTPUT_MAX_CHARS = 500;
/**
 * What the interface asks a cut `output` to say ("Output was truncated. Please limit to 500
 * chars"), on a line of its own before the end of what the program printed.
 */
export const OUTPUT_TRUNCATED = "Output was truncated. Please limit to 500 chars.";
const EXPECTED_MAX_CHARS = 1_000;

/**
 * The lesson's first task (LESSON.md, "The exercise": 1 decodeSubscription, 2 assignRange). No
 * case exercises assignRange alone: main decodes every member first.
 */
export const TASK_DECODE = 1;

export interface ExercismTest {
  name: string;
  status: "pass" | "fail" | "error";
  message: string | null;
  output: string | null;
  test_code: string;
  task_id?: number;
}

export interface ExercismResults {
  version: 3;
  status: "pass" | "fail" | "error";
  message?: string;
  tests: ExercismTest[];
}

/**
 * The one task a case exercises, or undefined when it exercises both. The interface links a test
 * to a task "only if it can be linked to precisely one task". A decode-mode case runs
 * decodeSubscription alone; a bad-bytes case is decided by decodeSubscription alone too (main
 * decodes every member before it assigns, so with a decoder that rejects the member, assignRange
 * never runs, and with one that does not, the case fails whatever assignRange does). Every other
 * assign-mode case needs both functions right: no task.
 */
export function exercismTask(r: CaseResult): number | undefined {
  return r.decodeOnly ? TASK_DECODE : undefined;
}

/**
 * A test's `output`: the end of the program's standard error, made printable, or null when it
 * printed nothing. Longer than OUTPUT_MAX_CHARS: the OUTPUT_TRUNCATED line, then as much of the
 * end as fits (the end holds a crash's message), the whole at most OUTPUT_MAX_CHARS.
 */
export function exercismOutput(stderr: string): string | null {
  if (stderr.trim() === "") return null;
  const text = printable(stderr.trimEnd().replace(CRLF, "\n"));
  if (text.length <= OUTPUT_MAX_CHARS) return text;
  const room = OUTPUT_MAX_CHARS - OUTPUT_TRUNCATED.length - 1;
  // cappedEnd marks its own cut ("(N earlier characters) …") within the room it is given.
  return `${OUTPUT_TRUNCATED}\n${cappedEnd(text, room)}`;
}

/**
 * What a private case's test_code says: prose, no command. A student's handout has no private
 * case, so any command for one (`--only <folder>/<case>`) would be one they cannot run.
 */
export const PRIVATE_TEST_CODE =
  "A private case of your instructor's: it is graded where they grade, and its input and answer are not shown.";

/**
 * What the case runs, shown by Exercism as the test's code: for a visible case the command that
 * grades it alone in the handout, its input in brief and its answer; for a private one (which
 * exercismResults leaves out anyway) PRIVATE_TEST_CODE.
 */
export function exercismTestCode(r: CaseResult): string {
  const shown = r.example;
  if (r.private || shown === null) return PRIVATE_TEST_CODE;
  const command = `${textLine(r.handoutRerun)}    # runs: main${r.mode === "assign" ? "" : ` --${r.mode}`} < fixtures/cases/${r.id}/input.json`;
  return [
    command,
    `// input: ${textLine(shown.input)}`,
    `// expected: ${textLine(shown.expected, EXPECTED_MAX_CHARS)}`,
  ].join("\n");
}

function status(r: CaseResult): ExercismTest["status"] {
  return passed(r) ? "pass" : r.status === "fail" ? "fail" : "error";
}

function message(r: CaseResult): string | null {
  // A pass has no message; a case that did not run (no build) only says so.
  if (r.explanation === null) return passed(r) ? null : failureLine(r);
  const why = failureLine(r);
  const details = r.private
    ? adviceLines(r.explanation.advice)
    : detailLines(r, { colour: false, rerun: false });
  return capped([why, ...details].join("\n"), MESSAGE_MAX_CHARS);
}

/**
 * The results.json document, version 3:
 * `{ version: 3, status: "pass"|"fail"|"error", message?, tests: [{ name, status, message,
 * output, test_code, task_id }] }`, one test per visible case in grading order (results.ts
 * studentView: Exercism has no hidden tests, so private cases are left out, and nothing in the
 * file depends on them). `status` is `error` only
 * when no case ran (the program did not build; `message` then holds the build errors, and each
 * test's message is its "not run" line alone), `fail`
 * when any case did not pass (extension cases included), else `pass`. A test's `status` is
 * `pass`, `fail` (wrong answer), or `error` (crash, stub, timeout, skipped); its `message` says
 * why with the expected-against-actual details and hint (null on a pass); `output` is the end of
 * the program's standard error, made printable, at most 500 characters (the cut marked), or null;
 * `test_code` is the command,
 * input in brief and expected answer (exercismTestCode); `task_id` is 1 (decodeSubscription) on the cases that
 * exercise that task alone (exercismTask), and left out on the others.
 * The interface has no points, so no total and no extension policy: its `pass` means every test
 * passed, as it defines.
 */
export function exercismResults(graded: GradeResults): ExercismResults {
  // Exercism shows every test to the student: the student's view, private cases left out.
  const results = studentView(graded);
  const tests = results.cases.map((r): ExercismTest => {
    const task = exercismTask(r);
    return {
      name: textLine(r.name),
      status: status(r),
      message: message(r),
      output: exercismOutput(r.stderr),
      test_code: exercismTestCode(r),
      ...(task === undefined ? {} : { task_id: task }),
    };
  });
  if (results.notGraded !== null) {
    return {
      version: 3,
      status: "error",
      message: capped(notGradedLines(results.notGraded, false).join("\n"), MESSAGE_MAX_CHARS),
      tests,
    };
  }
  return {
    version: 3,
    status: tests.every((t) => t.status === "pass") ? "pass" : "fail",
    tests,
  };
}

/** Writes Exercism's results.json (version 3) once, at the end of the run. */
export function exercismReporter(sink: Sink): Reporter {
  return {
    onRunEnd(results) {
      sink.write(`${safeJson(exercismResults(results))}\n`);
    },
  };
}
