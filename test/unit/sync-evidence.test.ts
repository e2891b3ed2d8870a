// grader/diagnose/sync-evidence.ts: naming an encoder's mistakes from its bytes. Every value below
// is written out by hand from ConsumerProtocolAssignment's layout (Kafka 3.8): int16 version 3;
// int32 topic count; per topic an int16 UTF-8 length, the name, an int32 count and int32
// partitions; int32 user-data length (-1: null) and bytes. All big-endian unless a test says.
import { describe, expect, it } from "vitest";
import { confirmNames, type NamedCase } from "../../grader/diagnose/diagnose.ts";
import {
  hiddenOn,
  shownByBytes,
  syncMistakes,
  syncReading,
} from "../../grader/diagnose/sync-evidence.ts";
import { adviceLines } from "../../grader/report/lines.ts";

const ORDERS = "6f7264657273"; // "orders" in UTF-8, 6 bytes
const NIHON = "e697a5e69cac"; // "日本" in UTF-8, 6 bytes (2 UTF-16 units)

// Kafka's values: m1 orders 0-2 and 日本 0, null user data; m2 orders 3-4, user data 0a0b;
// idle: nothing, null user data.
const KAFKA = {
  m1:
    "0003" +
    "00000002" +
    "0006" +
    ORDERS +
    "00000003" +
    "00000000" +
    "00000001" +
    "00000002" +
    "0006" +
    NIHON +
    "00000001" +
    "00000000" +
    "ffffffff",
  m2:
    "0003" +
    "00000001" +
    "0006" +
    ORDERS +
    "00000002" +
    "00000003" +
    "00000004" +
    "00000002" +
    "0a0b",
  idle: "0003" + "00000000" + "ffffffff",
};

/** KAFKA with some members' values replaced. */
const wrote = (changes: Partial<Record<keyof typeof KAFKA, string>>) => ({ ...KAFKA, ...changes });

