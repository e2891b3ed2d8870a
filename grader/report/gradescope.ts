/**
 * `--format gradescope`: the results.json a Gradescope autograder leaves in
 * `/autograder/results/results.json`, as Gradescope's "Autograder Specifications" document it
 * (checked against grader/schemas/gradescope-results.schema.json in the kit's tests).
 *
 * Gradescope renders `output` to the student; the document declares every string plain text
 * (`output_format`, `test_output_format` and `test_name_format` "text": the specification's
 * default for the top-level output is "simple_format", which renders HTML, and "text" for tests
 * and their names), so neither HTML nor Markdown nor ANSI colour is interpreted, and its strings
 * are escaped as the text report's (escape.ts), program lines behind the `|` gutter. The JSON
 * bytes are written by safeJson.
 */
import { SetupError } from "../errors.ts";
import { passed, studentView, type CaseResult, type GradeResults } from "../results.ts";
import { capped, printable, safeJson, textLine } from "./escape.ts";
import { adviceLines, detailLines, failureLine, notGradedLines, scoreLines } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";

export type GradescopeVisibility = "hidden" | "after_due_date" | "after_published" | "visible";
const VISIBILITIES: readonly GradescopeVisibility[] = [
  "hidden",
  "after_due_date",
  "after_published",
  "visible",
];

/** The environment variable that sets when students see private cases (default after_published). */
export const PRIVATE_VISIBILITY_VARIABLE = "GRADESCOPE_PRIVATE_VISIBILITY";

/** One entry of `tests`. */
export interface GradescopeTest {
  name: string;
  score: number;
  max_score: number;
  status: "passed" | "failed";
  output: string;
  visibility: GradescopeVisibility;
  tags: string[];
}

/**
 * The whole file. `score` is the grading's total under its extension policy (results.ts
 * scoresOf, every case, private ones included), which Gradescope takes instead of adding up the
 * tests' scores. No `execution_time` (optional in the specification): students see the file, and a wall-clock
 * figure in it would be a reading of the machine; Gradescope times the autograder itself.
 */
export interface GradescopeResults {
  score: number;
  output: string;
  output_format: "text";
  test_output_format: "text";
  test_name_format: "text";
  stdout_visibility: GradescopeVisibility;
  tests: GradescopeTest[];
}

/** The most characters of one `output`: Gradescope shows it all, so a flood is cut. */
const OUTPUT_MAX_CHARS = 64 * 1024;

/** The test's `output`: what went wrong and what to do, never a private case's input or answer. */
function testOutput(r: CaseResult): string {
  // A pass says nothing; a case that did not run (no build) only says so.
  if (r.explanation === null) return passed(r) ? "" : failureLine(r);
  const why = failureLine(r);
  if (r.private)
    return capped([why, ...adviceLines(r.explanation.advice)].join("\n"), OUTPUT_MAX_CHARS);
  // The rerun command names the autograder's own paths; a student reruns the case in the handout.
  const details = detailLines(r, { colour: false, rerun: false });
  const rerun = `rerun in your handout: ${textLine(r.handoutRerun)}`;
  return capped([why, ...details, rerun].join("\n"), OUTPUT_MAX_CHARS);
}

/** When students see private cases, in the words of the top-level output's last line. */
const SHOWN_WHEN: Record<Exclude<GradescopeVisibility, "visible">, string> = {
  after_published: "shown when the grades are published",
  after_due_date: "shown after the due date",
  hidden: "not shown to students",
};

/**
 * The top-level output's stamp and score lines. Gradescope hides a student's total while any
 * test is hidden from them ("If test cases are hidden, students will not be able to see their
 * total score", Autograder Specifications), so while private cases are not `visible` these lines
 * are the student's view (results.ts studentView: the visible cases' stamp, scores over them
 * alone), and a last line says how many private cases (and points) are left out and when they are
 * shown: otherwise the output, visible at once, would give away the total and how the private
 * cases went. That line counts what the instructor set, never how the submission did.
 */
