/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 * Written as a list of Buffer chunks, concatenated at the end.
 */

export const ASSIGNMENT_VERSION = 3;

const MAX_NAME = 0x7fff;

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

function topicName(name: string): Buffer[] {
  const bytes = Buffer.from(name, "utf8");
  if (bytes.length > MAX_NAME) {
    throw new RangeError(`topic name of ${bytes.length} UTF-8 bytes does not fit an int16 length`);
  }
  return [int16(bytes.length), bytes];
}

export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const chunks: Buffer[] = [int16(ASSIGNMENT_VERSION)];

  const entries = [...partitions].filter(([, list]) => list.length > 0);
  chunks.push(int32(entries.length));
  for (const [topic, list] of entries) {
    chunks.push(...topicName(topic));
    chunks.push(int32(list.length * 4));
    for (const p of list) chunks.push(int32(p));
  }

  if (!userData?.length) {
    chunks.push(int32(-1));
  } else {
    chunks.push(int32(userData.byteLength));
    chunks.push(Buffer.from(userData.buffer, userData.byteOffset, userData.byteLength));
  }

  return new Uint8Array(Buffer.concat(chunks));
}
