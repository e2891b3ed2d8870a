/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 *
 * Ported from the way I would write it in Java: a small ByteBuffer with a position that every
 * put moves along, sized first (ConsumerProtocol measures the struct, then writes it).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

/** Short.MAX_VALUE: the longest string an int16 length can announce. */
const MAX_STRING_BYTES = 0x7fff;

const UTF8 = new TextEncoder();

/** A minimal java.nio.ByteBuffer: fixed capacity, big-endian, relative puts. */
class ByteBuffer {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private pos = 0;

  private constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  static allocate(capacity: number): ByteBuffer {
    return new ByteBuffer(capacity);
  }

  putShort(value: number): this {
    this.view.setInt16(this.pos, value);
    this.pos += 2;
    return this;
  }

  putInt(value: number): this {
    this.view.setInt32(this.pos, value);
    this.pos += 4;
    return this;
  }

  put(src: Uint8Array): this {
    this.bytes.set(src, this.pos);
    this.pos += src.byteLength;
    return this;
  }

  position(): number {
    return this.pos;
  }

  remaining(): number {
    return this.bytes.byteLength - this.pos;
  }

  array(): Uint8Array {
    return this.bytes;
  }
}

/** One `TopicPartition` entry of the struct: the name already in UTF-8, and its partitions. */
interface TopicEntry {
  readonly name: Uint8Array;
  readonly partitions: readonly number[];
}

/** Types.STRING: int16 byte length, then the bytes. */
function sizeOfString(name: Uint8Array): number {
  return 2 + name.byteLength;
}

/** Types.NULLABLE_BYTES: int32 length (-1 for null), then the bytes. */
function sizeOfNullableBytes(data: Uint8Array | null): number {
  return data === null ? 4 : 4 + data.byteLength;
}

function writeString(buffer: ByteBuffer, name: Uint8Array): void {
  buffer.putShort(name.byteLength);
  buffer.put(name);
}

function writeNullableBytes(buffer: ByteBuffer, data: Uint8Array | null): void {
  if (data === null) {
    buffer.putInt(-1);
  } else {
    buffer.putInt(data.byteLength);
    buffer.put(data);
  }
}

/**
 * Encodes one member's assignment.
 *
 * Layout (all integers big-endian and signed): version int16 (always 3, as a Kafka 3.4+ leader
 * writes); assignedPartitions: int32 count of topic entries, then per topic an int16 byte length
 * and that many UTF-8 bytes of its name, an int32 count and that many int32 partitions; userData:
 * int32 length (-1 for null) and that many bytes.
 *
 * @param partitions topic name to the member's partitions of that topic, in the assignor's order
 * @param userData the assignor's bytes for this member, or null (the range assignor sends null)
 * @returns the assignment bytes, a new array of exactly the value's length
 * @throws RangeError when a topic name is longer than 32767 UTF-8 bytes (an int16 length)
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  // Build the struct: one entry per topic that has partitions, names encoded once.
  const entries: TopicEntry[] = [];
  for (const [topic, topicPartitions] of partitions) {
    if (topicPartitions.length === 0) continue;
    const name = UTF8.encode(topic);
    if (name.byteLength > MAX_STRING_BYTES) {
      throw new RangeError(`topic name of ${name.byteLength} UTF-8 bytes exceeds ${MAX_STRING_BYTES}`);
    }
    entries.push({ name, partitions: topicPartitions });
  }

  // Measure it.
  let size = 2; // version
  size += 4; // entry count
  for (const entry of entries) {
    size += sizeOfString(entry.name);
    size += 4 + 4 * entry.partitions.length;
  }
  size += sizeOfNullableBytes(userData);

  // Write it.
  const buffer = ByteBuffer.allocate(size);
  buffer.putShort(ASSIGNMENT_VERSION);
  buffer.putInt(entries.length);
  for (const entry of entries) {
    writeString(buffer, entry.name);
    buffer.putInt(entry.partitions.length);
    for (const partition of entry.partitions) {
      buffer.putInt(partition);
    }
  }
  writeNullableBytes(buffer, userData);

  if (buffer.remaining() !== 0) {
    throw new Error(`assignment size mismatch: wrote ${buffer.position()} of ${size} bytes`);
  }
  return buffer.array();
}