describe("syncMistakes", () => {
  it("names nothing for Kafka's bytes, its topic entries in another order too", () => {
    const swapped =
      "0003" +
      "00000002" +
      "0006" +
      NIHON +
      "00000001" +
      "00000000" +
      "0006" +
      ORDERS +
      "00000003" +
      "00000000" +
      "00000001" +
      "00000002" +
      "ffffffff";
    expect(syncMistakes(wrote({ m1: swapped }), KAFKA)).toEqual([]);
  });

  it("names little-endian for every integer swapped, and for some fields alone", () => {
    const le = {
      m1:
        "0300" +
        "02000000" +
        "0600" +
        ORDERS +
        "03000000" +
        "00000000" +
        "01000000" +
        "02000000" +
        "0600" +
        NIHON +
        "01000000" +
        "00000000" +
        "ffffffff",
      m2:
        "0300" +
        "01000000" +
        "0600" +
        ORDERS +
        "02000000" +
        "03000000" +
        "04000000" +
        "02000000" +
        "0a0b",
      idle: "0300" + "00000000" + "ffffffff",
    };
    expect(syncMistakes(le, KAFKA)).toEqual(["assignment-little-endian"]);
    // Only the two counts little-endian (the version, lengths and partitions big-endian).
    const counts = {
      m1:
        "0003" +
        "02000000" +
        "0006" +
        ORDERS +
        "03000000" +
        "00000000" +
        "00000001" +
        "00000002" +
        "0006" +
        NIHON +
        "01000000" +
        "00000000" +
        "ffffffff",
      m2:
        "0003" +
        "01000000" +
        "0006" +
        ORDERS +
        "02000000" +
        "00000003" +
        "00000004" +
        "00000002" +
        "0a0b",
      idle: KAFKA.idle,
    };
    expect(syncMistakes(counts, KAFKA)).toEqual(["assignment-little-endian"]);
  });

  it("names a name's length in UTF-16 units, with all its UTF-8 bytes after it or only that many", () => {
    const units = (name: string) =>
      "0003" +
      "00000002" +
      "0006" +
      ORDERS +
      "00000003" +
      "00000000" +
      "00000001" +
      "00000002" +
      "0002" +
      name +
      "00000001" +
      "00000000" +
      "ffffffff";
    expect(syncMistakes(wrote({ m1: units(NIHON) }), KAFKA)).toEqual([
      "assignment-char-length-names",
    ]);
    expect(syncMistakes(wrote({ m1: units("e697") }), KAFKA)).toEqual([
      "assignment-char-length-names",
    ]);
  });

  it("names a name's length in UTF-16 units beside every field little-endian", () => {
    const little = {
      m1:
        "0300" +
        "02000000" +
        "0600" +
        ORDERS +
        "03000000" +
        "00000000" +
        "01000000" +
        "02000000" +
        "0200" + // 日本's length as 2 UTF-16 units, little-endian
        NIHON +
        "01000000" +
        "00000000" +
        "ffffffff",
      m2:
        "0300" +
        "01000000" +
        "0600" +
        ORDERS +
        "02000000" +
        "03000000" +
        "04000000" +
        "02000000" +
        "0a0b",
      idle: "0300" + "00000000" + "ffffffff",
    };
    expect(syncMistakes(little, KAFKA)).toEqual([
      "assignment-char-length-names",
      "assignment-little-endian",
    ]);
  });

  it("names null user data's -1 written as an int16 (a nullable string's null) a field's width", () => {
    const short = wrote({
      m1: KAFKA.m1.slice(0, -8) + "ffff",
      idle: KAFKA.idle.slice(0, -8) + "ffff",
    });
    const reading = syncReading(short, KAFKA);
    expect(reading.ids).toEqual(["assignment-field-width-wrong"]);
    // Hidden where no user data is null; shown where one is.
    expect(hiddenOn(reading.layouts, { m2: KAFKA.m2 })).toBe(true);
    expect(hiddenOn(reading.layouts, { idle: KAFKA.idle })).toBe(false);
  });

  it("names user data left out where it is null (`if (userData)`), not where it is set", () => {
    // m1 and idle have null user data and no field; m2's 0a0b is written as Kafka writes it.
    const ifSet = wrote({ m1: KAFKA.m1.slice(0, -8), idle: KAFKA.idle.slice(0, -8) });
    const reading = syncReading(ifSet, KAFKA);
    expect(reading.ids).toEqual(["assignment-user-data-missing"]);
    // Such a writer writes Kafka's bytes where every member has user data, not where one has none.
    expect(hiddenOn(reading.layouts, { m2: KAFKA.m2 })).toBe(true);
    expect(hiddenOn(reading.layouts, { m2: KAFKA.m2, idle: KAFKA.idle })).toBe(false);
    // Left out where it is set and written where it is null: no such writer, no name.
    expect(syncMistakes(wrote({ m2: KAFKA.m2.slice(0, -12) }), KAFKA)).toEqual([]);
  });

  it("names a value cut short by as many bytes as its names' UTF-8 exceeds their UTF-16 units", () => {
    // 日本 is 6 bytes of UTF-8 and 2 units: a size added up with topic.length is 4 bytes short,
    // so m1 loses its last 4 (its null user data) while m2 and idle, of ASCII names, are whole.
    const cut = wrote({ m1: KAFKA.m1.slice(0, -8) });
    expect(syncMistakes(cut, KAFKA)).toEqual(["assignment-char-length-names"]);
    // The name's length written as topic.length too.
    const both = KAFKA.m1.slice(0, -8).replace("0006" + NIHON, "0002" + NIHON);
    expect(syncMistakes(wrote({ m1: both }), KAFKA)).toEqual(["assignment-char-length-names"]);
    // Cut by another count, or with the ASCII member cut as well: no name.
    expect(syncMistakes(wrote({ m1: KAFKA.m1.slice(0, -6) }), KAFKA)).toEqual([]);
    expect(syncMistakes(wrote({ m1: KAFKA.m1.slice(0, -10) }), KAFKA)).toEqual([]);
    expect(syncMistakes({ ...cut, m2: KAFKA.m2.slice(0, -4) }, KAFKA)).toEqual([]);
    // Such a writer cuts Kafka's value of m1 too: a case passed with it shows the way is not so.
    const reading = syncReading(cut, KAFKA);
    expect(hiddenOn(reading.layouts, { m1: KAFKA.m1 })).toBe(false);
    expect(hiddenOn(reading.layouts, { m2: KAFKA.m2 })).toBe(true);
  });

  it("tells null user data written as empty, empty as null, and bytes from the buffer under the view", () => {
    const m1Body = KAFKA.m1.slice(0, -8);
    expect(
      syncMistakes(wrote({ m1: m1Body + "00000000", idle: "000300000000" + "00000000" }), KAFKA),
    ).toEqual(["assignment-null-user-data-as-empty"]);
    const m2Body = KAFKA.m2.slice(0, -12);
    const pad = "aa".repeat(8);
    // The whole buffer main.ts made: 8 bytes of 0xaa, the view, 8 more.
    expect(syncMistakes(wrote({ m2: m2Body + "00000012" + pad + "0a0b" + pad }), KAFKA)).toEqual([
      "assignment-user-data-whole-buffer",
    ]);
    // The view's length from the buffer's start.
    expect(syncMistakes(wrote({ m2: m2Body + "00000002" + "aaaa" }), KAFKA)).toEqual([
      "assignment-user-data-whole-buffer",
    ]);
    // Other bytes of the right length are not the buffer's: no name.
    expect(syncMistakes(wrote({ m2: m2Body + "00000002" + "0b0a" }), KAFKA)).toEqual([]);
    const empty = { ...KAFKA, m2: m2Body + "00000000" };
    expect(syncMistakes({ ...empty, m2: m2Body + "ffffffff" }, empty)).toEqual([
      "assignment-empty-user-data-as-null",
    ]);
  });

  it("names an idle member sent no bytes, a version other than 3, no version, no user data", () => {
    expect(syncMistakes(wrote({ idle: "" }), KAFKA)).toEqual(["assignment-idle-member-no-bytes"]);
    const v = (version: string) => ({
      m1: version + KAFKA.m1.slice(4),
      m2: version + KAFKA.m2.slice(4),
      idle: version + KAFKA.idle.slice(4),
    });
    expect(syncMistakes(v("0000"), KAFKA)).toEqual(["assignment-wrong-version"]);
    expect(syncMistakes(v(""), KAFKA)).toEqual(["assignment-no-version"]);
    const noUserData = {
      m1: KAFKA.m1.slice(0, -8),
      m2: KAFKA.m2.slice(0, -12),
      idle: KAFKA.idle.slice(0, -8),
    };
    expect(syncMistakes(noUserData, KAFKA)).toEqual(["assignment-user-data-missing"]);
  });

  it("names partitions in another order than Kafka's, and no name for other partitions", () => {
    const reordered = KAFKA.m1.replace("000000000000000100000002", "000000020000000100000000");
    expect(syncMistakes(wrote({ m1: reordered }), KAFKA)).toEqual([
      "assignment-partitions-reordered",
    ]);
    const another = KAFKA.m1.replace("000000000000000100000002", "000000000000000100000005");
    expect(syncMistakes(wrote({ m1: another }), KAFKA)).toEqual([]);
  });

  it("names the compact encoding, with tagged fields or without", () => {
    // Counts and lengths as one-byte varints of N + 1, 0 for null; a 00 tag section after each
    // entry and at the end.
    const compact = (tags: string) => ({
      m1:
        "0003" +
        "03" +
        "07" +
        ORDERS +
        "04" +
        "00000000" +
        "00000001" +
        "00000002" +
        tags +
        "07" +
        NIHON +
        "02" +
        "00000000" +
        tags +
        "00" +
        tags,
      m2:
        "0003" +
        "02" +
        "07" +
        ORDERS +
        "03" +
        "00000003" +
        "00000004" +
        tags +
        "03" +
        "0a0b" +
        tags,
      idle: "0003" + "01" + "00" + tags,
    });
    expect(syncMistakes(compact("00"), KAFKA)).toEqual(["assignment-compact-encoding"]);
    expect(syncMistakes(compact(""), KAFKA)).toEqual(["assignment-compact-encoding"]);
    // Plain varints (N, not N + 1) for the counts and name lengths, user data as Kafka writes it.
    const uvarints = {
      m1:
        "0003" +
        "02" +
        "06" +
        ORDERS +
        "03" +
        "00000000" +
        "00000001" +
        "00000002" +
        "06" +
        NIHON +
        "01" +
        "00000000" +
        "ffffffff",
      m2: "0003" + "01" + "06" + ORDERS + "02" + "00000003" + "00000004" + "00000002" + "0a0b",
      idle: "0003" + "00" + "ffffffff",
    };
    expect(syncMistakes(uvarints, KAFKA)).toEqual(["assignment-compact-encoding"]);
  });

  it("names a field written as one byte or as an int64", () => {
    const byteLengths = wrote({
      m1: KAFKA.m1.replace("0006" + ORDERS, "06" + ORDERS).replace("0006" + NIHON, "06" + NIHON),
      m2: KAFKA.m2.replace("0006" + ORDERS, "06" + ORDERS),
    });
    expect(syncMistakes(byteLengths, KAFKA)).toEqual(["assignment-field-width-wrong"]);
    const int64 = (p: number) => "00000000" + p.toString(16).padStart(8, "0");
    const longPartitions = wrote({
      m1: KAFKA.m1
        .replace(
          "00000003" + "00000000" + "00000001" + "00000002",
          "00000003" + int64(0) + int64(1) + int64(2),
        )
        .replace("00000001" + "00000000" + "ffffffff", "00000001" + int64(0) + "ffffffff"),
      m2: KAFKA.m2.replace("00000003" + "00000004", int64(3) + int64(4)),
    });
    expect(syncMistakes(longPartitions, KAFKA)).toEqual(["assignment-field-width-wrong"]);
  });

  it("names counts and lengths as zigzag varints (Kafka's record format) the compact encoding's", () => {
    // Zigzag: n >= 0 is 2n, -1 is 1. m1: 2 topics 04, names 6 0c, counts 3 06 and 1 02, null 01.
    const zigzag = {
      m1:
        "0003" +
        "04" +
        "0c" +
        ORDERS +
        "06" +
        "00000000" +
        "00000001" +
        "00000002" +
        "0c" +
        NIHON +
        "02" +
        "00000000" +
        "01",
      m2: "0003" + "02" + "0c" + ORDERS + "04" + "00000003" + "00000004" + "04" + "0a0b",
      idle: "0003" + "00" + "01",
    };
    expect(syncMistakes(zigzag, KAFKA)).toEqual(["assignment-compact-encoding"]);
  });

  it("names a name's length counted in code points ([...topic].length)", () => {
    // "😀a" is 5 UTF-8 bytes, 3 UTF-16 units, 2 code points.
    const kafka = {
      x: "0003" + "00000001" + "0005" + "f09f988061" + "00000001" + "00000000" + "ffffffff",
    };
    const codePoints = { x: kafka.x.replace("0005f09f988061", "0002f09f988061") };
    expect(syncMistakes(codePoints, kafka)).toEqual(["assignment-char-length-names"]);
    const units = { x: kafka.x.replace("0005f09f988061", "0003f09f988061") };
    expect(syncMistakes(units, kafka)).toEqual(["assignment-char-length-names"]);
  });

  it("sees through a mistake no id names to name the one beside it", () => {
    // No entries at all (Object.entries over the Map), and version 1: the version is named.
    const none = (version: string) => ({
      m1: version + "00000000" + "ffffffff",
      m2: version + "00000000" + "00000002" + "0a0b",
      idle: version + "00000000" + "ffffffff",
    });
    expect(syncMistakes(none("0001"), KAFKA)).toEqual(["assignment-wrong-version"]);
    expect(syncMistakes(none("0003"), KAFKA)).toEqual([]);
    // The topic count as all partitions (m1: 3 + 1 = 4, m2: 2), and null user data as 0.
    const total = {
      m1: KAFKA.m1.replace("0003" + "00000002", "0003" + "00000004").slice(0, -8) + "00000000",
      m2: KAFKA.m2.replace("0003" + "00000001", "0003" + "00000002"),
      idle: KAFKA.idle.slice(0, -8) + "00000000",
    };
    expect(syncMistakes(total, KAFKA)).toEqual(["assignment-null-user-data-as-empty"]);
    // Each partition count as the list's bytes (3 partitions: 12), and no version.
    const byteSize = {
      m1: KAFKA.m1
        .slice(4)
        .replace("00000003", "0000000c")
        .replace(NIHON + "00000001", NIHON + "00000004"),
      m2: KAFKA.m2.slice(4).replace(ORDERS + "00000002", ORDERS + "00000008"),
      idle: KAFKA.idle.slice(4),
    };
    expect(syncMistakes(byteSize, KAFKA)).toEqual(["assignment-no-version"]);
    // Only where the count is exactly the mistake's: a count of 5 reads no way.
    const five = { ...total, m1: total.m1.replace("00000004", "00000005") };
    expect(syncMistakes(five, KAFKA)).toEqual([]);
  });

  it("names a field of the other width", () => {
    const partitionsInt16 = {
      m1:
        "0003" +
        "00000002" +
        "0006" +
        ORDERS +
        "00000003" +
        "0000" +
        "0001" +
        "0002" +
        "0006" +
        NIHON +
        "00000001" +
        "0000" +
        "ffffffff",
      m2:
        "0003" + "00000001" + "0006" + ORDERS + "00000002" + "0003" + "0004" + "00000002" + "0a0b",
      idle: KAFKA.idle,
    };
    expect(syncMistakes(partitionsInt16, KAFKA)).toEqual(["assignment-field-width-wrong"]);
  });

  it("names two mistakes the bytes show together: all little-endian and no user data", () => {
    const both = {
      m1:
        "0300" +
        "02000000" +
        "0600" +
        ORDERS +
        "03000000" +
        "00000000" +
        "01000000" +
        "02000000" +
        "0600" +
        NIHON +
        "01000000" +
        "00000000",
      m2: "0300" + "01000000" + "0600" + ORDERS + "02000000" + "03000000" + "04000000",
      idle: "0300" + "00000000",
    };
    expect(syncMistakes(both, KAFKA)).toEqual([
      "assignment-little-endian",
      "assignment-user-data-missing",
    ]);
    expect(
      shownByBytes(both, KAFKA, ["assignment-little-endian", "assignment-user-data-missing"]),
    ).toBeDefined();
    expect(shownByBytes(both, KAFKA, ["assignment-little-endian"])).toBeUndefined();
  });

  it("names nothing where two readings are as simple: an idle member's count of one byte", () => {
    // 00 is a topic count of one byte (a field's width) or a varint 0 (a varint writer's): the
    // bytes cannot tell which.
    const idle = { idle: KAFKA.idle };
    expect(syncMistakes({ idle: "0003" + "00" + "ffffffff" }, idle)).toEqual([]);
    // Where every member reads that way, the same.
    const none = { m1: "0003" + "00" + "ffffffff", m2: "0003" + "00" + "00000002" + "0a0b" };
    expect(syncMistakes({ ...none, idle: "0003" + "00" + "ffffffff" }, KAFKA)).toEqual([]);
  });

  it("reads 0300 as version 3 little-endian, not a version 768 no encoder chooses", () => {
    const idle = { idle: KAFKA.idle };
    expect(syncMistakes({ idle: "0300" + "00000000" + "ffffffff" }, idle)).toEqual([
      "assignment-little-endian",
    ]);
  });

  it("names nothing when a member is missing or extra, or the hex is not bytes", () => {
    expect(syncMistakes({ m1: KAFKA.m1, m2: KAFKA.m2 }, KAFKA)).toEqual([]);
    expect(syncMistakes({ ...KAFKA, extra: KAFKA.idle }, KAFKA)).toEqual([]);
    expect(syncMistakes(wrote({ idle: "0" }), KAFKA)).toEqual([]);
  });
});

