// What a student sees of a grading depends on the visible cases alone (results.ts studentView):
// for a fixed submission, that is the same visible results, any two sets of private cases (any
// names, titles, points and outcomes: a pass, a crash, a wrong answer, a flood, a time-out, a
// stub) give byte-identical student-visible reports: the text report's visible lines, the
// GitHub log, annotations and job summary, Classroom's result, Exercism's results.json and
// Gradescope's visible tests; and Gradescope's top-level output too, for private sets of the same
// ids, titles and points (its last line counts them, as the instructor set them). The results
// are built in process (test/helpers/results.ts); the only field normalised is the random token
// that fences the GitHub log's text (a fresh UUID each run, by design).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Case } from "../../grader/cases/load.ts";
import { PRIVATE_CASES_LEFT_OUT, githubSummary } from "../../grader/report/actions.ts";
import { classroomReporter, classroomResult } from "../../grader/report/classroom.ts";
import {
  exercismReporter,
  exercismTestCode,
  PRIVATE_TEST_CODE,
} from "../../grader/report/exercism.ts";
import { githubReporter } from "../../grader/report/github.ts";
import { gradescopeResults } from "../../grader/report/gradescope.ts";
import { textReporter } from "../../grader/report/text.ts";
import { studentView, type CaseResult, type GradeResults } from "../../grader/results.ts";
import type { RawRun } from "../../grader/run/run-process.ts";
import {
  builtInCase,
  FIXTURES_STAMP,
  gradeResults,
  judgedResult,
  privateCase,
  rawRun,
  report,
  rightRun,
  skippedResult,
  VISIBLE_STAMP,
} from "../helpers/results.ts";

const LESSON = "01-lesson-7-partitions-3-members";
const SKEW = "03-per-topic-skew";
const IDLE = "07-idle-members";
const DECODE_V0 = "19-decode-version-0";
const TRUNCATED = "25-error-truncated-topic-string";
const STATIC_FIRST = "31-static-members-first";

/** The visible results of one submission: a pass, a named mistake, a crash, a stub, a skip, a generated pass. */
function visibleResults(): CaseResult[] {
  const random: Case = { ...builtInCase(SKEW), id: "random/001", source: { kind: "random" } };
  return [
    judgedResult(LESSON, rightRun(builtInCase(LESSON)), "alice"),
    judgedResult(SKEW, rawRun({ stdout: "{}" }), "alice", ["global-assignment"]),
    judgedResult(
      TRUNCATED,
      rawRun({ exitCode: 1, stderr: "TypeError: read past the end at 8\n    at f" }),
      "alice",
      ["crash-on-bad-bytes"],
    ),
    judgedResult(
      STATIC_FIRST,
      rawRun({
        exitCode: 3,
        stderr: "not implemented yet: assignRange (src/range-assignor.ts), see LESSON.md#x\n",
      }),
      "alice",
    ),
    skippedResult(IDLE, "alice"),
    judgedResult(random, rightRun(random), "alice"),
  ];
}

type Outcome = "pass" | "crash" | "wrong" | "flood" | "timeout" | "stub";

/** How a program ends on a case, for each kind of outcome. */
function runFor(c: Case, outcome: Outcome): RawRun {
  switch (outcome) {
    case "pass":
      return rightRun(c);
    case "crash":
      return rawRun({ exitCode: 70, stderr: `internal error:\nError: ${c.id}\n` });
    case "wrong":
      return rawRun({ stdout: '{"m":{}}\n' });
    case "flood":
      return rawRun({ stdout: `{"${"m".repeat(64 * 1024)}":{}}\n` });
    case "timeout":
      return rawRun({ exitCode: null, timedOut: true, cpuMs: 2000, durationMs: 2500 });
    case "stub":
      return rawRun({ exitCode: 3, stderr: "not implemented yet: decodeSubscription\n" });
  }
}

interface PrivateSpec {
  base: string;
  name: string;
  title: string;
  required: boolean;
  outcome: Outcome;
  named: boolean;
}

