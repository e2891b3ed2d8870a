// The sync stage's reading of program output, attacked the way a hostile program's --sync answer
// would attack it: the verdict (verdict.ts, outcome.ts, answer-size.ts, assignment-bytes.ts), the
// explanation (assignment-fields.ts, through report/lines.ts) and the naming from the bytes
// (sync-evidence.ts). Each test pins a finding of the review that added this file: what must fail
// does, no input makes the grader throw, every program-chosen string is escaped, and the work is
// linear in the answer however many names Kafka's value has.
import { describe, expect, it } from "vitest";
import { syncMistakes } from "../../grader/diagnose/sync-evidence.ts";
import { assignmentFieldLines } from "../../grader/explain/assignment-fields.ts";
import { detailLines } from "../../grader/report/lines.ts";
import {
  assignmentKey,
  hexBytes,
  quoted,
  readAssignment,
  sameAssignment,
  type DecodedAssignment,
} from "../../grader/verdict/assignment-bytes.ts";
import { builtInCase, judgedResult, rawRun } from "../helpers/results.ts";

const SYNC_CASES = [
  "66-sync-lesson-7-partitions",
  "67-sync-idle-members",
  "68-sync-assignment-user-data",
  "69-sync-many-topics-utf8",
  "70-sync-static-members-kafka-bytes",
  "71-sync-after-rack-pass",
];
const CASE_66 = "66-sync-lesson-7-partitions";

/** A case's expected --sync answer: member id to hex. */
function kafkaAnswer(id: string): Record<string, string> {
  const expected = builtInCase(id).expected;
  if (!("output" in expected)) throw new Error(`${id} expects an error`);
  return expected.output as Record<string, string>;
}

/** A ConsumerProtocolAssignment as hex, Kafka's layout: entries in order, user data hex or null. */
function value(
  entries: readonly (readonly [string | Uint8Array, readonly number[]])[],
  userData: string | null = null,
  version = 3,
): string {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(6);
  head.writeInt16BE(version, 0);
  head.writeInt32BE(entries.length, 2);
  parts.push(head);
  for (const [topic, partitions] of entries) {
    const name = typeof topic === "string" ? Buffer.from(topic, "utf8") : Buffer.from(topic);
    const length = Buffer.alloc(2);
    length.writeInt16BE(name.length);
    const list = Buffer.alloc(4 + 4 * partitions.length);
    list.writeInt32BE(partitions.length, 0);
    partitions.forEach((p, i) => list.writeInt32BE(p, 4 + 4 * i));
    parts.push(length, name, list);
  }
  const userDataLength = Buffer.alloc(4);
  userDataLength.writeInt32BE(userData === null ? -1 : userData.length / 2);
  parts.push(userDataLength);
  if (userData !== null) parts.push(Buffer.from(userData, "hex"));
  return Buffer.concat(parts).toString("hex");
}

function decoded(hex: string): DecodedAssignment {
  const bytes = hexBytes(hex);
  const read = bytes === undefined ? undefined : readAssignment(bytes);
  if (read === undefined || !read.ok) throw new Error(`unreadable: ${hex}`);
  return read.value;
}

/** The result of case `id` on a run that printed `output` (JSON-encoded unless a string). */
const graded = (id: string, output: unknown) =>
  judgedResult(
    id,
    rawRun({ stdout: typeof output === "string" ? output : JSON.stringify(output) }),
    "x",
  );

/**
 * What no report line may hold raw: what printable.ts escapes (C0 but tab, DEL, C1, bidi, the line
 * and paragraph separators, U+FEFF), newline and carriage return (one line each), lone surrogates.
 */
/* eslint-disable no-control-regex -- finding control characters is the point */
const RAW_UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
/* eslint-enable no-control-regex */

/**
 * RAW_UNSAFE and the invisible characters (Default_Ignorable_Code_Point), which quoted escapes
 * too: no line assignmentFieldLines writes holds one raw. (The member-set lines, explain.ts's
 * memberSetLines through grid.ts's quote, still show them raw, as every other report line does.)
 */
const RAW_OR_INVISIBLE = new RegExp(`${RAW_UNSAFE.source}|\\p{Default_Ignorable_Code_Point}`, "u");

