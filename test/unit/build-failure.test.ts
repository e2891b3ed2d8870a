// A submission that does not build gets one failure, the build's own errors, at the top of every
// format, and each case only "not run" for that reason: no case's hint, input, diff or rerun
// command. Graded in process (gradeSubmission with a build that failed, every built-in case and a
// private one), every format written; and the gradebook's not_graded column for each reason.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { ungradedResults } from "../../grader/batch/batch.ts";
import { gradebookCsv } from "../../grader/batch/gradebook.ts";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import type { GradingContext } from "../../grader/context.ts";
import { gradeSubmission } from "../../grader/grade.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { classroomReporter } from "../../grader/report/classroom.ts";
import { exercismReporter } from "../../grader/report/exercism.ts";
import { githubReporter } from "../../grader/report/github.ts";
import { gradescopeReporter } from "../../grader/report/gradescope.ts";
import { jsonReporter } from "../../grader/report/json.ts";
import { junitReporter } from "../../grader/report/junit.ts";
import { MemorySink, type Reporter } from "../../grader/report/reporter.ts";
import { textReporter } from "../../grader/report/text.ts";
import {
  boundedErrors,
  NOT_GRADED_MAX_BYTES,
  NOT_GRADED_MAX_ERRORS,
  type GradeResults,
} from "../../grader/results.ts";
import { DEFAULT_EXTENSION_POLICY } from "../../grader/totals.ts";
import { privateCase } from "../helpers/results.ts";

const schemas = new FixtureSchemas();
const BUILT_IN = loadCases(BUILT_IN_CASES_DIR, [], schemas);
const CASES: Case[] = [
  ...BUILT_IN,
  privateCase("01-lesson-7-partitions-3-members", "secret", "01-lesson"),
];
const ERRORS = [
  'src/main.ts:3:7: ERROR: Expected ";" but found "x"',
  "src/subscription.ts:1:1: ERROR: Unexpected end of file",
];
/** What each case says, worked from record.ts NOT_RUN_MESSAGES and the `<reason>: ` prefix. */
const NOT_RUN = "not run: the submission did not build (its errors are at the top of the report)";
const WHY = `build-error: ${NOT_RUN}`;
const HEADING = "The submission did not build, so no case ran:";

/** Words only a case's own explanation would bring: its hint (the first 30 characters). */
const HINTS = CASES.map((c) => c.hint.slice(0, 30));