const outcome = fc.constantFrom<Outcome>("pass", "crash", "wrong", "flood", "timeout", "stub");
const privateSpec: fc.Arbitrary<PrivateSpec> = fc.record({
  base: fc.constantFrom(LESSON, SKEW, IDLE, DECODE_V0, TRUNCATED, STATIC_FIRST),
  name: fc.oneof(
    fc.constantFrom("__proto__", "constructor", "01-a,b:c%d", "x".repeat(70), "ünï"),
    fc.string({ minLength: 1, maxLength: 12 }),
  ),
  title: fc.string({ maxLength: 30 }),
  required: fc.boolean(),
  outcome,
  named: fc.boolean(),
});

/** A grading of the fixed visible results and private cases as `specs` say, in grading order. */
function gradingWith(specs: readonly PrivateSpec[]): GradeResults {
  const privates = specs.map((s, i) => {
    const c = privateCase(s.base, "secret", `${i}-${s.name}`, {
      title: s.title,
      required: s.required,
    });
    return judgedResult(c, runFor(c, s.outcome), "alice", s.named ? ["global-assignment"] : []);
  });
  return gradeResults("alice", [...visibleResults(), ...privates]);
}

/** The GitHub log with the token that fences its text report made fixed. */
const fixedToken = (log: string) =>
  log.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "TOKEN");

