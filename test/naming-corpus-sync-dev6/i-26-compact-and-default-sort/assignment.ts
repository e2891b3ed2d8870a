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
    // partitions ascending, as Kafka lists them
    entries.push({ name, partitions: [...list].sort() });
  }
  return entries;
}

/** Bytes of an unsigned varint. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value >>>= 7;
    size++;
  }
  return size;
}

/** Writes an unsigned varint at offset; returns the offset after it. */
function writeVarint(view: DataView, offset: number, value: number): number {
  while (value >= 0x80) {
    view.setUint8(offset++, (value & 0x7f) | 0x80);
    value >>>= 7;
  }
  view.setUint8(offset++, value);
  return offset;
}

/** Plan: how many bytes the whole value takes. */
function sizeOf(entries: readonly Entry[], userData: Uint8Array | null): number {
  // compact encoding: lengths and counts as varint(n + 1), 0 for null, tagged fields at the end
  let size = 2; // version
  size += varintSize(entries.length + 1); // topic count
  for (const entry of entries) {
    size += varintSize(entry.name.byteLength + 1) + entry.name.byteLength; // name
    size += varintSize(entry.partitions.length + 1) + 4 * entry.partitions.length; // partitions
    size += 1; // the entry's tagged fields
  }
  size += userData === null ? 1 : varintSize(userData.byteLength + 1) + userData.byteLength;
  size += 1; // tagged fields
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

  offset = writeVarint(view, offset, entries.length + 1);

  for (const entry of entries) {
    offset = writeVarint(view, offset, entry.name.byteLength + 1);
    out.set(entry.name, offset);
    offset += entry.name.byteLength;

    offset = writeVarint(view, offset, entry.partitions.length + 1);
    for (const partition of entry.partitions) {
      view.setInt32(offset, partition);
      offset += 4;
    }
    view.setUint8(offset++, 0); // no tagged fields
  }

  if (userData === null) {
    offset = writeVarint(view, offset, 0); // null
  } else {
    offset = writeVarint(view, offset, userData.byteLength + 1);
    out.set(userData, offset);
    offset += userData.byteLength;
  }
  view.setUint8(offset++, 0); // no tagged fields

  if (offset !== size) {
    throw new Error(`assignment: wrote ${offset} bytes but planned ${size}`);
  }
  return out;
}
