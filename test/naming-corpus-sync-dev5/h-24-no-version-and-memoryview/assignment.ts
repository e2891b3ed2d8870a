/**
 * The value a group leader sends each member in SyncGroup: Kafka's `ConsumerProtocolAssignment`
 * (clients/src/main/resources/common/message/ConsumerProtocolAssignment.json, versions 0-3).
 *
 * Ported from the Python tool I wrote this for first: a small `pack` that works like
 * `struct.pack`, one helper per Kafka wire type on top of it, and the pieces joined into one
 * array at the end (b"".join).
 */

/** The version a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3). */
export const ASSIGNMENT_VERSION = 3;

// ---------------------------------------------------------------------------------------------
// struct.pack, the integer codes only
// ---------------------------------------------------------------------------------------------

/** Code -> [size in bytes, signed], Python's "standard" sizes. */
const CODES: Readonly<Record<string, readonly [number, boolean]>> = {
  b: [1, true],
  B: [1, false],
  h: [2, true],
  H: [2, false],
  i: [4, true],
  I: [4, false],
  l: [4, true],
  L: [4, false],
  q: [8, true],
  Q: [8, false],
};

/** Whether this machine stores integers little-endian (what "=", "@" and no prefix mean). */
const NATIVE_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * struct.pack(format, *values). Byte order first: ">" or "!" big-endian, "<" little-endian, "=",
 * "@" or nothing the machine's own order (standard sizes, no alignment padding). A count before a
 * code repeats it ("3i" is "iii", "0i" packs nothing). Throws RangeError (struct.error) when a
 * value does not fit its code, or the number of values is not the number of codes.
 */
function pack(format: string, ...values: readonly (number | bigint)[]): Uint8Array {
  let littleEndian = NATIVE_LITTLE;
  let body = format;
  const order = format.charAt(0);
  if (order === ">" || order === "!") {
    littleEndian = false;
    body = format.slice(1);
  } else if (order === "<") {
    littleEndian = true;
    body = format.slice(1);
  } else if (order === "=" || order === "@") {
    body = format.slice(1);
  }

  const codes: string[] = [];
  for (const match of body.matchAll(/(\d*)([a-zA-Z])/g)) {
    const repeat = match[1] === undefined || match[1] === "" ? 1 : Number(match[1]);
    for (let n = 0; n < repeat; n++) codes.push(match[2] ?? "");
  }
  if (codes.length !== values.length) {
    throw new RangeError(
      `struct.error: pack expected ${codes.length} items for packing (got ${values.length})`,
    );
  }

  let size = 0;
  for (const code of codes) {
    const spec = CODES[code];
    if (spec === undefined) throw new RangeError(`struct.error: bad char in struct format: ${code}`);
    size += spec[0];
  }

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let offset = 0;
  codes.forEach((code, k) => {
    const [width, signed] = CODES[code] ?? [0, false];
    const value = values[k] ?? 0;
    if (width === 8) {
      const big = BigInt(value);
      const lo = signed ? -(1n << 63n) : 0n;
      const hi = signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
      if (big < lo || big > hi) throw new RangeError(`struct.error: '${code}' format requires ${lo} <= number <= ${hi}`);
      if (signed) view.setBigInt64(offset, big, littleEndian);
      else view.setBigUint64(offset, big, littleEndian);
    } else {
      const n = Number(value);
      const lo = signed ? -(2 ** (8 * width - 1)) : 0;
      const hi = signed ? 2 ** (8 * width - 1) - 1 : 2 ** (8 * width) - 1;
      if (!Number.isInteger(n) || n < lo || n > hi) {
        throw new RangeError(`struct.error: '${code}' format requires ${lo} <= number <= ${hi}`);
      }
      if (width === 1) {
        if (signed) view.setInt8(offset, n);
        else view.setUint8(offset, n);
      } else if (width === 2) {
        if (signed) view.setInt16(offset, n, littleEndian);
        else view.setUint16(offset, n, littleEndian);
      } else if (signed) {
        view.setInt32(offset, n, littleEndian);
      } else {
        view.setUint32(offset, n, littleEndian);
      }
    }
    offset += width;
  });
  return out;
}

/** b"".join(parts): one new array holding every part, in order. */
function join(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  if (offset !== size) throw new Error(`join wrote ${offset} of ${size} bytes`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Kafka's wire types, on top of pack
// ---------------------------------------------------------------------------------------------

/** INT16, big-endian ("network order", struct's ">h"). */
function int16(value: number): Uint8Array {
  return pack(">h", value);
}

/** INT32, big-endian (">i"). */
function int32(value: number): Uint8Array {
  return pack(">i", value);
}

const utf8 = new TextEncoder();

/** STRING: int16 length of the UTF-8 bytes, then those bytes (name.encode("utf-8")). */
function kafkaString(s: string): Uint8Array {
  const encoded = utf8.encode(s);
  if (encoded.byteLength > 0x7fff) {
    throw new RangeError(`topic name of ${encoded.byteLength} UTF-8 bytes: an int16 length holds 32767`);
  }
  return join([int16(encoded.byteLength), encoded]);
}

/** NULLABLE_BYTES: int32 length, -1 for None, then the raw bytes (bytes(memoryview(data))). */
function nullableBytes(data: Uint8Array | null): Uint8Array {
  if (data === null) return int32(-1);
  const raw = new Uint8Array(data.buffer);
  return join([int32(raw.byteLength), raw]);
}

/** ARRAY: int32 count, then each element as write packs it. */
function kafkaArray<T>(items: readonly T[], write: (item: T) => Uint8Array): Uint8Array {
  return join([int32(items.length), ...items.map(write)]);
}

/** ARRAY of INT32: the count, then the partitions in the order given (one pack: ">3i"). */
function partitionList(ps: readonly number[]): Uint8Array {
  return join([int32(ps.length), pack(`>${ps.length}i`, ...ps)]);
}

/**
 * Encodes one member's assignment: the topic entries (int32 count; each an
 * int16-length UTF-8 name, an int32 count and int32 partitions), then the user data (int32
 * length, -1 for null, and the bytes). All big-endian. A topic with no partitions gets no entry;
 * a member that owns nothing still gets the version, a count of 0 and its user data.
 *
 * @param partitions topic name to the member's partitions of that topic, in the assignor's order
 * @param userData the assignor's bytes for this member, or null
 * @returns the assignment bytes, a new array of exactly the value's length
 * @throws RangeError when a topic name is longer than 32767 UTF-8 bytes
 */
export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  // One entry per topic the member got something of, in the map's order.
  const entries = [...partitions].filter(([, ps]) => ps.length > 0);
  // (the version rides in the SyncGroup request header, ASSIGNMENT_VERSION)
  return join([
    kafkaArray(entries, ([topic, ps]) => join([kafkaString(topic), partitionList(ps)])),
    nullableBytes(userData),
  ]);
}
