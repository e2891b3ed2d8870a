// judge() (grader/verdict/verdict.ts) on constructed runs of built-in cases: each way a program
// can end gets its status, reason and message, in the grader's own words.
import { describe, expect, it } from "vitest";
import { uncaughtErrorOf } from "../../grader/verdict/verdict.ts";
import { CappedText } from "../../grader/verdict/capped-text.ts";
import { judgedResult, rawRun } from "../helpers/results.ts";

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
