/**
 * `--format gradescope`: the results.json a Gradescope autograder leaves in
 * `/autograder/results/results.json`, as Gradescope's "Autograder Specifications" document it
 * (checked against grader/schemas/gradescope-results.schema.json in the kit's tests).
 */
import { SetupError } from "../errors.ts";
import type { CaseResult, GradeResults } from "../grade.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { adviceLines, failureDetails, scoreLines } from "./text.ts";

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
  stdout_visibility: GradescopeVisibility;
  execution_time: number;
  tests: GradescopeTest[];
}

/** A private case: one added with `--fixtures DIR`, whose id is `<folder>/<case>`. */
export function isPrivateCase(r: Pick<CaseResult, "id">): boolean {
  return r.id.includes("/");
}

/** One line on why a case did not pass: `<reason>: <message>` (a stub's message says it all). */
export function failureLine(r: CaseResult): string {
  return r.reason === null || r.reason === "not-implemented"
    ? r.message
    : `${r.reason}: ${r.message}`;
}

/** The test's `output`: what went wrong and what to do, never a private case's input or answer. */
function testOutput(r: CaseResult): string {
  if (r.status === "pass") return "";
  const why = failureLine(r);
  if (isPrivateCase(r)) return [why, ...adviceLines(r)].join("\n");
  // The rerun command names the autograder's own paths; a student reruns the case in the handout.
  const details = failureDetails(r, false).filter((line) => !line.startsWith("rerun:"));
  return [why, ...details, `rerun in your handout: npm run grade -- --only ${r.id}`].join("\n");
}

/**
 * The results.json document:
 * `{ output, stdout_visibility: "hidden", execution_time, tests: [{ name, score, max_score,
 * status: "passed"|"failed", output, visibility, tags }] }`, one test per case in fixture order.
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
      ? [`Your program did not build:`, ...results.buildErrors.map((e) => `  ${e}`), ``]
      : [];
  return {
    output: [
      ...buildErrors,
      `Kit ${results.kit.version}, case set ${results.kit.fixtures}.`,
      ...scoreLines(results),
    ].join("\n"),
    stdout_visibility: "hidden",
    execution_time: Math.round(results.durationMs / 1000),
    tests: results.cases.map((r) => ({
      name: `${r.id}: ${r.title}${r.required ? "" : " (extension)"}`,
      score: r.points,
      max_score: r.maxPoints,
      status: r.status === "pass" ? "passed" : "failed",
      output: testOutput(r),
      visibility: isPrivateCase(r) ? privateVisibility : "visible",
      tags: [r.required ? "required" : "extension", ...(isPrivateCase(r) ? ["private"] : [])],
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
      sink.write(`${JSON.stringify(gradescopeResults(results, privateVisibility), null, 2)}\n`);
    },
  };
}
