// The reference encoder against Kafka's own bytes: every encode-assignment line of
// test/vectors/assignment.jsonl (Kafka 3.8.0's ConsumerProtocol.serializeAssignment, run unchanged).
// encodeAssignment writes version 3, as a Kafka 3.4+ leader does; a line asking Kafka for another
// version shares the body (every version 0-3 has one layout), so the line's bytes after the
// 2-byte header are held to exactly, and its header to the version Kafka wrote.
import { describe, expect, it } from "vitest";
import { ASSIGNMENT_VERSION, encodeAssignment } from "../../solution/src/assignment.ts";
import { readJsonl } from "../helpers/vectors.ts";

interface EncodeLine {
  mode: "encode-assignment";
  note: string;
  input: {
    version: number;
    assignment: Record<string, number[]> | [string, number[]][];
    userData: string | null;
  };
  expected: { hex: string } | { error: string };
}

const lines = readJsonl<{ mode: string }>("assignment.jsonl")
  .map((line, i) => ({ line: i + 1, vector: line }))
  .filter((l): l is { line: number; vector: EncodeLine } => l.vector.mode === "encode-assignment");

/**
 * The line's assignment as the Map Kafka's flat list amounts to: topics in order of first
 * appearance, a topic given twice merged into its first entry (the vectors' README).
 */
function partitionsOf(assignment: EncodeLine["input"]["assignment"]): Map<string, number[]> {
  const pairs = Array.isArray(assignment) ? assignment : Object.entries(assignment);
  const map = new Map<string, number[]>();
  for (const [topic, partitions] of pairs)
    map.set(topic, [...(map.get(topic) ?? []), ...partitions]);
  return map;
}

describe("encodeAssignment against Kafka 3.8's serializeAssignment", () => {
  it("has the vectors' 26 encode lines, 25 with bytes", () => {
    expect(lines).toHaveLength(26);
    expect(lines.filter((l) => "hex" in l.vector.expected)).toHaveLength(25);
  });

  it.each(lines.filter((l) => "hex" in l.vector.expected))(
    "line $line: the same bytes",
    ({ vector }) => {
      const expected = (vector.expected as { hex: string }).hex;
      const userData =
        vector.input.userData === null
          ? null
          : new Uint8Array(Buffer.from(vector.input.userData, "hex"));
      const hex = Buffer.from(
        encodeAssignment(partitionsOf(vector.input.assignment), userData),
      ).toString("hex");
      const written = Math.min(vector.input.version, ASSIGNMENT_VERSION);
      expect(expected.slice(0, 4)).toBe(written.toString(16).padStart(4, "0"));
      expect(hex.slice(0, 4)).toBe("0003");
      expect(hex.slice(4)).toBe(expected.slice(4));
      if (vector.input.version >= ASSIGNMENT_VERSION) expect(hex).toBe(expected);
    },
  );

  it("the one line Kafka refuses asks for a negative version, which encodeAssignment cannot be asked for", () => {
    const refused = lines.filter((l) => "error" in l.vector.expected);
    expect(refused.map((l) => l.vector.input.version)).toEqual([-1]);
  });

  it("refuses a topic name past an int16 length, naming it, as Kafka's writer refuses it", () => {
    // 16,384 "é" are 32,768 UTF-8 bytes (16,384 UTF-16 units): one byte more than 32,767.
    const name = "é".repeat(16_384);
    expect(() => encodeAssignment(new Map([[name, [0]]]), null)).toThrow(
      new RangeError(
        `topic name "${"é".repeat(20)}"... is 32768 UTF-8 bytes, longer than an int16 length allows (32767)`,
      ),
    );
    // 32,767 bytes are written: length 7fff.
    const longest = "a".repeat(32_767);
    expect(
      Buffer.from(encodeAssignment(new Map([[longest, [0]]]), null)).toString("hex", 6, 8),
    ).toBe("7fff");
  });
});
