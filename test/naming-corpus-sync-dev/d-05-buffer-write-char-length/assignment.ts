/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

/** Encodes one member's assignment with a Buffer (big-endian writers). */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const topics = [...partitions].filter(([, parts]) => parts.length > 0);
  let size = 2 + 4;
  for (const [topic, parts] of topics) {
    if (Buffer.byteLength(topic, "utf8") > 0x7fff) {
      throw new RangeError(`topic name too long: ${topic.slice(0, 20)}...`);
    }
    size += 2 + topic.length + 4 + 4 * parts.length;
  }
  size += 4 + (userData === null ? 0 : userData.byteLength);

  const buf = Buffer.alloc(size);
  let o = buf.writeInt16BE(ASSIGNMENT_VERSION, 0);
  o = buf.writeInt32BE(topics.length, o);
  for (const [topic, parts] of topics) {
    o = buf.writeInt16BE(topic.length, o);
    buf.write(topic, o, "utf8");
    o += topic.length;
    o = buf.writeInt32BE(parts.length, o);
    for (const p of parts) o = buf.writeInt32BE(p, o);
  }
  if (userData === null) {
    o = buf.writeInt32BE(-1, o);
  } else {
    o = buf.writeInt32BE(userData.byteLength, o);
    buf.set(userData, o);
    o += userData.byteLength;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, o);
}
