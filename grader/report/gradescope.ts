/**
 * `--format gradescope`: the results.json a Gradescope autograder leaves in
 * `/autograder/results/results.json`, as Gradescope's "Autograder Specifications" document it
 * (checked against grader/schemas/gradescope-results.schema.json in the kit's tests).
 *
 * Gradescope renders `output` to the student; the document declares it plain text
 * (`output_format` and `test_output_format` "text", so neither HTML nor Markdown nor ANSI colour
 * is interpreted), and its strings are escaped as the text report's (escape.ts), program lines
 * behind the `|` gutter. The JSON bytes are written by safeJson.
 */
import { isPrivateCase } from "../cases/load.ts";
import { SetupError } from "../errors.ts";
import { rerunCommand } from "../options.ts";
import { passed, type CaseResult, type GradeResults } from "../results.ts";
import { capped, printable, safeJson, textLine } from "./escape.ts";
import { adviceLines, buildErrorLines, detailLines, failureLine, scoreLines } from "./lines.ts";
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

/** The whole file. The total is the sum of the tests' scores (no top-level `score`). */
export interface GradescopeResults {
  output: string;
  output_format: "text";
  test_output_format: "text";
  stdout_visibility: GradescopeVisibility;
  execution_time: number;
  tests: GradescopeTest[];
}

/** The most characters of one `output`: Gradescope shows it all, so a flood is cut. */
const OUTPUT_MAX_CHARS = 64 * 1024;

/** The test's `output`: what went wrong and what to do, never a private case's input or answer. */
function testOutput(r: CaseResult): string {
  if (r.explanation === null) return "";
  const why = failureLine(r);
  if (isPrivateCase(r.case))
    return capped([why, ...adviceLines(r.explanation.advice)].join("\n"), OUTPUT_MAX_CHARS);
  // The rerun command names the autograder's own paths; a student reruns the case in the handout.
  const details = detailLines(r, { colour: false, rerun: false });
  const rerun = `rerun in your handout: ${textLine(rerunCommand([], r.id))}`;
  return capped([why, ...details, rerun].join("\n"), OUTPUT_MAX_CHARS);
}

/**
 * The results.json document:
 * `{ output, output_format: "text", test_output_format: "text", stdout_visibility: "hidden",
 * execution_time, tests: [{ name, score, max_score, status: "passed"|"failed", output,
 * visibility, tags }] }`, one test per case in fixture order.
 * `name` is `<case id>: <title>`, with ` (extension)` for an extension case (tagged `extension`,
 * the others `required`; private cases also `private`). Gradescope adds the tests' scores up, so
 * extension points count above the required total (set the assignment's points to the required
 * total to make them extra credit). Private cases are `privateVisibility` (by default
 * after_published) and their output never shows their input or answer; the others are visible.
 * stdout is hidden, because the text report there shows private cases in full.
 */
export function gradescopeResults(
  results: GradeResults,
  privateVisibility: GradescopeVisibility = "after_published",
): GradescopeResults {
  const buildErrors =
    results.buildErrors.length > 0
      ? [`Your program did not build:`, ...buildErrorLines(results.buildErrors), ``]
      : [];
  return {
    output: capped(
      [
        ...buildErrors,
        printable(`Kit ${results.kit.version}, case set ${results.kit.fixtures}.`),
        ...scoreLines(results),
      ].join("\n"),
      OUTPUT_MAX_CHARS,
    ),
    output_format: "text",
    test_output_format: "text",
    stdout_visibility: "hidden",
    execution_time: Math.round(results.durationMs / 1000),
    tests: results.cases.map((r) => ({
      name: textLine(`${r.id}: ${r.title}${r.required ? "" : " (extension)"}`),
      score: r.points,
      max_score: r.maxPoints,
      status: passed(r) ? "passed" : "failed",
      output: testOutput(r),
      visibility: isPrivateCase(r.case) ? privateVisibility : "visible",
      tags: [r.required ? "required" : "extension", ...(isPrivateCase(r.case) ? ["private"] : [])],
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
