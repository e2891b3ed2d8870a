// The grader's reading of ConsumerProtocolAssignment bytes (grader/verdict/assignment-bytes.ts)
// against Kafka 3.8's own reading and writing (test/vectors/assignment.jsonl), its comparison of
// values (entry order ignored, everything else counted), and the field-by-field explanation
// (grader/explain/assignment-fields.ts) on hand-built pairs and hostile text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assignmentFieldLines } from "../../grader/explain/assignment-fields.ts";
import {
  assignmentKey,
  hexBytes,
  readAssignment,
  sameAssignment,
  type AssignmentRead,
  type DecodedAssignment,
} from "../../grader/verdict/assignment-bytes.ts";
import { ROOT } from "../helpers/program.ts";
import { readJsonl, type AssignmentVector } from "../helpers/vectors.ts";

const vectors = readJsonl<AssignmentVector>("assignment.jsonl");
const toHex = (bytes: Uint8Array | null) =>
  bytes === null ? null : Buffer.from(bytes).toString("hex");

/** readAssignment of hex that must be hex. */
function read(hex: string): AssignmentRead {
  const bytes = hexBytes(hex);
  if (bytes === undefined) throw new Error(`not hex: ${hex}`);
  return readAssignment(bytes);
}

/** The decoded value of hex that must read cleanly. */
function decoded(hex: string): DecodedAssignment {
  const r = read(hex);
  if (!r.ok) throw new Error(`${r.error.field} at ${r.error.offset}: ${r.error.message}`);
  return r.value;
}

describe("readAssignment against Kafka's decoding (decode-assignment lines)", () => {
  const lines = vectors.flatMap((v) => (v.mode === "decode-assignment" ? [v] : []));

  it("has the 14 lines the vectors' README lists", () => {
    expect(lines).toHaveLength(14);
  });

  it.each(lines.map((v) => [v.note, v] as const))("%s", (_, v) => {
    const r = read(v.input.hex);
    if ("error" in v.expected) {
      expect(r.ok).toBe(false);
      if (r.ok) return;
      // The message quotes Kafka's own words where the grader raises the same error.
      const kafkaSays = v.expected.error.slice(v.expected.error.indexOf(": ") + 2);
      expect(r.error.message).toContain(kafkaSays);
      // Fields read before the error end where the failed one starts.
      const last = r.fields.at(-1);
      expect(last === undefined ? 0 : last.offset + last.length).toBe(r.error.offset);
      return;
    }
    expect(r.ok, r.ok ? "" : r.error.message).toBe(true);
    if (!r.ok) return;
    expect(r.value.version).toBe(v.expected.version);
    expect(r.value.topics.flatMap((t) => t.partitions.map((p) => [t.topic, p]))).toEqual(
      v.expected.partitions,
    );
    expect(toHex(r.value.userData)).toBe(v.expected.userData);
    expect(r.value.remaining).toBe(v.expected.remaining);
  });

  it("names the field that fails and its first byte", () => {
    const at = (note: string) => {
      const v = lines.find((l) => l.note === note);
      const r = read(v?.input.hex ?? "");
      return r.ok ? undefined : { field: r.error.field, offset: r.error.offset };
    };
    expect(at("header version -1: unsupported")).toEqual({ field: "version", offset: 0 });
    expect(at("assigned partitions count 2147483647, far past the bytes")).toEqual({
      field: "topic count",
      offset: 2,
    });
    expect(at("partitions count 500, far past the bytes")).toEqual({
      field: "topics[0].partition count",
      offset: 9,
    });
    expect(at("second partition and user data missing")).toEqual({
      field: "topics[0].partitions[1]",
      offset: 22,
    });
  });
});

describe("Kafka's written values read back (encode-assignment lines)", () => {
  const written = vectors.flatMap((v) =>
    v.mode === "encode-assignment" && "hex" in v.expected
      ? [[v.note, v.expected.hex] as const]
      : [],
  );

  it("has every line but the refused one", () => {
    expect(written).toHaveLength(25);
  });

  it.each(written)("%s", (_, hex) => {
    const value = decoded(hex);
    expect(value.remaining).toBe(0);
    expect(value.version).toBeLessThanOrEqual(3);
    // The fields cover the value without gap or overlap, from byte 0 to its end.
    let end = 0;
    for (const f of value.fields) {
      expect(f.offset, f.name).toBe(end);
      end += f.length;
    }
    expect(end).toBe(hex.length / 2);
    expect(sameAssignment(value, value)).toBe(true);
  });
});

