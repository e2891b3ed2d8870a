// GRADESCOPE_PRIVATE_VISIBILITY, in process: the Gradescope format as the command line builds it
// (report/formats.ts, from the grader's environment) gives private cases the visibility it names,
// after_published by default, and refuses a value Gradescope does not know with a SetupError
// (exit 2, as test/e2e/grader.test.ts shows for every SetupError).
import { afterEach, describe, expect, it, vi } from "vitest";
import { SetupError } from "../../grader/errors.ts";
import { FORMATS } from "../../grader/report/formats.ts";
import type { GradescopeResults } from "../../grader/report/gradescope.ts";
import { MemorySink } from "../../grader/report/reporter.ts";
import {
  builtInCase,
  gradeResults,
  judgedResult,
  privateCase,
  report,
  rightRun,
} from "../helpers/results.ts";

const ONE = "01-lesson-7-partitions-3-members";
/** A visible case and a private one, both passed. */
const results = gradeResults("solution", [
  judgedResult(ONE, rightRun(builtInCase(ONE)), "solution"),
  judgedResult(privateCase(ONE, "private", "01-one"), rightRun(builtInCase(ONE)), "solution"),
]);
const visibilities = () =>
  (JSON.parse(report(FORMATS.gradescope, results)) as GradescopeResults).tests.map(
    (t) => t.visibility,
  );

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("GRADESCOPE_PRIVATE_VISIBILITY", () => {
  it("unset or empty: private cases after_published, visible ones visible", () => {
    vi.stubEnv("GRADESCOPE_PRIVATE_VISIBILITY", undefined);
    expect(visibilities()).toEqual(["visible", "after_published"]);
    vi.stubEnv("GRADESCOPE_PRIVATE_VISIBILITY", "");
    expect(visibilities()).toEqual(["visible", "after_published"]);
  });

  it("hidden: private cases hidden, visible ones still visible", () => {
    vi.stubEnv("GRADESCOPE_PRIVATE_VISIBILITY", "hidden");
    expect(visibilities()).toEqual(["visible", "hidden"]);
  });

  it("a value Gradescope does not know: a SetupError before anything is graded", () => {
    vi.stubEnv("GRADESCOPE_PRIVATE_VISIBILITY", "students");
    expect(() => FORMATS.gradescope(new MemorySink())).toThrow(SetupError);
    expect(() => FORMATS.gradescope(new MemorySink())).toThrow(
      "GRADESCOPE_PRIVATE_VISIBILITY=students is not a Gradescope visibility",
    );
  });
});
