// The default JUnit report (--format junit) against the two schemas its readers' files are held to,
// validated by libxml2's xmllint compiled to WebAssembly (xmllint-wasm, in process): Apache
// Ant's JUnit XSD (windyroad/JUnit-Schema's JUnit.xsd, the shape GitLab documents) and the Jenkins
// xunit plugin's junit-10.xsd, kept in test/junit-xsd/. Results are built in
// process from constructed runs (helpers/results.ts) for every kind of report: passing, failing,
// erroring (crash, stub, time-out, build error), skipped, private, and names and text that need
// escaping. --format junit-files, which adds `file` (allowed by neither XSD), is checked to be
// rejected by both, and exactly for that attribute.
import { describe, expect, it, vi } from "vitest";
import { junitReporter, junitXml } from "../../grader/report/junit.ts";
import { MemorySink } from "../../grader/report/reporter.ts";
import type { CaseResult, GradeResults } from "../../grader/results.ts";
import { ROOT } from "../helpers/program.ts";
import { parseJunit, type JunitSuite } from "../helpers/readers.ts";
import {
  buildFailure,
  builtInCase,
  gradeResults,
  judgedResult,
  privateCase,
  rawRun,
  skippedResult,
} from "../helpers/results.ts";
import { expectValidJunit, xsdProblems } from "../helpers/xmllint.ts";

const ONE = "01-lesson-7-partitions-3-members";
const TWO = "02-one-member-takes-all";
const SKEW = "03-per-topic-skew";
const UPPER = "06-uppercase-before-lowercase";
const STATIC_FIRST = "31-static-members-first";

/** The expected output of an assign case, as a program that passes prints it. */
function rightAnswer(id: string): string {
  const expected = builtInCase(id).expected;
  if (!("output" in expected)) throw new Error(`${id} expects an error`);
  return JSON.stringify(expected.output);
}

const pass = (id: string, submission: string) =>
  judgedResult(id, rawRun({ stdout: rightAnswer(id) }), submission);

// What a hostile program and its folder may hold: markup, entities, quotes, controls, bidi marks,
// a lone surrogate, a line separator; and an all-blank line (xs:token collapses whitespace).
const HOSTILE = `<x a="1"> & &amp; &#27; ]]> 'q' \u001b[2K\r✓ \u0000\u202e\u2028\ud800 \t`;
const HOSTILE_FOLDER = `odd%,:<&>"' cases\t`;

function hostileNamed(): GradeResults {
  const submission = `${HOSTILE}\n✓ second line`;
  const privateHostile = privateCase(SKEW, HOSTILE_FOLDER, `01 ${HOSTILE}`, {
    title: `Bell\u0007 ${HOSTILE}`,
    hint: `hint ${HOSTILE}`,
  });
  return gradeResults(submission, [
    judgedResult(ONE, rawRun({ stdout: `${HOSTILE}\n{` }), submission),
    judgedResult(UPPER, rawRun({ exitCode: 70, stderr: `${HOSTILE}\n${HOSTILE}` }), submission),
    judgedResult(privateHostile, rawRun({ stdout: "{}" }), submission),
    judgedResult(
      STATIC_FIRST,
      rawRun({ exitCode: 3, stderr: `not implemented yet: ${HOSTILE}` }),
      submission,
    ),
  ]);
}

