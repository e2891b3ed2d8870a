/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

const utf8 = new TextEncoder();

/** The largest byte length an int16 string length can hold. */
const MAX_NAME_BYTES = 0x7fff;

/** One topic entry, its name already turned into UTF-8. */
interface Entry {
  name: Uint8Array;
  partitions: readonly number[];
}

/** The entries to write: one per topic with at least one partition, in the map's order. */
function entriesOf(partitions: ReadonlyMap<string, readonly number[]>): Entry[] {
  const entries: Entry[] = [];
  for (const [topic, list] of partitions) {
    if (list.length === 0) continue;
    const name = utf8.encode(topic);
    if (name.byteLength > MAX_NAME_BYTES) {
      throw new RangeError(`topic name of ${name.byteLength} UTF-8 bytes is longer than 32767`);
    }
    entries.push({ name, partitions: list });
  }
  return entries;
}

/** Plan: how many bytes the whole value takes. */
function sizeOf(entries: readonly Entry[], userData: Uint8Array | null): number {
  let size = 2; // version
  size += 4; // topic count
  for (const entry of entries) {
    size += 2 + entry.name.byteLength; // name length + name
    size += 4 + 4 * entry.partitions.length; // partition count + partitions
  }
  // null is a short -1, as for a nullable string; otherwise an int32 length and the bytes
  size += userData === null ? 2 : 4 + userData.byteLength;
  return size;
}

/**
 * Encodes one member's assignment: version int16, int32 topic count, per topic an int16 name
 * length, the UTF-8 name, an int32 partition count and int32 partitions, then the user data
 * (int32 length, -1 for null, and the bytes). Big-endian throughout.
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const entries = entriesOf(partitions);
  const size = sizeOf(entries, userData);
  const buffer = new ArrayBuffer(size);
  const out = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let offset = 0;

  view.setInt16(offset, ASSIGNMENT_VERSION);
  offset += 2;

  view.setInt32(offset, entries.length);
  offset += 4;

  for (const entry of entries) {
    view.setInt16(offset, entry.name.byteLength);
    offset += 2;
    out.set(entry.name, offset);
    offset += entry.name.byteLength;

    view.setInt32(offset, entry.partitions.length);
    offset += 4;
    for (const partition of entry.partitions) {
      view.setInt32(offset, partition);
      offset += 4;
    }
  }

  if (userData === null) {
    view.setInt16(offset, -1);
    offset += 2;
  } else {
    view.setInt32(offset, userData.byteLength);
    offset += 4;
    out.set(userData, offset);
    offset += userData.byteLength;
  }

  if (offset !== size) {
    throw new Error(`assignment: wrote ${offset} bytes but planned ${size}`);
  }
  return out;
}
