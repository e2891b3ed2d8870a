// judge() (grader/verdict/verdict.ts) on constructed runs of built-in cases: each way a program
// can end gets its status, reason and message, in the grader's own words.
import { describe, expect, it } from "vitest";
import { uncaughtErrorOf } from "../../grader/verdict/verdict.ts";
import { CappedText } from "../../grader/verdict/capped-text.ts";
import { caseAnswerSize } from "../../grader/verdict/answer-size.ts";
import { FileOutcomes, matchMistakes } from "../../grader/diagnose/diagnose.ts";
import { builtInCase, judgedResult, rawRun } from "../helpers/results.ts";

const ASSIGN = "01-lesson-7-partitions-3-members";
const BAD_BYTES = "25-error-truncated-topic-string";
const right = JSON.stringify({
  "consumer-a": { orders: [0, 1, 2] },
  "consumer-b": { orders: [3, 4] },
  "consumer-c": { orders: [5, 6] },
});
const judged = (id: string, fields: Parameters<typeof rawRun>[0]) =>
  judgedResult(id, rawRun(fields), "alice");

/** Node's report of an uncaught exception, as the grader sees it after mapping the bundle. */
const UNCAUGHT = [
  "src/main.ts:194",
  "process.exitCode = main(process.argv.slice(2)) + (boom.x as { y: number }).y;",
  "                                                                            ^",
  "",
  "TypeError: Cannot read properties of undefined (reading 'y')",
  "    at src/main.ts:194:76",
  "",
].join("\n");

describe("judge", () => {
  it("passes the right answer, in any key order", () => {
    expect(judged(ASSIGN, { stdout: right }).status).toBe("pass");
  });

  it("fails a wrong answer, and rejecting valid bytes, naming what was expected", () => {
    expect(judged(ASSIGN, { stdout: "{}" })).toMatchObject({
      status: "fail",
      reason: "wrong-output",
    });
    expect(
      judged(ASSIGN, {
        exitCode: 1,
        stderr: 'error: member "consumer-b": topics: bad at offset 2\n',
      }),
    ).toMatchObject({ status: "fail", reason: "wrong-output" });
  });

  it("wants the bad member named on a bad-bytes case: another member is wrong-error", () => {
    const r = judged(BAD_BYTES, {
      exitCode: 1,
      stderr: 'error: member "reader-1": x at offset 0\n',
    });
    expect(r).toMatchObject({ status: "fail", reason: "wrong-error" });
    expect(
      judged(BAD_BYTES, { exitCode: 1, stderr: 'error: member "reader-2": x at offset 9\n' })
        .status,
    ).toBe("pass");
  });

  it("calls exit 0 with no JSON invalid output", () => {
    expect(judged(ASSIGN, { stdout: "{" })).toMatchObject({
      status: "fail",
      reason: "invalid-output",
    });
  });

  it("names an uncaught exception by its error and where it happened, not by Node's first line", () => {
    const r = judged(ASSIGN, { exitCode: 1, stderr: UNCAUGHT });
    expect(r).toMatchObject({ status: "error", reason: "crash" });
    expect(r.message).toContain(
      `an uncaught exception: "TypeError: Cannot read properties of undefined (reading 'y')" (at src/main.ts:194)`,
    );
    expect(uncaughtErrorOf(CappedText.stderr("plain text on stderr\n"))).toBeUndefined();
    expect(judged(ASSIGN, { exitCode: 1, stderr: "oops\n" }).message).toContain('got "oops"');
  });

  it("tells a stub and a timeout apart", () => {
    expect(
      judged(ASSIGN, {
        exitCode: 3,
        stderr:
          "not implemented yet: assignRange (src/range-assignor.ts), see LESSON.md#the-range-assignor\n",
      }),
    ).toMatchObject({ status: "error", reason: "not-implemented" });
    expect(
      judged(ASSIGN, { exitCode: null, signal: "SIGKILL", timedOut: true, cpuMs: 5000 }).status,
    ).toBe("timeout");
  });

  it("assignRange's stub reached where Kafka rejects a member: the decoder accepted bad bytes", () => {
    const stub = (fn: string, file: string) => ({
      exitCode: 3,
      stderr: `not implemented yet: ${fn} (${file}), see LESSON.md#x\n`,
    });
    const TRUNCATED = "25-error-truncated-topic-string";
    expect(judged(TRUNCATED, stub("assignRange", "src/range-assignor.ts"))).toMatchObject({
      status: "fail",
      reason: "wrong-error",
      message:
        'expected exit 1 rejecting member "reader-2"\'s bytes, but the program decoded every member and went on to assignRange, still a stub',
    });
    // The decoder's own stub is only a stub.
    expect(judged(TRUNCATED, stub("decodeSubscription", "src/subscription.ts"))).toMatchObject({
      status: "error",
      reason: "not-implemented",
    });
  });
});

