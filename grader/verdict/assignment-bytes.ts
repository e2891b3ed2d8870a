/**
 * The grader's own reading of a ConsumerProtocolAssignment, the value a consumer group leader
 * sends each member in SyncGroup, so that a program's bytes can be compared with the bytes Kafka's
 * Java client writes and a difference explained field by field (explain/assignment-fields.ts).
 *
 * Semantics are Kafka 3.8's: the schema clients/src/main/resources/common/message/
 * ConsumerProtocolAssignment.json (versions 0-3 share one layout) read the way
 * `ConsumerProtocol.deserializeAssignment` reads it, checked against Kafka's own decoding in
 * test/vectors/assignment.jsonl. All integers are big-endian and signed:
 *
 * - `version` int16. Below 0 is an error ("Unsupported assignment version"); 4 and above are read
 *   with the version-3 layout, and whatever follows the user data is left unread (`remaining`).
 * - `topic count` int32, then per entry: `name length` int16 and that many UTF-8 bytes (invalid
 *   UTF-8 becomes U+FFFD by Java's rules, see javaUtf8), `partition count` int32 and that many
 *   int32 partitions. A negative count or length is an error (Kafka: a null where the schema
 *   allows none), and so is a count above the bytes left (Kafka: "Tried to allocate a collection
 *   of size N, but there are only R bytes remaining") or any field that runs past the end (Kafka:
 *   "Buffer underflow"). A topic named twice gives two entries.
 * - `userData length` int32, any negative value meaning null, then that many bytes.
 *
 * Comparing a program's value with Kafka's (sameAssignment, assignmentKey) is stricter than
 * reading: the value must be the bytes Kafka's writer writes up to the order of topic entries, so
 * a null user data written with a length other than -1 (Kafka's) differs, as trailing bytes do,
 * though Kafka's reader takes both.
 *
 * The reader never trusts a count: nothing is allocated from one, and a count is refused before
 * any loop when it exceeds the bytes left, so the work is linear in the input's size whatever it
 * claims. Error messages are the grader's own (Kafka's words in brackets where it has them); what
 * must agree with Kafka is error or not, and on success every value.
 */
import { printable } from "../printable.ts";
import { byCodeUnits } from "./order.ts";

/**
 * One field as read from the bytes.
 *
 * - `name`: `version`, `topic count`, `topics[i].name length`, `topics[i].name`,
 *   `topics[i].partition count`, `topics[i].partitions[j]`, `userData length`, `userData`
 *   (`i`, `j` from 0, in wire order).
 * - `offset`, `length`: where its bytes are, in bytes from the start of the value.
 * - `value`: a short printable rendering: numbers in decimal (a negative user-data length followed
 *   by ` (null)`), names JSON-quoted with unsafe characters escaped (see quoted), user data as
 *   lower-case hex (`(empty)` for none); at most about 64 characters, a cut value ending in `…`.
 */
export interface AssignmentField {
  name: string;
  offset: number;
  length: number;
  value: string;
}

/**
 * A value Kafka reads without error.
 *
 * - `version`: the header's version as written (4 and above included).
 * - `topics`: the entries in wire order, each with its partitions in wire order (duplicates kept).
 * - `userData`: the user data's bytes, or null for a negative length (null and empty differ).
 * - `userDataLength`: the user-data length as written (any negative value is null to a reader;
 *   Kafka's writer writes -1).
 * - `remaining`: bytes after the user data, left unread.
 * - `fields`: every field read, in order; they cover the value from byte 0 to the end of the user
 *   data without gap.
 */
export interface DecodedAssignment {
  version: number;
  topics: { topic: string; partitions: number[] }[];
  userData: Uint8Array | null;
  userDataLength: number;
  remaining: number;
  fields: AssignmentField[];
}

/**
 * What readAssignment makes of some bytes: the value, or the error Kafka would also raise, with
 * the fields read before it. `error.field` is the name of the field whose read failed (as in
 * AssignmentField), `error.offset` the first byte of that field, `error.message` a sentence with
 * what was found and what was needed.
 */
export type AssignmentRead =
  | { ok: true; value: DecodedAssignment }
  | {
      ok: false;
      error: { field: string; offset: number; message: string };
      fields: AssignmentField[];
    };

/** Characters of a field's rendered value, at most (a cut value ends in `…`). */
const VALUE_CHARS = 64;

/** Bytes of user data rendered as hex before the rest is summarised. */
const HEX_BYTES = 24;

