/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 */

export const ASSIGNMENT_VERSION = 3;

/** Unsigned varint, as the flexible versions of Kafka's messages write lengths. */
function uvarint(value: number): Buffer {
  const out: number[] = [];
  let v = value >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}

function int16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(value, 0);
  return b;
}

function int32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(value, 0);
  return b;
}

const NO_TAGGED_FIELDS = 0;

export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const chunks: Buffer[] = [int16(ASSIGNMENT_VERSION)];
  const entries = [...partitions].filter(([, list]) => list.length > 0);
  // compact array: length + 1
  chunks.push(uvarint(entries.length + 1));
  for (const [topic, list] of entries) {
    const name = Buffer.from(topic, "utf8");
    if (name.length > 0x7fff) throw new RangeError(`topic name too long: ${name.length} bytes`);
    chunks.push(uvarint(name.length + 1), name);
    chunks.push(uvarint(list.length + 1));
    for (const p of list) chunks.push(int32(p));
    chunks.push(uvarint(NO_TAGGED_FIELDS));
  }
  if (userData === null) {
    chunks.push(uvarint(0));
  } else {
    chunks.push(uvarint(userData.byteLength + 1));
    chunks.push(Buffer.from(userData.buffer, userData.byteOffset, userData.byteLength));
  }
  chunks.push(uvarint(NO_TAGGED_FIELDS));
  return new Uint8Array(Buffer.concat(chunks));
}
