// The advice under a failed case with no mistake named (explain/explain.ts): the case's hint when
// the program failed the way the case is built to show (a wrong answer; an answer where Kafka
// rejects the bytes), else words for what the program did: a crash, a valid member rejected,
// output that is not an answer. A hint never describes what the program did not do.
import { describe, expect, it } from "vitest";
import { builtInCase, judgedResult, rawRun } from "../helpers/results.ts";
import { adviceLines, MAY_FOLLOW } from "../../grader/report/lines.ts";

const LESSON = "01-lesson-7-partitions-3-members";
const TRUNCATED = "25-error-truncated-topic-string";

/** The advice a run gets on a case, no mistake named. */
function adviceFor(id: string, run: Parameters<typeof judgedResult>[1]) {
  const advice = judgedResult(id, run, "student").explanation?.advice;
  if (advice?.kind !== "hint") throw new Error(`expected a hint, got ${JSON.stringify(advice)}`);
  return advice;
}

const crash = rawRun({
  exitCode: 70,
  stderr: "internal error (a bug, not bad input):\nTypeError: x is undefined\n",
});

describe("the advice says what the program did", () => {
  it("a wrong answer where an answer is due: the case's own hint", () => {
    const advice = adviceFor(
      LESSON,
      rawRun({ stdout: '{"consumer-a":{},"consumer-b":{},"consumer-c":{}}\n' }),
    );
    expect(advice.hint).toBe(builtInCase(LESSON).hint);
    expect(advice.lesson).toBe(builtInCase(LESSON).lesson);
  });

  it("an answer where Kafka rejects the bytes: the case's own hint", () => {
    const advice = adviceFor(TRUNCATED, rawRun({ stdout: "{}\n" }));
    expect(advice.hint).toBe(builtInCase(TRUNCATED).hint);
  });

  it("a crash: that it crashed, and where to look, not the case's point", () => {
    const onValid = adviceFor(LESSON, crash);
    expect(onValid.hint).toMatch(/^The program crashed on input Kafka handles/);
    expect(onValid.lesson).toBe("the-exercise");
    const onBad = adviceFor(TRUNCATED, crash);
    expect(onBad.hint).toMatch(/^The program crashed on bytes Kafka rejects/);
    expect(onBad.lesson).toBe("bad-bytes");
  });

  it("a sync case run by a main.ts older than --sync: update main.ts, not a crash to debug", () => {
    // Node's parseArgs, as kit 1.2's main.ts ran it: exit 2 and its message on standard error.
    const old = rawRun({
      exitCode: 2,
      stderr:
        "error: Unknown option '--sync'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--sync\"\nusage: main [--decode] [FILE]   (reads standard input when FILE is absent)\n",
    });
    const advice = adviceFor("66-sync-lesson-7-partitions", old);
    expect(advice.hint).toMatch(/^Your src\/main\.ts does not know --sync/);
    expect(advice.lesson).toBe("the-assignment-bytes");
    // The same exit on a case of another mode is a crash like any other.
    expect(adviceFor(LESSON, old).hint).toMatch(/^The program crashed on input Kafka handles/);
  });

  it("a valid member rejected: that it rejected bytes Kafka reads (naming no member)", () => {
    const advice = adviceFor(
      LESSON,
      rawRun({
        exitCode: 1,
        stderr: 'error: member "consumer-a": topics: cut short at offset 2\n',
      }),
    );
    expect(advice.hint).toMatch(/^The program rejected a member whose bytes Kafka reads/);
    expect(advice.hint).not.toContain("consumer-a");
    expect(advice.lesson).toBe("reading-lengths");
  });

  it("the hint of a case line written before names are confirmed says the same", () => {
    const hint = judgedResult(LESSON, crash, "student", ["unknown-topic-crash"]).explanation?.hint;
    expect(hint?.hint).toMatch(/^The program crashed on input Kafka handles/);
    const wrong = rawRun({ stdout: '{"consumer-a":{},"consumer-b":{},"consumer-c":{}}\n' });
    expect(judgedResult(LESSON, wrong, "student").explanation?.hint.hint).toBe(
      builtInCase(LESSON).hint,
    );
  });

  it("a case line's hint before names are confirmed: the case's own when the outcome matched a mistake it is written for, else what the program did", () => {
    const wrong = rawRun({ stdout: '{"consumer-a":{},"consumer-b":{},"consumer-c":{}}\n' });
    // Case 01 is written for range mistakes such as extra-to-last, not for member order.
    expect(judgedResult(LESSON, wrong, "student", ["extra-to-last"]).explanation?.hint.hint).toBe(
      builtInCase(LESSON).hint,
    );
    const other = judgedResult(LESSON, wrong, "student", ["locale-order"]).explanation?.hint;
    expect(other?.hint).toMatch(/^Your program's outcome here is what a catalogued mistake gives/);
    // The section that mistake is taught in; several from different sections: the list of all.
    expect(other?.lesson).toBe("member-order");
    const two = judgedResult(LESSON, wrong, "student", ["locale-order", "global-assignment"])
      .explanation?.hint;
    expect(two?.lesson).toBe("common-mistakes");
    // An outcome mistake alone (no mutant matched) leaves the case's hint.
    expect(
      judgedResult(TRUNCATED, rawRun({ stdout: "{}\n" }), "student", ["bad-bytes-accepted"])
        .explanation?.hint.hint,
    ).toBe(builtInCase(TRUNCATED).hint);
  });

  it("output that is not an answer: what the output must be", () => {
    const advice = adviceFor(LESSON, rawRun({ stdout: "hello\n" }));
    expect(advice.hint).toMatch(/^The program's standard output is not the answer/);
  });
});

// A name on a case the program stopped short on (a member Kafka reads rejected, or a crash where an
// answer is due) says the rest of the case is unchecked: a second mistake further on may follow.
describe("a name where the program stopped short says another mistake may follow", () => {
  function mistakesAdvice(id: string, run: Parameters<typeof judgedResult>[1], named: string) {
    const advice = judgedResult(id, run, "student", [named]).explanation?.advice;
    if (advice?.kind !== "mistakes")
      throw new Error(`expected names, got ${JSON.stringify(advice)}`);
    return advice;
  }
  const rejects = (member: string) =>
    rawRun({ exitCode: 1, stderr: `error: member "${member}": topics: cut short at offset 2\n` });

  it("a valid member rejected where an answer is due", () => {
    const advice = mistakesAdvice(LESSON, rejects("consumer-a"), "little-endian");
    expect(advice.stoppedShort).toBe(true);
    expect(adviceLines(advice).at(-1)).toBe(MAY_FOLLOW);
  });

  it("a valid member rejected before the bad one (reader-1 ahead of reader-2)", () => {
    expect(mistakesAdvice(TRUNCATED, rejects("reader-1"), "little-endian").stoppedShort).toBe(true);
  });

  it("a crash where an answer is due", () => {
    const advice = mistakesAdvice(LESSON, crash, "unknown-topic-crash");
    expect(advice.stoppedShort).toBe(true);
    expect(adviceLines(advice)).toContain(MAY_FOLLOW);
  });

  it("not for a wrong answer, an answer on bad bytes, or a crash on bad bytes", () => {
    const wrong = rawRun({ stdout: '{"consumer-a":{},"consumer-b":{},"consumer-c":{}}\n' });
    for (const [id, run] of [
      [LESSON, wrong],
      [TRUNCATED, rawRun({ stdout: "{}\n" })],
      [TRUNCATED, crash],
    ] as const) {
      const advice = mistakesAdvice(id, run, "global-assignment");
      expect(advice.stoppedShort, id).toBe(false);
      expect(adviceLines(advice), id).not.toContain(MAY_FOLLOW);
    }
  });
});