// Hand-built values: version 3, user data null unless said otherwise.
// prettier-ignore
const A = [
  "0003", "00000002", // version 3, two entries
  "0001", "61", "00000002", "00000000", "00000001", // "a": 0, 1
  "0001", "62", "00000001", "00000002", // "b": 2
  "ffffffff", // null user data
].join("");
// prettier-ignore
const A_SWAPPED = [
  "0003", "00000002",
  "0001", "62", "00000001", "00000002", // "b": 2
  "0001", "61", "00000002", "00000000", "00000001", // "a": 0, 1
  "ffffffff",
].join("");
// prettier-ignore
const A_PARTITIONS_REVERSED = [
  "0003", "00000002",
  "0001", "61", "00000002", "00000001", "00000000", // "a": 1, 0
  "0001", "62", "00000001", "00000002",
  "ffffffff",
].join("");
const A_EMPTY_USER_DATA = A.slice(0, -8) + "00000000";
const A_TRAILING = A + "00";
const A_VERSION_1 = "0001" + A.slice(4);
// Two entries of one topic, in both orders, and the same partitions in one entry.
// Each entry: name length 1, "a", partition count, partitions.
const TWO_A =
  "0003" + "00000002" + "0001610000000100000000" + "0001610000000100000001" + "ffffffff";
const TWO_A_SWAPPED =
  "0003" + "00000002" + "0001610000000100000001" + "0001610000000100000000" + "ffffffff";
const ONE_A = "0003" + "00000001" + "000161000000020000000000000001" + "ffffffff";

describe("sameAssignment and assignmentKey", () => {
  const same = (a: string, b: string) => sameAssignment(decoded(a), decoded(b));

  it("ignore the order of entries", () => {
    expect(same(A_SWAPPED, A)).toBe(true);
    expect(assignmentKey(A_SWAPPED)).toBe(assignmentKey(A));
    expect(same(TWO_A_SWAPPED, TWO_A)).toBe(true);
    expect(assignmentKey(TWO_A_SWAPPED)).toBe(assignmentKey(TWO_A));
  });

  it("count the order of partitions within an entry", () => {
    expect(same(A_PARTITIONS_REVERSED, A)).toBe(false);
    expect(assignmentKey(A_PARTITIONS_REVERSED)).not.toBe(assignmentKey(A));
  });

  it("keep two entries of one topic apart from one entry with both partitions", () => {
    expect(same(ONE_A, TWO_A)).toBe(false);
    expect(same(TWO_A, ONE_A)).toBe(false);
    expect(assignmentKey(ONE_A)).not.toBe(assignmentKey(TWO_A));
  });

  it("tell null user data from empty, and versions apart", () => {
    expect(decoded(A_EMPTY_USER_DATA).userData).toEqual(new Uint8Array(0));
    expect(same(A_EMPTY_USER_DATA, A)).toBe(false);
    expect(same(A, A_EMPTY_USER_DATA)).toBe(false);
    expect(assignmentKey(A_EMPTY_USER_DATA)).not.toBe(assignmentKey(A));
    expect(same(A_VERSION_1, A)).toBe(false);
    expect(assignmentKey(A_VERSION_1)).not.toBe(assignmentKey(A));
  });

  it("refuse trailing bytes in the program's value", () => {
    expect(decoded(A_TRAILING).remaining).toBe(1);
    expect(same(A_TRAILING, A)).toBe(false);
    expect(assignmentKey(A_TRAILING)).toBe(`raw:${A_TRAILING}`);
  });

  it("key upper-case hex as lower-case, and anything unreadable by its text", () => {
    expect(assignmentKey(A.toUpperCase())).toBe(assignmentKey(A));
    expect(assignmentKey(A)).toMatch(/^value:/);
    expect(assignmentKey("0003FFFFFFFF")).toBe("raw:0003ffffffff");
    expect(assignmentKey("zz")).toBe("raw:zz");
  });
});

