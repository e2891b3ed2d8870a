// Every reporter as the pure function it is: one set of results, built in process from
// constructed runs judged by the grader's own judge() (test/helpers/results.ts), formatted by each
// --format, with the values worked out by hand from the cases and the runs. The e2e tier
// (test/e2e/formats.test.ts) checks the same formats on real gradings against their published
// shapes; this file pins what each one says about each kind of result.
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classroomReporter } from "../../grader/report/classroom.ts";
import {
  exercismOutput,
  exercismReporter,
  type ExercismResults,
} from "../../grader/report/exercism.ts";
import { githubAnnotations, githubSummary } from "../../grader/report/actions.ts";
import { gradescopeResults } from "../../grader/report/gradescope.ts";
import { jsonReporter, resultsJson } from "../../grader/report/json.ts";
import {
  gradebookCsv,
  mainMistake,
  namedMistakes,
  type CaseInfo,
} from "../../grader/batch/gradebook.ts";
import { mistakeCounts } from "../../grader/batch/report-html.ts";
import { junitXml } from "../../grader/report/junit.ts";
import { MemorySink } from "../../grader/report/reporter.ts";
import { textReporter } from "../../grader/report/text.ts";
import { watchReport } from "../../grader/watch.ts";
import { passed, everyRequiredPassed, type GradeResults } from "../../grader/results.ts";
import { parseJunit, type JunitSuite } from "../helpers/readers.ts";
import { decodeRunner, notifyClassroom, reporterFails, stepOutputs } from "../helpers/classroom.ts";
import {
  buildFailure,
  FIXTURES_STAMP,
  gradeResults,
  judgedResult,
  rawRun,
  report,
  VISIBLE_STAMP,
} from "../helpers/results.ts";

const LESSON_7_3 = "01-lesson-7-partitions-3-members";
const TRUNCATED = "25-error-truncated-topic-string";
const STATIC_FIRST = "31-static-members-first";
const SKEW = "03-per-topic-skew";

const right = JSON.stringify({
  "consumer-a": { orders: [0, 1, 2] },
  "consumer-b": { orders: [3, 4] },
  "consumer-c": { orders: [5, 6] },
});
/** Four cases: a pass, a wrong answer with a named mistake, a crash, an extension stub. */
function results() {
  return gradeResults("alice", [
    judgedResult(LESSON_7_3, rawRun({ stdout: right }), "alice"),
    judgedResult(SKEW, rawRun({ stdout: "{}" }), "alice", ["global-assignment"]),
    judgedResult(
      TRUNCATED,
      rawRun({
        exitCode: 1,
        stderr: "TypeError: Cannot read properties of undefined (reading 'length')\n    at f",
      }),
      "alice",
    ),
    judgedResult(
      STATIC_FIRST,
      rawRun({
        exitCode: 3,
        stderr:
          "not implemented yet: assignRange (src/range-assignor.ts), see LESSON.md#the-range-assignor\n",
      }),
      "alice",
    ),
  ]);
}

describe("the results every reporter formats", () => {
  it("score the cases as worked by hand: 2 of 2 + 2 + 2 required points, 0 of 2 extension", () => {
    const r = results();
    expect(r.cases.map((c) => [c.id, c.status, c.reason, c.points, c.maxPoints])).toEqual([
      [LESSON_7_3, "pass", null, 2, 2],
      [SKEW, "fail", "wrong-output", 0, 2],
      [TRUNCATED, "error", "crash", 0, 2],
      [STATIC_FIRST, "error", "not-implemented", 0, 2],
    ]);
    expect([r.score, r.maxScore, r.extensionScore, r.extensionMaxScore]).toEqual([2, 6, 0, 2]);
    expect(r.cases.map((c) => passed(c))).toEqual([true, false, false, false]);
    expect(everyRequiredPassed(r.cases)).toBe(false);
    expect(everyRequiredPassed(r.cases.filter((c) => c.id !== SKEW && c.id !== TRUNCATED))).toBe(
      true,
    );
    // The explanation is data, built once: none for a pass, advice alone for a stub.
    expect(r.cases[0]?.explanation).toBeNull();
    expect(r.cases[3]?.explanation?.details).toBeNull();
    expect(r.cases[1]?.explanation?.advice).toMatchObject({
      kind: "mistakes",
      mistakes: [{ id: "global-assignment", lesson: "topics-are-independent-the-skew" }],
    });
  });
});

