// The extension policy (--extension): each policy's total worked by hand, and the issue's
// submission (4 required cases failed, 54 of 61 required points; 30 of 43 extension points) as
// every format totals it under each policy. Built in process from the built-in cases judged by
// the grader's own judge() (test/helpers/results.ts); every expected figure is worked out here
// from the case points: required 61 = 33 cases, extension 43 = 38 cases (fixtures/cases/*/case.json).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ungradedResults } from "../../grader/batch/batch.ts";
import { gradebookCsv, type CaseInfo } from "../../grader/batch/gradebook.ts";
import { reportHtml } from "../../grader/batch/report-html.ts";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import type { GradingContext } from "../../grader/context.ts";
import { SetupError } from "../../grader/errors.ts";
import { BUILT_IN_CASES_DIR, KIT_ROOT } from "../../grader/kit.ts";
import { parseGradeArgs } from "../../grader/options.ts";
import { githubSummary } from "../../grader/report/actions.ts";
import { classroomResult } from "../../grader/report/classroom.ts";
import { exercismResults } from "../../grader/report/exercism.ts";
import { githubReporter } from "../../grader/report/github.ts";
import { gradescopeResults } from "../../grader/report/gradescope.ts";
import { jsonReporter, resultsJson } from "../../grader/report/json.ts";
import { junitXml } from "../../grader/report/junit.ts";
import { textReporter } from "../../grader/report/text.ts";
import { scoresOf, type GradeResults } from "../../grader/results.ts";
import {
  DEFAULT_EXTENSION_POLICY,
  extensionPolicyName,
  parseExtensionPolicy,
  policyTotal,
  type ExtensionPolicy,
} from "../../grader/totals.ts";
import { notifyClassroom } from "../helpers/classroom.ts";
import { parseJunit } from "../helpers/readers.ts";
import { gradeResults, judgedResult, rawRun, report, rightRun } from "../helpers/results.ts";

const IGNORE: ExtensionPolicy = { kind: "ignore" };
const BONUS: ExtensionPolicy = { kind: "bonus", cap: null };
const BONUS_5: ExtensionPolicy = { kind: "bonus", cap: 5 };
const COUNT: ExtensionPolicy = { kind: "count" };

describe("--extension POLICY", () => {
  it("reads ignore, bonus, bonus=N and count, and writes each back as given", () => {
    expect(parseExtensionPolicy("ignore")).toEqual(IGNORE);
    expect(parseExtensionPolicy("bonus")).toEqual(BONUS);
    expect(parseExtensionPolicy("bonus=5")).toEqual(BONUS_5);
    expect(parseExtensionPolicy("bonus=0")).toEqual({ kind: "bonus", cap: 0 });
    expect(parseExtensionPolicy("count")).toEqual(COUNT);
    for (const name of ["ignore", "bonus", "bonus=5", "bonus=0", "count"])
      expect(extensionPolicyName(parseExtensionPolicy(name))).toBe(name);
  });

  it.each([
    "",
    "Bonus",
    "extra",
    "bonus=",
    "bonus=-1",
    "bonus=1.5",
    "bonus=05",
    "count=3",
    "__proto__",
  ])("refuses %j, naming the spellings", (text) => {
    expect(() => parseExtensionPolicy(text)).toThrow(SetupError);
    expect(() => parseExtensionPolicy(text)).toThrow(
      `--extension takes ignore | bonus | bonus=N | count (N a whole number of points), got ${JSON.stringify(text)}`,
    );
  });

  it("is bonus by default, and goes with grading, watching and a batch, not a merge", () => {
    expect(DEFAULT_EXTENSION_POLICY).toEqual(BONUS);
    expect(parseGradeArgs(["solution"]).extension).toEqual(BONUS);
    expect(parseGradeArgs(["solution", "--extension", "bonus=5"]).extension).toEqual(BONUS_5);
    expect(parseGradeArgs(["--watch", "--extension", "count"]).extension).toEqual(COUNT);
    expect(
      parseGradeArgs(["--batch", "class", "--report-dir", "out", "--extension", "ignore"])
        .extension,
    ).toEqual(IGNORE);
    expect(() =>
      parseGradeArgs(["--merge", "a", "b", "--report-dir", "out", "--extension", "count"]),
    ).toThrow("--extension does not go with --merge");
    expect(() => parseGradeArgs(["solution", "--extension", "all"])).toThrow(
      '--extension takes ignore | bonus | bonus=N | count (N a whole number of points), got "all"',
    );
  });
});