describe("hexBytes", () => {
  it("reads either case and refuses odd lengths, spaces and other characters", () => {
    expect(hexBytes("00aBff")).toEqual(new Uint8Array([0, 0xab, 0xff]));
    expect(hexBytes("")).toEqual(new Uint8Array(0));
    for (const bad of ["0", "0g", "00 ff", "0x00", "ÿÿ", "-1"]) {
      expect(hexBytes(bad), bad).toBe(undefined);
    }
  });
});

describe("bounded work", () => {
  it("fails at a count of 0x7fffffff before reading or allocating anything for it", () => {
    const topics = read("0003" + "7fffffff" + "0001610000000100000000ffffffff");
    expect(topics.ok).toBe(false);
    if (!topics.ok) {
      expect(topics.error).toMatchObject({ field: "topic count", offset: 2 });
      expect(topics.fields.map((f) => f.name)).toEqual(["version"]);
    }
    const partitions = read("0003" + "00000001" + "000161" + "7fffffff" + "ffffffff");
    expect(partitions.ok).toBe(false);
    if (!partitions.ok) {
      expect(partitions.error).toMatchObject({ field: "topics[0].partition count", offset: 9 });
    }
  });

  it("fails on negative counts and lengths; any negative user-data length is null", () => {
    expect(read("0003" + "fffffffe" + "ffffffff").ok).toBe(false);
    expect(read("0003" + "00000001" + "ffff" + "00000000ffffffff").ok).toBe(false);
    expect(read("0003" + "00000001" + "000161" + "80000000" + "ffffffff").ok).toBe(false);
    const minus2 = decoded("0003" + "00000000" + "fffffffe");
    expect(minus2.userData).toBe(null);
    expect(minus2.fields.at(-1)?.value).toBe("-2 (null)");
    expect(read("").ok).toBe(false);
    expect(read("00").ok).toBe(false);
  });
});