describe("text, written live", () => {
  /** The text report of one case written with `live` names, then ended with `final` ones. */
  function liveThenFinal(live: string[], final: string[]): string {
    const run = rawRun({ stdout: '{"c-1":{"a":[0,1,2]},"c-2":{}}\n' });
    const first = judgedResult(SKEW, run, "alice", live);
    const memory = new MemorySink();
    const reporter = textReporter(memory);
    reporter.onRunStart?.({ submission: "alice", cases: [first], kit: results().kit });
    reporter.onCaseResult?.(first);
    reporter.onRunEnd?.(gradeResults("alice", [judgedResult(SKEW, run, "alice", final)]));
    return memory.text();
  }
  /** The case's hint and lesson section, from its case.json. */
  const HINT = [
    "      hint: Run the range computation for each topic on its own; never pool the partitions of all topics.",
    "      read: LESSON.md#topics-are-independent-the-skew",
  ];
  const POINTER = "      (if a likely mistake holds up against every case, it is named at the end)";
  const RERUN = `      rerun: npm run grade -- alice --only ${SKEW}`;

  it("a case line names no mistake; the end gives each name that stands as the line would have", () => {
    const text = liveThenFinal(["global-assignment", "numeric-order"], ["global-assignment"]);
    const [caseLines = "", end = ""] = text.split("\nChecked against every case");
    expect(caseLines).toContain([...HINT, POINTER, RERUN].join("\n"));
    expect(caseLines).not.toMatch(/global-assignment|numeric-order|This looks like/);
    expect(end).toBe(
      [
        ", these mistakes stand:",
        "  03-per-topic-skew: Topics are independent: 3 topics x 3 partitions, 2 members",
        "      This looks like: one assignment across all topics (global-assignment).",
        "      Your program seems to pool the partitions of every topic and split them once. The range assignor works topic by topic: for each topic, only that topic's subscribers, in member order, share its partitions.",
        "      Read LESSON.md#topics-are-independent-the-skew",
        "",
        "Required:  0/2 points, 0 of 1 case passed",
        "Extension: 0/0 points, 0 of 0 cases passed",
        "Total:     0/2 points; extension policy bonus: extension points added once every required case passes",
        "",
      ].join("\n"),
    );
  });

  it("a name the check against every case withdraws is shown nowhere", () => {
    const text = liveThenFinal(["global-assignment"], []);
    expect(text).toContain([...HINT, POINTER, RERUN].join("\n"));
    expect(text).not.toMatch(/global-assignment|This looks like|Checked against/);
  });

  it("a case whose outcome names no mistake: its hint, and no pointer to the end", () => {
    const text = liveThenFinal([], []);
    expect(text).toContain([...HINT, RERUN].join("\n"));
    expect(text).not.toMatch(/named at the end|Checked against/);
  });

  it("watch mode, shown once every case has run, names the confirmed mistake on its case", () => {
    const run = rawRun({ stdout: '{"c-1":{"a":[0,1,2]},"c-2":{}}\n' });
    const shown = watchReport(
      gradeResults("alice", [judgedResult(SKEW, run, "alice", ["global-assignment"])]),
      false,
      "src/",
    );
    expect(shown).toContain(
      [
        "      This looks like: one assignment across all topics (global-assignment).",
        "      Your program seems to pool the partitions of every topic and split them once. The range assignor works topic by topic: for each topic, only that topic's subscribers, in member order, share its partitions.",
        "      Read LESSON.md#topics-are-independent-the-skew",
        RERUN,
      ].join("\n"),
    );
    expect(shown).not.toMatch(/named at the end|Checked against|hint:/);
  });

  it("a private case's line shows no names, and the end shows none either", () => {
    const named = judgedResult(SKEW, rawRun({ stdout: "{}" }), "alice", ["global-assignment"]);
    if (named.explanation === null) throw new Error("a failed case has an explanation");
    // A private case's explanation has no details (explain.ts): its line is one line.
    const secret = {
      ...named,
      private: true,
      explanation: { ...named.explanation, details: null },
    };
    const text = report(textReporter, gradeResults("alice", [secret]));
    expect(secret.mistakes).toEqual(["global-assignment"]);
    expect(text).toContain(`✗ ${SKEW}`);
    expect(text).not.toMatch(/global-assignment|named at the end|Checked against/);
  });
});

