import { SubscriptionDecodeError } from "./decode-error.ts";

/** One entry of a version 1+ subscription's owned partitions. */
export interface TopicPartitions {
  topic: string;
  /** Partition numbers as written (int32, not checked against any metadata). */
  partitions: number[];
}

/**
 * A member's subscription, as Kafka's `ConsumerProtocolSubscription` schema defines it
 * (clients/src/main/resources/common/message/ConsumerProtocolSubscription.json, versions 0-3).
 */
export interface Subscription {
  /** The version as written in the 2-byte header (a version above 3 is read as 3 but kept here). */
  version: number;
  /** Subscribed topic names, in the order written (duplicates kept as written). */
  topics: string[];
  /** Opaque assignor bytes; `null` when the length is negative, distinct from zero bytes. */
  userData: Uint8Array | null;
  /** Version 1+: partitions the member owned before this rebalance; `[]` for version 0. */
  ownedPartitions: TopicPartitions[];
  /** Version 2+: the member's last generation; -1 (Kafka's default) below version 2. */
  generationId: number;
  /** Version 3+: the member's client.rack; `null` below version 3 or when written as null. */
  rackId: string | null;
}

/** The newest subscription version this decoder knows; Kafka reads any newer one as this. */
export const HIGHEST_SUBSCRIPTION_VERSION = 3;

/**
 * Decodes one member's ConsumerProtocolSubscription bytes.
 *
 * Layout (all integers big-endian and signed): version int16; topics: int32 count, then per topic
 * an int16 byte length and that many UTF-8 bytes; userData: int32 length (negative = null) and
 * that many bytes; version 1+ appends ownedPartitions, 2+ generationId, 3+ rackId. Semantics
 * follow Kafka's ConsumerProtocol.deserializeSubscription and the generated
 * ConsumerProtocolSubscriptionData reader: a version above 3 is read as 3 and any bytes after a
 * complete body are ignored; invalid UTF-8 becomes U+FFFD.
 *
 * @param bytes the subscription; may be a view into a larger buffer (its byteOffset is honoured)
 * @returns the decoded subscription; the input is not modified and not retained
 * @throws SubscriptionDecodeError for bytes that are not a valid subscription: too short for a
 *   field, a negative version, a negative length for a non-nullable string or array, or a count
 *   larger than the remaining bytes could hold. No other error is thrown for any input.
 */
export function decodeSubscription(bytes: Uint8Array): Subscription {
  // canary: reference body of decodeSubscription — must never appear in a handout
  const reader = new ByteReader(bytes);
  const version = readVersion(reader);
  // A newer writer appends fields after version 3's: read version 3's and ignore the rest.
  const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);

  // Each topic is at least its 2-byte length.
  const topics = reader.array("topics", 2, (i) => reader.string("topics", i));
  const userData = reader.nullableBytes("userData");
  let ownedPartitions: TopicPartitions[] = [];
  if (readAs >= 1) {
    // Each entry is at least a 2-byte topic length and a 4-byte partition count.
    ownedPartitions = reader.array("ownedPartitions", 6, (i) => readTopicPartitions(reader, i));
  }
  const generationId = readAs >= 2 ? reader.int32("generationId") : -1;
  const rackId = readAs >= 3 ? reader.nullableString("rackId") : null;
  return { version, topics, userData, ownedPartitions, generationId, rackId };
}

/** The int16 version; a negative one is an error (ConsumerProtocol.checkSubscriptionVersion). */
function readVersion(reader: ByteReader): number {
  const offset = reader.offset;
  const version = reader.int16("version");
  if (version < 0) {
    throw new SubscriptionDecodeError({
      field: "version",
      offset,
      expected: "a version >= 0",
      found: `found ${version}`,
    });
  }
  return version;
}

/** Entry `i` of ownedPartitions: a topic string, then an array of int32 partitions. */
function readTopicPartitions(reader: ByteReader, i: number): TopicPartitions {
  const field = `ownedPartitions[${i}]`;
  const topic = reader.string(`${field}.topic`);
  const partitions = reader.array(`${field}.partitions`, 4, (j) =>
    reader.int32(`${field}.partitions`, j),
  );
  return { topic, partitions };
}