describe("topic names decoded as Java decodes them (test/java-strings/utf8.tsv)", () => {
  const table = readFileSync(join(ROOT, "test", "java-strings", "utf8.tsv"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => {
      const [hex = "", units = ""] = line.split("\t");
      const codeUnits = units === "" ? [] : units.split(" ").map((u) => Number.parseInt(u, 16));
      return { hex, units: codeUnits };
    });

  it("every byte string of Java's table, code unit for code unit", () => {
    expect(table.length).toBeGreaterThan(1000);
    const wrong: string[] = [];
    for (const { hex, units } of table) {
      // Version 3, one entry: this name with partition 0; user data null.
      const nameLength = (hex.length / 2).toString(16).padStart(4, "0");
      const r = read(`0003${"00000001"}${nameLength}${hex}${"00000001"}${"00000000"}ffffffff`);
      const topic = r.ok ? r.value.topics[0]?.topic : undefined;
      const got = Array.from({ length: topic?.length ?? 0 }, (_, i) => topic?.charCodeAt(i));
      if (topic === undefined || JSON.stringify(got) !== JSON.stringify(units)) wrong.push(hex);
    }
    expect(wrong).toEqual([]);
  });
});

describe("assignmentFieldLines", () => {
  const lastLine = (lines: string[]) => lines.at(-1) ?? "";
  const marked = (lines: string[]) => lines.filter((l) => l.startsWith(">"));

  it("marks a little-endian topic count, which Kafka cannot read", () => {
    // Kafka: v1, "a.b": [9], user data null. Yours: every int32 little-endian.
    const kafka = "0001" + "00000001" + "0003612e62" + "00000001" + "00000009" + "ffffffff";
    const yours = "0001" + "01000000" + "0003612e62" + "01000000" + "09000000" + "ffffffff";
    const lines = assignmentFieldLines("c0", yours, kafka);
    expect(lines[0]).toContain('member "c0"');
    expect(marked(lines)).toHaveLength(1);
    expect(marked(lines)[0]).toMatch(
      /^>\s+2\s+topic count\s+01 00 00 00\s+\(cannot read\)\s+\| 00 00 00 01\s+1$/,
    );
    expect(lines).toContain(
      "cannot read topic count at byte 2: count 16777216 is more than the 17 bytes left after it (Kafka: Tried to allocate a collection of size 16777216, but there are only 17 bytes remaining.)",
    );
    expect(lastLine(lines)).toBe(
      "first difference: topic count at byte 2: yours (cannot read), Kafka's 1",
    );
  });

  it("marks user data length -1 where Kafka writes 0", () => {
    // Kafka: v3, "orders": [24, 28], user data empty (length 0).
    const kafka =
      "0003" + "00000001" + "00066f7264657273" + "00000002" + "00000018" + "0000001c" + "00000000";
    const yours = kafka.slice(0, -8) + "ffffffff";
    const lines = assignmentFieldLines("m", yours, kafka);
    expect(marked(lines)).toHaveLength(1);
    expect(marked(lines)[0]).toContain("userData length");
    expect(lastLine(lines)).toBe(
      "first difference: userData length at byte 26: yours -1 (null), Kafka's 0",
    );
  });

  it("puts Kafka's entries in your order, so the first difference is a real one", () => {
    // Yours: "b" first (allowed), with partition 3 where Kafka has 2.
    const yours = A_SWAPPED.replace("0001620000000100000002", "0001620000000100000003");
    const lines = assignmentFieldLines("m", yours, A);
    expect(lines.join("\n")).toContain("in the order your bytes name the topics");
    expect(lastLine(lines)).toBe(
      "first difference: topics[0].partitions[0] at byte 13: yours 3, Kafka's 2",
    );
    // Two entries of one topic in the other order: no difference at all.
    const none = assignmentFieldLines("m", TWO_A_SWAPPED, TWO_A);
    expect(lastLine(none)).toMatch(/^first difference: none/);
  });

  it("names trailing bytes", () => {
    const lines = assignmentFieldLines("m", A_TRAILING, A);
    expect(marked(lines)).toEqual([]);
    expect(lines).toContain(
      "1 byte after the user data, from byte 36: 00 (Kafka writes nothing after the user data)",
    );
    expect(lastLine(lines)).toBe(
      "first difference: trailing bytes at byte 36: yours 1 byte, Kafka's none",
    );
  });

  it("escapes the member id and the names", () => {
    const hostile = "\u001b[31m\u2028";
    const raw = (text: string) => ["\u001b", "\u2028"].filter((c) => text.includes(c));
    // Name length 9: ESC [ 3 1 m, U+2028 (3 bytes), t.
    const name = Buffer.from(`${hostile}t`, "utf8").toString("hex");
    const value = (partition: string) =>
      "0003" + "00000001" + "0009" + name + "00000001" + partition + "ffffffff";
    const lines = assignmentFieldLines(`${hostile}id`, value("00000001"), value("00000000"));
    const text = lines.join("\n");
    expect(raw(text)).toEqual([]);
    expect(text).toContain('member "\\u001b[31m\\u2028id"');
    expect(text).toContain('"\\u001b[31m\\u2028t"');
    expect(lastLine(lines)).toBe(
      "first difference: topics[0].partitions[0] at byte 21: yours 1, Kafka's 0",
    );
    // Text that is not hex is quoted too.
    expect(raw(assignmentFieldLines("m", `${hostile}zz`, A).join("\n"))).toEqual([]);
  });

  it("stays short for a value of 100,000 partitions", () => {
    const count = 100_000;
    const value = (wrongAt: number) => {
      const bytes = Buffer.alloc(2 + 4 + 3 + 4 + 4 * count + 4);
      bytes.writeInt16BE(3, 0);
      bytes.writeInt32BE(1, 2);
      bytes.write("000161", 6, "hex"); // name length 1, "a"
      bytes.writeInt32BE(count, 9);
      for (let p = 0; p < count; p++) bytes.writeInt32BE(p === wrongAt ? -p : p, 13 + 4 * p);
      bytes.writeInt32BE(-1, 13 + 4 * count);
      return bytes.toString("hex");
    };
    const lines = assignmentFieldLines("m", value(50_000), value(-1));
    expect(lines.length).toBeLessThanOrEqual(50);
    expect(lines.join("\n").length).toBeLessThan(8_000);
    expect(lines).toContain("  … 50000 fields before these are the same and not shown");
    expect(lastLine(lines)).toBe(
      "first difference: topics[0].partitions[50000] at byte 200013: yours -50000, Kafka's 50000",
    );
  });
});