function visibleSummaryLines(
  results: GradeResults,
  privateVisibility: GradescopeVisibility,
): string[] {
  const hidden = results.cases.filter((r) => r.private);
  const stamp = (r: GradeResults) => printable(`Kit ${r.kit.version}, case set ${r.kit.fixtures}.`);
  if (privateVisibility === "visible" || hidden.length === 0)
    return [stamp(results), ...scoreLines(results)];
  const shown = studentView(results);
  const sum = (required: boolean) =>
    hidden.filter((r) => r.required === required).reduce((total, r) => total + r.maxPoints, 0);
  return [
    stamp(shown),
    ...scoreLines(shown).map((line) => `${line} (the cases shown now)`),
    `Private cases: ${hidden.length} (${sum(true)} required points, ${sum(false)} extension points), not counted above, ${SHOWN_WHEN[privateVisibility]}.`,
  ];
}

/**
 * The results.json document:
 * `{ score, output, output_format: "text", test_output_format: "text", test_name_format: "text",
 * stdout_visibility: "hidden", tests: [{ name, score, max_score, status: "passed"|"failed",
 * output, visibility, tags }] }`, one test per case in grading order (the visible cases, then
 * the private ones).
 * `name` is `<case id>: <title>`, with ` (extension)` for an extension case (tagged `extension`,
 * the others `required`; private cases also `private`). The top-level `score` is the total under
 * the extension policy (results.total), so Gradescope does not add the tests' scores up: set the
 * assignment's points to results.total.maxPoints (the required points, or under `count` the
 * required and extension points). Private cases are `privateVisibility` (by default
 * after_published) and their output never shows their input or answer; the others are visible.
 * Unless private cases are `visible`, the top-level output is the student's view (the visible
 * cases' stamp and scores) and says how many private cases (and points) it leaves out
 * (visibleSummaryLines). A submission no case of which ran (it did not build) has its one failure
 * first in the top-level output (lines.ts notGradedLines: the build's errors), and each test's
 * output is its "not run" line alone. stdout is hidden, because the text report there shows private cases.
 * Nothing in the file is timed.
 */
export function gradescopeResults(
  results: GradeResults,
  privateVisibility: GradescopeVisibility = "after_published",
): GradescopeResults {
  const notGraded =
    results.notGraded === null ? [] : [...notGradedLines(results.notGraded, false), ``];
  return {
    score: results.total.points,
    output: capped(
      [...notGraded, ...visibleSummaryLines(results, privateVisibility)].join("\n"),
      OUTPUT_MAX_CHARS,
    ),
    output_format: "text",
    test_output_format: "text",
    test_name_format: "text",
    stdout_visibility: "hidden",
    tests: results.cases.map((r) => ({
      name: textLine(r.name),
      score: r.points,
      max_score: r.maxPoints,
      status: passed(r) ? "passed" : "failed",
      output: testOutput(r),
      visibility: r.private ? privateVisibility : "visible",
      tags: [r.required ? "required" : "extension", ...(r.private ? ["private"] : [])],
    })),
  };
}

/** Reads GRADESCOPE_PRIVATE_VISIBILITY; a value Gradescope does not know is a SetupError. */
export function privateVisibilityFrom(env: NodeJS.ProcessEnv): GradescopeVisibility {
  const value = env[PRIVATE_VISIBILITY_VARIABLE];
  if (value === undefined || value === "") return "after_published";
  const known = VISIBILITIES.find((v) => v === value);
  if (known === undefined) {
    throw new SetupError(
      `${PRIVATE_VISIBILITY_VARIABLE}=${value} is not a Gradescope visibility: use one of ${VISIBILITIES.join(", ")}`,
    );
  }
  return known;
}

/**
 * Writes Gradescope's results.json once, at the end of the run. Private cases get the visibility
 * in `env.GRADESCOPE_PRIVATE_VISIBILITY` (default after_published).
 */
export function gradescopeReporter(sink: Sink, env: NodeJS.ProcessEnv = process.env): Reporter {
  const privateVisibility = privateVisibilityFrom(env);
  return {
    onRunEnd(results) {
      sink.write(`${safeJson(gradescopeResults(results, privateVisibility))}\n`);
    },
  };
}