/** A failed read, thrown inside readAssignment only and returned as data. */
class ReadFailure {
  constructor(
    readonly field: string,
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** The primitive reads of the schema, each checking the bytes left before it reads. */
class Reader {
  offset = 0;
  readonly fields: AssignmentField[] = [];
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    // The view's own byteOffset and byteLength: a small Buffer shares a pooled ArrayBuffer.
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes after the current offset. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(field: string, size: number, kafkaSays: string): void {
    if (size > this.remaining) {
      const bytes = (n: number) => `${n} ${n === 1 ? "byte" : "bytes"}`;
      throw new ReadFailure(
        field,
        this.offset,
        `needs ${bytes(size)}, only ${bytes(this.remaining)} left${kafkaSays}`,
      );
    }
  }

  /** An int16 or int32, not yet added to the fields (the caller may refuse its value). */
  peekInt(field: string, size: 2 | 4): number {
    this.need(
      field,
      size,
      " (Kafka: Buffer underflow while parsing consumer protocol's assignment)",
    );
    return size === 2 ? this.view.getInt16(this.offset) : this.view.getInt32(this.offset);
  }

  /** Adds the field of `size` bytes at the current offset and moves past it. */
  accept(name: string, size: number, value: string): void {
    this.fields.push({ name, offset: this.offset, length: size, value });
    this.offset += size;
  }

  /** An int16 or int32, added to the fields. */
  int(field: string, size: 2 | 4): number {
    const n = this.peekInt(field, size);
    this.accept(field, size, String(n));
    return n;
  }

  /** A count of items of at least one byte each: refused when negative or above the bytes left. */
  count(field: string, nullName: string): number {
    const n = this.peekInt(field, 4);
    if (n < 0) {
      throw new ReadFailure(
        field,
        this.offset,
        `count ${n} is negative, a null array where Kafka requires one (Kafka: non-nullable field ${nullName} was serialized as null)`,
      );
    }
    const left = this.remaining - 4;
    if (n > left) {
      throw new ReadFailure(
        field,
        this.offset,
        `count ${n} is more than the ${left} bytes left after it (Kafka: Tried to allocate a collection of size ${n}, but there are only ${left} bytes remaining.)`,
      );
    }
    this.accept(field, 4, String(n));
    return n;
  }

  /** The next `size` bytes (a length already read), not yet added to the fields. */
  slice(field: string, size: number): Uint8Array {
    this.need(field, size, " (the length before it says so)");
    return this.bytes.subarray(this.offset, this.offset + size);
  }
}

/**
 * Reads a ConsumerProtocolAssignment as Kafka 3.8's `ConsumerProtocol.deserializeAssignment`
 * does (the module's comment gives the layout and every rule).
 *
 * @param bytes the value, read from its own byteOffset and byteLength
 * @returns the value with its fields, or the error and the fields read before it; never throws
 */
export function readAssignment(bytes: Uint8Array): AssignmentRead {
  const reader = new Reader(bytes);
  try {
    const version = reader.peekInt("version", 2);
    if (version < 0) {
      throw new ReadFailure(
        "version",
        0,
        `version ${version} is below 0 (Kafka: Unsupported assignment version: ${version})`,
      );
    }
    reader.accept("version", 2, String(version));
    const topics: DecodedAssignment["topics"] = [];
    const topicCount = reader.count("topic count", "assignedPartitions");
    for (let i = 0; i < topicCount; i++) {
      const at = `topics[${i}]`;
      const nameLength = reader.peekInt(`${at}.name length`, 2);
      if (nameLength < 0) {
        throw new ReadFailure(
          `${at}.name length`,
          reader.offset,
          `length ${nameLength} is negative, a null name where Kafka requires one (Kafka: non-nullable field topic was serialized as null)`,
        );
      }
      reader.accept(`${at}.name length`, 2, String(nameLength));
      const nameBytes = reader.slice(`${at}.name`, nameLength);
      const topic = javaUtf8(nameBytes);
      reader.accept(`${at}.name`, nameLength, quoted(topic));
      const partitionCount = reader.count(`${at}.partition count`, "partitions");
      const partitions: number[] = [];
      for (let j = 0; j < partitionCount; j++) {
        partitions.push(reader.int(`${at}.partitions[${j}]`, 4));
      }
      topics.push({ topic, partitions });
    }
    const userDataLength = reader.peekInt("userData length", 4);
    reader.accept(
      "userData length",
      4,
      userDataLength < 0 ? `${userDataLength} (null)` : String(userDataLength),
    );
    let userData: Uint8Array | null = null;
    if (userDataLength >= 0) {
      userData = reader.slice("userData", userDataLength).slice();
      const shown = userData.length === 0 ? "(empty)" : hexValue(userData);
      reader.accept("userData", userDataLength, shown);
    }
    return {
      ok: true,
      value: {
        version,
        topics,
        userData,
        userDataLength,
        remaining: reader.remaining,
        fields: reader.fields,
      },
    };
  } catch (e) {
    if (!(e instanceof ReadFailure)) throw e;
    return {
      ok: false,
      error: { field: e.field, offset: e.offset, message: e.message },
      fields: reader.fields,
    };
  }
}

/** Entries in the canonical order: by topic name (UTF-16 code units), then by partitions. */
function canonicalEntries(
  topics: readonly { topic: string; partitions: number[] }[],
): { topic: string; partitions: number[] }[] {
  return [...topics].sort((a, b) => {
    const byName = byCodeUnits(a.topic, b.topic);
    if (byName !== 0) return byName;
    const shorter = Math.min(a.partitions.length, b.partitions.length);
    for (let k = 0; k < shorter; k++) {
      const d = (a.partitions[k] as number) - (b.partitions[k] as number);
      if (d !== 0) return d;
    }
    return a.partitions.length - b.partitions.length;
  });
}

/**
 * A value as JSON of what a member sees, the order of entries aside: the header version, the user
 * data (hex; null for a length of -1, the length itself for any other negative one) and the
 * entries sorted by topic name (UTF-16 code units), then by partitions.
 */
function canonicalJson(value: DecodedAssignment): string {
  const { version, userData, userDataLength, topics } = value;
  return JSON.stringify([
    version,
    userData !== null
      ? Buffer.from(userData).toString("hex")
      : userDataLength === -1
        ? null
        : userDataLength,
    canonicalEntries(topics).map((e) => [e.topic, e.partitions]),
  ]);
}

/**
 * Whether a program's decoded value is the one Kafka wrote, as a member would see it: the same
 * header version; the same topic entries as a multiset (the order of entries means nothing, two
 * entries of one topic stay two entries, each entry's partitions compared in order with
 * duplicates counted); the same user data (null is not empty, and a null is written with the same
 * length: Kafka's writer writes -1, never -2); and nothing after the user data in `actual` (a
 * writer adds no trailing bytes). `expected.remaining` and both `fields` are ignored.
 */
export function sameAssignment(actual: DecodedAssignment, expected: DecodedAssignment): boolean {
  return actual.remaining === 0 && canonicalJson(actual) === canonicalJson(expected);
}

/**
 * A canonical string for an assignment value given as hex, to compare outcomes: two values equal
 * under sameAssignment get the same key, and values that differ get different keys. Bytes that
 * read cleanly with nothing left over give `value:` and their canonical JSON (canonicalJson);
 * anything else (not hex, unreadable, trailing bytes) gives `raw:` and the lower-cased text. The
 * key's length is linear in the input's.
 */
export function assignmentKey(hex: string): string {
  const bytes = hexBytes(hex);
  const read = bytes === undefined ? undefined : readAssignment(bytes);
  if (read === undefined || !read.ok || read.value.remaining !== 0) {
    return `raw:${hex.toLowerCase()}`;
  }
  return `value:${canonicalJson(read.value)}`;
}

/** A hex digit's value, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return -1;
}

/**
 * Bytes from hex: digits in either case, an even number of them, nothing else (no spaces, no
 * `0x`). Undefined for anything else; `""` gives no bytes.
 */
export function hexBytes(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let k = 0; k < bytes.length; k++) {
    const high = hexDigit(hex.charCodeAt(2 * k));
    const low = hexDigit(hex.charCodeAt(2 * k + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[k] = high * 16 + low;
  }
  return bytes;
}

/** User data as hex, the first HEX_BYTES bytes and then `… N bytes`. */
function hexValue(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, HEX_BYTES)).toString("hex");
  return bytes.length > HEX_BYTES ? `${hex}… ${bytes.length} bytes` : hex;
}

/**
 * Text (a topic name, a member id: anything a program chose) JSON-quoted for one line of a report:
 * `"` and `\`, controls and lone surrogates as JSON escapes, and everything printable.ts counts
 * unsafe (invisible characters too: `"orders\u200b"` must not read as `"orders"` beside Kafka's
 * name), as `\uXXXX`. A longer result is cut between
 * characters (never inside an escape or a surrogate pair) and closed with `"…`; only the
 * characters shown are looked at.
 *
 * @param maxChars characters of the result at most, quotes and `…` included (at least 4)
 */
export function quoted(text: string, maxChars = VALUE_CHARS): string {
  const budget = Math.max(4, maxChars) - 2;
  const pieces: string[] = [];
  let used = 0;
  let cut = false;
  for (const ch of text) {
    const piece = printable(JSON.stringify(ch).slice(1, -1));
    if (used + piece.length > budget) {
      cut = true;
      break;
    }
    pieces.push(piece);
    used += piece.length;
  }
  if (!cut) return `"${pieces.join("")}"`;
  while (used > budget - 1) used -= (pieces.pop() as string).length;
  return `"${pieces.join("")}"…`;
}

/** U+FFFD, what Java puts for malformed UTF-8. */
const REPLACEMENT = 0xfffd;

const isContinuation = (b: number | undefined): b is number =>
  b !== undefined && (b & 0xc0) === 0x80;

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * UTF-8 bytes as Java's `new String(bytes, StandardCharsets.UTF_8)` reads them (JDK 17), which
 * is how Kafka reads a topic name: valid UTF-8 as any decoder does, a leading U+FEFF kept; each
 * malformed sequence one U+FFFD by Java's rules, which differ from TextDecoder's for encoded
 * surrogates (`ED A0 80` is one U+FFFD for Java, three for TextDecoder). Checked against Java's
 * own table in test/java-strings/utf8.tsv (test/unit/assignment-bytes.test.ts).
 */
export function javaUtf8(bytes: Uint8Array): string {
  const fast = utf8.decode(bytes);
  // TextDecoder writes U+FFFD only for malformed bytes or where the bytes spell U+FFFD.
  if (!fast.includes("\uFFFD")) return fast;
  const units: number[] = [];
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b1 = bytes[i] as number;
    const b2 = bytes[i + 1];
    const b3 = bytes[i + 2];
    const b4 = bytes[i + 3];
    if (b1 < 0x80) {
      units.push(b1);
      i += 1;
    } else if (b1 >= 0xc2 && b1 <= 0xdf) {
      // Two bytes; cut short at the end: one U+FFFD for the rest.
      if (i + 1 >= n) {
        units.push(REPLACEMENT);
        break;
      }
      if (isContinuation(b2)) {
        units.push(((b1 & 0x1f) << 6) | (b2 & 0x3f));
        i += 2;
      } else {
        units.push(REPLACEMENT);
        i += 1;
      }
    } else if (b1 >= 0xe0 && b1 <= 0xef) {
      // Three bytes; E0 needs A0-BF next (lower is overlong).
      const badSecond = !isContinuation(b2) || (b1 === 0xe0 && b2 < 0xa0);
      if (i + 2 >= n) {
        units.push(REPLACEMENT);
        if (i + 1 < n && badSecond) i += 1;
        else break;
      } else if (badSecond || !isContinuation(b3)) {
        units.push(REPLACEMENT);
        i += badSecond ? 1 : 2;
      } else {
        const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
        // An encoded surrogate (CESU-8) is one U+FFFD for its three bytes.
        units.push(c >= 0xd800 && c <= 0xdfff ? REPLACEMENT : c);
        i += 3;
      }
    } else if (b1 >= 0xf0 && b1 <= 0xf7) {
      // Four bytes, U+10000-U+10FFFF: F0 needs 90-BF next, F4 needs 80-8F, F5-F7 never fit.
      const badSecond =
        b1 > 0xf4 ||
        !isContinuation(b2) ||
        (b1 === 0xf0 && b2 < 0x90) ||
        (b1 === 0xf4 && b2 > 0x8f);
      if (i + 3 >= n) {
        units.push(REPLACEMENT);
        if ((i + 1 < n && badSecond) || b1 > 0xf4) i += 1;
        else if (i + 2 < n && !isContinuation(b3)) i += 2;
        else break;
      } else if (badSecond || !isContinuation(b3) || !isContinuation(b4)) {
        units.push(REPLACEMENT);
        i += badSecond ? 1 : !isContinuation(b3) ? 2 : 3;
      } else {
        const c = ((b1 & 0x07) << 18) | ((b2 & 0x3f) << 12) | ((b3 & 0x3f) << 6) | (b4 & 0x3f);
        units.push(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
        i += 4;
      }
    } else {
      // A continuation byte where a character starts, C0, C1 or F8-FF.
      units.push(REPLACEMENT);
      i += 1;
    }
  }
  let text = "";
  // In slices: String.fromCharCode(...units) of a long name would overflow the stack.
  for (let k = 0; k < units.length; k += 4096) {
    text += String.fromCharCode(...units.slice(k, k + 4096));
  }
  return text;
}
