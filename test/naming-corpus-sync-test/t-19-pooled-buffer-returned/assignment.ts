/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 */

export const ASSIGNMENT_VERSION = 3;

export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const entries = [...partitions]
    .filter(([, ps]) => ps.length > 0)
    .map(([topic, ps]) => [Buffer.from(topic, "utf8"), ps] as const);

  let size = 2 + 4 + 4 + (userData?.byteLength ?? 0);
  for (const [name, ps] of entries) {
    if (name.length > 0x7fff) throw new RangeError(`topic name too long: ${name.length} bytes`);
    size += 2 + name.length + 4 + 4 * ps.length;
  }

  const buf = Buffer.allocUnsafe(size); // every byte is written below
  let o = buf.writeInt16BE(ASSIGNMENT_VERSION, 0);
  o = buf.writeInt32BE(entries.length, o);
  for (const [name, ps] of entries) {
    o = buf.writeInt16BE(name.length, o);
    o += name.copy(buf, o);
    o = buf.writeInt32BE(ps.length, o);
    for (const p of ps) o = buf.writeInt32BE(p, o);
  }
  if (userData === null) {
    o = buf.writeInt32BE(-1, o);
  } else {
    o = buf.writeInt32BE(userData.byteLength, o);
    buf.set(userData, o);
    o += userData.byteLength;
  }
  if (o !== size) throw new Error(`wrote ${o} of ${size} bytes`);
  return new Uint8Array(buf.buffer);
}