describe("judge on hostile standard error", () => {
  it("reads a crash's standard error to its first 4096 bytes a line", () => {
    const r = judged(ASSIGN, { exitCode: 70, stderr: `internal error\n${"x".repeat(10_000)}\n` });
    expect(r).toMatchObject({ status: "error", reason: "crash" });
    if (r.verdict.outcome.kind !== "crash") throw new Error("not a crash");
    expect(r.verdict.outcome.stderr).toHaveLength(4000);
    expect(r.stderr).toBe(`internal error\n${"x".repeat(4096)}\n[… 1 line cut at 4096 bytes]`);
  });

  it("a line of FATAL ERROR: without Allocation failed is a crash; Node's memory death is memory", () => {
    const flood = "FATAL ERROR: ".repeat(300_000);
    expect(judged(ASSIGN, { exitCode: 134, stderr: flood })).toMatchObject({ reason: "crash" });
    const death = [
      "<--- Last few GCs --->",
      "",
      "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
    ].join("\n");
    expect(judged(ASSIGN, { exitCode: 134, stderr: death })).toMatchObject({ reason: "memory" });
    // The two phrases alone, as a runtime other than Node might word it.
    expect(
      judged(ASSIGN, { exitCode: 1, stderr: "FATAL ERROR: zone Allocation failed\n" }),
    ).toMatchObject({ reason: "memory" });
  });

  it("Node's memory death after a log longer than what is read from the start: memory, from the end", () => {
    const log = "debug: assigning\n".repeat(100);
    const death =
      "<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n";
    expect(judged(ASSIGN, { exitCode: 134, stderr: log, stderrTail: death })).toMatchObject({
      reason: "memory",
    });
    // Without those last words it is a crash.
    expect(
      judged(ASSIGN, { exitCode: 134, stderr: log, stderrTail: "debug: assigning\n" }),
    ).toMatchObject({ reason: "crash" });
  });

  it("names the first src/ frame of an internal error, and none in a line of src/", () => {
    const frames = (frame: string) =>
      judged(ASSIGN, {
        exitCode: 70,
        stderr: `internal error (a bug)\nTypeError: boom\n${frame}\n`,
      }).message;
    expect(frames("    at f (src/range-assignor.ts:23:5)")).toBe(
      'the program exited with code 70: an uncaught exception: "TypeError: boom" (at src/range-assignor.ts:23)',
    );
    expect(frames("    at file:///x/src/main.ts:9")).toContain("(at src/main.ts:9)");
    expect(frames(`    ${"src/".repeat(40_000)}`)).toBe(
      'the program exited with code 70: an uncaught exception: "TypeError: boom"',
    );
  });
});

