// grader/instructor/random/subscription-v3.ts, the version-3 encoder behind --random's rack
// cases: byte for byte what Kafka's Java client wrote for every version-3 row of
// test/vectors/java-subscriptions.jsonl.
import { describe, expect, it } from "vitest";
import { encodeSubscriptionV3 } from "../../grader/instructor/random/subscription-v3.ts";
import { readJsonl, type JavaSubscriptionVector } from "../helpers/vectors.ts";

const rows = readJsonl<JavaSubscriptionVector>("java-subscriptions.jsonl").filter(
  (row) => row.version === 3,
);

/** The schema's grouping of owned partitions: one entry per run of the same topic. */
function grouped(owned: JavaSubscriptionVector["ownedPartitions"]) {
  const groups: { topic: string; partitions: number[] }[] = [];
  for (const { topic, partition } of owned) {
    const last = groups.at(-1);
    if (last?.topic === topic) last.partitions.push(partition);
    else groups.push({ topic, partitions: [partition] });
  }
  return groups;
}

// The vectors record what Kafka reads back, where an empty rack id and a generation id below 0
// become null (test/vectors/README.md); this row's bytes end in a rack id of length 0 (00 00).
const EMPTY_RACK_ROW = "v3, empty rack id";

describe("encodeSubscriptionV3", () => {
  it("has the vectors' 12 version-3 rows to check, one of them with an empty rack id", () => {
    expect(rows).toHaveLength(12);
    expect(rows.filter((row) => row.description === EMPTY_RACK_ROW)).toHaveLength(1);
  });

  it.each(rows.map((row) => [row.description, row] as const))("%s", (_, row) => {
    const bytes = encodeSubscriptionV3({
      topics: row.topics,
      userData: row.userData === null ? null : Buffer.from(row.userData, "hex"),
      ownedPartitions: grouped(row.ownedPartitions),
      generationId: row.generationId ?? -1,
      rackId: row.description === EMPTY_RACK_ROW ? "" : row.rackId,
    });
    expect(bytes.toString("hex")).toBe(row.hex);
  });

  it("writes a rack id's UTF-8 length, and refuses a name too long for an int16 length", () => {
    const bytes = encodeSubscriptionV3({
      topics: [],
      userData: null,
      ownedPartitions: [],
      generationId: -1,
      rackId: "é",
    });
    // version 3, 0 topics, null user data, 0 owned, generation -1, rack of 2 bytes c3 a9
    expect(bytes.toString("hex")).toBe("000300000000ffffffff00000000ffffffff0002c3a9");
    expect(() =>
      encodeSubscriptionV3({
        topics: ["x".repeat(32_768)],
        userData: null,
        ownedPartitions: [],
        generationId: -1,
        rackId: null,
      }),
    ).toThrow(RangeError);
  });
});
