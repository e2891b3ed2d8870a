/**
 * An assignment failure drawn as a grid per topic: one column per partition, the expected owner
 * above the actual owner, each member a letter, differing columns marked with ^. Only the topics
 * whose ownership differs are drawn.
 */
import type { AssignmentOutput } from "../fixtures/load.ts";
import { byCodeUnits } from "../compare/order.ts";

/** Partitions per grid row before it wraps. */
const COLUMNS = 24;
const MAX_TOPICS = 3;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Topic to partition to owners (more than one when a submission gives a partition twice). */
function owners(output: AssignmentOutput): Map<string, Map<number, string[]>> {
  const byTopic = new Map<string, Map<number, string[]>>();
  for (const [member, topics] of Object.entries(output)) {
    for (const [topic, partitions] of Object.entries(topics)) {
      let partitionOwners = byTopic.get(topic);
      if (partitionOwners === undefined) byTopic.set(topic, (partitionOwners = new Map()));
      for (const p of partitions)
        partitionOwners.set(p, [...(partitionOwners.get(p) ?? []), member]);
    }
  }
  return byTopic;
}

/**
 * The grid lines for the topics that differ, with a legend of the members shown.
 *
 * @param partitionsPerTopic the case's topics (to draw partitions nobody owns)
 */
export function assignmentGrid(
  partitionsPerTopic: Readonly<Record<string, number>>,
  expected: AssignmentOutput,
  actual: AssignmentOutput,
): string[] {
  const want = owners(expected);
  const got = owners(actual);
  const topics = [...new Set([...want.keys(), ...got.keys()])].sort(byCodeUnits);
  const cell = (names: string[] | undefined, letterOf: (m: string) => string) =>
    names === undefined || names.length === 0
      ? "."
      : names.length === 1
        ? letterOf(names[0] ?? "")
        : "*";
  const differing = topics.filter((topic) => {
    const count = Math.max(
      partitionsPerTopic[topic] ?? 0,
      ...[...(want.get(topic)?.keys() ?? [])].map((p) => p + 1),
      ...[...(got.get(topic)?.keys() ?? [])].map((p) => p + 1),
    );
    for (let p = 0; p < count; p++) {
      if ((want.get(topic)?.get(p) ?? []).join("\0") !== (got.get(topic)?.get(p) ?? []).join("\0"))
        return true;
    }
    return false;
  });
  if (differing.length === 0) return [];

  const letters = new Map<string, string>();
  const letterOf = (member: string): string => {
    let letter = letters.get(member);
    if (letter === undefined) {
      letter = LETTERS[letters.size] ?? "?";
      letters.set(member, letter);
    }
    return letter;
  };
  const lines: string[] = [];
  for (const topic of differing.slice(0, MAX_TOPICS)) {
    const known = partitionsPerTopic[topic];
    const partitions = Math.max(
      known ?? 0,
      ...[...(want.get(topic)?.keys() ?? [])].map((p) => p + 1),
      ...[...(got.get(topic)?.keys() ?? [])].map((p) => p + 1),
    );
    lines.push(
      `topic ${JSON.stringify(topic)} (${known === undefined ? "not in the metadata" : `${known} partition${known === 1 ? "" : "s"}`}):`,
    );
    for (let from = 0; from < partitions; from += COLUMNS) {
      const range = Array.from(
        { length: Math.min(COLUMNS, partitions - from) },
        (_, k) => from + k,
      );
      const row = (values: string[]) => values.map((v) => v.padStart(3)).join("");
      const expectedCells = range.map((p) => cell(want.get(topic)?.get(p), letterOf));
      const actualCells = range.map((p) => cell(got.get(topic)?.get(p), letterOf));
      lines.push(`  partition ${row(range.map(String))}`);
      lines.push(`  expected  ${row(expectedCells)}`);
      lines.push(`  actual    ${row(actualCells)}`);
      lines.push(
        `            ${row(range.map((_, k) => (expectedCells[k] === actualCells[k] ? "" : "^")))}`.trimEnd(),
      );
    }
  }
  if (differing.length > MAX_TOPICS)
    lines.push(
      `(${differing.length - MAX_TOPICS} more topic${differing.length - MAX_TOPICS === 1 ? "" : "s"} differ${differing.length - MAX_TOPICS === 1 ? "s" : ""})`,
    );
  lines.push(
    `members: ${[...letters].map(([member, letter]) => `${letter} = ${JSON.stringify(member)}`).join(", ")}; . = nobody, * = more than one`,
  );
  return lines;
}
