/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`.
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

// Tiny writers: each returns the bytes of one field as a plain array, big-endian.
const i16 = (v: number): number[] => [(v >> 8) & 255, v & 255];
const i32 = (v: number): number[] => [(v >> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];
const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];

const str = (s: string): number[] => {
  const b = utf8(s);
  if (b.length > 32767) throw new RangeError(`topic name of ${b.length} UTF-8 bytes: at most 32767`);
  return [...i16(b.length), ...b];
};

const array = <T>(items: readonly T[], each: (item: T) => number[]): number[] => [
  ...i32(items.length),
  ...items.flatMap(each),
];

const bytes = (data: Uint8Array | null): number[] =>
  data?.length ? [...i32(data.length), ...data] : i32(-1);

const entry = ([topic, ps]: readonly [string, readonly number[]]): number[] => [
  ...str(topic),
  ...array(ps, i32),
];

/**
 * Encodes one member's assignment: version int16, the topic entries (int32 count; per topic an
 * int16 UTF-8 length, the name, an int32 count and the int32 partitions), then the user data
 * (int32 length, -1 for null, and the bytes).
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const owned = [...partitions].filter(([, ps]) => ps.length > 0);
  return Uint8Array.from([
    ...i16(ASSIGNMENT_VERSION),
    ...array(owned, entry),
    ...bytes(userData),
  ]);
}
