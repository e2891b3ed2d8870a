// Explaining a failure costs work bounded by the case's input, never by the program's output:
// the assignment grid, the line diff and the hex dump are called in-process with
// outputs a hostile or broken program could print, and the size of what they return is checked
// against constants. Ordinary failures are checked line for line against hand-written lines and
// the recorded reports, so the bounds change nothing a student normally sees.
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
} from "../../grader/explain/diff.ts";
import { CappedText } from "../../grader/verdict/capped-text.ts";
import type { Outcome } from "../../grader/verdict/outcome.ts";
import type { Reason, Status } from "../../grader/verdict/verdict.ts";
import type { MemberBytes } from "../../grader/diagnose/data.ts";
import {
  MAX_DRAWN_PARTITIONS,
  MAX_LEGEND,
  MAX_NAME,
  MAX_SUMMARY_MEMBERS,
  MAX_TOPICS,
  assignmentGrid,
} from "../../grader/explain/grid.ts";
import { firstDifference, hexDump } from "../../grader/explain/hexdump.ts";
import {
  FixtureSchemas,
  loadCases,
  type AssignmentOutput,
  type Case,
  type DecodeOutput,
} from "../../grader/cases/load.ts";
import { drawSafely } from "../../grader/explain/explain.ts";
import { caseRecord } from "../../grader/record.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { detailLines } from "../../grader/report/lines.ts";
import type { CaseResult } from "../../grader/results.ts";
import { ROOT } from "../helpers/program.ts";
import { recordedLayouts } from "../helpers/results.ts";

/** The most lines a grid can have: per topic a header, 4 lines per row or a summary, a stray line. */
const MAX_GRID_LINES = MAX_TOPICS * (1 + 4 * (MAX_DRAWN_PARTITIONS / 24) + 1) + 2;
/** The longest a grid line can be: a row of 24 four-character cells, or the legend. */
const MAX_GRID_LINE = Math.max(12 + 24 * 4 + 4, MAX_LEGEND * (MAX_NAME + 12) + 80);

const chars = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/** 0 .. n - 1, by a loop (no spread of a big array into a call). */
function upTo(n: number, from = 0): number[] {
  const list: number[] = [];
  for (let p = from; p < n; p++) list.push(p);
  return list;
}

/** Plain objects keyed by member id or topic name, as JSON.parse makes them (own properties). */
function output(entries: [string, [string, number[]][]][]): AssignmentOutput {
  const out: AssignmentOutput = Object.create(null) as AssignmentOutput;
  for (const [member, topics] of entries) {
    const owned: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
    for (const [topic, partitions] of topics) owned[topic] = partitions;
    out[member] = owned;
  }
  return out;
}
function topics(entries: [string, number][]): Record<string, number> {
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [topic, n] of entries) out[topic] = n;
  return out;
}

function expectBounded(lines: readonly string[]): void {
  expect(lines.length).toBeLessThanOrEqual(MAX_GRID_LINES);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_GRID_LINE);
}

// The lesson's 7 partitions over 3 members, as Kafka assigns them.
const LESSON_INPUT = topics([["orders", 7]]);
const LESSON_ANSWER = output([
  ["consumer-a", [["orders", [0, 1, 2]]]],
  ["consumer-b", [["orders", [3, 4]]]],
  ["consumer-c", [["orders", [5, 6]]]],
]);

