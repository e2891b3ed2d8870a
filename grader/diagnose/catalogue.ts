/**
 * The mistake catalogue: every common mistake the kit teaches, named in plain words for the
 * student with the LESSON.md section to reread. Each id has an executable variant of the reference
 * with exactly that one mistake (a "mutant", grader/instructor/mutants/, instructor kit only); the
 * grader names a mistake when a submission's outcome on a failed case equals that mutant's outcome.
 */

export interface Mistake {
  /** Stable id, used in case.json `mistakes`, the results file and LESSON.md#common-mistakes. */
  id: string;
  /** One line: what the mistake is. */
  name: string;
  /** What the student most likely did and what to do instead. */
  explanation: string;
  /** The LESSON.md anchor (without `#`) to reread. */
  lesson: string;
  /** true when only extension cases can catch it (e.g. static members). */
  extension: boolean;
  /**
   * Mistakes this one is a special case of: when a submission matches this one and some of
   * these on the same case, this one alone is named.
   */
  moreSpecificThan: readonly string[];
}

const mistakes: Mistake[] = [
  {
    id: "global-assignment",
    name: "one assignment across all topics",
    explanation:
      "Your program seems to pool the partitions of every topic and split them once. The range assignor works topic by topic: for each topic, only that topic's subscribers, in member order, share its partitions.",
    lesson: "topics-are-independent-the-skew",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "numeric-order",
    name: "members sorted by the numbers in their ids",
    explanation:
      "Member ids are compared as plain strings, character by character: consumer-10 comes before consumer-2 because '1' < '2'. Do not compare the numbers inside the ids, and do not use a natural sort.",
    lesson: "member-order",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "arrival-order",
    name: "members kept in input order",
    explanation:
      "The coordinator lists members in no particular order. Sort each topic's subscribers by member id (static members first, by instance id) before splitting its partitions.",
    lesson: "member-order",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "locale-order",
    name: "members sorted with localeCompare",
    explanation:
      "localeCompare and Intl.Collator sort for people ('a' next to 'A', '_' before letters). Kafka compares UTF-16 code units, as Java's String.compareTo does: use a < b, so 'Z' < '_' < 'a'.",
    lesson: "member-order",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "idle-members-dropped",
    name: "members with nothing assigned left out",
    explanation:
      "Every member of the group must appear in the answer. A member that gets no partition is still a member: print it with {}.",
    lesson: "idle-members",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "unsubscribed-topics-assigned",
    name: "partitions of topics the member did not subscribe to",
    explanation:
      "Each topic's partitions go only to the members subscribed to that topic, and a topic nobody subscribed to is not assigned at all, even though it is in the metadata.",
    lesson: "topics-the-leader-cannot-assign",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "unknown-topic-crash",
    name: "crash on a subscribed topic missing from the metadata",
    explanation:
      "A member may subscribe to a topic the leader has no metadata for (it was deleted, or not created yet). The leader cannot assign it: skip that topic instead of reading its partition count.",
    lesson: "topics-the-leader-cannot-assign",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "extra-to-last",
    name: "extra partitions given to the last members",
    explanation:
      "With n partitions and m members, the first n mod m members (in member order) get one partition more, not the last ones.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "start-without-min",
    name: "range start without + min(i, n mod m)",
    explanation:
      "Member i starts at (n div m) * i + min(i, n mod m). Without the min term the ranges overlap and the last partitions go to nobody.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "ceil-chunks",
    name: "chunks of ceil(n / m)",
    explanation:
      "Cutting chunks of ceil(n / m) gives 3, 3, 1 for 7 partitions and 3 members. Range gives every member n div m and the first n mod m one more: 3, 2, 2.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "round-robin",
    name: "partitions dealt out one at a time",
    explanation:
      "Dealing partitions like cards (0 to the first member, 1 to the second, ...) is the round-robin assignor. Range gives each member one block of consecutive partitions.",
    lesson: "the-range-assignor",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "little-endian",
    name: "integers read little-endian",
    explanation:
      "Kafka writes every integer big-endian (most significant byte first). DataView's getInt16/getInt32 read big-endian when you leave out the second argument; do not pass true.",
    lesson: "reading-lengths",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "char-length-names",
    name: "string lengths counted in characters",
    explanation:
      "A string's int16 length counts UTF-8 bytes, not characters: 'café' is 5 bytes. Slice that many bytes, then decode them with TextDecoder; move on by the byte length.",
    lesson: "reading-lengths",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "unsigned-user-data-length",
    name: "user-data length read as unsigned",
    explanation:
      "The user-data length is a signed int32, and any negative length (not only -1) means null. Read it with getInt32, not getUint32, and test length < 0.",
    lesson: "user-data-null-or-bytes",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "newer-versions-rejected",
    name: "versions above 3 rejected",
    explanation:
      "A subscription with a version newer than the reader knows is not an error: Kafka reads it as the newest version it knows (3) and ignores what follows. Keep the version as written.",
    lesson: "versions-1-to-3",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "trailing-fields-misread",
    name: "fields after the user data treated as an error",
    explanation:
      "Versions 1 to 3 append owned partitions, a generation id and a rack id after the user data, and a buffer may carry more bytes after that. The required part stops after the user data: do not fail on what follows.",
    lesson: "versions-1-to-3",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "missing-fields-tolerated",
    name: "a body shorter than its version read as if the missing fields were empty",
    explanation:
      "A version says which fields follow: version 1 and up must carry owned partitions, 2 a generation id, 3 a rack id (a newer version is read as 3). Bytes that end before those fields are an error in Kafka (a buffer underflow), not a subscription without them. Some old clients wrote a version-1 header on a version-0 body; Kafka rejects those.",
    lesson: "versions-1-to-3",
    extension: true,
    moreSpecificThan: [],
  },
  {
    id: "dataview-byteoffset",
    name: "DataView built without the view's byteOffset",
    explanation:
      "The bytes you are given are a view into a larger buffer: new DataView(bytes.buffer) starts at the buffer's first byte, not the view's. Use new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).",
    lesson: "reading-lengths",
    extension: false,
    moreSpecificThan: [],
  },
  {
    id: "static-members-not-first",
    name: "static members not sorted first",
    explanation:
      "Members with a group instance id (static members) come first, ordered by instance id, an empty instance id included; then the others by member id.",
    lesson: "static-members-extension",
    extension: true,
    moreSpecificThan: [],
  },
];

/** The catalogue by id, in the order above (a Map: ids are data, not object keys). */
export const CATALOGUE: ReadonlyMap<string, Mistake> = new Map(mistakes.map((m) => [m.id, m]));
