// The text report's end when every case graded stopped at a stub (report/lines.ts textReportEnd):
// it points to the task the cases reached, not always to the decoder.
import { describe, expect, it } from "vitest";
import { confirmedLines, textReportEnd } from "../../grader/report/lines.ts";
import { gradeResults, judgedResult, rawRun } from "../helpers/results.ts";

const stub = (fn: string, file: string, anchor: string) =>
  rawRun({
    exitCode: 3,
    stderr: `not implemented yet: ${fn} (${file}), see LESSON.md#${anchor}\n`,
  });
const DECODE = stub("decodeSubscription", "src/subscription.ts", "the-subscription-bytes");
const ASSIGN = stub("assignRange", "src/range-assignor.ts", "the-range-assignor");
const CASES = ["01-lesson-7-partitions-3-members", "03-per-topic-skew"];

function end(runs: readonly ReturnType<typeof rawRun>[]): string {
  const results = CASES.map((id, i) => judgedResult(id, runs[i] ?? DECODE, "student"));
  for (const r of results) expect(r.reason).toBe("not-implemented");
  return textReportEnd(gradeResults("student", results));
}

describe("the pointer to the next task", () => {
  it("the decoder while any case reached its stub", () => {
    expect(end([DECODE, DECODE])).toContain(
      "Nothing is implemented yet: start with decodeSubscription",
    );
    expect(end([ASSIGN, DECODE])).toContain(
      "Nothing is implemented yet: start with decodeSubscription",
    );
  });

  it("assignRange when every case got past the decoder to its stub", () => {
    const text = end([ASSIGN, ASSIGN]);
    expect(text).toContain(
      "Every case stopped at assignRange's stub: implement assignRange in src/range-assignor.ts next",
    );
    expect(text).not.toContain("Nothing is implemented yet");
  });
});

describe("the confirmed names at the end", () => {
  it("lists the cases with the same advice together, and the advice once", () => {
    const wrong = rawRun({ stdout: "{}\n" });
    const named = (id: string, mistake: string) => judgedResult(id, wrong, "s", [mistake]);
    const text = confirmedLines(
      [
        named("01-lesson-7-partitions-3-members", "extra-to-last"),
        named("03-per-topic-skew", "global-assignment"),
        named("02-one-member-takes-all", "extra-to-last"),
      ],
      false,
    );
    const lines = text.split("\n");
    expect(lines.filter((l) => l.startsWith("      This looks like:"))).toEqual([
      "      This looks like: extra partitions given to the last members (extra-to-last).",
      "      This looks like: one assignment across all topics (global-assignment).",
    ]);
    const first = lines.findIndex((l) => l.startsWith("  01-"));
    expect(lines[first + 1]).toMatch(/^ {2}02-/);
    expect(lines[first + 2]).toMatch(/extra-to-last/);
    expect(lines[first + 5]).toMatch(/^ {2}03-/);
  });
});