describe("text", () => {
  const text = report(textReporter, results());
  const lines = text.split("\n");

  it("one line per case: mark, id, points, and why it did not pass", () => {
    const caseLines = lines.filter((l) => /^[✓✗⧗-] /.test(l));
    expect(caseLines).toHaveLength(4);
    expect(caseLines[0]).toMatch(new RegExp(`^✓ ${LESSON_7_3} +2/2$`));
    expect(caseLines[1]).toMatch(new RegExp(`^✗ ${SKEW} +0/2 {2}wrong-output: `));
    expect(caseLines[2]).toMatch(new RegExp(`^✗ ${TRUNCATED} +0/2 {2}crash: `));
    expect(caseLines[3]).toMatch(
      new RegExp(
        `^✗ ${STATIC_FIRST} +0/2 \\(extension\\) {2}not implemented yet: assignRange \\(src/range-assignor\\.ts\\)`,
      ),
    );
  });

  it("names the mistake with its lesson section, and ends with both scores and the total", () => {
    expect(text).toContain("(global-assignment)");
    expect(text).toContain("Read LESSON.md#topics-are-independent-the-skew");
    expect(text).toContain(`rerun: npm run grade -- alice --only ${SKEW}`);
    // The crash: the end of standard error behind the gutter, not a stack of the grader's.
    expect(text).toContain("| TypeError: Cannot read properties of undefined (reading 'length')");
    expect(text).toMatch(/Required: {2}2\/6 points, 1 of 3 cases passed/);
    expect(text).toMatch(/Extension: 0\/2 points, 0 of 1 case passed/);
    expect(text).toMatch(/\nTotal: {5}2\/6 points; extension policy bonus: /);
    expect(text).not.toContain("\u001b[");
  });

  it("adds colour only when asked, and then only around the grader's own words", () => {
    const coloured = report(textReporter, results(), true);
    expect(coloured).toContain("\u001b[");
    expect(stripVTControlCharacters(coloured)).toBe(text);
  });
});

describe("json (the results file)", () => {
  const json = JSON.parse(report(jsonReporter, results())) as {
    score: number;
    cases: { id: string; status: string; mistake: string | null; mistakes: string[] }[];
  };
  it("carries the scores and every case's verdict and mistakes", () => {
    expect(json.score).toBe(2);
    expect(json.cases.map((c) => [c.id, c.status, c.mistake, c.mistakes])).toEqual([
      [LESSON_7_3, "pass", null, []],
      [SKEW, "fail", "global-assignment", ["global-assignment"]],
      [TRUNCATED, "error", null, []],
      [STATIC_FIRST, "error", null, []],
    ]);
  });
});

describe("junit", () => {
  const suite = parseJunit(junitXml(results(), { timestamp: new Date(0) })).testsuites
    .testsuite[0] as JunitSuite;
  it("one testcase per case: a failure for a wrong answer, an error for a crash or a stub", () => {
    expect(suite.tests).toBe("4");
    expect(suite.failures).toBe("1");
    expect(suite.errors).toBe("2");
    expect(suite.testcase.map((t) => [t.name, t.classname])).toEqual([
      [LESSON_7_3, "cases.required"],
      [SKEW, "cases.required"],
      [TRUNCATED, "cases.required"],
      [STATIC_FIRST, "cases.extension"],
    ]);
    expect(suite.testcase[1]?.failure?.type).toBe("wrong-output");
    expect(suite.testcase[2]?.error?.type).toBe("crash");
    expect(suite.testcase[3]?.error?.type).toBe("not-implemented");
  });
});