/** Names and member ids a hostile program may choose. */
const HOSTILE = [
  "\u001b[2J\u001b[1;1H\u2714 66-sync 1/1",
  "\u001b]8;;http://evil\u0007link\u001b]8;;\u0007",
  "a\u2028b\u2029c\r\nd",
  "\u202egnp.exe\u202c\u2066x\u2069",
  "\ufeffbom",
  "nul\u0000x\u007f\u0085\u009b31m",
  "\ud800lone\udc00",
  "orders\u200b",
  "or\u00adders\u2060",
  "\u{e0041}\u{e0042}hidden",
  "__proto__",
  "constructor",
];

describe("user data null written as -2 (Kafka's reader takes it, Kafka's writer never writes it)", () => {
  const kafka = kafkaAnswer(CASE_66);
  const a = kafka["consumer-a"] ?? "";
  const minus2 = `${a.slice(0, -8)}fffffffe`;

  it("fails the case, as trailing bytes do: every byte but the entries' order must be Kafka's", () => {
    expect(a.endsWith("ffffffff")).toBe(true);
    expect(graded(CASE_66, kafka).status).toBe("pass");
    expect(graded(CASE_66, { ...kafka, "consumer-a": minus2 })).toMatchObject({
      status: "fail",
      reason: "wrong-output",
    });
    expect(assignmentKey(minus2)).not.toBe(assignmentKey(a));
    expect(sameAssignment(decoded(minus2), decoded(a))).toBe(false);
    // Still null to a reader (Kafka: any negative length).
    expect(decoded(minus2).userData).toBe(null);
  });

  it("keeps the key of every value Kafka writes (recorded mutant outcomes stay valid)", () => {
    expect(assignmentKey(a)).toBe('value:[3,null,[["orders",[0,1,2]]]]');
    expect(assignmentKey(value([["t", [1]]], "0a0b"))).toBe('value:[3,"0a0b",[["t",[1]]]]');
    expect(assignmentKey(value([], ""))).toBe('value:[3,"",[]]');
  });

  it("marks the user-data length as the first difference", () => {
    const lines = assignmentFieldLines("consumer-a", minus2, a);
    expect(lines.at(-1)).toBe(
      "first difference: userData length at byte 30: yours -2 (null), Kafka's -1 (null)",
    );
  });
});

describe("what Kafka's writer never writes fails, though Kafka's reader may take it", () => {
  const kafka = kafkaAnswer(CASE_66);
  it.each([
    [
      "an entry split in two",
      value([
        ["orders", [0]],
        ["orders", [1, 2]],
      ]),
    ],
    [
      "an entry written twice",
      value([
        ["orders", [0, 1, 2]],
        ["orders", [0, 1, 2]],
      ]),
    ],
    [
      "an entry with no partitions added",
      value([
        ["orders", [0, 1, 2]],
        ["orders", []],
      ]),
    ],
    ["a byte after the user data", `${kafka["consumer-a"] ?? ""}00`],
    ["version 4 (read as 3)", value([["orders", [0, 1, 2]]], null, 4)],
  ])("%s", (_, hex) => {
    expect(graded(CASE_66, { ...kafka, "consumer-a": hex }).status).toBe("fail");
  });

  it("passes upper-case hex and another order of entries (the schema and LESSON allow both)", () => {
    const upper = Object.fromEntries(Object.entries(kafka).map(([m, h]) => [m, h.toUpperCase()]));
    expect(graded(CASE_66, upper).status).toBe("pass");
    const c69 = kafkaAnswer("69-sync-many-topics-utf8");
    const m1 = decoded(c69.m1 ?? "");
    const reversed = value(
      [...m1.topics].reverse().map((t) => [t.topic, t.partitions] as const),
      "0102",
    );
    expect(graded("69-sync-many-topics-utf8", { ...c69, m1: reversed }).status).toBe("pass");
  });
});

