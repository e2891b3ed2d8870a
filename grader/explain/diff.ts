/**
 * Expected against actual, as a short line diff a student can read: one line per member
 * (assignment: its topics and partition ranges; decode: version, topics, user data, and the rack
 * id where the case checks it; sync: the hex of its assignment bytes), members in
 * code-unit order, only the changed lines with a little context.
 */
import { createRequire } from "node:module";
import type * as DiffLibrary from "diff";
import type {
  AssignmentOutput,
  DecodeOutput,
  Mode,
  ProgramOutput,
  SyncOutput,
} from "../cases/load.ts";
import { normaliseAssignment } from "../verdict/outcome.ts";
import { byCodeUnits } from "../verdict/order.ts";

/** The diff library, loaded on the first failure to explain (not at every grader start). */
let diffLibrary: typeof DiffLibrary | undefined;
function library(): typeof DiffLibrary {
  diffLibrary ??= createRequire(import.meta.url)("diff") as typeof DiffLibrary;
  return diffLibrary;
}

/**
 * `[0,1,2,5]` as `0-2,5` (ascending partitions). With `maxRuns`, only that many runs are written
 * and the rest counted: `0-2,5,… (+3 more runs)`, so a scattered list of 300,000 partitions
 * makes a short string.
 */
export function ranges(partitions: readonly number[], maxRuns = Infinity): string {
  const parts: string[] = [];
  let runs = 0;
  for (let i = 0; i < partitions.length;) {
    let j = i;
    while (j + 1 < partitions.length && partitions[j + 1] === (partitions[j] ?? 0) + 1) j++;
    if (runs < maxRuns)
      parts.push(i === j ? `${partitions[i]}` : `${partitions[i]}-${partitions[j]}`);
    runs++;
    i = j + 1;
  }
  if (runs > maxRuns)
    parts.push(`… (+${runs - maxRuns} more run${runs - maxRuns === 1 ? "" : "s"})`);
  return parts.join(",");
}

/** One line per member, in code-unit order of member id. */
export function outputLines(mode: Mode, output: ProgramOutput): string[] {
  if (mode === "sync") {
    return Object.entries(output as SyncOutput)
      .sort(([a], [b]) => byCodeUnits(a, b))
      .map(([member, hex]) => `${JSON.stringify(member)}: ${hex}`);
  }
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
        `${JSON.stringify(member)}: version ${d.version}, topics ${JSON.stringify(d.topics)}, userData ${d.userData === null ? "null" : JSON.stringify(d.userData)}` +
        // Only where the case checks it: the verdict's actual output keeps rackId only there.
        ("rackId" in d ? `, rackId ${JSON.stringify(d.rackId)}` : ""),
    );
}

export interface DiffLine {
  sign: " " | "-" | "+" | "…";
  text: string;
}

/** Lines of either side compared at most, whatever the case: keeps the diff's worst case fixed. */
export const MAX_COMPARED_LINES = 500;
/** Lines of the program's side compared beyond the expected side's count. */
export const LINE_MARGIN = 16;
/** Characters a line of the program's side may have beyond the longest expected line. */
export const LINE_CHARS_MARGIN = 200;
/** Characters of the program's side compared beyond the expected side's total. */
export const CHARS_MARGIN = 4096;

/** A line as compared: a line cut short never matches (its end is unknown). */
interface Compared {
  text: string;
  cut: boolean;
}

/**
 * The part of each side the diff compares: the expected side up to MAX_COMPARED_LINES lines; the
 * program's side up to as many lines as the expected side has plus LINE_MARGIN, each line cut to
 * the longest expected line plus LINE_CHARS_MARGIN characters, and CHARS_MARGIN characters more
 * than the expected side in all. A program's answer of 4 MB then costs what the expected one does.
 */
function comparedSides(
  expected: readonly string[],
  actual: readonly string[],
): { want: Compared[]; got: Compared[]; notes: string[] } {
  const want: Compared[] = [];
  let longest = 0;
  let budget = CHARS_MARGIN;
  for (const text of expected) {
    if (want.length === MAX_COMPARED_LINES) break;
    want.push({ text, cut: false });
    longest = Math.max(longest, text.length);
    budget += text.length;
  }
  const got: Compared[] = [];
  const maxGot = Math.min(MAX_COMPARED_LINES, want.length + LINE_MARGIN);
  for (const line of actual) {
    if (got.length === maxGot || budget <= 0) break;
    const limit = Math.min(longest + LINE_CHARS_MARGIN, budget);
    budget -= Math.min(line.length, limit);
    got.push(
      line.length <= limit
        ? { text: line, cut: false }
        : {
            text: `${line.slice(0, limit)}… (${line.length - limit} more characters)`,
            cut: true,
          },
    );
  }
  const notes: string[] = [];
  if (want.length < expected.length)
    notes.push(`diff cut at ${want.length} lines (the expected answer has ${expected.length})`);
  if (got.length < actual.length)
    notes.push(`diff cut at ${got.length} lines (the program's answer has ${actual.length})`);
  return { want, got, notes };
}

/**
 * The changed lines between expected and actual with `context` unchanged lines around each
 * change; runs of unchanged lines beyond that are folded into one `…` line.
 *
 * Only a bounded part of each side is compared (see MAX_COMPARED_LINES, LINE_MARGIN,
 * LINE_CHARS_MARGIN, CHARS_MARGIN): the work and the text returned are bounded by the expected
 * side's size plus fixed margins, never by the program's. What was cut is said in final `…` lines
 * ("diff cut at N lines"), and a line cut short ends with how many characters were left out.
 *
 * @param expected the expected answer's lines (from outputLines)
 * @param actual the program's answer's lines (from outputLines)
 * @param context unchanged lines shown around each change
 * @param maxLines the most diff lines returned; a `…` line says how many more there were, and
 *   the cut notes (at most two lines) follow it
 */
export function lineDiff(
  expected: readonly string[],
  actual: readonly string[],
  context = 1,
  maxLines = 24,
): DiffLine[] {
  const { want, got, notes } = comparedSides(expected, actual);
  const lines: DiffLine[] = [];
  const parts = library().diffArrays(want, got, {
    comparator: (a, b) => !a.cut && !b.cut && a.text === b.text,
  });
  parts.forEach((part, index) => {
    const previous = parts[index - 1];
    if (part.added && previous?.removed && previous.value.length === part.value.length) {
      // A changed block: show each member's expected line right above its actual line.
      const removed = lines.splice(lines.length - previous.value.length);
      part.value.forEach(({ text }, i) => {
        lines.push(removed[i] as DiffLine, { sign: "+", text });
      });
      return;
    }
    if (part.added || part.removed) {
      for (const { text } of part.value) lines.push({ sign: part.added ? "+" : "-", text });
      return;
    }
    const values = part.value;
    const head = index === 0 ? 0 : context;
    const tail = index === parts.length - 1 ? 0 : context;
    if (values.length <= head + tail + 1) {
      for (const { text } of values) lines.push({ sign: " ", text });
      return;
    }
    for (const { text } of values.slice(0, head)) lines.push({ sign: " ", text });
    lines.push({ sign: "…", text: `${values.length - head - tail} matching lines` });
    for (const { text } of values.slice(values.length - tail)) lines.push({ sign: " ", text });
  });
  const cut = notes.map((text): DiffLine => ({ sign: "…", text }));
  if (lines.length <= maxLines) return [...lines, ...cut];
  const more = lines.length - maxLines;
  return [...lines.slice(0, maxLines), { sign: "…", text: `${more} more lines` }, ...cut];
}