describe("gradescope", () => {
  const g = gradescopeResults(results());
  it("a test per case with its points; extension cases tagged; the total left to Gradescope", () => {
    expect(g.tests.map((t) => [t.score, t.max_score, t.status, t.tags])).toEqual([
      [2, 2, "passed", ["required"]],
      [0, 2, "failed", ["required"]],
      [0, 2, "failed", ["required"]],
      [0, 2, "failed", ["extension"]],
    ]);
    expect(g.tests[1]?.output).toMatch(/^wrong-output: /);
    expect(g.tests[1]?.output).toContain("global-assignment");
  });

  it("declares the output, the tests' outputs and their names plain text", () => {
    // Gradescope's Autograder Specifications: "simple_format" (HTML with line breaks) is the
    // top-level default, "text" the tests' default; the kit's strings are plain text throughout.
    expect([g.output_format, g.test_output_format, g.test_name_format]).toEqual([
      "text",
      "text",
      "text",
    ]);
    expect(g.output.split("\n")).toEqual([
      "Kit 1.0.0, case set 0123456789abcdef.",
      "Required:  2/6 points, 1 of 3 cases passed",
      "Extension: 0/2 points, 0 of 1 case passed",
      "Total:     2/6 points; extension policy bonus: extension points added once every required case passes",
    ]);
  });

  /** A pass of the lesson's case, public and as a private case `secret/...`, a crash, a stub. */
  function withPrivate() {
    const pass = judgedResult(LESSON_7_3, rawRun({ stdout: right }), "alice");
    const id = `secret/${LESSON_7_3}`;
    const secret = {
      ...pass,
      id,
      name: `${id}: ${pass.title}`,
      private: true,
      folder: "secret",
      caseFile: null,
      decodeOnly: false,
      rerun: `npm run grade -- alice --fixtures secret --only ${id}`,
      example: null,
    };
    const [, , crash, stub] = results().cases;
    if (crash === undefined || stub === undefined) throw new Error("results() has four cases");
    return gradeResults("alice", [pass, secret, crash, stub]);
  }

  it("while private cases are hidden, the output's total leaves them out and says when they show", () => {
    // Gradescope hides the total while a test is hidden; the output must not give it away.
    const doc = gradescopeResults(withPrivate());
    expect(doc.output.split("\n")).toEqual([
      // The stamp of the visible cases: the whole set's hashes the private cases' files too.
      `Kit 1.0.0, case set ${VISIBLE_STAMP}.`,
      "Required:  2/4 points, 1 of 2 cases passed (the cases shown now)",
      "Extension: 0/2 points, 0 of 1 case passed (the cases shown now)",
      "Total:     2/4 points; extension policy bonus: extension points added once every required case passes (the cases shown now)",
      "Private cases: 1 (2 required points, 0 extension points), not counted above, shown when the grades are published.",
    ]);
    expect(doc.tests.map((t) => [t.name.split(":")[0], t.visibility, t.tags])).toEqual([
      [LESSON_7_3, "visible", ["required"]],
      [`secret/${LESSON_7_3}`, "after_published", ["required", "private"]],
      [TRUNCATED, "visible", ["required"]],
      [STATIC_FIRST, "visible", ["extension"]],
    ]);
    expect(gradescopeResults(withPrivate(), "after_due_date").output).toContain(
      "not counted above, shown after the due date.",
    );
    expect(gradescopeResults(withPrivate(), "hidden").output).toContain(
      "not counted above, not shown to students.",
    );
  });

  it("with private cases visible, the output counts every case", () => {
    expect(gradescopeResults(withPrivate(), "visible").output.split("\n")).toEqual([
      `Kit 1.0.0, case set ${FIXTURES_STAMP}.`,
      "Required:  4/6 points, 2 of 3 cases passed",
      "Extension: 0/2 points, 0 of 1 case passed",
      "Total:     4/6 points; extension policy bonus: extension points added once every required case passes",
    ]);
  });
});

