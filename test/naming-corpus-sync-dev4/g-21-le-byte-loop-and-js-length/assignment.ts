/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

const utf8 = new TextEncoder();

/**
 * A small growing byte writer, after kafkajs's Encoder: a Uint8Array that doubles when full, an
 * offset, and chainable writes. Big-endian, bytes put in by hand with shifts and masks.
 */
class BinaryWriter {
  private buf: Uint8Array;
  private offset = 0;

  constructor(initialSize = 64) {
    this.buf = new Uint8Array(initialSize);
  }

  private ensure(extra: number): void {
    const needed = this.offset + extra;
    if (needed <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.buf.subarray(0, this.offset));
    this.buf = bigger;
  }

  writeInt16(value: number): this {
    return this.writeIntN(value, 2);
  }

  writeInt32(value: number): this {
    return this.writeIntN(value, 4);
  }

  /** Writes the `size` bytes of a two's complement integer, one byte at a time. */
  private writeIntN(value: number, size: number): this {
    this.ensure(size);
    for (let i = 0; i < size; i++) {
      this.buf[this.offset++] = (value >> (8 * i)) & 0xff;
    }
    return this;
  }

  writeRaw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.offset);
    this.offset += bytes.length;
    return this;
  }

  /** int16 length of the UTF-8 bytes, then the bytes. */
  writeString(value: string): this {
    if (value.length > 0x7fff) {
      throw new RangeError(`string of ${value.length} characters is too long for an int16 length`);
    }
    return this.writeInt16(value.length).writeRaw(utf8.encode(value));
  }

  /** int32 length (-1 for null), then the bytes. */
  writeNullableBytes(value: Uint8Array | null): this {
    if (value === null) return this.writeInt32(-1);
    return this.writeInt32(value.length).writeRaw(value);
  }

  /** int32 count, then each item with fn. */
  writeArray<T>(items: readonly T[], fn: (writer: this, item: T) => void): this {
    this.writeInt32(items.length);
    for (const item of items) fn(this, item);
    return this;
  }

  toBytes(): Uint8Array {
    return this.buf.slice(0, this.offset);
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
  const entries = [...partitions.entries()].filter(([, list]) => list.length > 0);
  return new BinaryWriter()
    .writeInt16(ASSIGNMENT_VERSION)
    .writeArray(entries, (w, [topic, list]) => {
      w.writeString(topic).writeArray(list, (w2, p) => w2.writeInt32(p));
    })
    .writeNullableBytes(userData)
    .toBytes();
}
