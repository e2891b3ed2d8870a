/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

const encoder = new TextEncoder();

/** Appends an unsigned varint (7 bits a byte, low bits first). */
function writeUnsignedVarint(out: number[], value: number): void {
  let v = value >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

function writeInt16(out: number[], v: number): void {
  out.push((v >> 8) & 0xff, v & 0xff);
}

function writeInt32(out: number[], v: number): void {
  out.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
}

/**
 * Encodes one member's assignment, with Kafka's compact encoding: compact arrays and strings
 * (length + 1 as an unsigned varint), compact nullable bytes (0 for null), empty tagged fields.
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const out: number[] = [];
  writeInt16(out, ASSIGNMENT_VERSION);
  const topics = [...partitions].filter(([, parts]) => parts.length > 0);
  writeUnsignedVarint(out, topics.length + 1);
  for (const [topic, parts] of topics) {
    const name = encoder.encode(topic);
    if (name.length > 0x7fff) throw new RangeError(`topic name too long (${name.length} bytes)`);
    writeUnsignedVarint(out, name.length + 1);
    for (const b of name) out.push(b);
    writeUnsignedVarint(out, parts.length + 1);
    for (const p of [...parts].sort()) writeInt32(out, p);
    writeUnsignedVarint(out, 0); // tagged fields of the entry
  }
  if (userData === null) {
    writeUnsignedVarint(out, 0);
  } else {
    writeUnsignedVarint(out, userData.byteLength + 1);
    for (const b of userData) out.push(b);
  }
  writeUnsignedVarint(out, 0); // tagged fields
  return Uint8Array.from(out);
}
