/**
 * Expected against actual, as a short line diff a student can read: one line per member
 * (assignment: its topics and partition ranges; decode: version, topics, user data), members in
 * code-unit order, only the changed lines with a little context.
 */
import { diffArrays } from "diff";
import type { AssignmentOutput, DecodeOutput, Mode } from "../fixtures/load.ts";
import { normaliseAssignment } from "./outcome.ts";
import { byCodeUnits } from "./order.ts";

/** `[0,1,2,5]` as `0-2,5`. */
export function ranges(partitions: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < partitions.length;) {
    let j = i;
    while (j + 1 < partitions.length && partitions[j + 1] === (partitions[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${partitions[i]}` : `${partitions[i]}-${partitions[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

/** One line per member, in code-unit order of member id. */
export function outputLines(mode: Mode, output: AssignmentOutput | DecodeOutput): string[] {
  if (mode === "assign") {
    return normaliseAssignment(output as AssignmentOutput).map(([member, topics]) => {
      const owned = topics.map(
        ([topic, partitions]) => `${JSON.stringify(topic)} ${ranges(partitions)}`,
      );
      return `${JSON.stringify(member)}: ${owned.length === 0 ? "(nothing)" : owned.join("  ")}`;
    });
  }
  return Object.entries(output as DecodeOutput)
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(
      ([member, d]) =>
        `${JSON.stringify(member)}: version ${d.version}, topics ${JSON.stringify(d.topics)}, userData ${d.userData === null ? "null" : JSON.stringify(d.userData)}`,
    );
}

export interface DiffLine {
  sign: " " | "-" | "+" | "…";
  text: string;
}

/**
 * The changed lines between expected and actual with `context` unchanged lines around each
 * change; runs of unchanged lines beyond that are folded into one `…` line.
 *
 * @param maxLines the most lines returned; a final `…` line says how many more there were
 */
export function lineDiff(
  expected: string[],
  actual: string[],
  context = 1,
  maxLines = 24,
): DiffLine[] {
  const lines: DiffLine[] = [];
  const parts = diffArrays(expected, actual);
  parts.forEach((part, index) => {
    const previous = parts[index - 1];
    if (part.added && previous?.removed && previous.value.length === part.value.length) {
      // A changed block: show each member's expected line right above its actual line.
      const removed = lines.splice(lines.length - previous.value.length);
      part.value.forEach((text, i) => {
        lines.push(removed[i] as DiffLine, { sign: "+", text });
      });
      return;
    }
    if (part.added || part.removed) {
      for (const text of part.value) lines.push({ sign: part.added ? "+" : "-", text });
      return;
    }
    const values = part.value;
    const head = index === 0 ? 0 : context;
    const tail = index === parts.length - 1 ? 0 : context;
    if (values.length <= head + tail + 1) {
      for (const text of values) lines.push({ sign: " ", text });
      return;
    }
    for (const text of values.slice(0, head)) lines.push({ sign: " ", text });
    lines.push({ sign: "…", text: `${values.length - head - tail} matching lines` });
    for (const text of values.slice(values.length - tail)) lines.push({ sign: " ", text });
  });
  if (lines.length <= maxLines) return lines;
  const more = lines.length - maxLines;
  return [...lines.slice(0, maxLines), { sign: "…", text: `${more} more lines` }];
}
