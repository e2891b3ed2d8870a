/**
 * The mutants: for every catalogued mistake (grader/diagnose/catalogue.ts), the reference with
 * exactly that one mistake, written as the lines of solution/src that differ: at most three
 * (applyEdits in replace.ts finds each edit's lines in the named declaration and stops, naming
 * them, when the reference no longer has them). `npm run typecheck` and `npm run lint` check every
 * mutant as code (scripts/check-mutants.ts). Instructor kit only: the student handout ships
 * grader/diagnose/diagnosis.json (every mutant's outcome on every built-in case) instead.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KIT_ROOT } from "../../kit.ts";
import {
  applyEdits,
  applyReplacements,
  parseEdits,
  type Edit,
  type Replacement,
} from "./replace.ts";

export type { Edit, Replacement } from "./replace.ts";

/**
 * Every mutant, in the catalogue's order, as a short patch: `## name` (the mistake's id, or
 * `id:form` for another common way of writing the same mistake; mistakeOf gives the id), what the
 * mistake is, then its edits: `@ FILE DECLARATION` (a function, or `Class.member`), the reference's
 * lines (`- `, indentation left out) and the lines that replace them (`+ `; none: removed).
 */
const DEFINITIONS = String.raw`
## global-assignment
The members sorted once, and every topic's partitions pooled into one range shared by everyone
subscribed to any of them (racks never looked at).
@ range-assignor.ts assignRange
- const topicToConsumers = consumersPerTopic(subscriptions);
+ const sharing = [...subscriptions].map(([memberId, s]) => ({ memberId, groupInstanceId: s.groupInstanceId, topics: s.topics.filter((t) => partitionsPerTopic.has(t)) })).filter((m) => m.topics.length > 0).sort(compareMembers);
+ const pooled = [...new Set(sharing.flatMap((m) => m.topics))].flatMap((t) => Array.from({ length: partitionsPerTopic.get(t) ?? 0 }, (_, p) => [t, p] as const));
+ const topicToConsumers = new Map<string, MemberInfo[]>(); sharing.forEach((m, i) => { for (const k of rangeForConsumer(i, sharing.length, pooled.length)) { const [t, p] = pooled[k] ?? ["", 0]; const owned = assignment.get(m.memberId); owned?.set(t, [...(owned.get(t) ?? []), p]); } });

## numeric-order
A natural sort: runs of digits compared as numbers.
@ range-assignor.ts compareCodeUnits
- return a < b ? -1 : a > b ? 1 : 0;
+ const [as, bs] = [a.split(/(\d+)/), b.split(/(\d+)/)];
+ const k = as.findIndex((x, j) => j < bs.length && x !== bs[j]);
+ return k === -1 ? as.length - bs.length : (k % 2 === 1 && Number(as[k]) - Number(bs[k])) || ((as[k] ?? "") < (bs[k] ?? "") ? -1 : 1);

## arrival-order
No member order: each topic's members stay in the order they came.
@ range-assignor.ts assignRange
- consumersForTopic.sort(compareMembers);
@ range-assignor.ts TopicAssignmentState.constructor
- this.consumers = [...members].sort(compareMembers);
+ this.consumers = [...members];

## locale-order
A sort for people, not Java's String.compareTo.
@ range-assignor.ts compareCodeUnits
- return a < b ? -1 : a > b ? 1 : 0;
+ return a.localeCompare(b, "en-US");

## code-point-order
Unicode code points compared, not UTF-16 code units.
@ range-assignor.ts compareCodeUnits
- return a < b ? -1 : a > b ? 1 : 0;
+ const [x, y] = [[...a], [...b]];
+ const k = x.findIndex((c, j) => j < y.length && c !== y[j]);
+ return k === -1 ? x.length - y.length : (x[k]?.codePointAt(0) ?? 0) - (y[k]?.codePointAt(0) ?? 0);

## idle-members-dropped
A member enters the answer only when it gets a partition.
@ range-assignor.ts assignRange
- return assignment;
+ for (const [memberId, topics] of assignment) if (topics.size === 0) assignment.delete(memberId);
+ return assignment;

## unsubscribed-topics-assigned
Every topic of the metadata shared among every member of the group (racks never looked at).
@ range-assignor.ts assignRange
- const topicToConsumers = consumersPerTopic(subscriptions);
+ const everyone = [...subscriptions].map(([memberId, { groupInstanceId }]): MemberInfo => ({ memberId, groupInstanceId }));
+ const topicToConsumers = new Map([...partitionsPerTopic.keys()].map((topic): [string, MemberInfo[]] => [topic, [...everyone]]));
+ partitionRacks = new Map();

## unsubscribed-topics-assigned:subscribed-by-anyone
Every topic some member subscribed to shared among every member of the group.
@ range-assignor.ts assignRange
- const topicToConsumers = consumersPerTopic(subscriptions);
+ const everyone = [...subscriptions].map(([memberId, { groupInstanceId }]): MemberInfo => ({ memberId, groupInstanceId }));
+ const topicToConsumers = new Map([...consumersPerTopic(subscriptions).keys()].map((topic): [string, MemberInfo[]] => [topic, [...everyone]]));

## unknown-topic-crash
The topic's partition count used without checking that the metadata has the topic.
@ range-assignor.ts assignRange
- if (numPartitionsForTopic === undefined) continue; // no metadata: the leader cannot assign it
+ if (numPartitionsForTopic === undefined) throw new TypeError("Cannot read properties of undefined (reading 'length') for topic " + topic);

## extra-to-last
The last n mod m consumers get the extra partitions, not the first.
@ range-assignor.ts rangeForConsumer
- const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
- const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
+ const firstWithExtra = numConsumers - consumersWithExtraPartition;
+ const start = numPartitionsPerConsumer * i + Math.max(0, i - firstWithExtra);
+ const length = numPartitionsPerConsumer + (i >= firstWithExtra ? 1 : 0);

## start-without-min
The start leaves out + min(i, consumersWithExtraPartition).
@ range-assignor.ts rangeForConsumer
- const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
+ const start = numPartitionsPerConsumer * i;

## ceil-chunks
Chunks of ceil(n / m), the last one what is left.
@ range-assignor.ts rangeForConsumer
- const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
- const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
+ const start = Math.ceil(numPartitionsForTopic / numConsumers) * i;
+ const length = Math.max(0, Math.min(Math.ceil(numPartitionsForTopic / numConsumers), numPartitionsForTopic - start));

## round-robin
Partitions dealt out one at a time, as the round-robin assignor does.
@ range-assignor.ts rangeForConsumer
- for (let p = start; p < start + length; p++) partitions.push(p);
+ for (let p = i; p < numPartitionsForTopic; p += numConsumers) partitions.push(p);

## float-range-boundaries
Boundaries at rounded fractions of n, not n div m plus the extras first.
@ range-assignor.ts rangeForConsumer
- const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
- const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
+ const start = Math.round((i * numPartitionsForTopic) / numConsumers);
+ const length = Math.round(((i + 1) * numPartitionsForTopic) / numConsumers) - start;

## duplicate-topics-counted
A topic a member listed twice counted twice: the member takes two places in its range.
@ range-assignor.ts consumersPerTopic
- else if (consumers[consumers.length - 1] !== member) consumers.push(member);
+ else consumers.push(member);

## little-endian
Integers read little-endian.
@ subscription.ts ByteReader.int16
- const value = this.view.getInt16(this.offset);
+ const value = this.view.getInt16(this.offset, true);
@ subscription.ts ByteReader.int32
- const value = this.view.getInt32(this.offset);
+ const value = this.view.getInt32(this.offset, true);

## little-endian:int16
Only the 16-bit integers (the version, string lengths) read little-endian.
@ subscription.ts ByteReader.int16
- const value = this.view.getInt16(this.offset);
+ const value = this.view.getInt16(this.offset, true);

## little-endian:int32
Only the 32-bit integers (counts, the user-data length, partitions) read little-endian.
@ subscription.ts ByteReader.int32
- const value = this.view.getInt32(this.offset);
+ const value = this.view.getInt32(this.offset, true);

## char-length-names
A name moves the offset on by its characters, not its bytes.
@ subscription.ts ByteReader.utf8
- return decodeUtf8(this.take(length, "string", field, index));
+ const value = decodeUtf8(this.take(length, "string", field, index));
+ this.offset += value.length - length;
+ return value;

## names-not-utf8
Names decoded one byte per character (Latin-1), not as UTF-8.
@ subscription.ts decodeUtf8
- const text = utf8Decoder.decode(bytes);
+ const text = String.fromCharCode(...bytes);

## bom-stripped
A leading U+FEFF dropped from a name (TextDecoder without ignoreBOM).
@ subscription.ts decodeUtf8
- const text = utf8Decoder.decode(bytes);
+ const text = new TextDecoder("utf-8").decode(bytes);

## unsigned-user-data-length
The user data's length read as unsigned: never null, and ff ff ff ff is 4294967295 bytes.
@ subscription.ts ByteReader.nullableBytes
- const length = this.int32(field);
+ const length = this.int32(field) >>> 0;

## unsigned-user-data-length:minus-one
The length read as unsigned, with ff ff ff ff alone taken as null.
@ subscription.ts ByteReader.nullableBytes
- const length = this.int32(field);
- return length < 0 ? null : this.take(length, "bytes", field).slice();
+ const length = this.int32(field) >>> 0;
+ return length === 0xffffffff ? null : this.take(length, "bytes", field).slice();

## user-data-only-minus-one-null
Only -1 is null; another negative length takes no bytes and steps the offset back.
@ subscription.ts ByteReader.nullableBytes
- return length < 0 ? null : this.take(length, "bytes", field).slice();
+ return length === -1 ? null : this.take(length, "bytes", field).slice();

## user-data-only-minus-one-null:rejected
Only -1 is null; another negative length is rejected.
@ subscription.ts ByteReader.nullableBytes
- return length < 0 ? null : this.take(length, "bytes", field).slice();
+ if (length < -1) throw new SubscriptionDecodeError({ field, offset: this.offset - 4, expected: "a length >= -1", found: "found " + length });
+ return length === -1 ? null : this.take(length, "bytes", field).slice();

## null-user-data-as-empty
A negative length read as zero bytes instead of null.
@ subscription.ts ByteReader.nullableBytes
- return length < 0 ? null : this.take(length, "bytes", field).slice();
+ return length < 0 ? new Uint8Array(0) : this.take(length, "bytes", field).slice();

## newer-versions-rejected
A version newer than 3 rejected, instead of read as 3.
@ subscription.ts readVersion
- return version;
+ if (version > HIGHEST_SUBSCRIPTION_VERSION)
+   throw new SubscriptionDecodeError({ field: "version", offset, expected: "a version from 0 to 3", found: "found " + version });
+ return version;

## newer-versions-misread
A version above 3 not read as version 3: the rack read only at version 3 exactly.
@ subscription.ts decodeSubscription
- const rackId = readAs >= 3 ? reader.nullableString("rackId") : null;
+ const rackId = version === 3 ? reader.nullableString("rackId") : null;

## trailing-fields-misread
The subscription taken to end with the user data.
@ subscription.ts ByteReader.nullableBytes
- return length < 0 ? null : this.take(length, "bytes", field).slice();
+ const value = length < 0 ? null : this.take(length, "bytes", field).slice();
+ if (this.remaining > 0) throw new SubscriptionDecodeError({ field, offset: this.offset, expected: "the end of the subscription", found: "found " + this.remaining + " more bytes" });
+ return value;

## missing-fields-tolerated
A field the version promises but the bytes lack is taken as absent.
@ subscription.ts decodeSubscription
- if (readAs >= 1) {
+ if (readAs >= 1 && reader.remaining > 0) {
@ subscription.ts decodeSubscription
- const generationId = readAs >= 2 ? reader.int32("generationId") : -1;
- const rackId = readAs >= 3 ? reader.nullableString("rackId") : null;
+ const generationId = readAs >= 2 && reader.remaining > 0 ? reader.int32("generationId") : -1;
+ const rackId = readAs >= 3 && reader.remaining > 0 ? reader.nullableString("rackId") : null;

## field-width-wrong
generationId read as an int16, two bytes instead of four.
@ subscription.ts decodeSubscription
- const generationId = readAs >= 2 ? reader.int32("generationId") : -1;
+ const generationId = readAs >= 2 ? reader.int16("generationId") : -1;

## field-width-wrong:rack-id-bytes
rackId read as bytes, its length an int32 instead of a string's int16.
@ subscription.ts decodeSubscription
- const rackId = readAs >= 3 ? reader.nullableString("rackId") : null;
+ const rackBytes = readAs >= 3 ? reader.nullableBytes("rackId") : null;
+ const rackId = rackBytes === null ? null : decodeUtf8(rackBytes);

## later-fields-not-read
Version 1 to 3's fields not read (the required part's decoder).
@ subscription.ts decodeSubscription
- const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);
+ const readAs: number = 0;

## dataview-byteoffset
The view starts at the ArrayBuffer's first byte, not the Uint8Array's.
@ subscription.ts dataViewOf
- return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
+ return new DataView(bytes.buffer);

## negative-count-as-empty
A negative count read as no elements.
@ subscription.ts ByteReader.array
- const count = this.int32(field);
+ const count = Math.max(0, this.int32(field));

## negative-count-as-empty:owned-partitions
A negative count of an owned topic's partition numbers read as none (the other counts checked).
@ subscription.ts ByteReader.array
- const count = this.int32(field);
+ const count = field.endsWith(".partitions") ? Math.max(0, this.int32(field)) : this.int32(field);

## negative-version-accepted
A negative version not checked.
@ subscription.ts decodeSubscription
- const version = readVersion(reader);
+ const version = reader.int16("version");

## negative-version-accepted:unsigned
The version read as unsigned (ff ff is 65535, read as version 3).
@ subscription.ts decodeSubscription
- const version = readVersion(reader);
+ const version = reader.int16("version") & 0xffff;

## truncated-tolerated
No check that the bytes are there: DataView throws past the end, slices stop short.
@ subscription.ts ByteReader.remaining
- return this.bytes.byteLength - this.offset;
+ return Infinity;

## static-members-not-first
Members by member id only, static or not.
@ range-assignor.ts consumersPerTopic
- const member: MemberInfo = { memberId, groupInstanceId };
+ const member: MemberInfo = { memberId, groupInstanceId: null };

## static-members-not-first:last
Static members sorted after the others.
@ range-assignor.ts compareMembers
- if (a.groupInstanceId !== null) return -1;
- if (b.groupInstanceId !== null) return 1;
+ if (a.groupInstanceId !== null) return 1;
+ if (b.groupInstanceId !== null) return -1;

## static-members-not-first:by-member-id
Static members first, but sorted among themselves by member id, not by instance id.
@ range-assignor.ts compareMembers
- return compareCodeUnits(a.groupInstanceId, b.groupInstanceId);
+ return compareCodeUnits(a.memberId, b.memberId);

## truthy-instance-id
The instance id tested for truthiness, so "" counts as none.
@ range-assignor.ts consumersPerTopic
- const member: MemberInfo = { memberId, groupInstanceId };
+ const member: MemberInfo = { memberId, groupInstanceId: groupInstanceId || null };

## racks-ignored
The racks never looked at, so every topic gets the plain range answer.
@ range-assignor.ts assignRange
- consumerRacks(subscriptions),
+ new Map<string, string>(),

## racks-ignored:same-by-count
Partitions taken to be all on the same racks when each has as many racks as the first, so
matching is skipped where their racks differ.
@ range-assignor.ts useRackAwareAssignment
- (racks) => racks.length === partitionRacks.size,
+ (racks) => racks.length === (racksPerPartition[0]?.length ?? 0),

## racks-always-matched
Matching whenever some member has a rack, even when no member's rack holds a replica or every
partition is on the same racks.
@ range-assignor.ts useRackAwareAssignment
- if (consumerRacks.size === 0 || ![...consumerRacks].some((rack) => partitionRacks.has(rack))) {
+ if (consumerRacks.size === 0) {
@ range-assignor.ts useRackAwareAssignment
- (racks) => racks.length === partitionRacks.size,
+ () => false,

## racks-always-matched:same-racks
Matching whenever some member's rack holds a replica, even when every partition is on the same
racks.
@ range-assignor.ts useRackAwareAssignment
- (racks) => racks.length === partitionRacks.size,
+ () => false,

## racks-always-matched:replica-lists
Partitions compared by their replica lists (order, repeats and nulls included), not as sets of
racks, so partitions on the same racks look different.
@ range-assignor.ts TopicAssignmentState.constructor
- partitionRacks,
+ replicaRacks?.some((r) => JSON.stringify(r) !== JSON.stringify(replicaRacks[0])) === true ? [[]] : partitionRacks,

## racks-always-matched:no-replica
Matching whenever some member has a rack, even when no member's rack holds a replica.
@ range-assignor.ts useRackAwareAssignment
- if (consumerRacks.size === 0 || ![...consumerRacks].some((rack) => partitionRacks.has(rack))) {
+ if (consumerRacks.size === 0) {

## racks-always-matched:every-topic
Once some topic needs matching, every topic with a member on a rack matched, needed or not.
@ range-assignor.ts assignWithRackMatching
- else if (first.needsRackAwareAssignment) first.assignRackMatched();
- else continue;
+ else first.assignRackMatched();

## co-partitioning-lost
Every topic matched on its own, never with the topics that have the same members and partition
count, so co-partitioned topics drift apart.
@ range-assignor.ts assignWithRackMatching
- const key = JSON.stringify([state.numPartitions, memberIds]);
+ const key = state.topic;

## co-partitioning-lost:only-when-needed
Co-partitioned topics matched together only when each of them needs matching by itself; the
others get the plain answer.
@ range-assignor.ts assignWithRackMatching
- if (state.hasConsumerRacks) states.push(state);
+ if (state.hasConsumerRacks && state.needsRackAwareAssignment) states.push(state);

## rack-partition-assigned-twice
A rack-matched partition counted for its member but not marked assigned: it goes out again.
@ range-assignor.ts TopicAssignmentState.assignRackMatched
- this.assign(c, p);
+ this.assign(c, p);
+ this.owner[p] = -1;

## rackless-members-skipped
A member without a rack takes nothing while racks are matched.
@ range-assignor.ts TopicAssignmentState.assignRackMatched
- this.takeLowest(c);
@ range-assignor.ts assignCoPartitionedWithRackMatching
- let consumer = firstWithRoom(queues.get(null));
+ let consumer = Infinity;

## empty-rack-is-a-rack
Only null means no rack, so "" is taken for a rack name.
@ range-assignor.ts consumerRacks
- if (rackId !== null && rackId !== "") racks.set(memberId, rackId);
+ if (rackId !== null) racks.set(memberId, rackId);

## rack-share-exceeded
The member takes every unassigned partition on its rack, beyond its share.
@ range-assignor.ts TopicAssignmentState.assignRackMatched
- while (room > 0 && queue.next < queue.partitions.length) {
+ while (queue.next < queue.partitions.length) {

## rack-share-exceeded:co-partitioned
The co-partitioned pass gives partitions without checking the member still has room.
@ range-assignor.ts assignCoPartitionedWithRackMatching
- const hasRoom = (c: number) => group.every((state) => state.maxAssignable(c) > 0);
+ const hasRoom = (c: number) => c >= 0;

## rack-share-exceeded:extras-kept
The extra partitions never used up: every member may take one more than n div m.
@ range-assignor.ts TopicAssignmentState.assign
- if (numAssigned > this.numPartitionsPerConsumer) this.remainingConsumersWithExtraPartition--;

## empty-replica-rack-dropped
A replica on a broker whose rack is "" taken for one without a rack, so a partition there looks
like the others.
@ range-assignor.ts distinctRacks
- for (const rack of replicas ?? []) if (rack !== null) racks.add(rack);
+ for (const rack of replicas ?? []) if (rack !== null && rack !== "") racks.add(rack);

## null-replica-rack-kept
A replica on a broker without a rack (null) kept among the partition's racks.
@ range-assignor.ts distinctRacks
- for (const rack of replicas ?? []) if (rack !== null) racks.add(rack);
+ for (const rack of replicas ?? []) racks.add(rack as string);

## null-replica-rack-any
A replica on a broker without a rack (null) taken to be on every member's rack, so it matches
any member.
@ range-assignor.ts TopicAssignmentState.constructor
- const racks = this.hasConsumerRacks ? distinctRacks(replicaRacks?.[p]) : [];
+ const racks = this.hasConsumerRacks ? distinctRacks(replicaRacks?.[p]?.flatMap((r) => (r === null ? [...allConsumerRacks] : [r]))) : [];

## group-wide-member-racks
Whether a topic needs matching judged on the racks of every member of the group, not only of the
topic's own members.
@ range-assignor.ts TopicAssignmentState.constructor
- for (const rack of this.consumerRacks) if (rack !== null) allConsumerRacks.add(rack);
+ for (const rack of racks.values()) allConsumerRacks.add(rack);

## rackless-partitions-ignored
Partitions whose replicas have no rack left out of the test whether every partition is on the
same racks.
@ range-assignor.ts useRackAwareAssignment
- return !racksPerPartition.every(
+ return !racksPerPartition.filter((racks) => racks.length > 0).every(

## leftovers-by-member-id
The leftover pass in member-id order, static members not first.
@ range-assignor.ts TopicAssignmentState.assignLeftovers
- for (let c = 0; c < this.consumers.length && this.nextUnassigned < this.numPartitions; c++) {
- this.takeLowest(c);
- }
+ const byId = this.consumers.map((_, c) => c).sort((a, b) => ((this.consumers[a]?.memberId ?? "") < (this.consumers[b]?.memberId ?? "") ? -1 : 1));
+ for (const c of byId) if (this.nextUnassigned < this.numPartitions) this.takeLowest(c);

## duplicate-racks-counted
A partition's racks kept with repeats (two replicas on one rack counted twice), so partitions on
the same racks look different.
@ range-assignor.ts distinctRacks
- const racks = new Set<string>();
- for (const rack of replicas ?? []) if (rack !== null) racks.add(rack);
- return [...racks];
+ const racks: string[] = [];
+ for (const rack of replicas ?? []) if (rack !== null) racks.push(rack);
+ return racks;

## rack-extras-to-first
While racks are matched, the extra partitions reserved for the first n mod m members.
@ range-assignor.ts TopicAssignmentState.maxAssignable
- const extra = this.remainingConsumersWithExtraPartition > 0 ? 1 : 0;
+ const extra = c < this.numPartitions % this.consumers.length ? 1 : 0;

## co-partitioned-by-members-only
Topics grouped for co-partitioned matching by their members alone, whatever their partition
counts.
@ range-assignor.ts assignWithRackMatching
- const key = JSON.stringify([state.numPartitions, memberIds]);
+ const key = JSON.stringify(memberIds);

## co-partitioned-by-count-only
Topics grouped for co-partitioned matching by their partition count alone, whatever their
members.
@ range-assignor.ts assignWithRackMatching
- const key = JSON.stringify([state.numPartitions, memberIds]);
+ const key = String(state.numPartitions);

## rack-case-ignored
Racks compared without regard to case: member and replica racks lower-cased.
@ range-assignor.ts consumerRacks
- if (rackId !== null && rackId !== "") racks.set(memberId, rackId);
+ if (rackId !== null && rackId !== "") racks.set(memberId, rackId.toLowerCase());
@ range-assignor.ts distinctRacks
- for (const rack of replicas ?? []) if (rack !== null) racks.add(rack);
+ for (const rack of replicas ?? []) if (rack !== null) racks.add(rack.toLowerCase());

## leader-rack-for-all
Every member matched on one rack: the first rack the leader sees (its own, when it has one).
@ range-assignor.ts TopicAssignmentState.constructor
- this.consumerRacks = this.consumers.map((c) => racks.get(c.memberId) ?? null);
+ this.consumerRacks = this.consumers.map(() => racks.values().next().value ?? null);

## assignment-little-endian
Every integer of the assignment value written little-endian.
@ assignment.ts ByteWriter.int16
- new DataView(piece.buffer).setInt16(0, value);
+ new DataView(piece.buffer).setInt16(0, value, true);
@ assignment.ts ByteWriter.int32
- new DataView(piece.buffer).setInt32(0, value);
+ new DataView(piece.buffer).setInt32(0, value, true);

## assignment-little-endian:int32
Only the 32-bit integers (counts, partitions, the user-data length) written little-endian.
@ assignment.ts ByteWriter.int32
- new DataView(piece.buffer).setInt32(0, value);
+ new DataView(piece.buffer).setInt32(0, value, true);

## assignment-char-length-names
A topic name's length written as its JavaScript length (UTF-16 units), its UTF-8 bytes after it.
@ assignment.ts ByteWriter.string
- this.int16(bytes.length);
+ this.int16(value.length);

## assignment-user-data-missing
No user data field at the end of the value.
@ assignment.ts encodeAssignment
- writer.nullableBytes(userData);

## assignment-null-user-data-as-empty
Null user data written as the length 0.
@ assignment.ts ByteWriter.nullableBytes
- this.int32(bytes === null ? -1 : bytes.byteLength);
+ this.int32(bytes === null ? 0 : bytes.byteLength);

## assignment-empty-user-data-as-null
Empty user data written as the length -1 (null).
@ assignment.ts ByteWriter.nullableBytes
- this.int32(bytes === null ? -1 : bytes.byteLength);
+ this.int32(bytes === null || bytes.byteLength === 0 ? -1 : bytes.byteLength);

## assignment-user-data-whole-buffer
The user data's length and bytes taken from the whole ArrayBuffer under the view.
@ assignment.ts ByteWriter.nullableBytes
- this.int32(bytes === null ? -1 : bytes.byteLength);
- if (bytes !== null) this.raw(bytes);
+ this.int32(bytes === null ? -1 : bytes.buffer.byteLength);
+ if (bytes !== null) this.raw(new Uint8Array(bytes.buffer));

## assignment-idle-member-no-bytes
A member with no partitions sent an empty value (zero bytes).
@ assignment.ts encodeAssignment
- const writer = new ByteWriter();
+ if (topics.length === 0) return new Uint8Array(0);
+ const writer = new ByteWriter();

## assignment-partitions-reordered
Each topic's partitions sorted again with sort() and no comparator (as strings).
@ assignment.ts encodeAssignment
- for (const partition of topicPartitions) writer.int32(partition);
+ for (const partition of [...topicPartitions].sort()) writer.int32(partition);

## assignment-wrong-version
Version 0 in the header.
@ assignment.ts encodeAssignment
- writer.int16(ASSIGNMENT_VERSION);
+ writer.int16(0);

## assignment-no-version
No version header: the value starts with the topic count.
@ assignment.ts encodeAssignment
- writer.int16(ASSIGNMENT_VERSION);

## assignment-compact-encoding
Counts and lengths in the compact encoding: length + 1 as a one-byte unsigned varint, 0 for null.
@ assignment.ts ByteWriter.arrayLength
- this.int32(length);
+ this.raw(Uint8Array.of(length + 1));
@ assignment.ts ByteWriter.string
- this.int16(bytes.length);
+ this.raw(Uint8Array.of(bytes.length + 1));
@ assignment.ts ByteWriter.nullableBytes
- this.int32(bytes === null ? -1 : bytes.byteLength);
+ this.raw(Uint8Array.of(bytes === null ? 0 : bytes.byteLength + 1));

## assignment-field-width-wrong
The topic count written as an int16.
@ assignment.ts encodeAssignment
- writer.arrayLength(topics.length);
+ writer.int16(topics.length);

## assignment-field-width-wrong:partitions
Each partition written as an int16.
@ assignment.ts encodeAssignment
- for (const partition of topicPartitions) writer.int32(partition);
+ for (const partition of topicPartitions) writer.int16(partition);
`;

