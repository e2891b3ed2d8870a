/**
 * The mutants: for every catalogued mistake (grader/diagnose/catalogue.ts), the reference with
 * exactly that one mistake, written as replacements of named declarations of solution/src (see
 * replace.ts): a mistake in the member order replaces compareMembers or compareCodeUnits, one in
 * the arithmetic replaces rangeForConsumer, one in reading bytes a ByteReader method, and so on.
 * Instructor kit only: the student handout ships grader/diagnose/diagnosis.json (every mutant's
 * outcome on every built-in case) instead.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KIT_ROOT } from "../../kit.ts";
import { applyReplacements, type Replacement } from "./replace.ts";

export type { Replacement } from "./replace.ts";

const assignor = (replaceFunction: string, text: string): Replacement => ({
  file: "range-assignor.ts",
  replaceFunction,
  with: text,
});
const decoder = (replaceFunction: string, text: string): Replacement => ({
  file: "subscription.ts",
  replaceFunction,
  with: text,
});

/** assignRange's signature, for the mutants that replace its whole body. */
const ASSIGN_RANGE = `export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
  _partitionRacks: PartitionRacks = new Map(),
): Assignment {`;

/** assignRange's signature, for the mutants that keep its rack pass. */
const ASSIGN_RANGE_WITH_RACKS = `export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
  partitionRacks: PartitionRacks = new Map(),
): Assignment {`;

/** A version of rangeForConsumer: `body` computes the partitions of consumer i of m, from n. */
const rangeForConsumer = (body: string): Replacement =>
  assignor(
    "rangeForConsumer",
    `function rangeForConsumer(
  i: number,
  numConsumers: number,
  numPartitionsForTopic: number,
): number[] {
${body}
}`,
  );

/**
 * Mutant name to its replacements, in the catalogue's order. A name is the mistake's id, or
 * `id:form` for another common way of writing the same mistake (mistakeOf gives the id); every
 * mistake whose evidence is `mutant` has at least the one named by its id.
 */
export const MUTANTS: ReadonlyMap<string, readonly Replacement[]> = new Map<
  string,
  readonly Replacement[]