describe("member ids the program chooses", () => {
  const kafka = kafkaAnswer(CASE_66);
  const lines = (output: unknown) => {
    const r = graded(CASE_66, output);
    return { r, lines: detailLines(r, { colour: false, rerun: true }) };
  };

  it("__proto__, constructor and toString are plain members: no throw, counted as extra", () => {
    const proto = `{"__proto__":"0003",${JSON.stringify(kafka).slice(1)}`;
    for (const output of [
      proto,
      { ...kafka, constructor: "", toString: "00" },
      JSON.stringify({
        "consumer-a": kafka["consumer-a"],
        "consumer-b": kafka["consumer-b"],
      }).slice(0, -1) + `,"__proto__":${JSON.stringify(kafka["consumer-c"])}}`,
    ]) {
      const { r, lines: shown } = lines(output);
      expect(r).toMatchObject({ status: "fail", reason: "wrong-output" });
      expect(shown.some((l) => l.startsWith("members that are not in the group"))).toBe(true);
    }
  });

  it("an empty value and an empty answer fail without a throw", () => {
    expect(lines({ ...kafka, "consumer-a": "" }).lines.join("\n")).toContain(
      "cannot read version at byte 0",
    );
    expect(lines({}).r.status).toBe("fail");
    expect(graded(CASE_66, { ...kafka, "consumer-a": "000" }).reason).toBe("invalid-output");
  });

  it("every hostile id shows escaped in the detail lines", () => {
    // Nine ids more than the group's three: within the answer-size limit (4 x 3 members).
    for (const ids of [HOSTILE.slice(0, 9), HOSTILE.slice(3, 12)]) {
      const hostile = Object.fromEntries(ids.map((id) => [id, "0003"]));
      const { r, lines: shown } = lines({ ...kafka, ...hostile });
      expect(r.verdict.outcome.kind).toBe("output");
      expect(shown.some((l) => l.startsWith("members that are not in the group (9)"))).toBe(true);
      for (const l of shown) expect(l, JSON.stringify(l)).not.toMatch(RAW_UNSAFE);
    }
  });
});

describe("names the program's bytes spell, in the field-by-field explanation", () => {
  const kafka = kafkaAnswer(CASE_66);

  it.each(HOSTILE.map((name) => [JSON.stringify(name), name] as const))(
    "topic %s is escaped in every line, the heading's id too",
    (_, name) => {
      const mine = value([[name, [0, 1, 2]]]);
      const lines = assignmentFieldLines(name, mine, kafka["consumer-a"] ?? "");
      for (const l of lines) expect(l, JSON.stringify(l)).not.toMatch(RAW_OR_INVISIBLE);
      // And through the report's own escaping (report/lines.ts's textLine), unchanged in meaning.
      const r = graded(CASE_66, { ...kafka, "consumer-a": mine });
      for (const l of detailLines(r, { colour: false, rerun: true })) {
        expect(l, JSON.stringify(l)).not.toMatch(RAW_OR_INVISIBLE);
      }
    },
  );

  it("an invisible character is shown, so two names that print alike do not read alike", () => {
    expect(quoted("orders\u200b")).toBe('"orders\\u200b"');
    expect(quoted("or\u00adders")).toBe('"or\\u00adders"');
    expect(quoted("\u{e0041}x")).toBe('"\\udb40\\udc41x"');
    expect(quoted("a\ufe0fb\u2060")).toBe('"a\\ufe0fb\\u2060"');
    // What printable.ts already escaped stays as it was.
    expect(quoted("\u202e\u001b\u2028")).toBe('"\\u202e\\u001b\\u2028"');
    expect(quoted("日本 é 😀")).toBe('"日本 é 😀"');
    const lines = assignmentFieldLines(
      "m",
      value([["orders\u200b", [0, 1, 2]]]),
      kafka["consumer-a"] ?? "",
    );
    expect(lines.at(-1)).toBe(
      "first difference: topics[0].name length at byte 6: yours 9, Kafka's 6",
    );
    expect(lines.join("\n")).toContain('"orders\\u200b"');
  });
});

describe("no answer the schema accepts makes judge, explain or the naming throw", () => {
  /** A small deterministic generator (the same cases every run). */
  function rng(seed: number) {
    let s = seed;
    return (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
      return s % n;
    };
  }

  it.each(SYNC_CASES)("%s: mutated answers", (id) => {
    const kafka = kafkaAnswer(id);
    const next = rng(id.length * 7919);
    const special = [0x00, 0xff, 0x80, 0x7f, 0xed, 0xc0, 0x1b, 0xe2, 0xf0];
    for (let trial = 0; trial < 150; trial++) {
      const answer: Record<string, string> = {};
      for (const [member, hex] of Object.entries(kafka)) {
        let b = [...Buffer.from(hex, "hex")];
        for (let edits = next(4); edits >= 0; edits--) {
          const op = next(6);
          if (op === 0 && b.length > 0) b[next(b.length)] = next(256);
          else if (op === 1) b.splice(next(b.length + 1), 0, special[next(special.length)] ?? 0);
          else if (op === 2 && b.length > 0) b.splice(next(b.length), 1 + next(4));
          else if (op === 3) b = b.slice(0, next(b.length + 1));
          else if (op === 4) b.push(...Array.from({ length: next(6) }, () => next(256)));
          else if (b.length > 0) {
            const at = next(b.length);
            b[at] = (b[at] ?? 0) ^ (1 << next(8));
          }
        }
        const text = Buffer.from(b).toString("hex");
        answer[member] = next(10) === 0 ? text.toUpperCase() : text;
      }
      const r = graded(id, answer);
      expect(["pass", "fail"]).toContain(r.status);
      const shown = detailLines(r, { colour: false, rerun: true });
      expect(shown.join("\n")).not.toContain("could not draw");
      expect(shown.length).toBeLessThan(120);
      for (const l of shown) expect(l, JSON.stringify(l)).not.toMatch(RAW_OR_INVISIBLE);
      expect(() => syncMistakes(answer, kafka)).not.toThrow();
    }
  });
});

