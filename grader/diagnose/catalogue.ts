/**
 * The mistake catalogue: every common mistake the kit teaches, named in plain words for the
 * student with the LESSON.md section to reread. Most are `mutant` mistakes: executable variants of
 * the reference with exactly that one mistake (one "mutant" per way of writing it,
 * grader/instructor/mutants/, instructor kit only), named when a submission's outcome on a failed
 * case equals a mutant's and shows the mutant's own evidence (grader/diagnose/diagnose.ts). A few
 * are `outcome` mistakes: what the program did is the evidence (a crash where Kafka rejects the
 * bytes, an answer for bad bytes, a valid member rejected), named when no mutant explains it.
 */
import { READ_PAST_END } from "../patterns.ts";

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
   * `mutant`: named when a mutant's outcome matches (with its evidence); `outcome`: named from the
   * kind of outcome alone (expected vs. actual), when no mutant mistake explains a failed case.
   */
  evidence: "mutant" | "outcome";
  /**
   * For a mistake whose mutants crash: what a crash must say to be this mistake (tested against
   * the start of the program's standard error); without it any crash where the mutant crashed is.
   * A pattern of patterns.ts: it reads program text.
   */
  crashEvidence?: RegExp;
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
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "numeric-order",
    name: "members sorted by the numbers in their ids",
    explanation:
      "Member ids are compared as plain strings, character by character: consumer-10 comes before consumer-2 because '1' < '2'. Do not compare the numbers inside the ids, and do not use a natural sort.",
    lesson: "member-order",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "arrival-order",
    name: "members kept in input order",
    explanation:
      "The coordinator lists members in no particular order. Sort each topic's subscribers by member id (static members first, by instance id) before splitting its partitions.",
    lesson: "member-order",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "locale-order",
    name: "members sorted with localeCompare",
    explanation:
      "localeCompare and Intl.Collator sort for people ('a' next to 'A', '_' before letters). Kafka compares UTF-16 code units, as Java's String.compareTo does: use a < b, so 'Z' < '_' < 'a'.",
    lesson: "member-order",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "code-point-order",
    name: "members sorted by Unicode code points",
    explanation:
      "Java's String.compareTo compares UTF-16 code units, not code points: a character above U+FFFF (an emoji, stored as two surrogates starting 0xD8-0xDB) sorts before U+E000-U+FFFF characters such as U+FF41. JavaScript's a < b already compares code units; do not compare codePointAt values or [...a] arrays. Python's default string order is by code point: compare s.encode('utf-16-be') instead.",
    lesson: "member-order",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "idle-members-dropped",
    name: "members with nothing assigned left out",
    explanation:
      "Every member of the group must appear in the answer. A member that gets no partition is still a member: print it with {}.",
    lesson: "idle-members",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "unsubscribed-topics-assigned",
    name: "partitions of topics the member did not subscribe to",
    explanation:
      "Each topic's partitions go only to the members subscribed to that topic, and a topic nobody subscribed to is not assigned at all, even though it is in the metadata.",
    lesson: "topics-the-leader-cannot-assign",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "unknown-topic-crash",
    name: "crash on a subscribed topic missing from the metadata",
    explanation:
      "A member may subscribe to a topic the leader has no metadata for (it was deleted, or not created yet). The leader cannot assign it: skip that topic instead of reading its partition count.",
    lesson: "topics-the-leader-cannot-assign",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "extra-to-last",
    name: "extra partitions given to the last members",
    explanation:
      "With n partitions and m members, the first n mod m members (in member order) get one partition more, not the last ones.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "start-without-min",
    name: "range start without + min(i, n mod m)",
    explanation:
      "Member i starts at (n div m) * i + min(i, n mod m). Without the min term the ranges overlap and the last partitions go to nobody.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "ceil-chunks",
    name: "chunks of ceil(n / m)",
    explanation:
      "Cutting chunks of ceil(n / m) gives 3, 3, 1 for 7 partitions and 3 members. Range gives every member n div m and the first n mod m one more: 3, 2, 2.",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "round-robin",
    name: "partitions dealt out one at a time",
    explanation:
      "Dealing partitions like cards (0 to the first member, 1 to the second, ...) is the round-robin assignor. Range gives each member one block of consecutive partitions.",
    lesson: "the-range-assignor",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "float-range-boundaries",
    name: "range boundaries from floating-point division",
    explanation:
      "Cutting at Math.round(i * n / m) (or any rounding of a fractional boundary) spreads the extra partitions across the members: 7 partitions for 3 members become 2, 3, 2. Range uses integer division: every member gets n div m, and the first n mod m members get one more (3, 2, 2).",
    lesson: "worked-example-7-partitions-3-members",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "duplicate-topics-counted",
    name: "a topic listed twice counted twice",
    explanation:
      "A member that lists a topic twice in its subscription is still one member of that topic: Kafka adds each member once to a topic's members. Counting it twice gives it two places in the range and changes everyone's share.",
    lesson: "the-range-assignor",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "little-endian",
    name: "integers read little-endian",
    explanation:
      "Kafka writes every integer big-endian (most significant byte first). DataView's getInt16/getInt32 read big-endian when you leave out the second argument; do not pass true.",
    lesson: "reading-lengths",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "char-length-names",
    name: "string lengths counted in characters",
    explanation:
      "A string's int16 length counts UTF-8 bytes, not characters: 'café' is 5 bytes. Slice that many bytes, then decode them with TextDecoder; move on by the byte length.",
    lesson: "reading-lengths",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "names-not-utf8",
    name: "names not decoded as UTF-8",
    explanation:
      "Topic names are UTF-8 bytes. Reading each byte as one character (Latin-1, String.fromCharCode) turns every name with a character outside ASCII into another name, which the metadata does not have. Decode the bytes with TextDecoder (UTF-8).",
    lesson: "reading-lengths",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "bom-stripped",
    name: "a leading U+FEFF dropped from a name",
    explanation:
      "Kafka reads a name with new String(bytes, UTF_8), which keeps every character, a leading U+FEFF (bytes EF BB BF) included: it is part of the name. A TextDecoder made without { ignoreBOM: true } drops it, so the member subscribes to another topic than it named.",
    lesson: "reading-lengths",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "unsigned-user-data-length",
    name: "user-data length read as unsigned",
    explanation:
      "The user-data length is a signed int32: read it with getInt32 (or readInt32BE), not getUint32. Read unsigned, the null marker ff ff ff ff becomes a length of 4294967295 bytes, and any negative length means null.",
    lesson: "user-data-null-or-bytes",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "user-data-only-minus-one-null",
    name: "only -1 read as null user data",
    explanation:
      "The user data is null for any negative length, not only -1 (ff ff ff ff): Kafka's reader tests length < 0. A length of -2 is null too, not an error and not empty bytes.",
    lesson: "user-data-null-or-bytes",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "null-user-data-as-empty",
    name: "null user data read as empty bytes",
    explanation:
      'A negative user-data length means null, which is not the same as zero bytes: print null for it, and "" only for a length of 0.',
    lesson: "user-data-null-or-bytes",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "newer-versions-rejected",
    name: "versions above 3 rejected",
    explanation:
      "A subscription with a version newer than the reader knows is not an error: Kafka reads it as the newest version it knows (3) and ignores what follows. Keep the version as written.",
    lesson: "versions-1-to-3",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "newer-versions-misread",
    name: "a version above 3 not read as version 3",
    explanation:
      "Kafka reads every version above 3 with version 3's layout: the owned partitions, the generation id and the rack id are all there, and only what follows them is ignored. Testing for version 3 exactly (or 1, or 2) skips a field a newer member did send: here its rack comes out null.",
    lesson: "versions-1-to-3",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "trailing-fields-misread",
    name: "fields after the user data treated as an error",
    explanation:
      "Versions 1 to 3 append owned partitions, a generation id and a rack id after the user data, and a buffer may carry more bytes after that. The required part stops after the user data: do not fail on what follows.",
    lesson: "versions-1-to-3",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "missing-fields-tolerated",
    name: "a body shorter than its version read as if the missing fields were empty",
    explanation:
      "A version says which fields follow: version 1 and up must carry owned partitions, 2 a generation id, 3 a rack id (a newer version is read as 3). Bytes that end before those fields are an error in Kafka (a buffer underflow), not a subscription without them. Some old clients wrote a version-1 header on a version-0 body; Kafka rejects those.",
    lesson: "versions-1-to-3",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "field-width-wrong",
    name: "a field read with the wrong width",
    explanation:
      "Each field has its width in the table of fields: generationId (version 2 and up) is an int32, four bytes; rackId (version 3) is a string, its length an int16, two bytes (only user data, a BYTES field, has an int32 length). Reading another width shifts every field after it: a valid member is rejected, or its rack comes out wrong (a generation -1, ff ff ff ff, read as an int16 leaves ffff as the rack's length: a null rack).",
    lesson: "versions-1-to-3",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "later-fields-not-read",
    name: "owned partitions, generation id and rack id not read",
    explanation:
      "The decoder stops after the user data, as the required part allows, so it accepts version 1 to 3 bodies whose later fields are bad. The extension reads them: owned partitions (version 1+), the generation id (2+) and the rack id (3+), and rejects bytes that do not hold them.",
    lesson: "versions-1-to-3",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "dataview-byteoffset",
    name: "DataView built without the view's byteOffset",
    explanation:
      "The bytes you are given are a view into a larger buffer: new DataView(bytes.buffer) starts at the buffer's first byte, not the view's. Use new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).",
    lesson: "reading-lengths",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "negative-count-as-empty",
    name: "a negative count read as an empty array",
    explanation:
      "The topic count (and every other array count) is a signed int32, and the topics array cannot be null: a negative count is an error, not zero topics. A loop for (i = 0; i < count; i++) silently reads -1 as an empty list; test count < 0 and throw SubscriptionDecodeError.",
    lesson: "bad-bytes",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "negative-version-accepted",
    name: "a negative version accepted, or the version read as unsigned",
    explanation:
      "The version is a signed int16 (getInt16), and a negative version is an error: Kafka rejects it. Read as unsigned (getUint16), ff ff becomes 65535 and is read as version 3; read signed but not checked, it is taken as a version below 1.",
    lesson: "bad-bytes",
    extension: false,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "truncated-tolerated",
    name: "reading past the end of the bytes",
    explanation:
      "Every read must first check that the bytes it needs are there: a length or count that runs past the end is an error (SubscriptionDecodeError), not a shorter string, fewer bytes or a RangeError from DataView. Compare the length with the bytes that remain before you slice.",
    lesson: "bad-bytes",
    extension: false,
    evidence: "mutant",
    crashEvidence: READ_PAST_END,
    moreSpecificThan: [],
  },
  {
    id: "static-members-not-first",
    name: "static members not sorted first",
    explanation:
      "Members with a group instance id (static members) come first, ordered by instance id, an empty instance id included; then the others by member id. Not last, and not mixed in by member id.",
    lesson: "static-members-extension",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "truthy-instance-id",
    name: "an empty group instance id treated as no instance id",
    explanation:
      'A member is static when its group instance id is not null, and "" is not null: test groupInstanceId !== null, not its truthiness (if (id), id ? a : b, id || fallback).',
    lesson: "static-members-extension",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "racks-ignored",
    name: "racks ignored",
    explanation:
      "Kafka's range assignor matches racks when members have racks and the partitions' replicas are not all on the same racks: each member first takes, up to its share, the partitions with a replica on its own rack. Your answer is the plain range answer, as if there were no racks. Read each member's rack id (rackId, the last field of a version-3 subscription) and the partitions' replica racks (partitionRacks), and decide per topic whether matching applies.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    // Not reading the rack ids at all (a decoder that stops after the user data) gives the same
    // answers on every assign case: the racks are ignored either way, and that is what to fix.
    moreSpecificThan: ["later-fields-not-read"],
  },
  {
    id: "racks-always-matched",
    name: "racks matched where Kafka does not",
    explanation:
      "Kafka matches racks only when a topic needs it: some member's rack holds a replica of the topic, and the partitions are not all on exactly the same racks. Here it does not (every partition is on the same racks, or no member's rack holds a replica), so the answer is the plain range answer. Check both conditions before matching.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "co-partitioning-lost",
    name: "co-partitioned topics matched one at a time",
    explanation:
      "Topics with the same members and the same number of partitions are matched together, partition by partition: partition p of each goes to the same member, one whose rack holds a replica of partition p in every one of them. Matching each topic on its own lets them drift apart, and such a group is matched even if none of its topics needs matching by itself.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rack-partition-assigned-twice",
    name: "a rack-matched partition given out again",
    explanation:
      "A partition a member takes while racks are matched must be marked as assigned at once. Here it was counted for that member but stayed among the unassigned partitions, so it went out a second time (to another member, or to the same one) and the shares no longer add up. Remove it from the unassigned partitions when you assign it.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rackless-members-skipped",
    name: "members without a rack skipped while racks are matched",
    explanation:
      'A member without a rack (null or "") matches every partition: while racks are matched it takes, in member order and up to its share, the lowest unassigned partitions, like any member whose rack holds them. Skipping it until the leftover pass leaves it the partitions others did not want.',
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "empty-rack-is-a-rack",
    name: "an empty rack id treated as a rack",
    explanation:
      'A member whose rack id is "" has no rack, exactly like null (Kafka ignores an empty client.rack). Treating "" as a rack name makes that member match no partition, and may make Kafka\'s condition for matching look true when it is not. Test for null and for "". (A replica\'s rack "" is a rack name: only the member\'s is ignored.)',
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rack-share-exceeded",
    name: "a member takes more than its share on its rack",
    explanation:
      "While racks are matched each member takes at most its share: n div m partitions, one more while extra partitions remain, as in the plain range answer. Taking every partition on its rack leaves the members after it too little, and the counts no longer match Kafka's.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "empty-replica-rack-dropped",
    name: 'a replica rack "" taken for no rack',
    explanation:
      'A member rack "" means no rack, but a broker\'s rack "" is a rack name like any other (Kafka keeps every replica rack that is not null). Dropping it makes a partition on rack "" look like one without racks, so Kafka\'s test whether the partitions are all on the same racks comes out differently. Drop only null replica racks.',
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "null-replica-rack-kept",
    name: "a replica without a rack counted as a rack",
    explanation:
      "A replica on a broker without a rack (null in partitionRacks) adds no rack to its partition. Kafka collects each partition's racks without the nulls; keeping null as a rack makes partitions on the same racks look different, so racks get matched where Kafka gives the plain answer.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "null-replica-rack-any",
    name: "a replica without a rack matched to every rack",
    explanation:
      "A replica on a broker without a rack (null in partitionRacks) is on no rack: it matches no member's rack. Kafka leaves the nulls out of each partition's racks, so a partition whose replicas have no rack goes to the leftover pass, never to a member by rack. Taking null for any rack hands such partitions out in the rack pass, ahead of the partitions a member's rack really holds.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "group-wide-member-racks",
    name: "a topic's need for matching judged on every member's rack",
    explanation:
      "Whether a topic needs rack matching depends on its own members only: some of the members subscribed to it have a rack, and one of those racks holds a replica of it. Racks of members that do not subscribe to the topic say nothing about it; counting them matches a topic whose own members' racks hold none of its replicas, where Kafka gives the plain answer.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rackless-partitions-ignored",
    name: "partitions without racks left out of the 'same racks' test",
    explanation:
      "A topic needs matching unless every partition is on exactly the same racks as the whole topic. A partition whose replicas have no rack is on no rack, which differs from the others: it counts in that test. Leaving such partitions out skips matching where Kafka matches.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "leftovers-by-member-id",
    name: "leftover partitions given out in member-id order",
    explanation:
      "After the rack pass, the leftover partitions go out in Kafka's member order, the same order as everywhere else: static members first (by group instance id), then the others by member id. Sorting by member id alone gives a static member's leftovers to someone else.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "duplicate-racks-counted",
    name: "a partition's racks counted with repeats",
    explanation:
      "A partition's racks are a set: two replicas on one rack make one rack. Keeping repeats makes partitions on the same racks look different (['a','a'] against ['a']), so racks get matched where Kafka gives the plain answer.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rack-extras-to-first",
    name: "extra partitions reserved for the first members while racks are matched",
    explanation:
      "While racks are matched, each member may take n div m partitions, and one more while extra partitions remain: the first members to reach their share plus one use the extras up, whoever they are. Reserving the extras for the first n mod m members in order, as the plain formula does, gives different counts.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "co-partitioned-by-members-only",
    name: "topics co-partitioned by their members alone",
    explanation:
      "Kafka matches topics together only when they have the same members and the same number of partitions. Topics with the same members but different partition counts are matched each on its own.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "co-partitioned-by-count-only",
    name: "topics co-partitioned by their partition count alone",
    explanation:
      "Kafka matches topics together only when they have the same members and the same number of partitions. Topics with the same partition count but other members are matched each on its own: partition p of each goes to a member of that topic.",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "rack-case-ignored",
    name: "racks compared without regard to case",
    explanation:
      'A member\'s rack matches a replica\'s rack only when the two strings are exactly equal, as Java\'s String.equals compares them: "AZ1" is not "az1". Do not lower-case, trim or otherwise normalise rack names.',
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "leader-rack-for-all",
    name: "every member matched on the leader's rack",
    explanation:
      "Each member's rack is the rackId in its own subscription. The leader's own client.rack says nothing about the others: read every member's rack from its subscription bytes (version 3).",
    lesson: "rack-aware-assignment",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-little-endian",
    name: "the assignment's integers written little-endian",
    explanation:
      "Every integer of the assignment value is big-endian, as in the subscription: the version, the topic count, each name's length, each partition count and partition, and the user-data length. DataView's setInt16 and setInt32 write big-endian unless their third argument is true: leave it out.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-char-length-names",
    name: "a topic name's length written in UTF-16 units",
    explanation:
      "A topic name's int16 length counts its UTF-8 bytes, the bytes that follow it. JavaScript's string length counts UTF-16 units: for a name such as \"日本\" (6 UTF-8 bytes, length 2) or one with an emoji the two differ, and a reader then takes the wrong number of bytes for the name. Encode the name with TextEncoder first and write the length of that array, and add up the value's size from those arrays too (a size counted in UTF-16 units cuts the value short).",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-user-data-missing",
    name: "the user data left out of the assignment",
    explanation:
      "Every assignment value ends with its user data: an int32 length, -1 when the assignor gives none (null), then the bytes. Leaving the field out makes a value Kafka cannot read (it runs out of bytes where the length should be). Write it last, even when it is null: an `if (userData)` around it leaves it out exactly then.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-null-user-data-as-empty",
    name: "null user data written as empty",
    explanation:
      "Null user data is written as the length -1 and no bytes; an empty array is the length 0. The range assignor sends null, so most members' values end with ff ff ff ff. Keep null and empty apart: check for null before you take a length.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-empty-user-data-as-null",
    name: "empty user data written as null",
    explanation:
      "User data of zero bytes is written as the length 0, not -1: only null is -1. An assignor that sends empty user data (Uint8Array of length 0) means something other than one that sends none.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-user-data-whole-buffer",
    name: "the user data written from the whole underlying buffer",
    explanation:
      "main.ts hands you each member's user data as a view into a larger buffer (its byteOffset is not 0). new Uint8Array(userData.buffer) and userData.buffer.byteLength are the whole buffer, other bytes included. Write the view itself: its byteLength as the length, and its bytes (Uint8Array.set, or copy with slice()).",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-idle-member-no-bytes",
    name: "a member that owns nothing sent no bytes",
    explanation:
      "Every member gets an assignment value, even one the assignor gave no partition: a version, a topic count of 0 and its user data (with null user data, the ten bytes 00 03 00 00 00 00 ff ff ff ff). A member sent zero bytes cannot read even the version, and fails.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-partitions-reordered",
    name: "a topic's partitions written in another order than the assignor's",
    explanation:
      "Each topic's partitions are written in the order the assignor gave them, as Kafka's serializer does; never sort them again. JavaScript's sort() with no comparator sorts numbers as strings (0, 1, 10, 11, 2, ...).",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-wrong-version",
    name: "an assignment version other than 3",
    explanation:
      "A Kafka 3.4+ leader writes version 3 in the header of every assignment value (the layout is the same for versions 0 to 3). Write 3 (ASSIGNMENT_VERSION), not the subscription's version or 0.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-no-version",
    name: "the assignment written without its version",
    explanation:
      "An assignment value starts with the int16 version (3), before the topic count. Without it, a reader takes the first two bytes of the count for the version and everything after is shifted.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-compact-encoding",
    name: "the assignment written in the compact (flexible) encoding",
    explanation:
      "ConsumerProtocolAssignment versions 0 to 3 are not flexible: counts and lengths are plain int32 and int16 (the user-data length an int32, -1 for null), with no varints and no tagged fields. The compact encoding (length + 1 as an unsigned varint, tagged fields) belongs to flexible versions of other messages, and other varints (plain, or zigzag as in Kafka's record format) to other formats.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "assignment-field-width-wrong",
    name: "an assignment field written with the wrong width",
    explanation:
      "Each field has its width: the version and each name's length are int16 (two bytes); the topic count, each partition count, each partition and the user-data length are int32 (four bytes), the -1 of null user data too (a nullable string's null is an int16 -1; nullable bytes take an int32). None is a byte or an int64. Another width shifts every field after it.",
    lesson: "the-assignment-bytes",
    extension: true,
    evidence: "mutant",
    moreSpecificThan: [],
  },
  {
    id: "crash-on-bad-bytes",
    name: "a crash instead of the decode error",
    explanation:
      "For bytes that are not a valid subscription your decoder must throw SubscriptionDecodeError (main.ts turns it into exit 1 and the documented error line). Here it let another exception escape (a RangeError from DataView, a TypeError, a plain Error), and the program crashed. Check each length and count before reading, and throw SubscriptionDecodeError with the field and offset.",
    lesson: "bad-bytes",
    extension: false,
    evidence: "outcome",
    moreSpecificThan: [],
  },
  {
    id: "bad-bytes-accepted",
    name: "bad bytes accepted",
    explanation:
      "Kafka rejects these bytes, but your program printed an answer (exit 0). A decoder must refuse what does not fit: negative lengths of non-nullable fields, counts and lengths that run past the end, negative versions, a body shorter than its version.",
    lesson: "bad-bytes",
    extension: false,
    evidence: "outcome",
    moreSpecificThan: [],
  },
  {
    id: "valid-bytes-rejected",
    name: "a valid member's bytes rejected",
    explanation:
      "Kafka reads this member's subscription without error, but your program rejected it (exit 1). The field and offset in your error line say where your decoder went wrong: compare what it read there with the layout of the subscription bytes.",
    lesson: "the-subscription-bytes",
    extension: false,
    evidence: "outcome",
    moreSpecificThan: [],
  },
];

/** The catalogue by id, in the order above (a Map: ids are data, not object keys). */
export const CATALOGUE: ReadonlyMap<string, Mistake> = new Map(mistakes.map((m) => [m.id, m]));

/**
 * The mistake a mutant stands for: mutants are named by the mistake's id, or `id:form` for another
 * way of writing the same mistake (grader/instructor/mutants/mutants.ts).
 */
export function mistakeOf(mutant: string): string {
  const colon = mutant.indexOf(":");
  return colon < 0 ? mutant : mutant.slice(0, colon);
}
