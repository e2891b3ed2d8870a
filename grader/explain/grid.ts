/**
 * An assignment failure drawn as a grid per topic: one column per partition, the expected owner
 * above the actual owner, each member a letter, differing columns marked with ^. Only the topics
 * whose ownership differs are drawn.
 *
 * The program's output is untrusted: it can name partitions or topics the input does not have
 * (partition 2147483646, or 300,000 partitions of a 3-partition topic) and thousands of members.
 * So only the input's partitions of the input's topics are drawn; whatever else the program
 * assigned is counted and said in one line per topic; and every part has a cap (topics, rows,
 * members named, name length). The work is linear in the input and the output, and the size of
 * what is returned is bounded by the constants below alone.
 */
import type { AssignmentOutput } from "../cases/load.ts";
import { ranges } from "./diff.ts";
import { byCodeUnits } from "../verdict/order.ts";
import { grouped } from "../verdict/answer-size.ts";

/** Partitions per grid row before it wraps. */
const COLUMNS = 24;
/** Rows per topic: a topic with more partitions than COLUMNS * MAX_ROWS is summarised by member. */
const MAX_ROWS = 12;
/** The most partitions a topic can have and still be drawn as a grid. */
export const MAX_DRAWN_PARTITIONS = COLUMNS * MAX_ROWS;
/** Topics drawn or summarised; the rest are only counted. */
export const MAX_TOPICS = 3;
/** Members named in a large topic's summary. */
export const MAX_SUMMARY_MEMBERS = 6;
/** Runs of partitions (like 0-99) shown per member in a large topic's summary. */
const MAX_RUNS = 4;
/** Characters of a member id or topic name shown before the rest is cut. */
export const MAX_NAME = 60;
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/**
 * Members named in the legend: one per letter, so every letter drawn is explained; the members
 * drawn as ? are only counted.
 */
export const MAX_LEGEND = LETTERS.length;

/** Partition to owners (more than one when a submission gives a partition twice). */
type Owners = Map<number, string[]>;

/** What the program assigned outside the input: of one topic, distinct partitions and members. */
interface Strays {
  partitions: Set<number>;
  members: number;
}

/** True for a partition the topic has: an integer from 0 to count - 1. */
const isPartition = (p: number, count: number): boolean =>
  Number.isInteger(p) && p >= 0 && p < count;

const plural = (n: number, word: string): string => `${grouped(n)} ${word}${n === 1 ? "" : "s"}`;

/** A member id or topic name as a JSON string, cut to MAX_NAME characters (ids can be huge). */
export const quote = (name: string): string =>
  JSON.stringify(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name);

/**
 * Topic to partition to owners for the input's partitions of the input's topics; everything else
 * the output assigns goes to `strays` (when given) by topic. One pass: O(output size).
 */
function read(
  output: AssignmentOutput,
  counts: ReadonlyMap<string, number>,
  strays?: Map<string, Strays>,
): Map<string, Owners> {
  const byTopic = new Map<string, Owners>();
  for (const [member, topics] of Object.entries(output)) {
    for (const [topic, partitions] of Object.entries(topics)) {
      const count = counts.get(topic);
      let owners = byTopic.get(topic);
      let stray: Strays | undefined;
      for (const p of partitions) {
        if (count !== undefined && isPartition(p, count)) {
          if (owners === undefined) byTopic.set(topic, (owners = new Map()));
          const names = owners.get(p);
          // push, not a copy: a partition given to 100,000 members must not cost 100,000^2.
          if (names === undefined) owners.set(p, [member]);
          else names.push(member);
        } else if (strays !== undefined) {
          if (stray === undefined) {
            stray = strays.get(topic);
            if (stray === undefined)
              strays.set(topic, (stray = { partitions: new Set(), members: 0 }));
            stray.members++;
          }
          stray.partitions.add(p);
        }
      }
    }
  }
  return byTopic;
}

/** Element by element: owner lists in the order the output gave them, or partition lists. */
function sameList(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return false;
  return true;
}

/** Distinct members owning a partition of a topic on either side: O(partitions either side assigns). */
function ownerCount(want: Owners | undefined, got: Owners | undefined): number {
  const members = new Set<string>();
  for (const owners of [want, got])
    for (const names of owners?.values() ?? []) for (const m of names) members.add(m);
  return members.size;
}

/** How many partitions have different owners: O(partitions either side assigns). */
function differences(want: Owners | undefined, got: Owners | undefined): number {
  let n = 0;
  for (const [p, names] of want ?? []) if (!sameList(names, got?.get(p))) n++;
  for (const p of got?.keys() ?? []) if (want?.has(p) !== true) n++;
  return n;
}