describe("judge on an answer far larger than the case allows", () => {
  // Case 01: 3 members, one topic of 7 partitions; each member's bytes are 40 hex characters with
  // spaces, so the case allows 3 members, 3 × 1 + 60 / 2 = 33 topic entries and 7 partitions.
  const members = (n: number) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`m-${i}`, {}])));
  const partitions = (n: number) =>
    JSON.stringify({ "consumer-a": { orders: Array.from({ length: n }, (_, i) => i) } });
  /** Kafka's answer with `n` empty topic entries more for consumer-a (the same answer). */
  const emptyTopics = (n: number) =>
    JSON.stringify({
      "consumer-a": {
        orders: [0, 1, 2],
        ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, []])),
      },
      "consumer-b": { orders: [3, 4] },
      "consumer-c": { orders: [5, 6] },
    });

  it("allows what the expected answer and the input allow", () => {
    expect(caseAnswerSize(builtInCase(ASSIGN))).toEqual({
      members: 3,
      topics: 33,
      partitions: 7,
      fields: 0,
    });
  });

  it("judges more than 4 times as many members, topics or partitions wrong by their count", () => {
    expect(judged(ASSIGN, { stdout: members(12) }).message).toBe("the answer differs from Kafka's");
    const r = judged(ASSIGN, { stdout: members(13) });
    expect(r).toMatchObject({ status: "fail", reason: "wrong-output", points: 0 });
    expect(r.message).toBe(
      "the answer is far larger than Kafka's: 13 members, 0 topics and 0 partitions, where Kafka's has 3 members, 3 topics and 7 partitions",
    );
    expect(r.verdict.outcome).toEqual({
      kind: "oversized",
      mode: "assign",
      size: { members: 13, topics: 0, partitions: 0, fields: 0 },
    });
    expect(r.verdict.actual).toBeUndefined();
    expect(judged(ASSIGN, { stdout: partitions(28) }).message).toBe(
      "the answer differs from Kafka's",
    );
    expect(judged(ASSIGN, { stdout: partitions(29) }).verdict.outcome.kind).toBe("oversized");
    // 3 + 129 = 132 entries is Kafka's answer still; 3 + 130 = 133 is more than 4 × 33.
    expect(judged(ASSIGN, { stdout: emptyTopics(129) }).status).toBe("pass");
    expect(judged(ASSIGN, { stdout: emptyTopics(130) }).verdict.outcome.kind).toBe("oversized");
  });

  it("counts before checking the shape: a huge malformed answer is wrong by its size", () => {
    const strings = JSON.stringify({
      "consumer-a": { orders: Array.from({ length: 29 }, () => "x") },
    });
    expect(judged(ASSIGN, { stdout: strings }).verdict.outcome.kind).toBe("oversized");
    const few = JSON.stringify({ "consumer-a": { orders: ["x"] } });
    expect(judged(ASSIGN, { stdout: few })).toMatchObject({ reason: "invalid-output" });
  });

  it("explains it in a few fixed words, with the counts, and names no mutant", () => {
    const many = JSON.stringify(
      Object.fromEntries(
        Array.from({ length: 150_000 }, (_, i) => [`m-${i}`, { orders: [i % 7] }]),
      ),
    );
    const r = judged(ASSIGN, { stdout: many });
    expect(r.explanation?.details?.comparison).toEqual({
      kind: "outcome",
      expected: "Kafka's answer: 3 members, 3 topics and 7 partitions",
      actual:
        "the program printed an answer far larger than Kafka's: 150,000 members, 150,000 topics and 150,000 partitions (the grader compares answers up to 4 times the size the case allows)",
    });
    expect(r.explanation?.details?.bytes).toBeNull();
    const c = builtInCase(ASSIGN);
    const outcomes = new FileOutcomes().caseData(c)?.outcomes;
    expect(outcomes?.size).toBeGreaterThan(0);
    expect(matchMistakes(r.verdict.outcome, c.expected, outcomes ?? new Map())).toEqual([]);
  });

  it("on a case that expects an error: wrong-error, bounded by the input, bad bytes accepted", () => {
    // Case 25: 3 members (bytes of 18, 11 and 18), one topic of 2 partitions: 3 members,
    // 3 × 1 + 47 / 2 = 27 topics and 2 partitions allowed, so 9 partitions are far more.
    expect(caseAnswerSize(builtInCase(BAD_BYTES))).toEqual({
      members: 3,
      topics: 27,
      partitions: 2,
      fields: 0,
    });
    const answer = JSON.stringify({ "reader-1": { orders: [0, 1, 2, 3, 4, 5, 6, 7, 8] } });
    const r = judged(BAD_BYTES, { stdout: answer });
    expect(r).toMatchObject({ status: "fail", reason: "wrong-error" });
    expect(r.message).toBe(
      'expected exit 1 rejecting member "reader-2"\'s bytes, but the program printed an answer (far larger than the case allows: 1 member, 1 topic and 9 partitions)',
    );
    const c = builtInCase(BAD_BYTES);
    expect(matchMistakes(r.verdict.outcome, c.expected, new Map())).toEqual(["bad-bytes-accepted"]);
  });

  it("in a decode case, counts members and the topics listed", () => {
    // Case 19: 4 members whose bytes are 18, 28, 22 and 10: 39 topics allowed, 4 expected.
    const DECODE = "19-decode-version-0";
    expect(caseAnswerSize(builtInCase(DECODE))).toEqual({
      members: 4,
      topics: 39,
      partitions: 0,
      fields: 16,
    });
    const answer = (n: number) =>
      JSON.stringify({
        "null-user-data": {
          version: 0,
          topics: Array.from({ length: n }, () => "t"),
          userData: null,
        },
      });
    expect(judged(DECODE, { stdout: answer(156) }).verdict.outcome.kind).toBe("output");
    expect(judged(DECODE, { stdout: answer(157) }).message).toBe(
      "the answer is far larger than Kafka's: 1 member and 157 topics, where Kafka's has 4 members and 4 topics",
    );
  });
});