describe("each policy's total, worked by hand", () => {
  // The issue's submission: 54/61 required (a required case failed), 23/28 extension.
  const failing = { score: 54, maxScore: 61, extensionScore: 23, extensionMaxScore: 28 };
  // The same extension work with every required case passed.
  const complete = { score: 61, maxScore: 61, extensionScore: 23, extensionMaxScore: 28 };

  it.each([
    ["ignore", IGNORE, [54, 61], [61, 61]],
    // Extension points wait for every required case: none for the failing submission.
    ["bonus", BONUS, [54, 61], [61 + 23, 61]],
    ["bonus=5", BONUS_5, [54, 61], [61 + 5, 61]],
    ["count", COUNT, [54 + 23, 61 + 28], [61 + 23, 61 + 28]],
  ] as const)("%s", (_, policy, whenFailing, whenComplete) => {
    const total = (scores: typeof failing, all: boolean) => {
      const t = policyTotal(policy, scores, all);
      return [t.points, t.maxPoints];
    };
    expect(total(failing, false)).toEqual(whenFailing);
    expect(total(complete, true)).toEqual(whenComplete);
  });

  it("bonus=N below the extension earned adds N; above it, what was earned", () => {
    expect(policyTotal({ kind: "bonus", cap: 30 }, complete, true).points).toBe(61 + 23);
    expect(policyTotal({ kind: "bonus", cap: 0 }, complete, true).points).toBe(61);
  });

  it("under the default, whenever a required case fails, the total is the required score (any cases)", () => {
    const arbitraryCase = fc.record({
      required: fc.boolean(),
      passed: fc.boolean(),
      maxPoints: fc.integer({ min: 1, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryCase, { maxLength: 20 }), (drawn) => {
        const cases = drawn.map((c) => ({
          required: c.required,
          status: c.passed ? ("pass" as const) : ("fail" as const),
          points: c.passed ? c.maxPoints : 0,
          maxPoints: c.maxPoints,
        }));
        const scores = scoresOf(cases, DEFAULT_EXTENSION_POLICY);
        if (cases.some((c) => c.required && c.status !== "pass"))
          expect(scores.total).toEqual({ points: scores.score, maxPoints: scores.maxScore });
        else expect(scores.total.points).toBe(scores.score + scores.extensionScore);
      }),
      { numRuns: 200, seed: 27 },
    );
  });
});

/** The built-in cases, loaded once. */
const CASES = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas());
const INFOS: CaseInfo[] = CASES.map((c) => ({
  id: c.id,
  title: c.title,
  required: c.required,
  maxPoints: c.points,
}));
const KIT = { version: "1.0.0", fixtures: "0123456789abcdef" };

/** A JUnit report's suite property `name`, as a reader parses the document. */
function junitProperty(r: GradeResults, name: string): string | undefined {
  const suite = parseJunit(junitXml(r, { timestamp: new Date(0) })).testsuites
    .testsuite[0] as unknown as { properties: { property: { name: string; value: string }[] } };
  return suite.properties.property.find((p) => p.name === name)?.value;
}

/**
 * Required cases the submission fails: 3 + 2 + 1 + 1 = 7 of the 61 points, so 54/61; and
 * extension cases: 3 + 2 + 1 + 1 = 7, and the six sync cases (not done), 1 each = 6: 13 of the
 * 43, so 30/43; 10 of the 38 extension cases fail, 28 pass.
 */
const FAILED = new Set([
  "18-large-group",
  "03-per-topic-skew",
  "09-topic-nobody-subscribed",
  "10-zero-partition-topic",
  "33-large-static-group",
  "31-static-members-first",
  "64-rack-topic-own-member-racks",
  "65-rack-exact-names-co-partitioned-members",
  "66-sync-lesson-7-partitions",
  "67-sync-idle-members",
  "68-sync-assignment-user-data",
  "69-sync-many-topics-utf8",
  "70-sync-static-members-kafka-bytes",
  "71-sync-after-rack-pass",
]);