>([
  [
    "global-assignment",
    [
      assignor(
        "assignRange",
        `${ASSIGN_RANGE}
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  // The mistake: the members sorted once, and every topic's partitions pooled into one range
  // shared by everyone subscribed to any of them.
  const members = [...subscriptions]
    .map(([memberId, { groupInstanceId, topics }]) => ({ memberId, groupInstanceId, topics }))
    .sort(compareMembers);
  const pooledTopics = new Set<string>();
  const pooled: [string, number][] = [];
  const sharing: MemberInfo[] = [];
  for (const member of members) {
    const known = member.topics.filter((topic) => partitionsPerTopic.has(topic));
    if (known.length > 0) sharing.push(member);
    for (const topic of known) {
      if (pooledTopics.has(topic)) continue;
      pooledTopics.add(topic);
      for (let p = 0; p < (partitionsPerTopic.get(topic) ?? 0); p++) pooled.push([topic, p]);
    }
  }
  const perMember = Math.floor(pooled.length / Math.max(1, sharing.length));
  const withExtra = pooled.length % Math.max(1, sharing.length);
  sharing.forEach((member, i) => {
    const start = perMember * i + Math.min(i, withExtra);
    const owned = assignment.get(member.memberId);
    for (const [topic, p] of pooled.slice(start, start + perMember + (i < withExtra ? 1 : 0))) {
      owned?.set(topic, [...(owned.get(topic) ?? []), p]);
    }
  });
  return assignment;
}`,
      ),
    ],
  ],
  [
    "numeric-order",
    [
      assignor(
        "compareCodeUnits",
        `function compareCodeUnits(a: string, b: string): number {
  // The mistake: a natural sort, runs of digits compared as numbers.
  const as = a.split(/(\\d+)/);
  const bs = b.split(/(\\d+)/);
  for (let k = 0; k < Math.min(as.length, bs.length); k++) {
    const x = as[k] ?? "";
    const y = bs[k] ?? "";
    if (x === y) continue;
    if (k % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;
}`,
      ),
    ],
  ],
  [
    "arrival-order",
    [
      assignor(
        "compareMembers",
        `function compareMembers(_a: MemberInfo, _b: MemberInfo): number {
  // The mistake: no member order, so the (stable) sort keeps the order the members came in.
  return 0;
}`,
      ),
    ],
  ],
  [
    "locale-order",
    [
      assignor(
        "compareCodeUnits",
        `function compareCodeUnits(a: string, b: string): number {
  // The mistake: a sort for people, not Java's String.compareTo.
  return a.localeCompare(b, "en-US");
}`,
      ),
    ],
  ],
  [
    "code-point-order",
    [
      assignor(
        "compareCodeUnits",
        `function compareCodeUnits(a: string, b: string): number {
  // The mistake: Unicode code points compared, not UTF-16 code units.
  const x = [...a];
  const y = [...b];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = (x[k]?.codePointAt(0) ?? 0) - (y[k]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}`,
      ),
    ],
  ],
  [
    "idle-members-dropped",
    [
      assignor(
        "assignRange",
        `${ASSIGN_RANGE_WITH_RACKS}
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  const topicToConsumers = consumersPerTopic(subscriptions);
  const rackMatched = assignWithRackMatching(
    partitionsPerTopic,
    topicToConsumers,
    consumerRacks(subscriptions),
    partitionRacks,
  );

  for (const [topic, consumersForTopic] of topicToConsumers) {
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    if (numPartitionsForTopic === undefined) continue;

    const state = rackMatched.get(topic);
    if (state !== undefined) {
      state.assignLeftovers();
      state.writeTo(assignment);
      continue;
    }
    consumersForTopic.sort(compareMembers);
    consumersForTopic.forEach((member, i) => {
      const partitions = rangeForConsumer(i, consumersForTopic.length, numPartitionsForTopic);
      if (partitions.length > 0) assignment.get(member.memberId)?.set(topic, partitions);
    });
  }
  // The mistake: a member enters the answer only when it gets a partition.
  for (const [memberId, topics] of assignment) if (topics.size === 0) assignment.delete(memberId);
  return assignment;
}`,
      ),
    ],
  ],
  [
    "unsubscribed-topics-assigned",
    [
      assignor(
        "assignRange",
        `${ASSIGN_RANGE}
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  // The mistake: every topic of the metadata, shared among every member of the group.
  const everyone: MemberInfo[] = [...subscriptions].map(([memberId, { groupInstanceId }]) => ({
    memberId,
    groupInstanceId,
  }));
  for (const [topic, numPartitionsForTopic] of partitionsPerTopic) {
    const consumersForTopic = [...everyone].sort(compareMembers);
    consumersForTopic.forEach((member, i) => {
      const partitions = rangeForConsumer(i, consumersForTopic.length, numPartitionsForTopic);
      if (partitions.length > 0) assignment.get(member.memberId)?.set(topic, partitions);
    });
  }
  return assignment;
}`,
      ),
    ],
  ],
  [
    "unknown-topic-crash",
    [
      assignor(
        "assignRange",
        `${ASSIGN_RANGE_WITH_RACKS}
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  const topicToConsumers = consumersPerTopic(subscriptions);
  const rackMatched = assignWithRackMatching(
    partitionsPerTopic,
    topicToConsumers,
    consumerRacks(subscriptions),
    partitionRacks,
  );

  for (const [topic, consumersForTopic] of topicToConsumers) {
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    if (numPartitionsForTopic === undefined) {
      // The mistake: the topic's partitions read without checking the metadata has the topic.
      throw new TypeError(\`Cannot read properties of undefined (reading 'length') for topic \${topic}\`);
    }

    const state = rackMatched.get(topic);
    if (state !== undefined) {
      state.assignLeftovers();
      state.writeTo(assignment);
      continue;
    }
    consumersForTopic.sort(compareMembers);
    consumersForTopic.forEach((member, i) => {
      const partitions = rangeForConsumer(i, consumersForTopic.length, numPartitionsForTopic);
      if (partitions.length > 0) assignment.get(member.memberId)?.set(topic, partitions);
    });
  }
  return assignment;
}`,
      ),
    ],
  ],
  [
    "extra-to-last",
    [
      rangeForConsumer(`  const numPartitionsPerConsumer = Math.floor(numPartitionsForTopic / numConsumers);
  const consumersWithExtraPartition = numPartitionsForTopic % numConsumers;
  // The mistake: the last n mod m consumers get the extra partitions, not the first.
  const firstWithExtra = numConsumers - consumersWithExtraPartition;
  const start = numPartitionsPerConsumer * i + Math.max(0, i - firstWithExtra);
  const length = numPartitionsPerConsumer + (i >= firstWithExtra ? 1 : 0);
  return Array.from({ length }, (_, k) => start + k);`),
    ],
  ],
  [
    "start-without-min",
    [
      rangeForConsumer(`  const numPartitionsPerConsumer = Math.floor(numPartitionsForTopic / numConsumers);
  const consumersWithExtraPartition = numPartitionsForTopic % numConsumers;
  // The mistake: the start leaves out + min(i, consumersWithExtraPartition).
  const start = numPartitionsPerConsumer * i;
  const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
  return Array.from({ length }, (_, k) => start + k);`),
    ],
  ],
  [
    "ceil-chunks",
    [
      rangeForConsumer(`  // The mistake: chunks of ceil(n / m), the last one what is left.
  const chunk = Math.ceil(numPartitionsForTopic / numConsumers);
  const start = chunk * i;
  const length = Math.max(0, Math.min(chunk, numPartitionsForTopic - start));
  return Array.from({ length }, (_, k) => start + k);`),
    ],
  ],
  [
    "round-robin",
    [
      rangeForConsumer(`  // The mistake: partitions dealt out one at a time, as the round-robin assignor does.
  const partitions: number[] = [];
  for (let p = i; p < numPartitionsForTopic; p += numConsumers) partitions.push(p);
  return partitions;`),
    ],
  ],
  [
    "float-range-boundaries",
    [
      rangeForConsumer(`  // The mistake: boundaries at rounded fractions of n, not n div m plus the extras first.
  const start = Math.round((i * numPartitionsForTopic) / numConsumers);
  const end = Math.round(((i + 1) * numPartitionsForTopic) / numConsumers);
  return Array.from({ length: end - start }, (_, k) => start + k);`),
    ],
  ],
  [
    "little-endian",
    [
      decoder(
        "ByteReader.int16",
        `int16(field: string, index?: number): number {
  this.need(2, "int16", field, index);
  // The mistake: little-endian.
  const value = this.view.getInt16(this.offset, true);
  this.offset += 2;
  return value;
}`,
      ),
      decoder(
        "ByteReader.int32",
        `int32(field: string, index?: number): number {
  this.need(4, "int32", field, index);
  // The mistake: little-endian.
  const value = this.view.getInt32(this.offset, true);
  this.offset += 4;
  return value;
}`,
      ),
    ],
  ],
  [
    "char-length-names",
    [
      decoder(
        "ByteReader.utf8",
        `private utf8(length: number, field: string, index?: number): string {
  const start = this.offset;
  const value = decodeUtf8(this.take(length, "string", field, index));
  // The mistake: moves on by the number of characters, not bytes.
  this.offset = start + value.length;
  return value;
}`,
      ),
    ],
  ],
  [
    "unsigned-user-data-length",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  this.need(4, "int32", field);
  // The mistake: the length read as unsigned, so it is never negative and null (ff ff ff ff)
  // reads as 4294967295 bytes.
  const length = this.view.getUint32(this.offset);
  this.offset += 4;
  return length < 0 ? null : this.take(length, "bytes", field).slice();
}`,
      ),
    ],
  ],
  [
    "unsigned-user-data-length:minus-one",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  // The mistake: the length read as unsigned, with ff ff ff ff alone taken as null.
  this.need(4, "int32", field);
  const length = this.view.getUint32(this.offset);
  this.offset += 4;
  return length === 0xffffffff ? null : this.take(length, "bytes", field).slice();
}`,
      ),
    ],
  ],
  [
    "user-data-only-minus-one-null",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  const length = this.int32(field);
  // The mistake: only -1 is null; another negative length passes the check that the bytes are
  // there, takes none, and steps the offset back.
  return length === -1 ? null : this.take(length, "bytes", field).slice();
}`,
      ),
    ],
  ],
  [
    "user-data-only-minus-one-null:rejected",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  const offset = this.offset;
  const length = this.int32(field);
  // The mistake: only -1 is null; another negative length is rejected.
  if (length === -1) return null;
  if (length < 0) {
    throw new SubscriptionDecodeError({
      field,
      offset,
      expected: "a length >= -1",
      found: \`found \${length}\`,
    });
  }
  return this.take(length, "bytes", field).slice();
}`,
      ),
    ],
  ],
  [
    "null-user-data-as-empty",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  const length = this.int32(field);
  // The mistake: a negative length read as zero bytes instead of null.
  return length < 0 ? new Uint8Array(0) : this.take(length, "bytes", field).slice();
}`,
      ),
    ],
  ],
  [
    "newer-versions-rejected",
    [
      decoder(
        "readVersion",
        `function readVersion(reader: ByteReader): number {
  const offset = reader.offset;
  const version = reader.int16("version");
  if (version < 0) {
    throw new SubscriptionDecodeError({
      field: "version",
      offset,
      expected: "a version >= 0",
      found: \`found \${version}\`,
    });
  }
  // The mistake: a version newer than 3 rejected, instead of read as 3.
  if (version > HIGHEST_SUBSCRIPTION_VERSION) {
    throw new SubscriptionDecodeError({
      field: "version",
      offset,
      expected: "a version from 0 to 3",
      found: \`found \${version}\`,
    });
  }
  return version;
}`,
      ),
    ],
  ],
  [
    "trailing-fields-misread",
    [
      decoder(
        "ByteReader.nullableBytes",
        `nullableBytes(field: string): Uint8Array | null {
  const length = this.int32(field);
  const value = length < 0 ? null : this.take(length, "bytes", field).slice();
  // The mistake: the subscription taken to end with the user data.
  if (this.remaining > 0) {
    throw new SubscriptionDecodeError({
      field,
      offset: this.offset,
      expected: "the end of the subscription",
      found: \`found \${this.remaining} more bytes\`,
    });
  }
  return value;
}`,
      ),
    ],
  ],
  [
    "missing-fields-tolerated",
    [
      decoder(
        "decodeSubscription",
        `export function decodeSubscription(bytes: Uint8Array): Subscription {
  const reader = new ByteReader(bytes);
  const version = readVersion(reader);
  const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);
  const topics = reader.array("topics", 2, (i) => reader.string("topics", i));
  const userData = reader.nullableBytes("userData");
  // The mistake: a field the version promises but the bytes lack is taken as absent.
  let ownedPartitions: TopicPartitions[] = [];
  if (readAs >= 1 && reader.remaining > 0) {
    ownedPartitions = reader.array("ownedPartitions", 6, (i) => readTopicPartitions(reader, i));
  }
  const generationId = readAs >= 2 && reader.remaining > 0 ? reader.int32("generationId") : -1;
  const rackId = readAs >= 3 && reader.remaining > 0 ? reader.nullableString("rackId") : null;
  return { version, topics, userData, ownedPartitions, generationId, rackId };
}`,
      ),
    ],
  ],
  [
    "later-fields-not-read",
    [
      decoder(
        "decodeSubscription",
        `export function decodeSubscription(bytes: Uint8Array): Subscription {
  const reader = new ByteReader(bytes);
  const version = readVersion(reader);
  const topics = reader.array("topics", 2, (i) => reader.string("topics", i));
  const userData = reader.nullableBytes("userData");
  // The mistake: version 1 to 3's fields not read (the required part's decoder).
  return { version, topics, userData, ownedPartitions: [], generationId: -1, rackId: null };
}`,
      ),
    ],
  ],
  [
    "dataview-byteoffset",
    [
      decoder(
        "dataViewOf",
        `function dataViewOf(bytes: Uint8Array): DataView {
  // The mistake: the view starts at the ArrayBuffer's first byte, not the Uint8Array's.
  return new DataView(bytes.buffer);
}`,
      ),
    ],
  ],
  [
    "negative-count-as-empty",
    [
      decoder(
        "ByteReader.array",
        `array<T>(field: string, minElementBytes: number, readElement: (i: number) => T): T[] {
  const countOffset = this.offset;
  // The mistake: a negative count read as no elements.
  const count = Math.max(0, this.int32(field));
  if (count * minElementBytes > this.remaining) {
    throw new SubscriptionDecodeError({
      field,
      offset: countOffset,
      expected: \`\${count} elements need at least \${count * minElementBytes} bytes\`,
      found: \`only \${this.remaining} remain\`,
    });
  }
  const elements: T[] = [];
  for (let i = 0; i < count; i++) elements.push(readElement(i));
  return elements;
}`,
      ),
    ],
  ],
  [
    "negative-version-accepted",
    [
      decoder(
        "readVersion",
        `function readVersion(reader: ByteReader): number {
  // The mistake: a negative version not checked.
  return reader.int16("version");
}`,
      ),
    ],
  ],
  [
    "negative-version-accepted:unsigned",
    [
      decoder(
        "readVersion",
        `function readVersion(reader: ByteReader): number {
  // The mistake: the version read as unsigned (ff ff is 65535, read as version 3).
  return reader.int16("version") & 0xffff;
}`,
      ),
    ],
  ],
  [
    "truncated-tolerated",
    [
      decoder(
        "ByteReader.need",
        `private need(_length: number, _what: string, _field: string, _index?: number): void {
  // The mistake: no check that the bytes are there; DataView throws past the end, slices stop short.
}`,
      ),
      decoder(
        "ByteReader.array",
        `array<T>(field: string, _minElementBytes: number, readElement: (i: number) => T): T[] {
  const countOffset = this.offset;
  const count = this.int32(field);
  if (count < 0) {
    throw new SubscriptionDecodeError({
      field,
      offset: countOffset,
      expected: "an array length >= 0 (the field is not nullable)",
      found: \`found \${count}\`,
    });
  }
  // The mistake: the count not checked against the bytes left.
  const elements: T[] = [];
  for (let i = 0; i < count; i++) elements.push(readElement(i));
  return elements;
}`,
      ),
    ],
  ],
  [
    "static-members-not-first",
    [
      assignor(
        "compareMembers",
        `function compareMembers(a: MemberInfo, b: MemberInfo): number {
  // The mistake: members by member id only, static or not.
  return compareCodeUnits(a.memberId, b.memberId);
}`,
      ),
    ],
  ],
  [
    "static-members-not-first:last",
    [
      assignor(
        "compareMembers",
        `function compareMembers(a: MemberInfo, b: MemberInfo): number {
  if (a.groupInstanceId !== null && b.groupInstanceId !== null) {
    return compareCodeUnits(a.groupInstanceId, b.groupInstanceId);
  }
  // The mistake: static members sorted after the others.
  if (a.groupInstanceId !== null) return 1;
  if (b.groupInstanceId !== null) return -1;
  return compareCodeUnits(a.memberId, b.memberId);
}`,
      ),
    ],
  ],
  [
    "truthy-instance-id",
    [
      assignor(
        "compareMembers",
        `function compareMembers(a: MemberInfo, b: MemberInfo): number {
  // The mistake: the instance id tested for truthiness, so "" counts as none.
  if (a.groupInstanceId && b.groupInstanceId) {
    return compareCodeUnits(a.groupInstanceId, b.groupInstanceId);
  }
  if (a.groupInstanceId) return -1;
  if (b.groupInstanceId) return 1;
  return compareCodeUnits(a.memberId, b.memberId);
}`,
      ),
    ],
  ],
  [
    "racks-ignored",
    [
      assignor(
        "assignWithRackMatching",
        `function assignWithRackMatching(
  _partitionsPerTopic: ReadonlyMap<string, number>,
  _topicToConsumers: ReadonlyMap<string, readonly MemberInfo[]>,
  _racks: ReadonlyMap<string, string>,
  _partitionRacks: PartitionRacks,
): Map<string, TopicAssignmentState> {
  // The mistake: the racks never looked at, so every topic gets the plain range answer.
  return new Map();
}`,
      ),
    ],
  ],
  [
    "racks-always-matched",
    [
      assignor(
        "useRackAwareAssignment",
        `function useRackAwareAssignment(
  consumerRacks: ReadonlySet<string>,
  _partitionRacks: ReadonlySet<string>,
  _racksPerPartition: readonly (readonly string[])[],
): boolean {
  // The mistake: matching whenever some member has a rack, even when no member's rack holds a
  // replica or every partition is on the same racks.
  return consumerRacks.size > 0;
}`,
      ),
    ],
  ],
  [
    "co-partitioning-lost",
    [
      assignor(
        "assignWithRackMatching",
        `function assignWithRackMatching(
  partitionsPerTopic: ReadonlyMap<string, number>,
  topicToConsumers: ReadonlyMap<string, readonly MemberInfo[]>,
  racks: ReadonlyMap<string, string>,
  partitionRacks: PartitionRacks,
): Map<string, TopicAssignmentState> {
  const matched = new Map<string, TopicAssignmentState>();
  if (racks.size === 0) return matched;
  const states: TopicAssignmentState[] = [];
  for (const [topic, consumersForTopic] of topicToConsumers) {
    const numPartitions = partitionsPerTopic.get(topic) ?? 0;
    if (numPartitions === 0) continue;
    const state = new TopicAssignmentState(
      topic,
      numPartitions,
      consumersForTopic,
      racks,
      partitionRacks.get(topic),
    );
    if (state.hasConsumerRacks) states.push(state);
  }
  if (!states.some((state) => state.needsRackAwareAssignment)) return matched;
  // The mistake: every topic matched on its own, never together with the topics that have the
  // same members and partition count, so co-partitioned topics drift apart (and one that does not
  // need matching itself is not matched with them).
  for (const state of states) {
    if (!state.needsRackAwareAssignment) continue;
    state.assignRackMatched();
    matched.set(state.topic, state);
  }
  return matched;
}`,
      ),
    ],
  ],
  [
    "rack-partition-assigned-twice",
    [
      assignor(
        "TopicAssignmentState.constructor",
        `constructor(
  readonly topic: string,
  readonly numPartitions: number,
  members: readonly MemberInfo[],
  racks: ReadonlyMap<string, string>,
  replicaRacks: readonly (readonly (string | null)[])[] | undefined,
  // For the mistake in assignRackMatched: the partitions it gave, kept apart from owner.
  private readonly rackMatched: [number, number][] = [],
) {
  this.consumers = [...members].sort(compareMembers);
  this.consumerRacks = this.consumers.map((c) => racks.get(c.memberId) ?? null);
  const m = this.consumers.length;
  this.numAssignedByConsumer = new Array<number>(m).fill(0);
  this.numPartitionsPerConsumer = Math.floor(numPartitions / m);
  this.remainingConsumersWithExtraPartition = numPartitions % m;
  this.owner = new Array<number>(numPartitions).fill(-1);

  const allConsumerRacks = new Set<string>();
  for (const rack of this.consumerRacks) if (rack !== null) allConsumerRacks.add(rack);
  this.hasConsumerRacks = allConsumerRacks.size > 0;
  const allPartitionRacks = new Set<string>();
  const partitionRacks: (readonly string[])[] = [];
  for (let p = 0; p < numPartitions; p++) {
    // Kafka reads replica racks only when some member of the topic has a rack.
    const racks = this.hasConsumerRacks ? distinctRacks(replicaRacks?.[p]) : [];
    for (const rack of racks) allPartitionRacks.add(rack);
    partitionRacks.push(racks);
  }
  this.partitionRacks = partitionRacks;
  this.needsRackAwareAssignment = useRackAwareAssignment(
    allConsumerRacks,
    allPartitionRacks,
    partitionRacks,
  );
}`,
      ),
      assignor(
        "TopicAssignmentState.assignRackMatched",
        `assignRackMatched(): void {
  const byRack = new Map<string, { partitions: number[]; next: number }>();
  this.partitionRacks.forEach((racks, p) => {
    for (const rack of racks) {
      const queue = byRack.get(rack);
      if (queue === undefined) byRack.set(rack, { partitions: [p], next: 0 });
      else queue.partitions.push(p);
    }
  });
  this.consumers.forEach((_, c) => {
    const rack = this.consumerRacks[c] ?? null;
    if (rack === null) {
      this.takeLowest(c);
      return;
    }
    const queue = byRack.get(rack);
    if (queue === undefined) return;
    let room = this.maxAssignable(c);
    while (room > 0 && queue.next < queue.partitions.length) {
      const p = queue.partitions[queue.next++] ?? 0;
      if (this.owner[p] !== -1) continue;
      // The mistake: counted for member c, but not marked assigned, so it goes out again.
      this.assign(c, p);
      this.owner[p] = -1;
      this.rackMatched.push([c, p]);
      room--;
    }
  });
}`,
      ),
      assignor(
        "TopicAssignmentState.writeTo",
        `writeTo(assignment: Assignment): void {
  const owned = this.consumers.map((): number[] => []);
  this.owner.forEach((c, p) => {
    if (c !== -1) owned[c]?.push(p);
  });
  for (const [c, p] of this.rackMatched) owned[c]?.push(p);
  this.consumers.forEach((member, c) => {
    const partitions = (owned[c] ?? []).sort((a, b) => a - b);
    if (partitions.length > 0) assignment.get(member.memberId)?.set(this.topic, partitions);
  });
}`,
      ),
    ],
  ],
  [
    "rackless-members-skipped",
    [
      assignor(
        "TopicAssignmentState.assignRackMatched",
        `assignRackMatched(): void {
  const byRack = new Map<string, { partitions: number[]; next: number }>();
  this.partitionRacks.forEach((racks, p) => {
    for (const rack of racks) {
      const queue = byRack.get(rack);
      if (queue === undefined) byRack.set(rack, { partitions: [p], next: 0 });
      else queue.partitions.push(p);
    }
  });
  this.consumers.forEach((_, c) => {
    const rack = this.consumerRacks[c] ?? null;
    // The mistake: a member without a rack takes nothing while racks are matched.
    if (rack === null) return;
    const queue = byRack.get(rack);
    if (queue === undefined) return;
    let room = this.maxAssignable(c);
    while (room > 0 && queue.next < queue.partitions.length) {
      const p = queue.partitions[queue.next++] ?? 0;
      if (this.owner[p] !== -1) continue;
      this.assign(c, p);
      room--;
    }
  });
}`,
      ),
      assignor(
        "assignCoPartitionedWithRackMatching",
        `function assignCoPartitionedWithRackMatching(group: readonly TopicAssignmentState[]): void {
  const [first] = group;
  if (first === undefined) return;
  const queues = new Map<string | null, MemberQueue>();
  first.consumers.forEach((_, c) => {
    const rack = first.consumerRacks[c] ?? null;
    const queue = queues.get(rack);
    if (queue === undefined) queues.set(rack, { consumers: [c], next: 0 });
    else queue.consumers.push(c);
  });
  const hasRoom = (c: number) => group.every((state) => state.maxAssignable(c) > 0);
  const firstWithRoom = (queue: MemberQueue | undefined): number => {
    if (queue === undefined) return Infinity;
    while (queue.next < queue.consumers.length) {
      const c = queue.consumers[queue.next] ?? Infinity;
      if (hasRoom(c)) return c;
      queue.next++;
    }
    return Infinity;
  };

  for (let p = 0; p < first.numPartitions; p++) {
    // The mistake: members without a rack are no candidates while racks are matched.
    let consumer = Infinity;
    for (const rack of first.partitionRacks[p] ?? []) {
      if (!group.every((state) => state.partitionRacks[p]?.includes(rack) === true)) continue;
      consumer = Math.min(consumer, firstWithRoom(queues.get(rack)));
    }
    if (consumer === Infinity) continue;
    for (const state of group) state.assign(consumer, p);
  }
}`,
      ),
    ],
  ],
  [
    "empty-rack-is-a-rack",
    [
      assignor(
        "consumerRacks",
        `function consumerRacks(
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Map<string, string> {
  const racks = new Map<string, string>();
  for (const [memberId, { rackId }] of subscriptions) {
    // The mistake: only null means no rack, so "" is taken for a rack name.
    if (rackId !== null) racks.set(memberId, rackId);
  }
  return racks;
}`,
      ),
    ],
  ],
  [
    "rack-share-exceeded",
    [
      assignor(
        "TopicAssignmentState.assignRackMatched",
        `assignRackMatched(): void {
  const byRack = new Map<string, { partitions: number[]; next: number }>();
  this.partitionRacks.forEach((racks, p) => {
    for (const rack of racks) {
      const queue = byRack.get(rack);
      if (queue === undefined) byRack.set(rack, { partitions: [p], next: 0 });
      else queue.partitions.push(p);
    }
  });
  this.consumers.forEach((_, c) => {
    const rack = this.consumerRacks[c] ?? null;
    if (rack === null) {
      this.takeLowest(c);
      return;
    }
    const queue = byRack.get(rack);
    if (queue === undefined) return;
    // The mistake: the member takes every unassigned partition on its rack, beyond its share.
    while (queue.next < queue.partitions.length) {
      const p = queue.partitions[queue.next++] ?? 0;
      if (this.owner[p] !== -1) continue;
      this.assign(c, p);
    }
  });
}`,
      ),
    ],
  ],
]);

