// A rejection explained by the values the program reported (diagnose.ts valueMistakes): a decoder
// that reads integers little-endian reports, where it stops, the number those bytes make read
// backwards. The bytes and field boundaries are case 40's (rack-minus-2: version 3, rackId length
// fffe at offset 18, the last two bytes); the numbers are worked by hand from them.
import { describe, expect, it } from "vitest";
import {
  FileOutcomes,
  matchMistakes,
  reportedNumbers,
  valueMistakes,
} from "../../grader/diagnose/diagnose.ts";
import { builtInCase, judgedResult, rawRun, recordedLayouts } from "../helpers/results.ts";

const CASE = "40-decode-version-3-negative-values";
const MEMBER = "rack-minus-2";
const bytes = new Uint8Array(Buffer.from("000300000000ffffffff0000000000000001fffe", "hex"));

function rejection(line: string, offset: number | undefined) {
  return { kind: "error" as const, member: MEMBER, offset, line };
}
const layout = () => recordedLayouts(builtInCase(CASE))?.get(MEMBER);

describe("valueMistakes: little-endian from the value the program reports", () => {
  it("fffe read little-endian is 65279 (unsigned) or -257 (signed); big-endian it is -2", () => {
    expect(layout()?.spans.find((s) => s.start === 18)?.field).toBe("rackId length");
    // 65279 + 2: a string's length counted with its two-byte prefix.
    for (const line of [
      `error: member "${MEMBER}": rackId: string needs 65281 bytes at offset 18, only 0 remain`,
      `error: member "${MEMBER}": rackId: string needs 65279 bytes at offset 20, only 0 remain`,
      `error: member "${MEMBER}": rackId length: found -257 at offset 18`,
    ]) {
      const offset = Number(/at offset (\d+)/.exec(line)?.[1]);
      expect(valueMistakes(rejection(line, offset), bytes, layout()), line).toEqual([
        "little-endian",
      ]);
    }
  });

  it("nothing when the line reports the big-endian value, another number, or no offset", () => {
    for (const [line, offset] of [
      [`error: member "${MEMBER}": rackId: found -2 at offset 18`, 18],
      [`error: member "${MEMBER}": rackId: string needs 65279 bytes, found -2 at offset 18`, 18],
      [`error: member "${MEMBER}": rackId: string needs 7 bytes at offset 18`, 18],
      // userData length ffffffff reads -1 either way: no evidence of a byte order.
      [`error: member "${MEMBER}": userData: 4294967295 at offset 6`, 6],
      [`error: member "${MEMBER}": rackId: string needs 65281 bytes`, undefined],
    ] as const) {
      expect(valueMistakes(rejection(line, offset), bytes, layout()), line).toEqual([]);
    }
  });

  it("only numbers the program wrote after the id count: not the id's, not the verdict's escapes", () => {
    // The line as the verdict keeps it (printable: an unsafe character as \uXXXX).
    expect(reportedNumbers('error: member "a\\u2028 83886080": bad at offset 17')).toEqual([]);
    expect(reportedNumbers('error: member "m": rackId \\u2028 at offset 21')).toEqual([]);
    expect(
      reportedNumbers(`error: member "a 83886080 ${"x".repeat(1100)}": bad at offset 17`),
    ).toEqual([]);
    expect(reportedNumbers("rackId: string needs 65281 bytes at offset 18")).toEqual([]);
    expect(
      reportedNumbers('error: member "m": needs 65281 bytes at offset 18, only 0 remain'),
    ).toEqual([65281, 0]);
  });

  it("the numbers of the member's id do not count", () => {
    const line = `error: member "65281": rackId: bad at offset 18`;
    expect(valueMistakes({ ...rejection(line, 18), member: "65281" }, bytes, layout())).toEqual([]);
  });

  it("named through matchMistakes on the case, before a mutant that stopped in that field", async () => {
    const c = builtInCase(CASE);
    const run = rawRun({
      exitCode: 1,
      stderr: `error: member "${MEMBER}": rackId: string needs 65281 bytes at offset 18, only 0 remain\n`,
    });
    const { verdict } = judgedResult(c, run, "student");
    expect(verdict.outcome.kind).toBe("error");
    const source = new FileOutcomes();
    const outcomes = await source.outcomesFor(c);
    expect(outcomes).toBeDefined();
    const named = matchMistakes(verdict.outcome, c.expected, outcomes ?? new Map(), {
      offsets: await source.offsetsFor(c),
      layouts: recordedLayouts(c),
      memberBytes: (id) => (id === MEMBER ? bytes : undefined),
    });
    expect(named).toEqual(["little-endian"]);
    // Without the bytes, the mutant that reads rackId's length as an int32 stops in that field.
    expect(
      matchMistakes(verdict.outcome, c.expected, outcomes ?? new Map(), {
        offsets: await source.offsetsFor(c),
        layouts: recordedLayouts(c),
      }),
    ).toEqual(["field-width-wrong"]);
  });
});