/** The issue's submission graded under `policy`: an empty answer on FAILED, Kafka's elsewhere. */
function issueSubmission(policy: ExtensionPolicy): GradeResults {
  const results = CASES.map((c) =>
    judgedResult(c.id, FAILED.has(c.id) ? rawRun({ stdout: "{}\n" }) : rightRun(c), "alice"),
  );
  return gradeResults("alice", results, null, policy);
}

/** The total each format shows, as text `points/max` (Exercism: its status; it has no points). */
function formatTotals(r: GradeResults): Record<string, string> {
  const text = report(textReporter, r);
  const json = JSON.parse(report(jsonReporter, r)) as { total: number; maxTotal: number };
  const csv = gradebookCsv([resultsJson(r)], INFOS).split("\n");
  const header = csv[0]?.split(",") ?? [];
  const row = csv[1]?.split(",") ?? [];
  const cell = (name: string) => row[header.indexOf(name)];
  const html = reportHtml([resultsJson(r)], INFOS, KIT);
  const classroom = notifyClassroom([classroomResult(r)]);
  const github = report(githubReporter, r);
  return {
    text: /^Total: {5}(\d+\/\d+) points; /m.exec(text)?.[1] ?? "none",
    json: `${json.total}/${json.maxTotal}`,
    junit: junitProperty(r, "total") ?? "none",
    gradebook: `${cell("total")}/${cell("total_max")}`,
    html: /, total (\d+\/\d+)<\/summary>/.exec(html)?.[1] ?? "none",
    gradescope: String(gradescopeResults(r).score),
    classroom: `${classroom.totalPoints}/${classroom.maxPoints}`,
    github: /^Total: {5}(\d+\/\d+) points; /m.exec(github)?.[1] ?? "none",
    summary: /^- Total: {5}(\d+\/\d+) points; /m.exec(githubSummary(r))?.[1] ?? "none",
    exercism: exercismResults(r).status,
  };
}

describe("the issue's submission (54/61 required, 30/43 extension), in every format", () => {
  const byPolicy = new Map(
    [IGNORE, BONUS, BONUS_5, COUNT].map((p) => [extensionPolicyName(p), issueSubmission(p)]),
  );

  it("scores 54/61 required and 30/43 extension, 4 required cases failed", () => {
    const r = byPolicy.get("bonus") as GradeResults;
    expect([r.score, r.maxScore, r.extensionScore, r.extensionMaxScore]).toEqual([54, 61, 30, 43]);
    expect(r.cases.filter((c) => c.required && c.status !== "pass")).toHaveLength(4);
    expect(r.cases.filter((c) => !c.required && c.status !== "pass")).toHaveLength(10);
  });

  it.each([
    // Under the default and the other non-counting policies, never more than the required share.
    ["ignore", "54/61", "54"],
    ["bonus", "54/61", "54"],
    ["bonus=5", "54/61", "54"],
    ["count", "84/104", "84"],
  ])("--extension %s: every format totals %s", (policy, total, gradescope) => {
    expect(formatTotals(byPolicy.get(policy) as GradeResults)).toEqual({
      text: total,
      json: total,
      junit: total,
      gradebook: total,
      html: total,
      gradescope,
      classroom: total,
      github: total,
      summary: total,
      exercism: "fail",
    });
  });

  it("names the policy in the results file, JUnit, the gradebook, the class report and the text", () => {
    const r = byPolicy.get("bonus=5") as GradeResults;
    expect(resultsJson(r)).toMatchObject({ total: 54, maxTotal: 61, extensionPolicy: "bonus=5" });
    expect(junitProperty(r, "extensionPolicy")).toBe("bonus=5");
    expect(gradebookCsv([resultsJson(r)], INFOS).split("\n")[1]).toMatch(
      /^alice,54,61,30,43,54,61,bonus=5,/,
    );
    const html = reportHtml([resultsJson(r)], INFOS, KIT);
    expect(html).toContain(
      "<th>Required</th><th>Extension</th><th>Total</th><th>Cases passed</th>",
    );
    expect(html).toContain(
      '<td class="num">54/61</td><td class="num">30/43</td><td class="num">54/61</td>',
    );
    expect(html).toContain(
      "(bonus=5: at most 5 extension points, added once every required case passes).</p>",
    );
    expect(report(textReporter, r)).toContain(
      "\nTotal:     54/61 points; extension policy bonus=5: at most 5 extension points, added once every required case passes\n",
    );
  });

  it("results files with the total match grader/results.schema.json", () => {
    const validate = new Ajv({ allErrors: true, strict: true }).compile(
      JSON.parse(readFileSync(join(KIT_ROOT, "grader", "results.schema.json"), "utf8")) as object,
    );
    for (const r of byPolicy.values()) {
      expect(validate(JSON.parse(report(jsonReporter, r))), JSON.stringify(validate.errors)).toBe(
        true,
      );
    }
    expect(validate({ ...resultsJson(BONUS_RESULTS()), extensionPolicy: "extra" })).toBe(false);
  });

  it("Gradescope's file has the top-level score, so Gradescope does not add the tests up", () => {
    const doc = gradescopeResults(byPolicy.get("bonus") as GradeResults);
    // The tests still add up to 54 + 30: the top-level score is what Gradescope shows instead.
    expect(doc.tests.reduce((sum, t) => sum + t.score, 0)).toBe(84);
    expect(Object.keys(doc)[0]).toBe("score");
    expect(doc.score).toBe(54);
  });

  it("Classroom's points: the required tests, and one for the extension cases adding the policy's share", () => {
    const tests = (policy: string) =>
      classroomResult(byPolicy.get(policy) as GradeResults).tests.filter(
        (t) => t.name === "extension cases",
      );
    expect(tests("bonus").map((t) => [t.status, t.score])).toEqual([["fail", 0]]);
    expect(tests("count").map((t) => [t.status, t.score])).toEqual([["fail", 30]]);
    expect(tests("ignore")[0]?.message).toBe(
      "28 of 38 extension cases passed, 30/43 points; extension policy ignore: extension points are not counted",
    );
    // A failing required case fails the runner; the extension cases never do.
    expect(classroomResult(byPolicy.get("count") as GradeResults).status).toBe("fail");
  });
});