/**
 * The `k` smallest items in `compare` order, sorted, and how many items there were, without
 * sorting them all: O(n * k), so a million invented topics or members cost one pass, not a sort.
 */
function smallest<T>(
  items: Iterable<T>,
  k: number,
  compare: (a: T, b: T) => number,
): { kept: T[]; total: number } {
  const kept: T[] = [];
  let total = 0;
  for (const item of items) {
    total++;
    if (k <= 0) continue;
    if (kept.length === k) {
      if (compare(item, kept[k - 1] as T) >= 0) continue;
      kept.pop();
    }
    let i = kept.length;
    kept.push(item);
    for (; i > 0 && compare(item, kept[i - 1] as T) < 0; i--) kept[i] = kept[i - 1] as T;
    kept[i] = item;
  }
  return { kept, total };
}

/** A few of the stray partitions, ascending: "300, 301, 302, …, 299999", or all of up to four. */
function strayExamples(stray: Strays): string {
  const numeric = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
  const { kept: low } = smallest(stray.partitions, 4, numeric);
  let high = low.at(-1) ?? 0;
  for (const p of stray.partitions) if (p > high) high = p;
  const shown =
    stray.partitions.size <= 4 ? low.map(String) : [...low.slice(0, 3).map(String), "…", `${high}`];
  return shown.join(", ");
}

/**
 * The input's partitions of `topic` that a member owns in `output`, ascending (sorted only when
 * the output did not list them in order).
 */
function partitionsOf(
  output: AssignmentOutput,
  member: string,
  topic: string,
  count: number,
): number[] {
  const topics = Object.hasOwn(output, member) ? output[member] : undefined;
  const listed = topics !== undefined && Object.hasOwn(topics, topic) ? topics[topic] : undefined;
  const kept: number[] = [];
  let ascending = true;
  for (const p of listed ?? []) {
    if (!isPartition(p, count)) continue;
    if (kept.length > 0 && p <= (kept.at(-1) ?? 0)) ascending = false;
    kept.push(p);
  }
  return ascending ? kept : kept.sort((a, b) => a - b);
}

/** A large topic: which members' partitions differ, at most MAX_SUMMARY_MEMBERS of them. */
function memberSummary(
  topic: string,
  count: number,
  expected: AssignmentOutput,
  actual: AssignmentOutput,
): string[] {
  const check = (member: string): [string, number[], number[]] | undefined => {
    const want = partitionsOf(expected, member, topic, count);
    const got = partitionsOf(actual, member, topic, count);
    return sameList(want, got) ? undefined : [member, want, got];
  };
  // Every member of either side, each once, that owns different partitions of the topic.
  const differing = function* (): Generator<[string, number[], number[]]> {
    for (const member of Object.keys(expected)) {
      const row = check(member);
      if (row !== undefined) yield row;
    }
    for (const member of Object.keys(actual)) {
      if (Object.hasOwn(expected, member)) continue;
      const row = check(member);
      if (row !== undefined) yield row;
    }
  };
  const { kept, total } = smallest(differing(), MAX_SUMMARY_MEMBERS, ([a], [b]) =>
    byCodeUnits(a, b),
  );
  const owned = (list: number[]) =>
    list.length === 0
      ? "nothing"
      : `${ranges(list, MAX_RUNS)} (${plural(list.length, "partition")})`;
  const lines = kept.map(
    ([member, want, got]) => `  ${quote(member)}: expected ${owned(want)}, actual ${owned(got)}`,
  );
  const more = total - kept.length;
  if (more > 0) lines.push(`  (${plural(more, "more member")} differ${more === 1 ? "s" : ""})`);
  return lines;
}

/**
 * The grid lines for the topics that differ, with a legend of the members shown; empty when
 * nothing differs.
 *
 * Topics are taken in code-unit order, at most MAX_TOPICS of them (the rest counted in one line).
 * A topic of the input with at most MAX_DRAWN_PARTITIONS partitions and at most MAX_LEGEND owners
 * is drawn as a grid of its partitions 0 to n - 1; a larger one (a big group's topic, whose grid
 * would be mostly "?") is summarised by the members whose partitions differ.
 * Partitions the program assigned that the topic does not have (out of range, negative, not an
 * integer), and topics the input does not have, are counted and shown by a few examples in one
 * line each, never drawn. The expected answer is taken to lie within the input (the fixture
 * generator checks it); any part of it outside is ignored.
 *
 * Cost: O(input topics + size of both outputs), never the partition counts themselves (a topic
 * of 2^31 - 1 partitions is summarised from what the outputs list). The lines returned are at
 * most MAX_TOPICS * (4 * MAX_ROWS + 2) + 2, each of bounded length (names cut to MAX_NAME).
 * Throws only on values that do not have the declared types (say, partitions that are not an
 * array); the text report turns that into one line for the case.
 *
 * @param partitionsPerTopic the case's input topics: name to partition count
 * @param expected the expected assignment
 * @param actual the program's assignment
 */
