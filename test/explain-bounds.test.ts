// Explaining a failure costs work bounded by the case's input, never by the program's output
// (issue 13): the line diff and the hex dump are called in-process with outputs a hostile or
// broken program could print, and the size of what they return is checked against constants.
// Ordinary cases are checked line for line against hand-written lines.
import { describe, expect, it } from "vitest";
import {
  CHARS_MARGIN,
  LINE_CHARS_MARGIN,
  LINE_MARGIN,
  MAX_COMPARED_LINES,
  lineDiff,
  outputLines,
  ranges,
  type DiffLine,
} from "../grader/compare/diff.ts";
import type { MemberBytes } from "../grader/diagnose/data.ts";
import { firstDifference, hexDump } from "../grader/diagnose/hexdump.ts";
import type { DecodeOutput } from "../grader/fixtures/load.ts";

const chars = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/** 0 .. n - 1, by a loop (no spread of a big array into a call). */
function upTo(n: number, from = 0): number[] {
  const list: number[] = [];
  for (let p = from; p < n; p++) list.push(p);
  return list;
}

describe("the line diff", () => {
  const want: DecodeOutput = {
    a: { version: 1, topics: ["orders"], userData: null },
    b: { version: 3, topics: ["orders", "payments"], userData: "ff" },
    c: { version: 0, topics: [], userData: "" },
  };

  it("an ordinary difference, as before", () => {
    const got: DecodeOutput = { ...want, b: { version: 3, topics: ["orders"], userData: "ff" } };
    expect(lineDiff(outputLines("decode", want), outputLines("decode", got))).toEqual([
      { sign: " ", text: '"a": version 1, topics ["orders"], userData null' },
      { sign: "-", text: '"b": version 3, topics ["orders","payments"], userData "ff"' },
      { sign: "+", text: '"b": version 3, topics ["orders"], userData "ff"' },
      { sign: " ", text: '"c": version 0, topics [], userData ""' },
    ]);
  });

  it("100,000 lines from the program: compared up to the expected size plus a margin", () => {
    const expected = outputLines("decode", want);
    const actual: string[] = [];
    for (let i = 0; i < 100_000; i++) actual.push(`"x${i}": version 1, topics [], userData null`);
    const diff = lineDiff(expected, actual);
    expect(diff.length).toBeLessThanOrEqual(24 + 2);
    expect(diff.at(-1)).toEqual({
      sign: "…",
      text: `diff cut at ${expected.length + LINE_MARGIN} lines (the program's answer has 100000)`,
    });
  });

  it("a 4 MB line is cut, and a cut line never matches", () => {
    const expected = ["same", "other"];
    const long = `same${"x".repeat(4_000_000)}`;
    const diff = lineDiff(expected, [long, "other"]);
    expect(diff[0]).toEqual({ sign: "-", text: "same" });
    expect(diff[1]?.sign).toBe("+");
    expect(diff[1]?.text.length).toBeLessThan(5 + LINE_CHARS_MARGIN + 40);
    expect(diff[1]?.text).toMatch(/… \(3999\d+ more characters\)$/);
    expect(chars(diff.map((d: DiffLine) => d.text))).toBeLessThan(CHARS_MARGIN);
  });

  it("an expected side past MAX_COMPARED_LINES is cut too", () => {
    const expected = upTo(MAX_COMPARED_LINES + 10).map(String);
    const diff = lineDiff(expected, expected);
    expect(diff.slice(-2)).toEqual([
      {
        sign: "…",
        text: `diff cut at ${MAX_COMPARED_LINES} lines (the expected answer has ${MAX_COMPARED_LINES + 10})`,
      },
      {
        sign: "…",
        text: `diff cut at ${MAX_COMPARED_LINES} lines (the program's answer has ${MAX_COMPARED_LINES + 10})`,
      },
    ]);
  });

  it("ranges: runs capped on request", () => {
    expect(ranges([0, 1, 2, 5])).toBe("0-2,5");
    expect(ranges([0, 2, 4, 6, 8], 2)).toBe("0,2,… (+3 more runs)");
    expect(ranges([0, 2, 4], 2)).toBe("0,2,… (+1 more run)");
  });
});

describe("the hex dump", () => {
  it("many spans: no spread into Math.max, one line per span", () => {
    const n = 200_000;
    const spans = upTo(n).map((i) => ({ field: `f${i}`, start: i, end: i + 1, value: "" }));
    const layout: MemberBytes = { spans, error: null };
    const lines = hexDump(new Uint8Array(n), layout, { offset: 5, label: "here" });
    expect(lines).toHaveLength(n + 1);
  });

  it("a value the program read is cut; the expected one is not", () => {
    const expected = { version: 1, topics: ["orders"], userData: null };
    const huge = "x".repeat(4_000_000);
    const { label } = firstDifference(expected, { version: 1, topics: [huge], userData: null });
    expect(label.length).toBeLessThan(300);
    expect(label).toMatch(
      /^topics\[0\]: expected "orders", your program read "x+… \(\d+ more characters\)$/,
    );
  });
});
