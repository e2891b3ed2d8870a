/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

const utf8 = new TextEncoder();

/**
 * Writes Kafka's primitive types, big-endian and signed, in the order they are given: the pieces
 * are collected and joined once at the end, as Kafka's generated writers fill one buffer.
 */
class ByteWriter {
  private readonly pieces: Uint8Array[] = [];
  private length = 0;

  int16(value: number): void {
    const piece = new Uint8Array(2);
    new DataView(piece.buffer).setInt16(0, value);
    this.raw(piece);
  }

  int32(value: number): void {
    const piece = new Uint8Array(4);
    new DataView(piece.buffer).setInt32(0, value);
    this.raw(piece);
  }

  /** An array's length: an int32 count (flexible versions, not used here, write a varint). */
  arrayLength(length: number): void {
    this.int32(length);
  }

  /**
   * Kafka's string: an int16 length in UTF-8 bytes (not UTF-16 units), then those bytes.
   *
   * @param field what the string is, for the error (which begins with its first characters)
   * @throws RangeError for a string longer than 32767 UTF-8 bytes, as Kafka's writer refuses it
   */
  string(value: string, field: string): void {
    const bytes = utf8.encode(value);
    if (bytes.length > 0x7fff) {
      throw new RangeError(
        `${field} ${JSON.stringify(value.slice(0, 20))}... is ${bytes.length} UTF-8 bytes, ` +
          "longer than an int16 length allows (32767)",
      );
    }
    this.int16(bytes.length);
    this.raw(bytes);
  }

  /** Kafka's nullable bytes: an int32 length, -1 for null (0 is empty), then the bytes. */
  nullableBytes(bytes: Uint8Array | null): void {
    this.int32(bytes === null ? -1 : bytes.byteLength);
    if (bytes !== null) this.raw(bytes);
  }

  /** The bytes of `bytes` as a view (its byteOffset and byteLength), copied. */
  raw(bytes: Uint8Array): void {
    this.pieces.push(bytes.slice());
    this.length += bytes.byteLength;
  }

  /** Everything written, in one new array of exactly its length. */
  finish(): Uint8Array {
    const bytes = new Uint8Array(this.length);
    let offset = 0;
    for (const piece of this.pieces) {
      bytes.set(piece, offset);
      offset += piece.length;
    }
    return bytes;
  }
}

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
  // Kafka writes a flat list of topic-partitions grouped by topic: a topic with none is not there.
  const topics = [...partitions].filter(([, topicPartitions]) => topicPartitions.length > 0);
  const writer = new ByteWriter();
  writer.int16(ASSIGNMENT_VERSION);
  writer.arrayLength(topics.length);
  for (const [topic, topicPartitions] of topics) {
    writer.string(topic, "topic name");
    writer.arrayLength(topicPartitions.length);
    for (const partition of topicPartitions) writer.int32(partition);
  }
  writer.nullableBytes(userData);
  return writer.finish();
}