describe("exercism", () => {
  const e = JSON.parse(report(exercismReporter, results())) as ExercismResults;
  it("status fail (it ran), a test per case, only the bad-bytes case linked to a task", () => {
    expect(e.status).toBe("fail");
    expect(e.tests.map((t) => t.status)).toEqual(["pass", "fail", "error", "error"]);
    // 25 is decided by decodeSubscription alone (task 1); 01, 03 and 31 need both functions.
    expect(e.tests.map((t) => t.task_id)).toEqual([undefined, undefined, 1, undefined]);
    expect(e.tests.map((t) => "task_id" in t)).toEqual([false, false, true, false]);
    expect(e.tests[2]?.output).toContain("TypeError: Cannot read properties of undefined");
  });

  it("output: at most 500 characters; a longer one says it was truncated and keeps its end", () => {
    const exact = "a".repeat(499) + "b";
    expect(exercismOutput(`${exact}\n`)).toBe(exact);
    expect(exercismOutput(" \n")).toBeNull();
    const long = exercismOutput(`${"a".repeat(1000)}END`) ?? "";
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long.split("\n")[0]).toBe("Output was truncated. Please limit to 500 chars.");
    expect(long.endsWith("aaaEND")).toBe(true);
    // The second line counts what was left out: 1003 characters, of which the tail kept is
    // 500 - 49 (the notice and its line break) - the count's own words.
    const second = long.split("\n")[1] ?? "";
    const cut = /^\((\d+) earlier characters\) …/.exec(second);
    expect(cut).not.toBeNull();
    expect(Number(cut?.[1]) + second.length - (cut?.[0].length ?? 0)).toBe(1003);
  });
});

describe("classroom", () => {
  /** The reporter's output and the step outputs it appended to a fresh GITHUB_OUTPUT file. */
  function classroomRun(graded: GradeResults) {
    const outputFile = join(mkdtempSync(join(tmpdir(), "kit-classroom-")), "output");
    writeFileSync(outputFile, "earlier=1\n");
    const text = report((sink) => classroomReporter(sink, { GITHUB_OUTPUT: outputFile }), graded);
    const outputs = stepOutputs(readFileSync(outputFile, "utf8"));
    return {
      text,
      outputs,
      runner: decodeRunner({ KAFKA_RESULTS: outputs.get("result") ?? "" }, "kafka"),
    };
  }

  it("points per case: 2 of the 6 required points, as Classroom's reporter sums them", () => {
    // Required: 01 passes (2 points), 03 fails and 25 crashes (2 each); 31 is an extension case.
    const { text, outputs, runner } = classroomRun(results());
    expect(outputs.get("earlier")).toBe("1");
    expect(runner.max_score).toBe(6);
    expect(runner.tests.map((t) => [t.name.split(":")[0], t.status, t.score])).toEqual([
      [LESSON_7_3, "pass", 2],
      [SKEW, "fail", 0],
      [TRUNCATED, "error", 0],
      // The extension case's test: the stub fails, and adds nothing to the total.
      ["extension cases", "fail", 0],
    ]);
    const sum = notifyClassroom([runner]);
    expect([sum.totalPoints, sum.maxPoints]).toEqual([2, 6]);
    expect(sum.notices).toEqual([
      "::notice title=Autograding complete::Points 2/6",
      '::notice title=Autograding report::{"totalPoints":2,"maxPoints":6}',
    ]);
    // The notices end the step's output, after the github format's annotations and scores.
    const lines = text.trimEnd().split("\n");
    expect(lines.slice(-2)).toEqual(sum.notices);
    expect(lines.filter((l) => l.startsWith("::notice")).length).toBe(2);
    expect(text).toMatch(/^::warning title=31-static-members-first/m);
    expect(reporterFails([runner])).toBe(true);
  });

  it("full marks pass; a build error is the runner's error with 0 points", () => {
    const full = classroomRun(
      gradeResults("alice", [judgedResult(LESSON_7_3, rawRun({ stdout: right }), "alice")]),
    );
    expect(full.runner.status).toBe("pass");
    expect(notifyClassroom([full.runner]).notices[0]).toBe(
      "::notice title=Autograding complete::Points 2/2",
    );
    expect(reporterFails([full.runner])).toBe(false);
    const unbuilt = classroomRun(buildFailure("alice", [LESSON_7_3, SKEW], ["src/x.ts: boom"]));
    expect(unbuilt.runner.status).toBe("error");
    expect(unbuilt.runner.tests.map((t) => t.score)).toEqual([0, 0]);
    expect(notifyClassroom([unbuilt.runner]).notices[0]).toBe(
      "::notice title=Autograding complete::Points 0/4",
    );
  });
});

