/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */
import { NotImplementedError } from "./not-implemented.ts";

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

/**
 * Encodes one member's assignment.
 *
 * Layout (all integers big-endian and signed): version int16 (always 3, as a Kafka 3.4+ leader
 * writes); assignedPartitions: int32 count of topic entries, then per topic an int16 byte length
 * and that many UTF-8 bytes of its name, an int32 count and that many int32 partitions; userData:
 * int32 length (-1 for null) and that many bytes. Semantics follow Kafka's
 * ConsumerProtocol.serializeAssignment: one entry per topic, in the order the map gives them; each
 * topic's partitions in the order given (never sorted, duplicates kept); a topic with no
 * partitions gets no entry; a member that owns nothing still gets a value (a version, a count of
 * 0 and its user data).
 *
 * @param partitions topic name to the member's partitions of that topic, in the assignor's order
 * @param userData the assignor's bytes for this member, or null (the range assignor sends null); a
 *   view is written from its own byteOffset and byteLength
 * @returns the assignment bytes, a new array of exactly the value's length
 * @throws RangeError when a topic name is longer than 32767 UTF-8 bytes (an int16 length), as
 *   Kafka's writer refuses it
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  // TODO: write the version, the topics and the user data (LESSON.md#the-assignment-bytes).
  throw new NotImplementedError("encodeAssignment");
}
