// The platform formats (--format junit, gradescope, github, exercism) end to end: the reference,
// the starter and a failing variant are each graded once with every format at once, and each
// document is checked against its published shape (ajv schemas for the JSON formats, an XML parser
// for JUnit, the workflow-command syntax for GitHub). Private cases with crafted text check the
// escaping. The escaping helpers and the schemas' strictness are checked in process
// (test/unit/workflow-xml-escaping.test.ts, platform-schemas.test.ts), and so is
// GRADESCOPE_PRIVATE_VISIBILITY (test/unit/gradescope-visibility.test.ts).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_CASES_LEFT_OUT } from "../../grader/report/actions.ts";
import { grade, variantOfSolution } from "../helpers/grader.ts";
import { EARLIER_SUMMARY, gradeAllFormats, graded, type AllFormatsRun } from "../helpers/graded.ts";
import { decodeRunner, notifyClassroom, reporterFails, stepOutputs } from "../helpers/classroom.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import {
  expectExercism,
  expectGradescope,
  parseAnnotations,
  parseJunit,
  type Annotation,
  type JunitSuite,
} from "../helpers/readers.ts";
import { expectValidJunit } from "../helpers/xmllint.ts";

// ---- the shared gradings (graded.ts): each graded once per test run, every format at once ----

type Run = AllFormatsRun;

/** Checks what every run shares: one suite, one testcase per case, counts, annotations' caps. */
async function expectCommonShape(run: Run): Promise<void> {
  const ids = run.results.cases.map((c) => c.id);
  const failed = run.results.cases.filter((c) => c.status !== "pass" && c.status !== "skipped");
  // A submission no case of which ran: its own testcase first, the one error; each case skipped.
  const notGraded = run.results.notGraded;
  const testcaseNames = notGraded === null ? ids : [notGraded.reason, ...ids];
  const errored = notGraded === null ? failed.length : 1;

  const suites = parseJunit(run.junit).testsuites.testsuite;
  expect(suites).toHaveLength(1);
  await expectValidJunit(new Map([[run.results.submission, run.junit]]));
  const suite = suites[0] as JunitSuite;
  expect(suite.testcase.map((t) => t.name)).toEqual(testcaseNames);
  const keys = suite.testcase.map((t) => `${t.classname}\u0000${t.name}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(Number(suite.tests)).toBe(testcaseNames.length);
  expect(Number(suite.failures) + Number(suite.errors)).toBe(errored);

  expectGradescope(run.gradescope);
  expect(run.gradescope.tests.map((t) => t.name.split(":")[0])).toEqual(ids);
  expectExercism(run.exercism);
  expect(run.exercism.tests).toHaveLength(ids.length);

  const annotations = parseAnnotations(run.stdout);
  for (const kind of ["error", "warning"]) {
    expect(annotations.filter((a) => a.kind === kind).length).toBeLessThanOrEqual(10);
  }
  expect(run.summary.startsWith(EARLIER_SUMMARY), "the summary is appended").toBe(true);
  expect(run.summary).toContain(
    `## Grading ${run.results.submission.replace(/([\\`*_[\]|#~])/g, "\\$1")}: ${run.results.score}/${run.results.maxScore} required points`,
  );
}

