/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 * Written the Node way: every field is its own small Buffer, and Buffer.concat joins them.
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

/** A big-endian int16 as its own 2-byte Buffer. */
function int16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(value, 0);
  return b;
}

/** A big-endian int32 as its own 4-byte Buffer. */
function int32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(value, 0);
  return b;
}

/** A length or count (never negative) as a big-endian uint32. */
function uint32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value, 0);
  return b;
}

/** A topic name: int16 length of its UTF-8 bytes, then the bytes. */
function topicName(topic: string): Buffer[] {
  const utf8 = Buffer.from(topic, "utf8");
  if (utf8.length > 0x7fff) {
    throw new RangeError(`topic name is ${utf8.length} UTF-8 bytes, more than 32767`);
  }
  return [int16(utf8.length), utf8];
}

/** Nullable bytes: int32 length (-1 for null), then the bytes of the view itself. */
function nullableBytes(data: Uint8Array | null): Buffer[] {
  if (data === null) return [uint32(-1)];
  return [uint32(data.byteLength), Buffer.from(data.buffer, data.byteOffset, data.byteLength)];
}

/**
 * Encodes one member's assignment: version 3, the topic entries (topics with no partitions get
 * none), each topic's partitions in the given order, then the user data.
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const entries = [...partitions].filter(([, list]) => list.length > 0);
  const chunks: Buffer[] = [int16(ASSIGNMENT_VERSION), uint32(entries.length)];
  for (const [topic, list] of entries) {
    chunks.push(...topicName(topic));
    chunks.push(uint32(list.length));
    for (const partition of list) chunks.push(int32(partition));
  }
  chunks.push(...nullableBytes(userData));
  return Buffer.concat(chunks);
}
