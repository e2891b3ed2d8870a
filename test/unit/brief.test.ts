// grader/cases/brief.ts: the one-line input summary under a failure (text report, Exercism's
// test_code), with and without the rack stage's partitionRacks.
import { describe, expect, it } from "vitest";
import { inputBrief } from "../../grader/cases/brief.ts";

describe("inputBrief", () => {
  const members = [
    { memberId: "m1", metadata: "" },
    { memberId: "m0", groupInstanceId: "i-1", metadata: "" },
  ];

  it("lists topics and members, and says nothing of racks when the input has none", () => {
    expect(inputBrief({ input: { topics: { t0: 3, t1: 3 }, members } })).toBe(
      '2 topics ("t0":3, "t1":3); 2 members in input order: "m1", "m0" (static "i-1")',
    );
  });

  it("names the topics given replica racks, up to 6, and an empty partitionRacks", () => {
    const racks = Object.fromEntries(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((t) => [t, [["r1"]]]),
    );
    expect(inputBrief({ input: { topics: { t0: 1 }, partitionRacks: racks, members } })).toBe(
      '1 topic ("t0":1); 2 members in input order: "m1", "m0" (static "i-1"); replica racks for "a", "b", "c", "d", "e", "f", +2 more',
    );
    expect(inputBrief({ input: { topics: {}, partitionRacks: {}, members: [] } })).toBe(
      "0 topics (none); 0 members in input order: none; replica racks for no topic",
    );
  });
});