export function assignmentGrid(
  partitionsPerTopic: Readonly<Record<string, number>>,
  expected: AssignmentOutput,
  actual: AssignmentOutput,
): string[] {
  const counts = new Map<string, number>();
  for (const [topic, n] of Object.entries(partitionsPerTopic))
    counts.set(topic, Number.isSafeInteger(n) && n > 0 ? n : 0);
  const strays = new Map<string, Strays>();
  const want = read(expected, counts);
  const got = read(actual, counts, strays);

  const differing = new Map<string, number>();
  for (const topic of new Set([...want.keys(), ...got.keys()])) {
    const n = differences(want.get(topic), got.get(topic));
    if (n > 0) differing.set(topic, n);
  }
  const notable = new Set([...differing.keys(), ...strays.keys()]);
  if (notable.size === 0) return [];
  const shown = smallest(notable, MAX_TOPICS, byCodeUnits).kept;

  const letters = new Map<string, string>();
  const unlettered = new Set<string>();
  const letterOf = (member: string): string => {
    let letter = letters.get(member);
    if (letter !== undefined) return letter;
    letter = LETTERS[letters.size];
    if (letter === undefined) {
      unlettered.add(member);
      return "?";
    }
    letters.set(member, letter);
    return letter;
  };
  const cell = (names: string[] | undefined) =>
    names === undefined || names.length === 0
      ? "."
      : names.length === 1
        ? letterOf(names[0] ?? "")
        : "*";

  const lines: string[] = [];
  let drawn = false;
  for (const topic of shown) {
    const count = counts.get(topic);
    const stray = strays.get(topic);
    if (count === undefined) {
      if (stray !== undefined)
        lines.push(
          `topic ${quote(topic)} (not in the metadata): the program assigned ${plural(stray.partitions.size, "partition")} of it to ${plural(stray.members, "member")}: ${strayExamples(stray)}`,
        );
      continue;
    }
    const n = differing.get(topic) ?? 0;
    const header = `topic ${quote(topic)} (${plural(count, "partition")}`;
    const owners = n > 0 ? ownerCount(want.get(topic), got.get(topic)) : 0;
    if (n > 0 && (count > MAX_DRAWN_PARTITIONS || owners > MAX_LEGEND)) {
      // A grid of more members than letters would be mostly "?": say who differs instead.
      const why =
        count > MAX_DRAWN_PARTITIONS
          ? "too many to draw"
          : `${plural(owners, "owner")}, too many to draw`;
      lines.push(`${header}, ${why}): ${plural(n, "partition")} owned differently; by member:`);
      for (const line of memberSummary(topic, count, expected, actual)) lines.push(line);
    } else if (n > 0) {
      drawn = true;
      lines.push(`${header}):`);
      // Three characters a column up to partition 99, as always; wider for 100 and up.
      const width = Math.max(3, String(count - 1).length + 1);
      const row = (values: string[]) => values.map((v) => v.padStart(width)).join("");
      const wantOwners = want.get(topic);
      const gotOwners = got.get(topic);
      for (let from = 0; from < count; from += COLUMNS) {
        const range: number[] = [];
        for (let p = from; p < Math.min(count, from + COLUMNS); p++) range.push(p);
        const expectedCells = range.map((p) => cell(wantOwners?.get(p)));
        const actualCells = range.map((p) => cell(gotOwners?.get(p)));
        lines.push(`  partition ${row(range.map(String))}`);
        lines.push(`  expected  ${row(expectedCells)}`);
        lines.push(`  actual    ${row(actualCells)}`);
        lines.push(
          `            ${row(range.map((_, k) => (expectedCells[k] === actualCells[k] ? "" : "^")))}`.trimEnd(),
        );
      }
    } else {
      lines.push(`${header}):`);
    }
    if (stray !== undefined)
      lines.push(
        `  the program also assigned ${plural(stray.partitions.size, "partition")} the topic does not have: ${strayExamples(stray)}`,
      );
  }
  const more = notable.size - shown.length;
  if (more > 0) lines.push(`(${plural(more, "more topic")} differ${more === 1 ? "s" : ""})`);
  if (drawn) {
    const named = [...letters].map(([m, l]) => `${l} = ${quote(m)}`);
    if (unlettered.size > 0) named.push(`? = any of ${plural(unlettered.size, "other member")}`);
    lines.push(`members: ${named.join(", ")}; . = nobody, * = more than one`);
  }
  return lines;
}
