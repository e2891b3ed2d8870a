/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

const MAX_NAME_BYTES = 0x7fff;
const encoder = new TextEncoder();

/**
 * Encodes one member's assignment: int16 version, int32 topic count, per topic an int16 UTF-8
 * length + name and an int32 count + int32 partitions, then int32 user-data length (-1 null) and
 * the bytes. Big-endian throughout.
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  // 1. measure
  const entries: { name: Uint8Array; parts: readonly number[] }[] = [];
  let size = 2 + 4;
  for (const [topic, parts] of partitions) {
    if (parts.length === 0) continue;
    const name = encoder.encode(topic);
    if (name.length > MAX_NAME_BYTES) {
      throw new RangeError(`topic name is ${name.length} UTF-8 bytes, more than ${MAX_NAME_BYTES}`);
    }
    entries.push({ name, parts });
    size += 2 + name.length + 4 + 4 * parts.length;
  }
  size += 4 + (userData === null ? 0 : userData.byteLength);

  // 2. allocate once
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let offset = 0;

  // 3. write in order
  view.setInt16(offset, ASSIGNMENT_VERSION);
  offset += 2;
  view.setInt32(offset, entries.length);
  offset += 4;
  for (const { name, parts } of entries) {
    view.setInt16(offset, name.length);
    offset += 2;
    out.set(name, offset);
    offset += name.length;
    view.setInt32(offset, parts.length);
    offset += 4;
    const pending = [...parts];
    while (pending.length > 0) {
      view.setInt32(offset, pending.pop()!);
      offset += 4;
    }
  }

  // 4. user data
  if (userData === null) {
    view.setInt32(offset, -1);
    offset += 4;
  } else {
    view.setInt32(offset, userData.byteLength);
    offset += 4;
    out.set(userData, offset);
    offset += userData.byteLength;
  }

  if (offset !== size) throw new Error(`wrote ${offset} bytes, measured ${size}`);
  return out;
}