describe("bounded work on hostile answers", () => {
  // Kafka's value names 2,000 topics (a large private case); the program writes 1,300 empty entries
  // (7.8 KB, under the naming's 8 KiB budget), which read the same in dozens of layouts. Each name
  // used to be encoded (and cut, and compared) again for each entry in each layout: 2,000 x 1,300 x
  // dozens of layouts, minutes of the grader's time per case. Now each name is encoded once. The
  // calls are counted, not timed, and the count stops the work once it is far too many.
  it("naming from the bytes encodes Kafka's names once, not per entry and layout", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `topic-é-${i}`);
    const kafka = value(names.map((n) => [n, [0]] as const));
    const hostile = value(Array.from({ length: 1300 }, () => ["", []] as const));
    // About one call per character of each name, once: 2,000 names of 12 or 13 characters.
    const limit = 100_000;
    const encode = Object.getOwnPropertyDescriptor(TextEncoder.prototype, "encode");
    const original = TextEncoder.prototype.encode;
    let calls = 0;
    TextEncoder.prototype.encode = function (
      this: InstanceType<typeof TextEncoder>,
      input?: string,
    ) {
      calls++;
      if (calls > limit) throw new Error(`more than ${limit} calls of TextEncoder.encode`);
      return original.call(this, input);
    };
    try {
      expect(syncMistakes({ m: hostile }, { m: kafka })).toEqual([]);
    } finally {
      if (encode !== undefined) Object.defineProperty(TextEncoder.prototype, "encode", encode);
    }
    expect(calls).toBeLessThanOrEqual(limit);
  });

  it("an object where a member's hex belongs is invalid output, not an answer far larger", () => {
    // It used to count its `topics` entries (a count the sync stage never allows), and called a
    // 61-byte answer "far larger than Kafka's ... 94 bytes".
    const kafka = kafkaAnswer(CASE_66);
    for (const odd of [{ topics: [1, 2, 3, 4, 5] }, { orders: [0, 1, 2, 3, 4, 5] }, [1, 2, 3]]) {
      const r = graded(CASE_66, { ...kafka, "consumer-a": odd });
      expect(r).toMatchObject({ status: "fail", reason: "invalid-output" });
      expect(r.message).toContain("/consumer-a: must be string");
    }
  });

  it("an answer far larger than the case allows is judged by its size, before it is read", () => {
    const kafka = kafkaAnswer(CASE_66);
    const r = graded(CASE_66, { ...kafka, "consumer-a": "00".repeat(100_000) });
    expect(r).toMatchObject({ status: "fail", reason: "wrong-output" });
    expect(r.verdict.outcome.kind).toBe("oversized");
  });
});

describe("bounds added after the hostile review", () => {
  it("names nothing from a few bytes read as several mistakes (each name needs 4 bytes)", () => {
    const idle = { m: "000300000000ffffffff" };
    // Two bytes: version 0 and nothing else would be three mistakes read from 2 bytes.
    expect(syncMistakes({ m: "0000" }, idle)).toEqual([]);
    expect(syncMistakes({ m: "00020000" }, idle)).toEqual([]);
    // Ten bytes with version 0: one mistake, shown by a whole value.
    expect(syncMistakes({ m: "000000000000ffffffff" }, idle)).toEqual(["assignment-wrong-version"]);
  });

  it("sums up a value over 512 KiB in one line: sizes and the first byte that differs", () => {
    const big =
      "0003" + "00000001" + "0001" + "74" + "00020000" + "00000000".repeat(0x20000) + "ffffffff";
    const wrongEnd = big.slice(0, -8) + "00000000";
    const lines = assignmentFieldLines("m", wrongEnd, big);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `member "m": your assignment value has ${big.length / 2} bytes, Kafka's ${big.length / 2}: too large to show field by field; the first byte that differs (entries in the order written) is at byte ${big.length / 2 - 4}`,
    );
  });
});