/** The text report's visible lines: everything before the first private case's line. */
function textVisibleLines(results: GradeResults): string {
  const lines = report(textReporter, results).split("\n");
  const header = lines.findIndex((l) => l === "") + 1;
  const firstPrivate = lines.findIndex((l) => /^[✓✗⧗-] secret\//.test(l));
  return lines
    .slice(header, firstPrivate)
    .map((l) => `${l}\n`)
    .join("");
}

/** The text report's end: the mistakes that stand, from its heading to the scores; or "". */
function textConfirmed(results: GradeResults): string {
  const text = report(textReporter, results);
  const start = text.indexOf("\nChecked against every case");
  return start < 0 ? "" : text.slice(start, text.indexOf("\nRequired:"));
}

/** Everything a student sees of a grading, as bytes, but Gradescope's top-level output. */
function seen(results: GradeResults): Record<string, string> {
  return {
    text: textVisibleLines(results),
    textConfirmed: textConfirmed(results),
    githubLog: fixedToken(report((sink) => githubReporter(sink, {}), results)),
    githubSummary: githubSummary(results),
    classroomLog: fixedToken(report((sink) => classroomReporter(sink, {}), results)),
    classroomResult: JSON.stringify(classroomResult(results)),
    exercism: report(exercismReporter, results),
    gradescopeVisibleTests: JSON.stringify(
      gradescopeResults(results).tests.filter((t) => t.visibility === "visible"),
    ),
  };
}

describe("the student's view of a grading", () => {
  it("is the visible cases alone, their scores, their stamp and the visible phase's time", () => {
    const graded = gradingWith([
      { base: LESSON, name: "a", title: "A", required: true, outcome: "pass", named: false },
      { base: SKEW, name: "b", title: "B", required: false, outcome: "crash", named: false },
    ]);
    const view = studentView(graded);
    expect(view.cases.map((r) => r.id)).toEqual([
      LESSON,
      SKEW,
      TRUNCATED,
      STATIC_FIRST,
      IDLE,
      "random/001",
    ]);
    // Required: LESSON (2) and random/001 (a copy of 03, 2 points) passed, of 5 required cases.
    expect([view.score, view.maxScore, view.extensionScore, view.extensionMaxScore]).toEqual([
      4, 10, 0, 2,
    ]);
    expect([graded.score, graded.maxScore]).toEqual([6, 12]);
    expect(view.kit).toEqual({ version: "1.0.0", fixtures: VISIBLE_STAMP });
    expect(graded.kit.fixtures).toBe(FIXTURES_STAMP);
    expect([view.durationMs, graded.durationMs]).toEqual([1000, 1234]);
    expect(studentView(view)).toEqual(view);
  });

  it("any two sets of private cases: byte-identical student-visible reports", () => {
    fc.assert(
      fc.property(
        fc.array(privateSpec, { minLength: 1, maxLength: 4 }),
        fc.array(privateSpec, { minLength: 1, maxLength: 4 }),
        (a, b) => {
          const first = seen(gradingWith(a));
          expect(seen(gradingWith(b))).toEqual(first);
          // Nothing of a private case in any of it but the fixed line that says they are left out.
          for (const text of Object.values(first)) expect(text).not.toContain("secret/");
        },
      ),
      { numRuns: 40 },
    );
  });

  it("private sets of the same ids, titles and points: Gradescope's top-level output is the same too", () => {
    const shapes = fc.array(privateSpec, { minLength: 1, maxLength: 4 }).chain((specs) =>
      fc.tuple(
        fc.constant(specs),
        fc.array(fc.tuple(outcome, fc.boolean()), {
          minLength: specs.length,
          maxLength: specs.length,
        }),
      ),
    );
    fc.assert(
      fc.property(shapes, ([specs, other]) => {
        const changed = specs.map((s, i) => ({
          ...s,
          outcome: other[i]?.[0] ?? s.outcome,
          named: other[i]?.[1] ?? s.named,
        }));
        const a = gradescopeResults(gradingWith(specs));
        const b = gradescopeResults(gradingWith(changed));
        expect(b.output).toBe(a.output);
        expect(a.output.split("\n")[0]).toBe(`Kit 1.0.0, case set ${VISIBLE_STAMP}.`);
      }),
      { numRuns: 40 },
    );
  });

  it("says that private cases were left out, in fixed words, and is otherwise the grading without them", () => {
    const without = gradeResults("alice", visibleResults());
    const withPrivate = gradingWith([
      { base: IDLE, name: "c", title: "C", required: true, outcome: "crash", named: true },
    ]);
    // The same cases, scores and lines; only the stamp (of the visible cases) and the last line.
    const summary = githubSummary(withPrivate);
    expect(summary).toBe(
      `${githubSummary(without).replace(FIXTURES_STAMP, VISIBLE_STAMP).trimEnd()}\n\n${PRIVATE_CASES_LEFT_OUT}\n\n`,
    );
    expect(report(exercismReporter, withPrivate)).toBe(report(exercismReporter, without));
    expect(textVisibleLines(withPrivate)).toBe(
      report(textReporter, without).split("\n\n").slice(1).join("\n\n").split("\nChecked")[0],
    );
    // A private case named a mistake too; the end names only the visible case's.
    expect(textConfirmed(without)).toContain("(global-assignment)");
    expect(textConfirmed(withPrivate)).toBe(textConfirmed(without));
  });

  it("Gradescope's file holds no figure timed over the grading", () => {
    const doc = gradescopeResults(gradingWith([]));
    expect(Object.keys(doc)).not.toContain("execution_time");
    expect(JSON.stringify(doc)).not.toMatch(/"(execution_)?time"|duration/);
  });
});

describe("Exercism's test_code", () => {
  it("for a private case: prose, no command a student could try to run", () => {
    const hidden = judgedResult(
      privateCase(IDLE, "hidden", "01-idle-again"),
      rawRun({ stdout: "{}\n" }),
      "alice",
    );
    expect(hidden.private).toBe(true);
    const code = exercismTestCode(hidden);
    expect(code).toBe(
      "A private case of your instructor's: it is graded where they grade, and its input and answer are not shown.",
    );
    expect(code).toBe(PRIVATE_TEST_CODE);
    // No command, flag, case id, program name or redirection.
    expect(code).not.toMatch(/npm|grade --|--only|hidden\/|01-idle-again|main|[<>$`]/);
  });

  it("for a visible case: the handout command that grades it alone, its input and answer", () => {
    const visible = judgedResult(IDLE, rawRun({ stdout: "{}\n" }), "alice");
    const [command, input, expected] = exercismTestCode(visible).split("\n");
    expect(command).toBe(
      `npm run grade -- --only ${IDLE}    # runs: main < fixtures/cases/${IDLE}/input.json`,
    );
    expect(input).toMatch(/^\/\/ input: /);
    expect(expected).toMatch(/^\/\/ expected: /);
  });
});
