/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 */

export const ASSIGNMENT_VERSION = 3;

const encoder = new TextEncoder();

export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const entries = [...partitions].filter(([, ps]) => ps.length > 0);

  // measure
  let size = 2 + 4;
  for (const [topic, ps] of entries) size += 2 + topic.length + 4 + 4 * ps.length;
  size += 4 + (userData === null ? 0 : userData.byteLength);

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let offset = 0;
  view.setInt16(offset, ASSIGNMENT_VERSION);
  offset += 2;
  view.setInt32(offset, entries.length);
  offset += 4;
  for (const [topic, ps] of entries) {
    const name = encoder.encode(topic);
    if (name.length > 0x7fff) throw new RangeError(`topic name too long: ${name.length} bytes`);
    view.setInt16(offset, name.length);
    offset += 2;
    out.set(name, offset);
    offset += name.length;
    view.setInt32(offset, ps.length);
    offset += 4;
    for (const p of ps) {
      view.setInt32(offset, p);
      offset += 4;
    }
  }
  if (userData === null) {
    view.setInt32(offset, -1);
    offset += 4;
  } else {
    view.setInt32(offset, userData.byteLength);
    offset += 4;
    out.set(userData, offset);
    offset += userData.byteLength;
  }
  return out;
}