describe("the assignment grid on ordinary failures (unchanged)", () => {
  it("draws a small grid exactly as the recorded reports show it", () => {
    const actual = output([
      ["consumer-a", [["orders", [0, 1]]]],
      ["consumer-b", [["orders", [2, 3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([
      'topic "orders" (7 partitions):',
      "  partition   0  1  2  3  4  5  6",
      "  expected    A  A  A  B  B  C  C",
      "  actual      A  A  B  B  B  C  C",
      "                    ^",
      'members: A = "consumer-a", B = "consumer-b", C = "consumer-c"; . = nobody, * = more than one',
    ]);
  });

  it("wraps at 24 columns, shows nobody and more than one, and draws only topics that differ", () => {
    const input = topics([
      ["a", 30],
      ["b", 2],
    ]);
    const expected = output([
      [
        "m1",
        [
          ["a", upTo(15)],
          ["b", [0]],
        ],
      ],
      [
        "m2",
        [
          ["a", upTo(30, 15)],
          ["b", [1]],
        ],
      ],
    ]);
    const actual = output([
      [
        "m1",
        [
          ["a", upTo(16)],
          ["b", [0]],
        ],
      ],
      [
        "m2",
        [
          ["a", upTo(29, 15)],
          ["b", [1]],
        ],
      ],
    ]);
    const row = (cells: string[]) => cells.map((v) => v.padStart(3)).join("");
    const first = upTo(24);
    expect(assignmentGrid(input, expected, actual)).toEqual([
      'topic "a" (30 partitions):',
      `  partition ${row(first.map(String))}`,
      `  expected  ${row(first.map((p) => (p < 15 ? "A" : "B")))}`,
      `  actual    ${row(first.map((p) => (p < 15 ? "A" : p === 15 ? "*" : "B")))}`,
      `            ${row(first.map((p) => (p === 15 ? "^" : "")))}`.trimEnd(),
      `  partition ${row(["24", "25", "26", "27", "28", "29"])}`,
      `  expected  ${row(["B", "B", "B", "B", "B", "B"])}`,
      `  actual    ${row(["B", "B", "B", "B", "B", "."])}`,
      `            ${row(["", "", "", "", "", "^"])}`,
      'members: A = "m1", B = "m2"; . = nobody, * = more than one',
    ]);
  });

  it("is empty when nothing differs (an empty list is the same as no topic)", () => {
    const actual = output([
      [
        "consumer-a",
        [
          ["orders", [0, 1, 2]],
          ["ghost", []],
        ],
      ],
      ["consumer-b", [["orders", [3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([]);
  });
});

describe("the assignment grid of a big group", () => {
  it("names the members that differ instead of drawing more owners than letters", () => {
    // 100 members, one partition each of "t"; the program swaps the owners of partitions 0 and 1.
    const members = Array.from({ length: 100 }, (_, i) => `m${String(i).padStart(3, "0")}`);
    const expected = Object.fromEntries(members.map((m, i) => [m, { t: [i] }]));
    const actual = { ...expected, m000: { t: [1] }, m001: { t: [0] } };
    expect(assignmentGrid({ t: 100 }, expected, actual)).toEqual([
      'topic "t" (100 partitions, 100 owners, too many to draw): 2 partitions owned differently; by member:',
      '  "m000": expected 0 (1 partition), actual 1 (1 partition)',
      '  "m001": expected 1 (1 partition), actual 0 (1 partition)',
    ]);
  });
});

describe("the assignment grid on outputs the program controls", () => {
  it("300,000 partitions of a 7-partition topic: one summary line, no overflow", () => {
    const actual = output([["consumer-a", [["orders", upTo(300_000)]]]]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual);
    expectBounded(lines);
    expect(lines).toContain(
      "  the program also assigned 299,993 partitions the topic does not have: 7, 8, 9, …, 299999",
    );
    expect(lines).toContain("  actual      A  A  A  A  A  A  A");
    expect(chars(lines)).toBeLessThan(2_000);
  });

  it("partition 2147483646: drawn up to the input's partitions only", () => {
    const actual = output([["consumer-a", [["orders", [2147483646]]]]]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual);
    expect(lines).toEqual([
      'topic "orders" (7 partitions):',
      "  partition   0  1  2  3  4  5  6",
      "  expected    A  A  A  B  B  C  C",
      "  actual      .  .  .  .  .  .  .",
      "              ^  ^  ^  ^  ^  ^  ^",
      "  the program also assigned 1 partition the topic does not have: 2147483646",
      'members: A = "consumer-a", B = "consumer-b", C = "consumer-c"; . = nobody, * = more than one',
    ]);
  });

  it("a right answer plus stray partitions: the topic is named, no grid", () => {
    const actual = output([
      ["consumer-a", [["orders", [0, 1, 2, 7, 2147483646]]]],
      ["consumer-b", [["orders", [3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([
      'topic "orders" (7 partitions):',
      "  the program also assigned 2 partitions the topic does not have: 7, 2147483646",
    ]);
  });

  it("a topic the input lacks: one line, never drawn", () => {
    const actual = output([
      [
        "consumer-a",
        [
          ["orders", [0, 1, 2]],
          ["ghost", upTo(100_000)],
        ],
      ],
      [
        "consumer-b",
        [
          ["orders", [3, 4]],
          ["ghost", [2147483646]],
        ],
      ],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([
      'topic "ghost" (not in the metadata): the program assigned 100,001 partitions of it to 2 members: 0, 1, 2, …, 2147483646',
    ]);
  });

  it("a topic named like an Object.prototype property is looked up as data", () => {
    const actual = output([
      [
        "consumer-a",
        [
          ["orders", [0, 1, 2]],
          ["constructor", [0]],
          ["__proto__", [1]],
        ],
      ],
      ["consumer-b", [["orders", [3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([
      'topic "__proto__" (not in the metadata): the program assigned 1 partition of it to 1 member: 1',
      'topic "constructor" (not in the metadata): the program assigned 1 partition of it to 1 member: 0',
    ]);
  });

  it("negative and non-integer partitions are strays, never columns", () => {
    const actual = output([
      ["consumer-a", [["orders", [-5, -1, 0, 0.5, 1, 2, 1e300]]]],
      ["consumer-b", [["orders", [3, 4, Number.NaN, Infinity]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    expect(assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual)).toEqual([
      'topic "orders" (7 partitions):',
      "  the program also assigned 6 partitions the topic does not have: -5, -1, 0.5, …, Infinity",
    ]);
    const wrong = output([["consumer-a", [["orders", [-1, 0.5, 3]]]]]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, wrong);
    expect(lines.filter((l) => l.startsWith("  partition"))).toEqual([
      "  partition   0  1  2  3  4  5  6",
    ]);
    expect(lines).toContain(
      "  the program also assigned 2 partitions the topic does not have: -1, 0.5",
    );
  });

  it("many invented topics: MAX_TOPICS shown, the rest counted", () => {
    const invented: [string, number[]][] = [];
    for (let t = 0; t < 100_000; t++) invented.push([`t${t}`, [t]]);
    const actual = output([
      ["consumer-a", [["orders", [0, 1, 2]], ...invented]],
      ["consumer-b", [["orders", [3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual);
    expect(lines).toHaveLength(MAX_TOPICS + 1);
    expect(lines[0]).toMatch(/^topic "t0" \(not in the metadata\)/);
    expect(lines.at(-1)).toBe(`(99,997 more topics differ)`);
  });

  it("a partition given to 100,000 members: the members that differ, not a grid", () => {
    const entries: [string, [string, number[]][]][] = [];
    for (let m = 0; m < 100_000; m++) entries.push([`x${m}`, [["orders", [0]]]]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, output(entries));
    expectBounded(lines);
    expect(lines[0]).toBe(
      'topic "orders" (7 partitions, 100,003 owners, too many to draw): 7 partitions owned differently; by member:',
    );
    expect(lines.at(-1)).toBe(
      `  (${(100_003 - MAX_SUMMARY_MEMBERS).toLocaleString("en-US")} more members differ)`,
    );
  });

  it("many members: more owners than letters are named, a few, never drawn as ?", () => {
    const n = MAX_DRAWN_PARTITIONS;
    const input = topics([["orders", n]]);
    const expected = output([
      ["m0", [["orders", upTo(n / 2)]]],
      ["m1", [["orders", upTo(n, n / 2)]]],
    ]);
    const entries: [string, [string, number[]][]][] = [];
    for (let p = 0; p < n; p++)
      entries.push([`member-${"x".repeat(1000)}-${p}`, [["orders", [p]]]]);
    const lines = assignmentGrid(input, expected, output(entries));
    expectBounded(lines);
    expect(lines[0]).toBe(
      `topic "orders" (${n} partitions, ${n + 2} owners, too many to draw): ${n} partitions owned differently; by member:`,
    );
    expect(lines.some((l) => l.includes("?"))).toBe(false);
    expect(lines).toHaveLength(MAX_SUMMARY_MEMBERS + 2);
  });

  it("a large topic: the members that differ, in a short summary", () => {
    const n = 100_000;
    const input = topics([["orders", n]]);
    const expected = output([
      ["consumer-a", [["orders", upTo(50_000)]]],
      ["consumer-b", [["orders", upTo(n, 50_000)]]],
    ]);
    const scattered = upTo(n).filter((p) => p % 2 === 0);
    const entries: [string, [string, number[]][]][] = [
      ["consumer-a", [["orders", scattered]]],
      ["consumer-b", [["orders", upTo(n, 50_000)]]],
    ];
    for (let m = 0; m < 20; m++) entries.push([`extra-${m}`, [["orders", [2 * m + 1]]]]);
    const lines = assignmentGrid(input, expected, output(entries));
    expectBounded(lines);
    expect(lines.some((l) => l.startsWith("  partition"))).toBe(false);
    expect(lines[0]).toBe(
      'topic "orders" (100,000 partitions, too many to draw): 50,000 partitions owned differently; by member:',
    );
    expect(lines[1]).toBe(
      '  "consumer-a": expected 0-49999 (50,000 partitions), actual 0,2,4,6,… (+49996 more runs) (50,000 partitions)',
    );
    expect(lines).toContain('  "extra-0": expected nothing, actual 1 (1 partition)');
    expect(lines.filter((l) => l.startsWith('  "'))).toHaveLength(MAX_SUMMARY_MEMBERS);
    expect(lines).toContain(`  (${21 - MAX_SUMMARY_MEMBERS} more members differ)`);
  });

  it("a topic of 2147483647 partitions costs what the output has, not the count", () => {
    const input = topics([["orders", 2147483647]]);
    const expected = output([["consumer-a", [["orders", [2147483646]]]]]);
    const actual = output([["consumer-b", [["orders", [2147483646]]]]]);
    const lines = assignmentGrid(input, expected, actual);
    expect(lines).toEqual([
      'topic "orders" (2,147,483,647 partitions, too many to draw): 1 partition owned differently; by member:',
      '  "consumer-a": expected 2147483646 (1 partition), actual nothing',
      '  "consumer-b": expected nothing, actual 2147483646 (1 partition)',
    ]);
  });

  it("a huge member id or topic name is cut", () => {
    const name = "n".repeat(1_000_000);
    const actual = output([
      [
        name,
        [
          ["orders", [0, 1, 2]],
          [name, [0]],
        ],
      ],
      ["consumer-b", [["orders", [3, 4]]]],
      ["consumer-c", [["orders", [5, 6]]]],
    ]);
    const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual);
    expectBounded(lines);
    expect(chars(lines)).toBeLessThan(2_000);
  });

  it("total output stays within a constant times the input, whatever the program printed", () => {
    const hostile: AssignmentOutput[] = [
      output([["consumer-a", [["orders", upTo(300_000)]]]]),
      output([["consumer-a", [["orders", [2147483646]]]]]),
      output(upTo(5_000).map((m): [string, [string, number[]][]] => [`m${m}`, [[`t${m}`, [m]]]])),
    ];
    const inputSize = JSON.stringify(LESSON_INPUT).length + JSON.stringify(LESSON_ANSWER).length;
    for (const actual of hostile) {
      const lines = assignmentGrid(LESSON_INPUT, LESSON_ANSWER, actual);
      expect(chars(lines)).toBeLessThan(20 * inputSize);
    }
  });
});

describe("the line diff", () => {
  const want: DecodeOutput = {
    a: { version: 1, topics: ["orders"], userData: null },
    b: { version: 3, topics: ["orders", "payments"], userData: "ff" },
    c: { version: 0, topics: [], userData: "" },
  };

  it("an ordinary difference, line for line", () => {
    const got: DecodeOutput = { ...want, b: { version: 3, topics: ["orders"], userData: "ff" } };
    expect(lineDiff(outputLines("decode", want), outputLines("decode", got))).toEqual([
      { sign: " ", text: '"a": version 1, topics ["orders"], userData null' },
      { sign: "-", text: '"b": version 3, topics ["orders","payments"], userData "ff"' },
      { sign: "+", text: '"b": version 3, topics ["orders"], userData "ff"' },
      { sign: " ", text: '"c": version 0, topics [], userData ""' },
    ]);
  });

  it("shows rackId where the case checks it (the rack stage's decode cases), and only there", () => {
    const checked = { version: 3, topics: ["t"], userData: null, rackId: "az1" };
    const read = { version: 3, topics: ["t"], userData: null, rackId: "" };
    const racks: DecodeOutput = { a: checked };
    const got: DecodeOutput = { a: read };
    expect(lineDiff(outputLines("decode", racks), outputLines("decode", got))).toEqual([
      { sign: "-", text: '"a": version 3, topics ["t"], userData null, rackId "az1"' },
      { sign: "+", text: '"a": version 3, topics ["t"], userData null, rackId ""' },
    ]);
    expect(firstDifference(checked, read)).toEqual({
      field: "rackId length",
      label: 'rackId: expected "az1", your program read ""',
    });
    // A case without rackId: the verdict's actual output has none either, and the line shows none.
    expect(outputLines("decode", { a: { version: 3, topics: ["t"], userData: null } })).toEqual([
      '"a": version 3, topics ["t"], userData null',
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

describe("one case's explanation failing", () => {
  it("degrades to a part that says so, with the error's first line", () => {
    expect(
      drawSafely(() => {
        throw new RangeError("Maximum call stack size exceeded\nat somewhere");
      }),
    ).toEqual({ kind: "not-drawn", error: "Maximum call stack size exceeded" });
    expect(drawSafely(() => ["after"])).toEqual(["after"]);
  });

  it("a thrown value that cannot even be printed still gives one", () => {
    expect(
      drawSafely(() => {
        throw {
          toString(): string {
            throw new Error("no");
          },
        };
      }),
    ).toEqual({ kind: "not-drawn", error: "an error that cannot be printed" });
  });
});

// ---- detail lines, against the recorded reports ----

const cases = new Map(
  loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas()).map((c): [string, Case] => [c.id, c]),
);
function caseOf(id: string): Case {
  const c = cases.get(id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
}

function failed(
  id: string,
  outcome: Outcome,
  reason: Reason,
  mistakes: string[],
  stderr = "",
  status: Status = "fail",
): CaseResult {
  const c = caseOf(id);
  const actual = outcome.kind === "output" ? outcome.output : undefined;
  const record = caseRecord(
    c,
    { status, reason, message: "", outcome, ...(actual ? { actual } : {}) },
    { stderr: CappedText.stderr(stderr), durationMs: 0, cpuMs: null },
    { rerun: { args: [] }, mistakes, layouts: recordedLayouts(c) },
  );
  // The recorded reports name the submission `<mutant>`, unquoted.
  return { ...record, rerun: `npm run grade -- <mutant> --only ${id}` };
}

/**
 * The detail lines the text report shows under a case as it is graded (rerun command included),
 * before its names are checked against the other cases.
 */
const failureDetails = (r: CaseResult) =>
  detailLines(r, { colour: false, rerun: true, unconfirmed: true });

/** The detail lines of one case in a recorded report, without the reporter's indentation. */
function recorded(file: string, id: string): string[] {
  const lines = readFileSync(join(ROOT, "test", "reports", file), "utf8").split("\n");
  const start = lines.findIndex((l) => l.startsWith(`✗ ${id} `));
  expect(start).toBeGreaterThanOrEqual(0);
  const block: string[] = [];
  for (let i = start + 1; lines[i]?.startsWith("      ") === true; i++)
    block.push(lines[i]?.slice(6) ?? "");
  return block;
}

describe("the detail lines", () => {
  it("the recorded grid report is unchanged", () => {
    const actual = output([
      [
        "c0",
        [
          ["t0", [0, 1, 2]],
          ["t1", [0, 1]],
        ],
      ],
      [
        "c1",
        [
          ["t1", [2]],
          ["t2", [0, 1, 2]],
        ],
      ],
    ]);
    const r = failed(
      "03-per-topic-skew",
      { kind: "output", mode: "assign", output: actual },
      "wrong-output",
      ["global-assignment"],
    );
    expect(failureDetails(r)).toEqual(recorded("global-assignment.txt", "03-per-topic-skew"));
  });

  it("the recorded hex dump report is unchanged", () => {
    const line = 'error: member "java-v3-multibyte": userData length at offset 22';
    const r = failed(
      "22-decode-version-3",
      { kind: "error", member: "java-v3-multibyte", offset: 22 },
      "wrong-output",
      ["char-length-names"],
      `${line}\n`,
    );
    expect(failureDetails(r)).toEqual(recorded("char-length-names.txt", "22-decode-version-3"));
  });

  it("an explanation that throws is one line; the rest of the case's details follow", () => {
    const actual = output([["c0", []]]);
    Object.defineProperty(actual, "c1", {
      enumerable: true,
      get(): never {
        throw new Error("a getter that throws");
      },
    });
    const r = failed(
      "03-per-topic-skew",
      { kind: "output", mode: "assign", output: actual },
      "wrong-output",
      [],
    );
    const lines = failureDetails(r);
    expect(lines).toContain(
      "(the grader could not draw this case's explanation: a getter that throws)",
    );
    expect(lines.at(-1)).toBe("rerun: npm run grade -- <mutant> --only 03-per-topic-skew");
  });

  it("300,000 partitions: the whole detail block stays small", () => {
    const actual = output([["c0", [["t0", upTo(300_000)]]]]);
    const r = failed(
      "03-per-topic-skew",
      { kind: "output", mode: "assign", output: actual },
      "wrong-output",
      [],
    );
    const lines = failureDetails(r);
    expect(lines).toContain(
      "    the program also assigned 299,997 partitions the topic does not have: 3, 4, 5, …, 299999",
    );
    expect(chars(lines)).toBeLessThan(3_000);
  });
});
