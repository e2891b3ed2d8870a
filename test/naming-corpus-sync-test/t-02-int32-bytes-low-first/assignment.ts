/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 */

export const ASSIGNMENT_VERSION = 3;

function pushInt16(out: number[], v: number): void {
  out.push((v >> 8) & 0xff, v & 0xff);
}

function pushInt32(out: number[], v: number): void {
  out.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff);
}

const utf8 = new TextEncoder();

export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const out: number[] = [];
  pushInt16(out, ASSIGNMENT_VERSION);
  const entries = [...partitions].filter(([, ps]) => ps.length > 0);
  pushInt32(out, entries.length);
  for (const [topic, ps] of entries) {
    const name = utf8.encode(topic);
    if (name.length > 0x7fff) throw new RangeError(`topic name too long: ${name.length} bytes`);
    pushInt16(out, name.length);
    for (const b of name) out.push(b);
    pushInt32(out, ps.length);
    for (const p of ps) pushInt32(out, p);
  }
  if (userData === null) {
    pushInt32(out, -1);
  } else {
    pushInt32(out, userData.byteLength);
    for (const b of userData) out.push(b);
  }
  return Uint8Array.from(out);
}
