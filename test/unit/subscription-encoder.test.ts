// The kit's subscription encoder (grader/instructor/random/subscription-v3.ts, behind --random's
// rack cases and, through fixtures/recipes/encoders.ts subscriptionBytes, the golden cases) against Kafka's
// Java client: every row of java-subscriptions.jsonl (ConsumerProtocol.serializeSubscription at
// the row's version, Kafka 3.8.0) must come out byte for byte, before any case uses the encoder.
import { describe, expect, it } from "vitest";
import { subscriptionBytes } from "../../fixtures/recipes/encoders.ts";
import { encodeSubscriptionV3 } from "../../grader/instructor/random/subscription-v3.ts";
import { readJsonl, type JavaSubscriptionVector } from "../helpers/vectors.ts";

const rows = readJsonl<JavaSubscriptionVector>("java-subscriptions.jsonl");

/**
 * The Subscription the Java client was given for a row. The row holds what Kafka reads back, which
 * differs in one place (vectors README): an empty rack id reads back as null. The one row that
 * wrote "" says so in its description; every other null rack was absent (length -1 on the wire).
 */
function given(row: JavaSubscriptionVector) {
  return {
    topics: row.topics,
    userData: row.userData,
    ownedPartitions: row.ownedPartitions,
    generationId: row.generationId,
    rackId: row.description === "v3, empty rack id" ? "" : row.rackId,
  };
}

describe("subscriptionBytes writes what Kafka's Java client writes", () => {
  it("covers every version 0-3, racks, an empty rack and owned partitions of several topics", () => {
    expect(new Set(rows.map((r) => r.version))).toEqual(new Set([0, 1, 2, 3]));
    expect(rows.filter((r) => r.version === 3).length).toBeGreaterThanOrEqual(8);
    expect(rows.some((r) => r.version === 3 && r.rackId !== null)).toBe(true);
    expect(rows.some((r) => r.description === "v3, empty rack id")).toBe(true);
  });

  it.each(rows.map((row, i) => [i + 1, row.description, row] as const))(
    "line %i: %s",
    (_, __, row) => {
      expect(subscriptionBytes(given(row), row.version)).toBe(row.hex);
    },
  );

  it("writes the lesson's version-0 example and rejects versions it does not know", () => {
    // Worked by hand from the schema: version 0, 1 topic "a" (00 01 61), user data null (-1).
    const fields = { topics: ["a"], userData: null, ownedPartitions: [], generationId: null };
    expect(subscriptionBytes({ ...fields, rackId: null }, 0)).toBe("000000000001000161ffffffff");
    // Version 3 adds no owned partitions (00000000), generation -1, rack "r" (0001 72).
    expect(subscriptionBytes({ ...fields, rackId: "r" })).toBe(
      "000300000001000161ffffffff00000000ffffffff000172",
    );
    expect(() => subscriptionBytes({ ...fields, rackId: null }, 4)).toThrow(/versions 0-3/);
  });
});

describe("encodeSubscriptionV3", () => {
  it("writes a rack id's UTF-8 length, and refuses a name too long for an int16 length", () => {
    const fields = { topics: [], userData: null, ownedPartitions: [], generationId: -1 };
    // version 3, 0 topics, null user data, 0 owned, generation -1, rack of 2 bytes c3 a9
    expect(encodeSubscriptionV3({ ...fields, rackId: "é" }).toString("hex")).toBe(
      "000300000000ffffffff00000000ffffffff0002c3a9",
    );
    expect(() =>
      encodeSubscriptionV3({ ...fields, topics: ["x".repeat(32_768)], rackId: null }),
    ).toThrow(RangeError);
    expect(() => encodeSubscriptionV3({ ...fields, rackId: null }, 4)).toThrow(RangeError);
  });
});
