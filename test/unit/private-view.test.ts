// The instructor's view of private cases (results.ts PrivateCaseView, report/private-view.ts):
// the instructor sees a private case in full (input, answer, grid, named mistake), and no
// student-facing format can receive it. Types: nothing a reporter takes (GradeResults, CaseResult,
// RunInfo, NotGraded, at any depth) can hold a view. Values: a grading in process with a known
// secret in a private case writes it to the instructor's view and to no report of any format.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FixtureSchemas, type Case } from "../../grader/cases/load.ts";
import { gradeSubmission } from "../../grader/grade.ts";
import { privateCaseView } from "../../grader/record.ts";
import { classroomReporter } from "../../grader/report/classroom.ts";
import { exercismReporter } from "../../grader/report/exercism.ts";
import { FORMATS } from "../../grader/report/formats.ts";
import { githubReporter } from "../../grader/report/github.ts";
import { gradescopeReporter } from "../../grader/report/gradescope.ts";
import { privateViewText } from "../../grader/report/private-view.ts";
import { MemorySink, type Reporter } from "../../grader/report/reporter.ts";
import type { CaseResult, GradeResults, NotGraded, PrivateCaseView } from "../../grader/results.ts";
import { capRun } from "../../grader/verdict/capped-text.ts";
import { judge } from "../../grader/verdict/verdict.ts";
import { builtInCase, privateCase, rawRun, rightRun } from "../helpers/results.ts";

// ---- the types ----

/**
 * True when a value of type U can be stored somewhere in a value of type T: T itself, an element
 * of an array, a property, at any depth up to 8 (the records are 4 deep).
 */
type Holds<T, U, Depth extends unknown[] = []> = Depth["length"] extends 8
  ? false
  : [U] extends [T]
    ? true
    : T extends readonly (infer E)[]
      ? Holds<E, U, [...Depth, 1]>
      : T extends object
        ? true extends { [K in keyof T]-?: Holds<T[K], U, [...Depth, 1]> }[keyof T]
          ? true
          : false
        : false;

/** What each reporter hook takes. */
type HookInput<K extends keyof Reporter> = Parameters<NonNullable<Reporter[K]>>[0];

// The check can fail: a structure with a view inside, deep in an array, holds one.
const deep: Holds<{ a: { b: (PrivateCaseView | null)[] } }, PrivateCaseView> = true;
const inUnknown: Holds<{ data: unknown }, PrivateCaseView> = true;
// No reporter's input can.
const inResults: Holds<GradeResults, PrivateCaseView> = false;
const inRecord: Holds<CaseResult, PrivateCaseView> = false;
const inNotGraded: Holds<NotGraded, PrivateCaseView> = false;
const inRunStart: Holds<HookInput<"onRunStart">, PrivateCaseView> = false;
const inCaseResult: Holds<HookInput<"onCaseResult">, PrivateCaseView> = false;
const inNotGradedHook: Holds<HookInput<"onNotGraded">, PrivateCaseView> = false;
const inRunEnd: Holds<HookInput<"onRunEnd">, PrivateCaseView> = false;

describe("the types", () => {
  it("no reporter hook's input can hold an instructor's view, at any depth", () => {
    // The assertions are the declarations above: tsc (npm run typecheck) rejects a wrong one.
    expect([deep, inUnknown]).toEqual([true, true]);
    expect([
      inResults,
      inRecord,
      inNotGraded,
      inRunStart,
      inCaseResult,
      inNotGradedHook,
      inRunEnd,
    ]).toEqual([false, false, false, false, false, false, false]);
    const reporter: Reporter = {};
    const view = {} as PrivateCaseView;
    // @ts-expect-error a view is not a case's record
    reporter.onCaseResult?.(view);
  });
});

// ---- a grading with a secret ----

const schemas = new FixtureSchemas();
const MEMBERS = ["secret-member-7f3a", "secret-member-b2d9"] as const;
const TOPIC = "secret-topic-9c1e";
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");
/** Version 0 subscriptions to TOPIC, worked by hand: version, one topic, null user data. */
const METADATA = `0000 00000001 00${TOPIC.length.toString(16)} ${hex(TOPIC)} ffffffff`;
/** Kafka's answer: 3 partitions over two members in member-id order, 2 then 1. */
const ANSWER = { [MEMBERS[0]]: { [TOPIC]: [0, 1] }, [MEMBERS[1]]: { [TOPIC]: [2] } };
/** The program's answer: every partition to the first member. */
const WRONG = { [MEMBERS[0]]: { [TOPIC]: [0, 1, 2] }, [MEMBERS[1]]: {} };
const SECRETS = [...MEMBERS, TOPIC, hex(TOPIC), JSON.stringify(ANSWER)];
const VISIBLE = "01-lesson-7-partitions-3-members";

/** A private case `hidden/01-secret` of the two secret members and the secret topic. */
function secretCase(): Case {
  const input = {
    topics: { [TOPIC]: 3 },
    members: MEMBERS.map((memberId) => ({ memberId, metadata: METADATA })),
  };
  return {
    ...privateCase(VISIBLE, "hidden", "01-secret"),
    inputText: JSON.stringify(input),
    input,
    expected: { output: ANSWER },
  } as Case;
}