describe("a submission that did not build", () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-build-failure-"));
  const env = {
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output.txt"),
  };
  const classroomEnv = {
    GITHUB_STEP_SUMMARY: join(dir, "classroom-summary.md"),
    GITHUB_OUTPUT: join(dir, "classroom-output.txt"),
  };
  const sinks = new Map<string, MemorySink>();
  const reporter = (name: string, make: (sink: MemorySink) => Reporter) => {
    const sink = new MemorySink();
    sinks.set(name, sink);
    return make(sink);
  };
  let graded: GradeResults;
  const out = (name: string) => sinks.get(name)?.text() ?? "";

  beforeAll(async () => {
    for (const file of [...Object.values(env), ...Object.values(classroomEnv)])
      writeFileSync(file, "");
    graded = await gradeSubmission({
      submission: { kind: "folder", path: "/nowhere/alice", name: "alice" },
      cases: CASES,
      schemas,
      timeoutMs: 2000,
      outputCapBytes: 1024 * 1024,
      memoryMiB: 512,
      concurrency: 2,
      kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
      visibleFixtures: "fedcba9876543210",
      reporters: [
        reporter("text", textReporter),
        reporter("json", jsonReporter),
        reporter("junit", (sink) => junitReporter(sink)),
        reporter("gradescope", (sink) => gradescopeReporter(sink, {})),
        reporter("github", (sink) => githubReporter(sink, env)),
        reporter("classroom", (sink) => classroomReporter(sink, classroomEnv)),
        reporter("exercism", exercismReporter),
      ],
      rerun: { args: ["alice"] },
      prepared: Promise.resolve({ errors: ERRORS, cleanup: () => {} }),
      runCase: () => {
        throw new Error("no case may run when the submission did not build");
      },
    });
  });

  it("the results: notGraded holds the reason and the build's errors; every case not run, no explanation", () => {
    expect(graded.notGraded).toEqual({ reason: "build-error", errors: ERRORS });
    expect(graded.cases).toHaveLength(CASES.length);
    for (const r of graded.cases) {
      expect(r).toMatchObject({ status: "error", reason: "build-error", points: 0 });
      expect(r.message).toBe(NOT_RUN);
      expect(r.why).toBe(WHY);
      expect(r.explanation).toBeNull();
    }
  });

  it("text: the build's errors right under the first line, then one short line per case, no hint", () => {
    const lines = out("text").split("\n");
    expect(lines[0]).toMatch(/^Grading alice: \d+ cases/);
    expect(lines.slice(1, 6)).toEqual(["", HEADING, `  | ${ERRORS[0]}`, `  | ${ERRORS[1]}`, ""]);
    const caseLines = lines.filter((l) => /^✗ /.test(l));
    expect(caseLines).toHaveLength(CASES.length);
    for (const l of caseLines) expect(l.endsWith(`  ${WHY}`), l).toBe(true);
    // Nothing under a case: the report is its heading, the errors, the cases and the scores.
    expect(lines.filter((l) => /^ {6}/.test(l))).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(CASES.length + 12);
  });

  it("json: notGraded before the scores and cases; valid against results.schema.json", () => {
    const text = out("json");
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json).slice(0, 3)).toEqual(["kit", "submission", "notGraded"]);
    expect(json.notGraded).toEqual({ reason: "build-error", errors: ERRORS });
    const schema = JSON.parse(
      readFileSync(new URL("../../grader/results.schema.json", import.meta.url), "utf8"),
    ) as object;
    const validate = new Ajv({ allErrors: true }).compile(schema);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const cases = json.cases as { message: string }[];
    expect(cases.every((c) => c.message === NOT_RUN)).toBe(true);
  });

  it("junit: one error, the submission's own testcase first with the build's errors; each case skipped", () => {
    const xml = out("junit");
    const n = CASES.length;
    expect(xml).toContain(`tests="${n + 1}" failures="0" errors="1" skipped="${n}"`);
    const testcases = [...xml.matchAll(/<testcase [^>]*>/g)].map((m) => m[0]);
    expect(testcases[0]).toMatch(/^<testcase classname="submission" name="build-error"/);
    expect(xml.match(/<error /g)).toHaveLength(1);
    expect(xml).toContain(`<error message="${HEADING}" type="build-error">`);
    expect(xml).toContain(`  | src/subscription.ts:1:1: ERROR: Unexpected end of file`);
    expect(xml.match(/<skipped message="build-error: not run: /g)).toHaveLength(n);
  });

  it("gradescope: the build's errors first in the output; each test only says it did not run", () => {
    const doc = JSON.parse(out("gradescope")) as {
      output: string;
      tests: { output: string; status: string }[];
    };
    expect(doc.output.startsWith(`${HEADING}\n  | ${ERRORS[0]}\n  | ${ERRORS[1]}\n`)).toBe(true);
    expect(doc.tests).toHaveLength(CASES.length);
    for (const t of doc.tests) expect(t).toMatchObject({ status: "failed", output: WHY });
  });

  it("github: one error annotation, the build's errors; the summary shows them before the table", () => {
    const stdout = out("github");
    const annotations = stdout.split("\n").filter((l) => /^::(error|warning) /.test(l));
    expect(annotations).toEqual([
      `::error title=The submission did not build%2C so no case ran::  | ${ERRORS[0]}%0A  | ${ERRORS[1]}`,
    ]);
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY, "utf8");
    expect(summary.indexOf(HEADING)).toBeGreaterThan(0);
    expect(summary.indexOf(HEADING)).toBeLessThan(summary.indexOf("| | Case | Points | Result |"));
    // No case has details to fold.
    expect(summary).not.toContain("<details>");
  });

  it("classroom: status error, each test's message only says it did not run", () => {
    const line = readFileSync(classroomEnv.GITHUB_OUTPUT, "utf8").trim();
    const result = JSON.parse(
      Buffer.from(line.replace(/^result=/, ""), "base64").toString("utf8"),
    ) as { status: string; tests: { name: string; message: string; test_code: string }[] };
    expect(result.status).toBe("error");
    // One test per required case (the extension cases' one test aside).
    const cases = result.tests.filter((t) => t.name !== "extension cases");
    expect(cases).toHaveLength(
      CASES.filter((c) => c.required && c.source?.kind !== "private").length,
    );
    for (const t of cases) expect(t).toMatchObject({ message: WHY, test_code: "" });
  });

  it("exercism: status error, the build's errors as the message; each test only says it did not run", () => {
    const doc = JSON.parse(out("exercism")) as {
      status: string;
      message: string;
      tests: { message: string }[];
    };
    expect(doc.status).toBe("error");
    expect(doc.message).toBe(`${HEADING}\n  | ${ERRORS[0]}\n  | ${ERRORS[1]}`);
    for (const t of doc.tests) expect(t.message).toBe(WHY);
  });

  it("no format holds a case's hint", () => {
    const written = [
      ...sinks.values(),
      ...[...Object.values(env), ...Object.values(classroomEnv)].map((f) => ({
        text: () => readFileSync(f, "utf8"),
      })),
    ].map((s) => s.text());
    for (const text of written) for (const hint of HINTS) expect(text).not.toContain(hint);
  });
});