/** One results set per kind of report, by label. */
const REPORTS = new Map<string, GradeResults>([
  ["passing", gradeResults("alice", [pass(ONE, "alice"), pass(TWO, "alice"), pass(SKEW, "alice")])],
  [
    "failing",
    gradeResults("bob", [
      pass(ONE, "bob"),
      judgedResult(SKEW, rawRun({ stdout: "{}" }), "bob", ["global-assignment"]),
    ]),
  ],
  [
    "erroring",
    gradeResults("carol", [
      judgedResult(
        ONE,
        rawRun({ exitCode: 1, stderr: "TypeError: x is undefined\n    at f" }),
        "carol",
      ),
      judgedResult(TWO, rawRun({ timedOut: true, exitCode: null, signal: "SIGKILL" }), "carol"),
      judgedResult(
        STATIC_FIRST,
        rawRun({ exitCode: 3, stderr: "not implemented yet: assignRange\n" }),
        "carol",
      ),
    ]),
  ],
  ["unbuilt", buildFailure("dave", [ONE, SKEW], ['src/main.ts:1:1: Expected ";" but found "x"'])],
  [
    "skipped",
    gradeResults("erin", [
      judgedResult(ONE, rawRun({ timedOut: true, exitCode: null, signal: "SIGKILL" }), "erin"),
      skippedResult(TWO, "erin"),
      skippedResult(SKEW, "erin"),
    ]),
  ],
  [
    "private",
    gradeResults("frank", [
      pass(ONE, "frank"),
      judgedResult(
        privateCase(SKEW, "private-cases", "01-skew"),
        rawRun({ stdout: "{}" }),
        "frank",
      ),
      judgedResult(
        privateCase(TWO, "private-cases", "02-all", { required: false }),
        rawRun({ stdout: rightAnswer(TWO) }),
        "frank",
      ),
      judgedResult(
        privateCase(UPPER, "private-cases", "03-crash"),
        rawRun({ exitCode: 70, stderr: "boom" }),
        "frank",
      ),
    ]),
  ],
  ["hostile-named", hostileNamed()],
  ["no cases", gradeResults("grace", [])],
]);

const EPOCH = { timestamp: new Date(0) };
const documents = new Map([...REPORTS].map(([label, r]) => [label, junitXml(r, EPOCH)]));

/** The statuses a report's cases have, to show each kind is what its label says. */
const statuses = (r: GradeResults) => r.cases.map((c: CaseResult) => c.status);

describe("the default JUnit report against both XSDs (xmllint)", () => {
  it("covers every kind of report: each status, private cases, hostile names", () => {
    expect(statuses(REPORTS.get("passing") as GradeResults)).toEqual(["pass", "pass", "pass"]);
    expect(statuses(REPORTS.get("failing") as GradeResults)).toEqual(["pass", "fail"]);
    expect(statuses(REPORTS.get("erroring") as GradeResults)).toEqual([
      "error",
      "timeout",
      "error",
    ]);
    expect(statuses(REPORTS.get("unbuilt") as GradeResults)).toEqual(["error", "error"]);
    expect(statuses(REPORTS.get("skipped") as GradeResults)).toEqual([
      "timeout",
      "skipped",
      "skipped",
    ]);
    expect(statuses(REPORTS.get("private") as GradeResults)).toEqual([
      "pass",
      "fail",
      "pass",
      "error",
    ]);
    expect(statuses(REPORTS.get("hostile-named") as GradeResults)).toEqual([
      "fail",
      "error",
      "fail",
      "error",
    ]);
  });

  it("every one is valid against Ant's JUnit.xsd and Jenkins' junit-10.xsd", async () => {
    await expectValidJunit(documents);
  });

  it("stays valid with a real start time and long durations", async () => {
    const r = REPORTS.get("failing") as GradeResults;
    const slow = {
      ...r,
      durationMs: 12_345_678,
      cases: r.cases.map((c) => ({ ...c, durationMs: 1_234_567 })),
    };
    await expectValidJunit(
      new Map([["slow", junitXml(slow, { timestamp: new Date("2026-11-30T03:31:00.789Z") })]]),
    );
  });
});