describe("a grading with a secret in a private case", () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-private-view-"));
  const env = {
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_OUTPUT: join(dir, "output.txt"),
  };
  const student = new Map<string, MemorySink>();
  const made = (name: string, make: (sink: MemorySink) => Reporter) => {
    const sink = new MemorySink();
    student.set(name, sink);
    return make(sink);
  };
  let views: readonly PrivateCaseView[] = [];
  let graded: GradeResults;

  beforeAll(async () => {
    for (const file of Object.values(env)) writeFileSync(file, "");
    const reporters = (Object.keys(FORMATS) as (keyof typeof FORMATS)[]).map((name) =>
      name === "github"
        ? made(name, (sink) => githubReporter(sink, env))
        : name === "classroom"
          ? made(name, (sink) => classroomReporter(sink, env))
          : name === "gradescope"
            ? made(name, (sink) => gradescopeReporter(sink, {}))
            : name === "exercism"
              ? made(name, exercismReporter)
              : made(name, FORMATS[name]),
    );
    graded = await gradeSubmission({
      submission: { kind: "folder", path: "/nowhere/alice", name: "alice" },
      cases: [builtInCase(VISIBLE), secretCase()],
      schemas,
      timeoutMs: 2000,
      outputCapBytes: 1024 * 1024,
      memoryMiB: 512,
      concurrency: 2,
      kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
      visibleFixtures: "fedcba9876543210",
      reporters,
      rerun: { args: ["alice", "--fixtures", "hidden"] },
      prepared: Promise.resolve({
        program: { run: () => ({}) as never, mapStderr: (t) => t },
        errors: [],
        cleanup: () => {},
      }),
      // The visible case answered right; the secret one wrongly, its members echoed on stderr.
      runCase: (_program, c) =>
        Promise.resolve(
          c.id === VISIBLE
            ? rightRun(c)
            : rawRun({ stdout: `${JSON.stringify(WRONG)}\n`, stderr: `${MEMBERS.join(" ")}\n` }),
        ),
      privateViews: (v) => (views = v),
    });
  });

  it("the instructor's view shows the private case in full: input, answer, grid", () => {
    expect(views.map((v) => [v.id, v.status, v.reason])).toEqual([
      ["hidden/01-secret", "fail", "wrong-output"],
    ]);
    const text = privateViewText("alice", views, graded.notGraded);
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "Private cases of alice, in full: for the instructor only (their input and answers)",
    );
    expect(lines[2]).toMatch(/^✗ hidden\/01-secret: .* {2}0\/\d+ {2}wrong-output: /);
    expect(text).toContain(`      expected: ${JSON.stringify(ANSWER)}\n`);
    expect(text).toMatch(/ {6}input: .*secret-topic-9c1e/);
    expect(text).toContain("who owns which partition");
    for (const secret of [...MEMBERS, TOPIC]) expect(text).toContain(secret);
    expect(text).toContain(
      "rerun: npm run grade -- alice --fixtures hidden --only hidden/01-secret",
    );
  });

  it("no student-facing format holds any of it (while the visible case is there)", () => {
    const written = new Map([...student].map(([name, sink]) => [name, sink.text()]));
    written.set("job summary", readFileSync(env.GITHUB_STEP_SUMMARY, "utf8"));
    written.set(
      "classroom output",
      readFileSync(env.GITHUB_OUTPUT, "utf8").replace(/result=([A-Za-z0-9+/=]+)/g, (_, b64) =>
        Buffer.from(b64 as string, "base64").toString("utf8"),
      ),
    );
    expect([...written.keys()].sort()).toEqual(
      [...Object.keys(FORMATS), "job summary", "classroom output"].sort(),
    );
    for (const [name, text] of written) {
      for (const secret of SECRETS) expect(text, `${name}: ${secret}`).not.toContain(secret);
      if (name !== "classroom output") expect(text, name).toContain(VISIBLE);
    }
  });

  it("and the records it was built beside hold none of it", () => {
    const record = graded.cases.find((r) => r.private);
    expect(record).toBeDefined();
    const text = JSON.stringify(record);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });
});

describe("a view of a private case with a named mistake", () => {
  it("names the mistake with its explanation, where a case's record of it names only its id", () => {
    const c = secretCase();
    const run = capRun(rawRun({ stdout: `${JSON.stringify(WRONG)}\n` }));
    const verdict = judge(c, run, schemas.output(c.mode));
    const view = privateCaseView(c, verdict, run, {
      rerun: { args: ["alice"] },
      mistakes: ["global-assignment"],
    });
    const text = privateViewText("alice", [view], null);
    expect(text).toContain("This looks like: ");
    expect(text).toContain("(global-assignment).");
    expect(text).toContain("Read LESSON.md#");
  });

  it("says so when no private case was graded, and gives a build failure first", () => {
    const text = privateViewText("bob", [], {
      reason: "build-error",
      errors: ["src/main.ts:1:1: oops"],
    });
    expect(text.split("\n")).toEqual([
      "Private cases of bob, in full: for the instructor only (their input and answers)",
      "",
      "The submission did not build, so no case ran:",
      "  | src/main.ts:1:1: oops",
      "",
      "No private case in this grading.",
      "",
    ]);
  });
});