describe("github", () => {
  const r = results();
  it("an error per failed required case, a warning per extension case", () => {
    const annotations = githubAnnotations(r);
    expect(annotations).toHaveLength(3);
    expect(annotations[0]).toMatch(new RegExp(`^::error title=${SKEW} \\(0/2\\)::wrong-output: `));
    expect(annotations[1]).toMatch(new RegExp(`^::error title=${TRUNCATED} \\(0/2\\)::crash: `));
    expect(annotations[2]).toMatch(
      // A comma in a property is %2C (workflow-command escaping); newlines in data are %0A.
      new RegExp(`^::warning title=${STATIC_FIRST} \\(0/2%2C extension\\)::not implemented yet`),
    );
  });

  it("a job summary with the scores and a row per case", () => {
    const summary = githubSummary(r);
    expect(summary).toContain("## Grading alice: 2/6 required points");
    const rows = summary.split("\n").filter((l) => /^\| (✅|❌|⚠️) \|/.test(l));
    expect(rows.map((l) => l.split(" | ")[1]?.split(":")[0])).toEqual([
      LESSON_7_3,
      SKEW,
      TRUNCATED,
      `${STATIC_FIRST} (extension)`,
    ]);
  });
});

describe("the class's mistakes: gradebook, chart and tables read one list", () => {
  const wrong = rawRun({ stdout: "{}" });
  // Weights: global-assignment 1 + 1/2, arrival-order 1/2 + 1/2, round-robin 1/2.
  const submission = resultsJson(
    gradeResults("bob", [
      judgedResult(LESSON_7_3, wrong, "bob", ["arrival-order", "round-robin"]),
      judgedResult(SKEW, wrong, "bob", ["global-assignment"]),
      judgedResult(STATIC_FIRST, wrong, "bob", ["global-assignment", "arrival-order"]),
    ]),
  );
  const cases: CaseInfo[] = submission.cases.map((c) => ({
    id: c.id,
    title: c.title,
    required: c.required,
    maxPoints: c.maxPoints,
  }));

  it("orders the named mistakes by the share of failed cases each explains, ties in case order", () => {
    expect(namedMistakes(submission)).toEqual([
      "global-assignment",
      "arrival-order",
      "round-robin",
    ]);
    expect(mainMistake(submission)).toBe("global-assignment");
  });

  it("gradebook.csv has the main mistake and every named one; the chart counts each once", () => {
    const [header, row] = gradebookCsv([submission], cases).trim().split("\n");
    expect(header?.split(",").slice(-3)).toEqual(["main_mistake", "mistakes", "not_graded"]);
    expect(row?.split(",").slice(-3)).toEqual([
      "global-assignment",
      "global-assignment arrival-order round-robin",
      "",
    ]);
    const counts = mistakeCounts([submission, submission]);
    // In catalogue order.
    expect([...counts].filter(([, n]) => n > 0)).toEqual([
      ["global-assignment", 2],
      ["arrival-order", 2],
      ["round-robin", 2],
    ]);
  });
});