/** The issue's submission's extension work with every required case passed, under `bonus`. */
function BONUS_RESULTS(policy: ExtensionPolicy = BONUS): GradeResults {
  const results = CASES.map((c) =>
    judgedResult(
      c.id,
      FAILED.has(c.id) && !c.required ? rawRun({ stdout: "{}\n" }) : rightRun(c),
      "alice",
    ),
  );
  return gradeResults("alice", results, null, policy);
}

describe("every required case passed, 30/43 extension", () => {
  it.each([
    ["ignore", "61/61", IGNORE, "61"],
    ["bonus", "91/61", BONUS, "91"],
    ["bonus=5", "66/61", BONUS_5, "66"],
    ["count", "91/104", COUNT, "91"],
  ] as const)("--extension %s: every format totals %s", (_, total, policy, gradescope) => {
    const r = BONUS_RESULTS(policy);
    expect([r.score, r.maxScore, r.extensionScore, r.extensionMaxScore]).toEqual([61, 61, 30, 43]);
    expect(formatTotals(r)).toEqual({
      text: total,
      json: total,
      junit: total,
      gradebook: total,
      html: total,
      gradescope,
      classroom: total,
      github: total,
      summary: total,
      // Exercism's status is "every test passed" (its interface); ten extension cases did not.
      exercism: "fail",
    });
    expect(classroomResult(r).status).toBe("pass");
  });
});

describe("a batch's folder that could not be graded", () => {
  it("totals 0 out of the policy's maximum", () => {
    const context = (extension: ExtensionPolicy) =>
      ({ cases: CASES, kit: KIT, extension }) as unknown as GradingContext;
    const bonus = ungradedResults("x", context(BONUS), "not-a-submission", "not a submission");
    expect([bonus.total, bonus.maxTotal, bonus.extensionPolicy]).toEqual([0, 61, "bonus"]);
    const count = ungradedResults("x", context(COUNT), "not-a-submission", "not a submission");
    expect([count.total, count.maxTotal, count.extensionPolicy]).toEqual([0, 104, "count"]);
  });
});