/** The files of solution/src that replacements may name. */
const FILES = ["subscription.ts", "range-assignor.ts"] as const;

/**
 * Writes a variant of the reference as a submission folder: a copy of solution/ with the
 * replacements applied (a mutant, or a test's own mistake).
 *
 * @param name a short name for the folder (letters, digits, `-`)
 * @returns the folder's path (under the OS temporary folder)
 * @throws Error when a replacement no longer fits solution/src (see applyReplacements)
 */
export function writeVariant(name: string, replacements: readonly Replacement[]): string {
  const sources = FILES.map((file): [string, string] => {
    const path = join(KIT_ROOT, "solution", "src", file);
    return [file, applyReplacements(file, readFileSync(path, "utf8"), replacements)];
  });
  const dir = join(mkdtempSync(join(tmpdir(), `kit-mutant-${name}-`)), "submission");
  cpSync(join(KIT_ROOT, "solution"), dir, { recursive: true });
  for (const [file, text] of sources) writeFileSync(join(dir, "src", file), text);
  return dir;
}

/**
 * Writes the mutant named `id` (a mistake id or `id:form`) as a submission folder.
 *
 * @returns the folder's path (under the OS temporary folder)
 * @throws Error for an unknown id or a replacement that no longer fits solution/src
 */
export function writeMutant(id: string): string {
  const replacements = MUTANTS.get(id);
  if (replacements === undefined) throw new Error(`no mutant named ${id}`);
  return writeVariant(id.replace(":", "-"), replacements);
}