describe("what the schemas make the document hold", () => {
  const xml = documents.get("skipped") as string;

  it("a <testsuites> without attributes, one suite with id, package, hostname and a timestamp", () => {
    expect(xml.split("\n").slice(0, 3)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      "<testsuites>",
      '  <testsuite id="0" package="grade erin" name="grade erin" timestamp="1970-01-01T00:00:00" hostname="localhost" tests="3" failures="0" errors="1" skipped="2" time="1.234">',
    ]);
  });

  it("the suite ends with the empty <system-out/> and <system-err/> Ant requires", () => {
    expect(xml.trimEnd().split("\n").slice(-4)).toEqual([
      "    <system-out/>",
      "    <system-err/>",
      "  </testsuite>",
      "</testsuites>",
    ]);
  });

  it("a skipped case holds <skipped message>, counted in the suite's skipped", () => {
    const suite = parseJunit(xml).testsuites.testsuite[0] as JunitSuite;
    expect(suite.skipped).toBe("2");
    // The reason, then the message (lines.ts failureLine).
    expect(suite.testcase[1]?.skipped?.message).toBe(
      "skipped-after-timeouts: skipped: 3 earlier cases hit a limit (time, memory, output size)",
    );
    expect(suite.testcase[0]?.error?.type).toBe("timeout");
  });

  it("the timestamp is the time given, in UTC, to the second (the pattern Ant's XSD allows)", () => {
    const at = junitXml(REPORTS.get("passing") as GradeResults, {
      timestamp: new Date("2026-11-30T03:31:00.789Z"),
    });
    expect(at).toContain(' timestamp="2026-11-30T03:31:00" hostname="localhost" ');
  });

  it("the same results and start time give the same bytes", () => {
    const again = junitXml(REPORTS.get("hostile-named") as GradeResults, EPOCH);
    expect(again).toBe(documents.get("hostile-named"));
  });

  it("the reporter stamps the time the run started, not the time it ended", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const r = REPORTS.get("passing") as GradeResults;
      const sink = new MemorySink();
      const reporter = junitReporter(sink);
      vi.setSystemTime(new Date("2026-11-30T03:31:00.250Z"));
      reporter.onRunStart?.({ submission: r.submission, cases: [], kit: r.kit });
      vi.setSystemTime(new Date("2026-11-30T03:35:09.000Z"));
      reporter.onRunEnd?.(r);
      expect(sink.text()).toContain(' timestamp="2026-11-30T03:31:00" ');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the schemas reject what they should (the check can fail)", () => {
  const valid = documents.get("failing") as string;

  it("junit-10.xsd rejects `skipped` on <testsuites>, and Ant's XSD any attribute there", async () => {
    const problems = await xsdProblems(
      new Map([
        ["skipped on testsuites", valid.replace("<testsuites>", '<testsuites skipped="0">')],
      ]),
    );
    expect(problems.get("Jenkins junit-10.xsd")?.join("\n")).toMatch(
      /Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed/,
    );
    expect(problems.get("Ant JUnit.xsd")?.join("\n")).toMatch(
      /Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed/,
    );
  });

  it("Ant's XSD requires hostname and <system-err>", async () => {
    const problems = await xsdProblems(
      new Map([
        ["no hostname", valid.replace(' hostname="localhost"', "")],
        ["no system-err", valid.replace("    <system-err/>\n", "")],
      ]),
    );
    expect(problems.get("Ant JUnit.xsd")?.join("\n")).toMatch(
      /\[no hostname\].*The attribute 'hostname' is required but missing/,
    );
    expect(problems.get("Ant JUnit.xsd")?.join("\n")).toMatch(
      /\[no system-err\].*Missing child element\(s\)\. Expected is \( system-err \)/,
    );
    // junit-10.xsd asks for neither.
    expect(problems.get("Jenkins junit-10.xsd")).toEqual([]);
  });
});

describe("--format junit-files", () => {
  const r = REPORTS.get("private") as GradeResults;
  const xml = junitXml(r, { ...EPOCH, fileBase: ROOT });
  const suite = parseJunit(xml).testsuites.testsuite[0] as JunitSuite & {
    testcase: { file?: string }[];
  };

  it("gives each built-in case its case.json, relative to the folder given; private cases none", () => {
    expect(suite.testcase.map((t) => t.file)).toEqual([
      `fixtures/cases/${ONE}/case.json`,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("is otherwise the default document, attribute for attribute", () => {
    expect(xml.replace(/ file="[^"]*"/g, "")).toBe(documents.get("private"));
  });

  it("is rejected by both XSDs, for the file attribute alone", async () => {
    const problems = await xsdProblems(new Map([["junit-files", xml]]));
    for (const [xsd, lines] of problems) {
      const errors = lines.filter((l) => !/fails to validate$/.test(l));
      expect(errors, xsd).toHaveLength(1);
      expect(errors[0], xsd).toMatch(
        /Element 'testcase', attribute 'file': The attribute 'file' is not allowed/,
      );
    }
  });
});