describe("names the bytes show, once every case is graded", () => {
  const failed = (named: string[], byBytes: number[] | undefined): NamedCase => ({
    passed: false,
    required: false,
    named,
    byBytes,
    fallback: [],
    diagnosed: true,
    crashed: false,
    failedByEveryMutantOf: new Set(),
    crashPredictedBy: new Set(),
    sameWay: [],
  });
  const passed = (kafka: Record<string, string> | undefined): NamedCase => ({
    ...failed([], undefined),
    passed: true,
    passedSync: kafka,
    // Every little-endian mutant swaps every field (or every int32): they fail any sync case.
    failedByEveryMutantOf: new Set(["assignment-little-endian"]),
  });
  // Only the user-data length little-endian: m2's 2 written 02000000.
  const swapped = wrote({ m2: KAFKA.m2.slice(0, -12) + "02000000" + "0a0b" });
  const reading = syncReading(swapped, KAFKA);

  it("read one way of writing: the user-data length alone little-endian", () => {
    expect(reading.ids).toEqual(["assignment-little-endian"]);
    expect(reading.layouts.length).toBeGreaterThan(0);
    // Where every user data is null (-1, ffffffff either way) that way writes Kafka's bytes.
    expect(hiddenOn(reading.layouts, { idle: KAFKA.idle })).toBe(true);
    expect(hiddenOn(reading.layouts, { m2: KAFKA.m2 })).toBe(false);
  });

  it("stand against a passed case where that way is hidden, whatever the mutants fail", () => {
    const named = ["assignment-little-endian"];
    expect(confirmNames([passed({ idle: KAFKA.idle }), failed(named, reading.layouts)])).toEqual([
      [],
      named,
    ]);
    // The same name from the mutants' outcomes alone falls by rule 1.
    expect(confirmNames([passed({ idle: KAFKA.idle }), failed(named, undefined)])).toEqual([
      [],
      [],
    ]);
  });

  it("go, together, when the program passed a sync case where that way would have shown", () => {
    const both = ["assignment-little-endian", "assignment-user-data-missing"];
    expect(confirmNames([passed({ m2: KAFKA.m2 }), failed(both, reading.layouts)])).toEqual([
      [],
      [],
    ]);
    // A passed case of another stage says nothing about the encoder's ways.
    expect(confirmNames([passed(undefined), failed(both, reading.layouts)])).toEqual([[], both]);
  });

  it("are printed as mistakes together, not one of them", () => {
    const mistake = (id: string) => ({ id, name: id, explanation: `${id} explained`, lesson: "l" });
    const lines = adviceLines({
      kind: "mistakes",
      mistakes: [mistake("a"), mistake("b")],
      together: true,
      stoppedShort: false,
    });
    expect(lines[0]).toBe("This looks like these mistakes together: a (a); b (b).");
    expect(
      adviceLines({
        kind: "mistakes",
        mistakes: [mistake("a"), mistake("b")],
        together: false,
        stoppedShort: false,
      })[0],
    ).toBe("This looks like one of: a (a); b (b).");
  });
});