const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A Kafka string's bytes as the Java client reads them: `new String(bytes, UTF_8)`. A leading
 * U+FEFF stays part of the name (`ignoreBOM`). Valid UTF-8 reads the same in every decoder;
 * malformed bytes become U+FFFD by Java's rules (decodeUtf8AsJava), which differ from
 * TextDecoder's: Java replaces an encoded surrogate (`ED A0 80`, as CESU-8 writers produce) with
 * one U+FFFD where TextDecoder gives three.
 */
function decodeUtf8(bytes: Uint8Array): string {
  const text = utf8Decoder.decode(bytes);
  // TextDecoder puts U+FFFD only for malformed bytes or where the bytes spell U+FFFD itself:
  // either way Java's reading decides.
  return text.includes("\uFFFD") ? decodeUtf8AsJava(bytes) : text;
}

/** U+FFFD, what Java puts for each malformed sequence. */
const REPLACEMENT = 0xfffd;

const isContinuation = (b: number | undefined): b is number =>
  b !== undefined && (b & 0xc0) === 0x80;

/**
 * UTF-8 decoded as JDK 17's `String(byte[], UTF_8)` does, malformed input included (checked
 * against the JDK in test/java-strings/). A lead byte whose next byte cannot follow it is one
 * U+FFFD and reading goes on at the next byte; a whole sequence that decodes to a surrogate or is
 * cut by a bad last byte is one U+FFFD for the bytes read so far; a sequence cut short by the end
 * of the bytes is one U+FFFD for all that is left.
 */
function decodeUtf8AsJava(bytes: Uint8Array): string {
  const units: number[] = [];
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b1 = bytes[i] as number;
    const b2 = bytes[i + 1];
    if (b1 < 0x80) {
      units.push(b1);
      i += 1;
    } else if (b1 >= 0xc2 && b1 <= 0xdf) {
      // Two bytes.
      if (i + 1 >= n) {
        units.push(REPLACEMENT);
        break;
      }
      if (!isContinuation(b2)) {
        units.push(REPLACEMENT);
        i += 1;
      } else {
        units.push(((b1 & 0x1f) << 6) | (b2 & 0x3f));
        i += 2;
      }
    } else if (b1 >= 0xe0 && b1 <= 0xef) {
      // Three bytes. E0 must be followed by A0-BF (shorter forms are overlong).
      const badSecond = !isContinuation(b2) || (b1 === 0xe0 && b2 < 0xa0);
      const b3 = bytes[i + 2];
      if (i + 2 >= n) {
        units.push(REPLACEMENT);
        if (i + 1 < n && badSecond) i += 1;
        else break;
      } else if (badSecond || !isContinuation(b3)) {
        units.push(REPLACEMENT);
        i += badSecond ? 1 : 2;
      } else {
        const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
        units.push(c >= 0xd800 && c <= 0xdfff ? REPLACEMENT : c);
        i += 3;
      }
    } else if (b1 >= 0xf0 && b1 <= 0xf7) {
      // Four bytes, U+10000 to U+10FFFF: F0 needs 90-BF next, F4 needs 80-8F, F5-F7 never fit.
      const badSecond =
        b1 > 0xf4 ||
        !isContinuation(b2) ||
        (b1 === 0xf0 && b2 < 0x90) ||
        (b1 === 0xf4 && b2 > 0x8f);
      const b3 = bytes[i + 2];
      const b4 = bytes[i + 3];
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
      // A continuation byte where a character should start, C0, C1 or F8-FF.
      units.push(REPLACEMENT);
      i += 1;
    }
  }
  let text = "";
  // In slices: String.fromCharCode(...units) on a long name would overflow the stack.
  for (let k = 0; k < units.length; k += 4096)
    text += String.fromCharCode(...units.slice(k, k + 4096));
  return text;
}