describe("the gradebook's not_graded column", () => {
  const context = {
    kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
    cases: BUILT_IN.slice(0, 2),
    extension: DEFAULT_EXTENSION_POLICY,
  } as unknown as GradingContext;
  const cases = BUILT_IN.slice(0, 2).map((c) => ({
    id: c.id,
    title: c.title,
    required: c.required,
    maxPoints: c.points,
  }));

  it("says why no case ran: build-error, not-a-submission, grader-error; empty for a grading", () => {
    const notes = ungradedResults("notes", context, "not-a-submission", "it has no src/main.ts");
    const crashed = ungradedResults("zed", context, "grader-error", "the grader failed");
    const built = { ...ungradedResults("bob", context, "grader-error", "x"), notGraded: null };
    const broken = {
      ...built,
      submission: "alice",
      notGraded: { reason: "build-error" as const, errors: ERRORS },
    };
    const rows = gradebookCsv([notes, crashed, built, broken], cases).trim().split("\n");
    expect(rows[0]?.split(",").at(-1)).toBe("not_graded");
    expect(rows.slice(1).map((r) => [r.split(",")[0], r.split(",").at(-1)])).toEqual([
      ["alice", "build-error"],
      ["bob", ""],
      ["notes", "not-a-submission"],
      ["zed", "grader-error"],
    ]);
    expect(notes.notGraded).toEqual({
      reason: "not-a-submission",
      errors: ["it has no src/main.ts"],
    });
    expect(notes.cases.map((c) => c.message)).toEqual([
      "not run: this is not a submission (why is at the top of the report)",
      "not run: this is not a submission (why is at the top of the report)",
    ]);
  });
});

describe("a grading whose time budget ran out before any case could start", () => {
  it("is one failure, reason timeout; each case skipped, not run, with no hint", async () => {
    const text = new MemorySink();
    const graded = await gradeSubmission({
      submission: { kind: "folder", path: "/nowhere/carol", name: "carol" },
      cases: BUILT_IN.slice(0, 3),
      schemas,
      timeoutMs: 2000,
      outputCapBytes: 1024 * 1024,
      memoryMiB: 512,
      concurrency: 2,
      // Already over: the build took the whole budget.
      deadline: performance.now(),
      kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
      visibleFixtures: "0123456789abcdef",
      reporters: [textReporter(text)],
      rerun: { args: ["carol"] },
      prepared: Promise.resolve({
        program: { run: () => ({}) as never, mapStderr: (t) => t },
        errors: [],
        cleanup: () => {},
      }),
      runCase: () => {
        throw new Error("no case may start once the time budget is gone");
      },
    });
    expect(graded.notGraded).toEqual({
      reason: "timeout",
      errors: [
        "the time budget (--time-budget) ran out while the submission was prepared, before any case could start",
      ],
    });
    for (const r of graded.cases) {
      expect(r).toMatchObject({
        status: "skipped",
        reason: "skipped-after-timeouts",
        message: "not run: the grading's time budget ran out before any case could start",
        explanation: null,
      });
    }
    const lines = text.text().split("\n");
    expect(lines.slice(2, 4)).toEqual([
      "The grading's time budget ran out before any case could start, so no case ran:",
      "  | the time budget (--time-budget) ran out while the submission was prepared, before any case could start",
    ]);
    expect(lines.filter((l) => l.startsWith("- "))).toHaveLength(3);
  });
});

describe("boundedErrors: a build's errors kept within a size the submission cannot choose", () => {
  it("keeps errors within both bounds as they are", () => {
    expect(boundedErrors(["a", "b"])).toEqual(["a", "b"]);
  });

  it("keeps the first 50 errors, then says how many more there were", () => {
    const errors = Array.from({ length: 120 }, (_, i) => `src/main.ts:${i + 1}:1: error ${i + 1}`);
    const kept = boundedErrors(errors);
    expect(kept).toHaveLength(NOT_GRADED_MAX_ERRORS + 1);
    expect(kept.slice(0, 50)).toEqual(errors.slice(0, 50));
    expect(kept[50]).toBe("… 70 more errors not shown (the first 50 are above)");
  });

  it("keeps at most 16 KiB: the error that crosses the bound is cut, on a character boundary", () => {
    // 10 KiB of ASCII, then an error of 4-byte characters crossing the 16 KiB bound, then one more.
    const first = "x".repeat(10 * 1024);
    const second = "\u{1F600}".repeat(4096);
    const kept = boundedErrors([first, second, "third"]);
    expect(kept[0]).toBe(first);
    // 6 KiB of room: 1536 whole characters of 4 bytes, then the cut mark.
    expect(kept[1]).toBe(`${"\u{1F600}".repeat(1536)}…`);
    expect(kept[2]).toBe("… 1 more error not shown (the first 2 are above)");
    expect(kept.join("").length).toBeLessThan(NOT_GRADED_MAX_BYTES);
  });
});