describe("the reference (solution/) in every format", () => {
  let run: Run;
  beforeAll(() => {
    run = graded("reference");
  });

  it("exits 0 and every document has the published shape", async () => {
    expect(run.status, run.stderr).toBe(0);
    await expectCommonShape(run);
  });

  it("junit: every testcase passed, classname says required or extension", () => {
    const suite = parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite;
    expect(suite.failures).toBe("0");
    expect(suite.errors).toBe("0");
    for (const [i, t] of suite.testcase.entries()) {
      expect(t.failure ?? t.error ?? t.skipped).toBeUndefined();
      expect(t.classname).toBe(
        run.results.cases[i]?.required ? "cases.required" : "cases.extension",
      );
    }
  });

  it("gradescope: full marks, extension cases marked, everything visible", () => {
    const tests = run.gradescope.tests;
    const total = tests.reduce((s, t) => s + t.score, 0);
    expect(total).toBe(run.results.maxScore + run.results.extensionMaxScore);
    expect(tests.reduce((s, t) => s + t.max_score, 0)).toBe(total);
    // The top-level score, which Gradescope takes instead of that sum: under the default
    // policy, full required marks and every extension point on top.
    expect(run.gradescope.score).toBe(total);
    for (const [i, t] of tests.entries()) {
      const c = run.results.cases[i];
      expect(t.status).toBe("passed");
      expect(t.visibility).toBe("visible");
      expect(t.tags).toEqual([c?.required ? "required" : "extension"]);
      expect(t.name.endsWith(" (extension)")).toBe(c?.required === false);
    }
    expect(run.gradescope.stdout_visibility).toBe("hidden");
  });

  it("exercism: status pass, the decoder's tests linked to task 1, the others to none", () => {
    expect(run.exercism.version).toBe(3);
    expect(run.exercism.status).toBe("pass");
    expect(run.exercism).not.toHaveProperty("message");
    for (const [i, t] of run.exercism.tests.entries()) {
      const id = run.results.cases[i]?.id ?? "";
      const meta = JSON.parse(readFileSync(join(CASES_DIR, id, "case.json"), "utf8")) as {
        mode: string;
      };
      const expected = JSON.parse(
        readFileSync(join(CASES_DIR, id, "expected.json"), "utf8"),
      ) as object;
      const decodes = meta.mode === "decode" || "error" in expected;
      // Only a case that exercises decodeSubscription alone names a task (the interface: "only
      // if it can be linked to precisely one task"); an assignment needs both functions.
      expect(t.task_id, id).toBe(decodes ? 1 : undefined);
      expect(t.status).toBe("pass");
      expect(t.message).toBeNull();
      expect(t.test_code).toContain(`npm run grade -- --only ${id}`);
    }
  });

  it("github: no annotations, the log folded, a summary with every case", () => {
    expect(parseAnnotations(run.stdout)).toEqual([]);
    expect(run.stdout).toMatch(/^::group::Grading solution: every case\n::stop-commands::\S+\n/);
    expect(run.stdout).toContain("::endgroup::\n");
    expect(run.stdout).toContain(`Required:  ${run.results.score}/${run.results.maxScore} points`);
    expect(run.summary.match(/^\| ✅ \|/gm)).toHaveLength(run.results.cases.length);
    expect(run.summary).not.toContain("<details>");
  });
});

describe("the starter in every format", () => {
  let run: Run;
  beforeAll(() => {
    run = graded("starter");
  });

  it("exits 1 and every document has the published shape", async () => {
    expect(run.status, run.stderr).toBe(1);
    await expectCommonShape(run);
  });

  it("junit: every case an <error> of type not-implemented, its message also in the body", () => {
    const suite = parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite;
    expect(Number(suite.errors)).toBe(run.results.cases.length);
    for (const t of suite.testcase) {
      expect(t.error?.type).toBe("not-implemented");
      expect(t.error?.message).toMatch(/^not implemented yet: decodeSubscription/);
      expect(t.error?.["#text"]).toContain(t.error?.message ?? "(none)");
    }
  });

  it("github: at most 10 errors and 10 warnings, the last one counting the rest", () => {
    const annotations = parseAnnotations(run.stdout);
    const required = run.results.cases.filter((c) => c.required);
    const extension = run.results.cases.filter((c) => !c.required);
    const errors = annotations.filter((a) => a.kind === "error");
    const warnings = annotations.filter((a) => a.kind === "warning");
    expect(required.length).toBeGreaterThan(10);
    expect(errors).toHaveLength(10);
    expect(errors.slice(0, 9).map((a) => a.title)).toEqual(
      required.slice(0, 9).map((c) => `${c.id} (0/${c.maxPoints})`),
    );
    expect(errors[9]?.title).toBe(`${required.length - 9} more required cases did not pass`);
    expect(errors[9]?.message).toContain(
      required
        .slice(9)
        .map((c) => c.id)
        .join(", "),
    );
    expect(warnings).toHaveLength(Math.min(10, extension.length));
    expect(warnings[0]?.title).toBe(
      `${extension[0]?.id} (0/${extension[0]?.maxPoints}, extension)`,
    );
    expect(errors[0]?.message).toMatch(/^not implemented yet: decodeSubscription/);
  });

  it("gradescope: 0 points, every test failed with the stub's message", () => {
    expect(run.gradescope.tests.every((t) => t.score === 0 && t.status === "failed")).toBe(true);
    expect(run.gradescope.tests[0]?.output).toMatch(/^not implemented yet: decodeSubscription/);
  });

  it("exercism: status fail (the stubs ran), each test an error with a message", () => {
    expect(run.exercism.status).toBe("fail");
    for (const t of run.exercism.tests) {
      expect(t.status).toBe("error");
      expect(t.message).toMatch(/^not implemented yet/);
      expect((t.output ?? "").length).toBeLessThanOrEqual(500);
    }
  });
});

