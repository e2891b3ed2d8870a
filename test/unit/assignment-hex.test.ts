// The encoder the sync cases' answers come from (fixtures/recipes/encoders.ts assignmentHex:
// kafkajs's MemberAssignment.encode at version 3) against Kafka's own bytes: every encode line of
// test/vectors/assignment.jsonl with bytes (Kafka 3.8.0's ConsumerProtocol.serializeAssignment).
// kafkajs writes version 3; a line asking Kafka for another version shares the body, so the body
// after the 2-byte header is held to exactly, where kafkajs keeps the line's topic order (it does
// not for integer-like names: a JavaScript object lists those first), and otherwise as Kafka reads
// it, up to the order of topic entries.
import { describe, expect, it } from "vitest";
import { assignmentHex } from "../../fixtures/recipes/encoders.ts";
import { assignmentKey } from "../../grader/verdict/assignment-bytes.ts";
import { readJsonl } from "../helpers/vectors.ts";

interface EncodeLine {
  mode: string;
  input: { assignment: Record<string, number[]> | [string, number[]][]; userData: string | null };
  expected: { hex?: string };
}

const lines = readJsonl<EncodeLine>("assignment.jsonl")
  .map((vector, i) => ({ line: i + 1, vector }))
  .filter((l) => l.vector.mode === "encode-assignment" && l.vector.expected.hex !== undefined);

describe("assignmentHex (the sync cases' encoder) against Kafka 3.8", () => {
  it("covers the 25 encode lines with bytes", () => expect(lines).toHaveLength(25));

  it.each(lines)("line $line: Kafka's body", ({ vector }) => {
    // Kafka's flat list grouped by topic in order of first appearance; no entry for an empty list.
    const pairs = Array.isArray(vector.input.assignment)
      ? vector.input.assignment
      : Object.entries(vector.input.assignment);
    const topics: Record<string, number[]> = {};
    for (const [topic, partitions] of pairs) {
      if (partitions.length > 0) topics[topic] = [...(topics[topic] ?? []), ...partitions];
    }
    const userData =
      vector.input.userData === null ? null : Buffer.from(vector.input.userData, "hex");
    const hex = assignmentHex(topics, userData);
    const kafka = `0003${(vector.expected.hex ?? "").slice(4)}`;
    const integerLike = pairs.some(([topic]) => /^(0|[1-9]\d*)$/.test(topic));
    if (integerLike) expect(assignmentKey(hex)).toBe(assignmentKey(kafka));
    else expect(hex).toBe(kafka);
  });

  it("refuses an empty list rather than writing an entry Kafka never writes", () => {
    expect(() => assignmentHex({ t: [] })).toThrow('"t": empty list (omit it)');
  });
});
