/**
 * How large an answer is, counted once it is parsed, and how large a case lets one be before the
 * grader stops reading it closely. A program can print up to the output cap (4 MiB) of answer:
 * 150,000 members, or a million partitions. Everything after the parse (the schema check, the
 * comparison, the diagnosis, the explanation's grid and diff) costs work that grows with those
 * counts, so an answer more than ANSWER_SIZE_FACTOR times larger than the case allows is judged
 * wrong by its size alone, and its explanation says only that, with the counts.
 *
 * The counts follow the shape the schemas give each mode's output (fixtures/schema/), and count
 * whatever stands where that shape has members, topics or partitions, valid or not, so that the
 * schema check of an answer within the limit is itself bounded by the case:
 *
 * - members: the entries of the answer's top-level object;
 * - topics: in an assignment, every entry of every member's object (an empty list too); in a
 *   decoded answer, every element of every member's `topics` array;
 * - partitions: in an assignment, every element of every topic's array;
 * - fields: in a decoded answer, every entry of every member's object; in a sync answer, the bytes
 *   its members' hex strings stand for (half their characters, rounded up).
 *
 * A sync answer has no topics or partitions: what stands where its schema puts a string is not
 * looked into (the schema check refuses it without reading it), so an object there is invalid
 * output, not an answer "far larger than Kafka's" by a count the sync message never shows.
 */
import type { Case, Mode } from "../cases/load.ts";

/** An answer's counts (see the module's comment). */
export interface AnswerSize {
  members: number;
  topics: number;
  partitions: number;
  fields: number;
}

/** How many times larger than the case allows an answer may be and still be read closely. */
export const ANSWER_SIZE_FACTOR = 4;

/** A plain object (not an array, not null). */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The counts of a parsed answer, valid or not (see the module's comment): what is not where the
 * shape puts an object or an array is not looked into. Work: O(members + topics + fields), the
 * arrays' lengths read, not their elements.
 *
 * @param mode the case's mode, which says the answer's shape
 * @param answer what JSON.parse made of standard output
 */
export function answerSize(mode: Mode, answer: unknown): AnswerSize {
  const size: AnswerSize = { members: 0, topics: 0, partitions: 0, fields: 0 };
  if (!isObject(answer)) return size;
  for (const member in answer) {
    if (!Object.hasOwn(answer, member)) continue;
    size.members++;
    const value = answer[member];
    if (mode === "sync") {
      if (typeof value === "string") size.fields += Math.ceil(value.length / 2);
      continue;
    }
    if (!isObject(value)) continue;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const inner = value[key];
      if (mode === "assign") {
        size.topics++;
        if (Array.isArray(inner)) size.partitions += inner.length;
      } else {
        size.fields++;
        if (key === "topics" && Array.isArray(inner)) size.topics += inner.length;
      }
    }
  }
  return size;
}

/** Bytes of a member's metadata (hex, perhaps with spaces): at most half its characters. */
const metadataBytes = (c: Case): number =>
  c.input.members.reduce((sum, m) => sum + Math.ceil(m.metadata.length / 2), 0);

/**
 * Bytes the members' assignment values may take in all: per member its header and user data
 * (10 bytes and the input's user data), per member and topic of the metadata an entry (8 bytes
 * and at most 3 UTF-8 bytes per UTF-16 unit of the name), and 4 bytes per partition.
 */
function syncBytes(c: Case, partitions: number): number {
  let names = 0;
  for (const topic of Object.keys(c.input.topics)) names += 8 + 3 * topic.length;
  let userData = 0;
  for (const m of c.input.members) userData += Math.ceil((m.assignmentUserData ?? "").length / 2);
  return c.input.members.length * (10 + names) + userData + 4 * partitions;
}

/**
 * The counts a case allows an answer, before the factor: the larger of its expected answer's
 * counts (none for a case that expects an error) and what its input lets any answer hold:
 *
 * - members: the input's members;
 * - topics: an assignment may list, for each member, every topic of the metadata and every topic
 *   its subscription names (an empty list means the same as no entry), and a subscription's bytes
 *   name at most one topic per two bytes: members × the metadata's topics + the members' bytes / 2;
 *   a decoded answer lists at most the members' bytes / 2 topics;
 * - partitions: every partition of the metadata (an assignment that gives each one once, as one
 *   that also assigns unsubscribed topics does);
 * - fields: four per member (version, topics, userData, rackId); in a sync answer, bytes (syncBytes).
 *
 * Work: O(the input's members and topics, and the expected answer's counts).
 */
export function caseAnswerSize(c: Case): AnswerSize {
  let size = allowedSizes.get(c);
  if (size === undefined) {
    size = allowedSize(c);
    allowedSizes.set(c, size);
  }
  return size;
}

/** Each case's allowed counts, worked out once per case (cases are never changed once loaded). */
const allowedSizes = new WeakMap<Case, AnswerSize>();

function allowedSize(c: Case): AnswerSize {
  const members = c.input.members.length;
  const bytes = metadataBytes(c);
  let partitions = 0;
  for (const n of Object.values(c.input.topics))
    if (Number.isSafeInteger(n) && n > 0) partitions += n;
  const fromInput: AnswerSize =
    c.mode === "assign"
      ? {
          members,
          topics: members * Object.keys(c.input.topics).length + Math.ceil(bytes / 2),
          partitions,
          fields: 0,
        }
      : c.mode === "sync"
        ? { members, topics: 0, partitions: 0, fields: syncBytes(c, partitions) }
        : { members, topics: Math.ceil(bytes / 2), partitions: 0, fields: 4 * members };
  const expected = "output" in c.expected ? answerSize(c.mode, c.expected.output) : fromInput;
  return {
    members: Math.max(fromInput.members, expected.members),
    topics: Math.max(fromInput.topics, expected.topics),
    partitions: Math.max(fromInput.partitions, expected.partitions),
    fields: Math.max(fromInput.fields, expected.fields),
  };
}

/**
 * True when `size` exceeds ANSWER_SIZE_FACTOR times `allowed` in any count (a count the case
 * allows none of is taken as 1, so a few stray entries are still read closely).
 */
export function oversized(size: AnswerSize, allowed: AnswerSize): boolean {
  const over = (n: number, limit: number) => n > ANSWER_SIZE_FACTOR * Math.max(1, limit);
  return (
    over(size.members, allowed.members) ||
    over(size.topics, allowed.topics) ||
    over(size.partitions, allowed.partitions) ||
    over(size.fields, allowed.fields)
  );
}

/** `n` with thousands separators, the same on every machine (no locale). */
export function grouped(n: number): string {
  const digits = String(n);
  if (!Number.isSafeInteger(n) || n < 0) return digits;
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return out;
}

/**
 * The counts in words, for messages: `153,762 members, 153,762 topics and 153,762 partitions`
 * (an assignment) or `3 members and 4 topics` (a decoded answer; its fields when they count).
 */
export function describeSize(mode: Mode, size: AnswerSize): string {
  const plural = (n: number, word: string) => `${grouped(n)} ${word}${n === 1 ? "" : "s"}`;
  if (mode === "sync")
    return `${plural(size.members, "member")} and ${plural(size.fields, "byte")}`;
  const parts =
    mode === "assign"
      ? [
          plural(size.members, "member"),
          plural(size.topics, "topic"),
          plural(size.partitions, "partition"),
        ]
      : [
          plural(size.members, "member"),
          plural(size.topics, "topic"),
          ...(size.fields > 4 * size.members ? [plural(size.fields, "field")] : []),
        ];
  return parts.length === 2
    ? parts.join(" and ")
    : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1) ?? ""}`;
}