describe("a failing variant in every format", () => {
  let run: Run;
  beforeAll(() => {
    run = graded("locale-order-variant");
  });

  const failedIds = (required: boolean) =>
    run.results.cases
      .filter((c) => c.status !== "pass" && c.required === required)
      .map((c) => c.id);

  it("fails some required and some extension cases, and every document has the shape", async () => {
    expect(run.status).toBe(1);
    expect(failedIds(true).length).toBeGreaterThan(0);
    expect(failedIds(false).length).toBeGreaterThan(0);
    await expectCommonShape(run);
  });

  it("junit: a <failure> exactly for each failed case, message in the attribute and the body", () => {
    const suite = parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite;
    for (const [i, t] of suite.testcase.entries()) {
      const c = run.results.cases[i];
      if (c?.status === "pass") {
        expect(t.failure ?? t.error).toBeUndefined();
        continue;
      }
      expect(c?.status).toBe("fail");
      expect(t.failure?.type).toBe("wrong-output");
      expect(t.failure?.message).toBe(`wrong-output: ${c?.message}`);
      const body = t.failure?.["#text"] ?? "";
      // The body: the title, the message, then the text report's details for the case.
      expect(body.split("\n").slice(0, 2)).toEqual([c?.title, t.failure?.message]);
      expect(body).toMatch(/\ninput: .*\n[^]*LESSON\.md#/);
    }
  });

  it("github: errors for the failed required cases, warnings for the extension ones", () => {
    const annotations = parseAnnotations(run.stdout);
    const titleId = (a: Annotation) => a.title.replace(/ \(.*\)$/, "");
    expect(annotations.filter((a) => a.kind === "error").map(titleId)).toEqual(failedIds(true));
    expect(annotations.filter((a) => a.kind === "warning").map(titleId)).toEqual(failedIds(false));
    for (const a of annotations) {
      // The named mistake when one matches (localeCompare here), else the hint; then the rerun.
      expect(a.message).toMatch(
        /^wrong-output: .*\n(This looks like: [^]*\nRead LESSON\.md#[^\n]*|hint: .*\nread: LESSON\.md#.*)\nrerun: /,
      );
    }
    expect(run.summary).toContain(`<details><summary>${failedIds(true)[0]}`);
  });

  it("gradescope and exercism: the failed cases, with the text report's details", () => {
    for (const [i, t] of run.gradescope.tests.entries()) {
      const passed = run.results.cases[i]?.status === "pass";
      expect(t.status).toBe(passed ? "passed" : "failed");
      if (!passed) expect(t.output).toMatch(/^wrong-output: .*\ninput: [^]*LESSON\.md#/);
    }
    expect(run.exercism.status).toBe("fail");
    for (const [i, t] of run.exercism.tests.entries()) {
      const passed = run.results.cases[i]?.status === "pass";
      expect(t.status).toBe(passed ? "pass" : "fail");
      if (!passed) expect(t.message).toMatch(/^wrong-output: .*\ninput: [^]*LESSON\.md#/);
    }
  });
});

describe("GitHub Classroom's points (--format classroom, as the Classroom workflow runs it)", () => {
  // The locale-order variant loses the points of a required case it fails.
  let run: ReturnType<typeof grade>;
  let results: {
    score: number;
    maxScore: number;
    total: number;
    maxTotal: number;
    cases: { id: string; required: boolean }[];
  };
  let outputs: Map<string, string>;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), "kit-classroom-"));
    writeFileSync(join(dir, "output"), "");
    writeFileSync(join(dir, "summary.md"), "");
    const submission = variantOfSolution([
      {
        file: "range-assignor.ts",
        search: "return a < b ? -1 : a > b ? 1 : 0;",
        replace: 'return a.localeCompare(b, "en-US");',
      },
    ]);
    // Three cases say it all: one required case it passes, one it fails, one extension case.
    const only = [
      "01-lesson-7-partitions-3-members",
      "06-uppercase-before-lowercase",
      "31-static-members-first",
    ].flatMap((id) => ["--only", id]);
    run = grade(
      [
        submission,
        ...only,
        "--format",
        "classroom",
        "--format",
        `json=${join(dir, "results.json")}`,
      ],
      { GITHUB_OUTPUT: join(dir, "output"), GITHUB_STEP_SUMMARY: join(dir, "summary.md") },
    );
    results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as typeof results;
    outputs = stepOutputs(readFileSync(join(dir, "output"), "utf8"));
  }, 120_000);

  it("shows the required points the submission got, as Classroom's reporter sums them", () => {
    expect(run.status, run.stderr).toBe(1);
    // The step output `result`, read as the reporter reads KAFKA_RESULTS for runner "kafka".
    const runner = decodeRunner({ KAFKA_RESULTS: outputs.get("result") ?? "" }, "kafka");
    const sum = notifyClassroom([runner]);
    expect(sum.maxPoints).toBe(results.maxScore);
    expect(sum.totalPoints).toBe(results.score);
    expect(sum.totalPoints).toBeGreaterThan(0);
    expect(sum.totalPoints).toBeLessThan(sum.maxPoints);
    // Classroom's points are the grading's total under the default policy (bonus): a required
    // case failed, so the extension case adds nothing.
    expect([sum.totalPoints, sum.maxPoints]).toEqual([results.total, results.maxTotal]);
    // One test per required case, then one for the extension cases, scoring what they add.
    expect(runner.tests.map((t) => t.name.split(":")[0])).toEqual([
      ...results.cases.filter((c) => c.required).map((c) => c.id),
      "extension cases",
    ]);
    expect(runner.tests).toHaveLength(3);
    expect(runner.tests[2]?.score).toBe(0);
    // The notices the step printed are the ones the reporter would write: Classroom reads those.
    const notices = parseAnnotations(run.stdout).filter((a) => a.kind === "notice");
    expect(notices.map((a) => `::notice title=${a.title}::${a.message}`)).toEqual(sum.notices);
    expect(reporterFails([runner])).toBe(true);
  });
});