/** The files of solution/src that edits and replacements may name. */
const FILES = ["subscription.ts", "range-assignor.ts", "assignment.ts"] as const;

/** Mutant name to its edits, in the catalogue's order (see DEFINITIONS). */
export const MUTANTS: ReadonlyMap<string, readonly Edit[]> = parseEdits(
  DEFINITIONS,
  "mutants.ts DEFINITIONS",
);

/**
 * The reference's files with the changes applied: edits (a mutant), or replacements of whole
 * declarations (a test's own way of writing a mistake).
 *
 * @returns file name to its text, for every file of FILES
 * @throws Error when a change no longer fits solution/src (see applyEdits, applyReplacements)
 */
export function variantSources(
  changes: readonly (Edit | Replacement)[],
): Map<Edit["file"], string> {
  const edits = changes.filter((c): c is Edit => "find" in c);
  const replacements = changes.filter((c): c is Replacement => "replaceFunction" in c);
  return new Map(
    FILES.map((file): [Edit["file"], string] => {
      const reference = readFileSync(join(KIT_ROOT, "solution", "src", file), "utf8");
      return [file, applyReplacements(file, applyEdits(file, reference, edits), replacements)];
    }),
  );
}

/**
 * Writes a variant of the reference as a submission folder: a copy of solution/ with the changes
 * applied (a mutant's edits, or a test's own replacements).
 *
 * @param name a short name for the folder (letters, digits, `-`)
 * @returns the folder's path (under the OS temporary folder)
 * @throws Error when a change no longer fits solution/src
 */
export function writeVariant(name: string, changes: readonly (Edit | Replacement)[]): string {
  const sources = variantSources(changes);
  const dir = join(mkdtempSync(join(tmpdir(), `kit-mutant-${name}-`)), "submission");
  cpSync(join(KIT_ROOT, "solution"), dir, { recursive: true });
  for (const [file, text] of sources) writeFileSync(join(dir, "src", file), text);
  return dir;
}

/**
 * Writes the mutant named `id` (a mistake id or `id:form`) as a submission folder.
 *
 * @returns the folder's path (under the OS temporary folder)
 * @throws Error for an unknown id or an edit that no longer fits solution/src
 */
export function writeMutant(id: string): string {
  const edits = MUTANTS.get(id);
  if (edits === undefined) throw new Error(`no mutant named ${id}`);
  return writeVariant(id.replace(":", "-"), edits);
}