/** A DataView of exactly these bytes: a Uint8Array may start anywhere inside its ArrayBuffer. */
function dataViewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads the primitive types of Kafka's message schemas (int16, int32, string, nullable string,
 * nullable bytes, array), big-endian as Kafka's Readable does, from a byte view. Every read checks
 * the remaining length first, so a bad length becomes a SubscriptionDecodeError naming the field
 * and the offset. A field is named by its path (`topics`, `ownedPartitions[0].topic`) and, for an
 * array element, its index (`topics` and 1 for `topics[1]`): the two are joined only when an error
 * is thrown, as most reads never need the text.
 */
class ByteReader {
  /** Offset of the next unread byte, relative to the start of the view. */
  offset = 0;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = dataViewOf(bytes);
  }

  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  int16(field: string, index?: number): number {
    this.need(2, "int16", field, index);
    const value = this.view.getInt16(this.offset);
    this.offset += 2;
    return value;
  }

  int32(field: string, index?: number): number {
    this.need(4, "int32", field, index);
    const value = this.view.getInt32(this.offset);
    this.offset += 4;
    return value;
  }

  /** STRING: an int16 byte length (negative is an error: the field is not nullable), then UTF-8. */
  string(field: string, index?: number): string {
    const lengthOffset = this.offset;
    const length = this.int16(field, index);
    if (length < 0) {
      throw new SubscriptionDecodeError({
        field: pathOf(field, index),
        offset: lengthOffset,
        expected: "a string length >= 0 (the field is not nullable)",
        found: `found ${length}`,
      });
    }
    return this.utf8(length, field, index);
  }

  /** NULLABLE_STRING: an int16 byte length, any negative length meaning null, then UTF-8. */
  nullableString(field: string): string | null {
    const length = this.int16(field);
    return length < 0 ? null : this.utf8(length, field);
  }

  /** NULLABLE_BYTES: an int32 length, any negative length meaning null; returns a copy. */
  nullableBytes(field: string): Uint8Array | null {
    const length = this.int32(field);
    return length < 0 ? null : this.take(length, "bytes", field).slice();
  }

  /**
   * ARRAY: an int32 count (negative is an error: the field is not nullable), then `count`
   * elements, element `i` read by `readElement(i)`. The count is checked against the remaining
   * bytes (each element needs at least `minElementBytes`) before anything is read, so a huge
   * count never drives a loop or an allocation.
   */
  array<T>(field: string, minElementBytes: number, readElement: (i: number) => T): T[] {
    const countOffset = this.offset;
    const count = this.int32(field);
    if (count < 0) {
      throw new SubscriptionDecodeError({
        field,
        offset: countOffset,
        expected: "an array length >= 0 (the field is not nullable)",
        found: `found ${count}`,
      });
    }
    if (count * minElementBytes > this.remaining) {
      throw new SubscriptionDecodeError({
        field,
        offset: countOffset,
        expected: `${count} elements need at least ${count * minElementBytes} bytes`,
        found: `only ${this.remaining} remain`,
      });
    }
    const elements: T[] = [];
    for (let i = 0; i < count; i++) elements.push(readElement(i));
    return elements;
  }

  /** The next `length` bytes decoded as UTF-8; the offset moves on by bytes, not characters. */
  private utf8(length: number, field: string, index?: number): string {
    return decodeUtf8(this.take(length, "string", field, index));
  }

  /** The next `length` bytes as a view (not a copy), after checking they exist. */
  private take(length: number, what: string, field: string, index?: number): Uint8Array {
    this.need(length, what, field, index);
    const bytes = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }

  private need(length: number, what: string, field: string, index?: number): void {
    if (length > this.remaining) {
      throw new SubscriptionDecodeError({
        field: pathOf(field, index),
        offset: this.offset,
        expected: `${what} needs ${length} byte${length === 1 ? "" : "s"}`,
        found: `only ${this.remaining} remain`,
      });
    }
  }
}

/** A field's path for an error: `topics` alone, or with an element's index, `topics[1]`. */
function pathOf(field: string, index: number | undefined): string {
  return index === undefined ? field : `${field}[${index}]`;
}