describe("programs that do not build or crash", () => {
  const submission = (name: string) => join(ROOT, "test", "submissions", name);

  it("a build error: exercism status error with the build errors, junit <error type=build-error>", async () => {
    const run = graded("import-answers");
    expect(run.status).toBe(1);
    await expectCommonShape(run);
    expect(run.exercism.status).toBe("error");
    expect(run.exercism.message).toMatch(
      /^The submission did not build, so no case ran:\n.*outside the submission/,
    );
    const t = (parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite).testcase[0];
    expect(t?.error?.type).toBe("build-error");
    expect(run.gradescope.output).toMatch(/^The submission did not build, so no case ran:/);
  });

  it("a crash: junit <error type=crash>, exercism output is the end of standard error", async () => {
    const run = gradeAllFormats([submission("crash"), "--only", "07-idle-members"]);
    await expectCommonShape(run);
    const t = (parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite).testcase[0];
    expect(t?.error?.type).toBe("crash");
    expect(run.exercism.status).toBe("fail");
    expect(run.exercism.tests[0]?.status).toBe("error");
    expect(run.exercism.tests[0]?.output).toContain("TypeError: boom");
  });
});

describe("private cases and crafted text", () => {
  // A private folder and case whose names and text need escaping in every format.
  const folder = "odd%,:cases";
  const caseName = "01-a,b:c%d";
  const id = `${folder}/${caseName}`;
  const title = "Bell\u0007 & <tag> \"quoted\" 'single' lone\ud800 surrogate, astral 😀";
  const hint = "100% sure:\nline two, with a comma";
  let run: Run;
  let privateDir: string;
  beforeAll(() => {
    privateDir = join(mkdtempSync(join(tmpdir(), "kit-private-")), folder);
    const caseDir = join(privateDir, caseName);
    mkdirSync(caseDir, { recursive: true });
    const source = join(CASES_DIR, "06-uppercase-before-lowercase");
    cpSync(source, caseDir, { recursive: true });
    const meta = JSON.parse(readFileSync(join(source, "case.json"), "utf8")) as object;
    writeFileSync(join(caseDir, "case.json"), JSON.stringify({ ...meta, title, hint }));
    // Members in reverse order: no catalogued mistake, so the reports fall back to the hint.
    const dir = variantOfSolution([
      {
        file: "range-assignor.ts",
        search: "return a < b ? -1 : a > b ? 1 : 0;",
        replace: "return a < b ? 1 : a > b ? -1 : 0;",
      },
    ]);
    run = gradeAllFormats([dir, "--fixtures", privateDir, "--only", id]);
  });

  it("github: the student's log, annotations and summary leave the private case out, saying so", () => {
    expect(run.status, run.stderr).toBe(1);
    expect(parseAnnotations(run.stdout)).toEqual([]);
    for (const text of [run.stdout, run.summary]) {
      expect(text).not.toContain(folder);
      expect(text).not.toContain("Bell");
      expect(text).toContain(PRIVATE_CASES_LEFT_OUT);
    }
    // The scores count no case: the one graded is private.
    expect(run.stdout).toContain("Required:  0/0 points, 0 of 0 cases passed");
  });

  it("junit: well-formed, characters XML forbids stripped, the rest escaped and read back", async () => {
    const suite = parseJunit(run.junit).testsuites.testsuite[0] as JunitSuite;
    const t = suite.testcase[0];
    expect(t?.name).toBe(id);
    expect(t?.classname).toBe(`private.${folder}.required`);
    const body = t?.failure?.["#text"] ?? "";
    expect(body.split("\n")[0]).toBe("Bell & <tag> \"quoted\" 'single' lone surrogate, astral 😀");
    expect(body.split("\n")[1]).toBe(`wrong-output: ${run.results.cases[0]?.message}`);
    expect(run.junit.includes("\u0007")).toBe(false);
    await expectValidJunit(new Map([[id, run.junit]]));
  });

  it("gradescope: the private case is after_published and its output shows no input or answer", () => {
    const t = run.gradescope.tests[0];
    expect(t?.visibility).toBe("after_published");
    expect(t?.tags).toEqual(["required", "private"]);
    expect(t?.output).toBe(
      `wrong-output: ${run.results.cases[0]?.message}\nhint: ${hint}\nread: LESSON.md#member-order`,
    );
  });

  it("exercism: the private case is left out (Exercism shows every test to the student)", () => {
    expect(run.exercism.tests).toEqual([]);
    expect(run.exercism.status).toBe("pass");
    expectExercism(run.exercism);
  });
});

describe("--format junit-files", () => {
  // Relative to where the grader was run (INIT_CWD, not the process's folder, which npm sets to
  // the kit's root): from a subfolder the path climbs out of it. The paths from the kit's root
  // and the document's other attributes are test/unit/junit-schemas.test.ts's, in process.
  const ids = ["01-lesson-7-partitions-3-members", "31-static-members-first"];

  it("names each case's case.json relative to where the grader was run, a file that exists", () => {
    const from = join(ROOT, "solution");
    const file = join(mkdtempSync(join(tmpdir(), "kit-junit-files-")), "junit.xml");
    const run = grade([...ids.flatMap((id) => ["--only", id]), "--format", `junit-files=${file}`], {
      INIT_CWD: from,
    });
    expect(run.status, run.stderr).toBe(1);
    const cases = (parseJunit(readFileSync(file, "utf8")).testsuites.testsuite[0] as JunitSuite)
      .testcase;
    expect(cases.map((t) => t.file)).toEqual(ids.map((id) => `../fixtures/cases/${id}/case.json`));
    for (const t of cases) expect(existsSync(join(from, t.file ?? "")), t.file).toBe(true);
    expect(cases.map((t) => t.error?.type)).toEqual(["not-implemented", "not-implemented"]);
  });
});
