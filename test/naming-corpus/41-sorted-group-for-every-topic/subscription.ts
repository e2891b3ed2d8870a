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

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const REPLACEMENT = 0xfffd;

function isContinuation(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/**
 * Decodes UTF-8 the way Java's `new String(bytes, UTF_8)` does, replacement characters included.
 * Only used when TextDecoder produced a U+FFFD (for valid UTF-8 both agree).
 */
function decodeJavaUtf8(src: Uint8Array): string {
  const units: number[] = [];
  let sp = 0;
  const sl = src.length;
  while (sp < sl) {
    const b1 = src[sp++]!;
    if (b1 < 0x80) {
      units.push(b1);
    } else if (b1 >= 0xc2 && b1 <= 0xdf) {
      if (sp < sl) {
        const b2 = src[sp]!;
        if (!isContinuation(b2)) {
          units.push(REPLACEMENT);
        } else {
          sp++;
          units.push(((b1 & 0x1f) << 6) | (b2 & 0x3f));
        }
        continue;
      }
      units.push(REPLACEMENT);
      break;
    } else if (b1 >= 0xe0 && b1 <= 0xef) {
      if (sp + 1 < sl) {
        const b2 = src[sp]!;
        const b3 = src[sp + 1]!;
        const overlong = b1 === 0xe0 && (b2 & 0xe0) === 0x80;
        if (overlong || !isContinuation(b2) || !isContinuation(b3)) {
          units.push(REPLACEMENT);
          // malformed length: 1 when the second byte is already wrong, else 2
          sp += overlong || !isContinuation(b2) ? 0 : 1;
        } else {
          sp += 2;
          const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
          units.push(c >= 0xd800 && c <= 0xdfff ? REPLACEMENT : c);
        }
        continue;
      }
      if (sp < sl) {
        const b2 = src[sp]!;
        if ((b1 === 0xe0 && (b2 & 0xe0) === 0x80) || !isContinuation(b2)) {
          units.push(REPLACEMENT);
          continue;
        }
      }
      units.push(REPLACEMENT);
      break;
    } else if (b1 >= 0xf0 && b1 <= 0xf7) {
      if (sp + 2 < sl) {
        const b2 = src[sp]!;
        const b3 = src[sp + 1]!;
        const b4 = src[sp + 2]!;
        const cp = ((b1 & 0x07) << 18) | ((b2 & 0x3f) << 12) | ((b3 & 0x3f) << 6) | (b4 & 0x3f);
        if (
          !isContinuation(b2) ||
          !isContinuation(b3) ||
          !isContinuation(b4) ||
          cp < 0x10000 ||
          cp > 0x10ffff
        ) {
          units.push(REPLACEMENT);
          if (
            b1 > 0xf4 ||
            (b1 === 0xf0 && (b2 < 0x90 || b2 > 0xbf)) ||
            (b1 === 0xf4 && (b2 & 0xf0) !== 0x80) ||
            !isContinuation(b2)
          ) {
            // length 1
          } else if (!isContinuation(b3)) {
            sp += 1;
          } else {
            sp += 2;
          }
        } else {
          sp += 3;
          const v = cp - 0x10000;
          units.push(0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff));
        }
        continue;
      }
      if (
        b1 > 0xf4 ||
        (sp < sl &&
          ((b1 === 0xf0 && (src[sp]! < 0x90 || src[sp]! > 0xbf)) ||
            (b1 === 0xf4 && (src[sp]! & 0xf0) !== 0x80) ||
            !isContinuation(src[sp]!)))
      ) {
        units.push(REPLACEMENT);
        continue;
      }
      sp++;
      units.push(REPLACEMENT);
      if (sp < sl && !isContinuation(src[sp]!)) continue;
      break;
    } else {
      units.push(REPLACEMENT);
    }
  }
  let out = "";
  for (let i = 0; i < units.length; i += 4096) {
    out += String.fromCharCode(...units.slice(i, i + 4096));
  }
  return out;
}

function decodeName(raw: Uint8Array): string {
  const text = utf8.decode(raw);
  return text.includes("\uFFFD") ? decodeJavaUtf8(raw) : text;
}

/** A cursor over the subscription bytes; every read checks the remaining length first. */
class ByteReader {
  private readonly view: DataView;
  private pos = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get position(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.bytes.byteLength - this.pos;
  }

  fail(field: string, offset: number, expected: string, found: string): never {
    throw new SubscriptionDecodeError({ field, offset, expected, found });
  }

  private ensure(field: string, n: number, what: string, at = this.pos): void {
    if (this.remaining < n) {
      this.fail(field, at, `${what} needs ${n} bytes`, `only ${this.remaining} remain`);
    }
  }

  int16(field: string): number {
    this.ensure(field, 2, "int16");
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  int32(field: string): number {
    this.ensure(field, 4, "int32");
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  private take(field: string, n: number, what: string, at: number): Uint8Array {
    this.ensure(field, n, what, at);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(field: string): string {
    const at = this.pos;
    const len = this.int16(field);
    if (len < 0) this.fail(field, at, "a string length >= 0", `found ${len}`);
    return decodeName(this.take(field, len, "string", at));
  }

  nullableString(field: string): string | null {
    const at = this.pos;
    const len = this.int16(field);
    if (len < 0) return null;
    return decodeName(this.take(field, len, "string", at));
  }

  nullableBytes(field: string): Uint8Array | null {
    const at = this.pos;
    const len = this.int32(field);
    if (len < 0) return null;
    return this.take(field, len, "bytes", at).slice();
  }

  /** An array count: not null, and small enough that `count` elements of `minSize` bytes fit. */
  count(field: string, minSize: number): number {
    const at = this.pos;
    const n = this.int32(field);
    if (n < 0) this.fail(field, at, "a non-null array (count >= 0)", `found ${n}`);
    if (n * minSize > this.remaining) {
      this.fail(
        field,
        at,
        `room for ${n} elements of at least ${minSize} bytes`,
        `only ${this.remaining} remain`,
      );
    }
    return n;
  }
}

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
  const r = new ByteReader(bytes);

  const version = r.int16("version");
  if (version < 0) r.fail("version", 0, "a version >= 0", `found ${version}`);
  const effective = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);

  const topicCount = r.count("topics", 2);
  const topics: string[] = [];
  for (let i = 0; i < topicCount; i++) topics.push(r.string(`topics[${i}]`));

  const userData = r.nullableBytes("userData");

  const ownedPartitions: TopicPartitions[] = [];
  let generationId = -1;
  let rackId: string | null = null;

  if (effective >= 1) {
    const entries = r.count("ownedPartitions", 6);
    for (let i = 0; i < entries; i++) {
      const topic = r.string(`ownedPartitions[${i}].topic`);
      const n = r.count(`ownedPartitions[${i}].partitions`, 4);
      const partitions: number[] = [];
      for (let j = 0; j < n; j++) partitions.push(r.int32(`ownedPartitions[${i}].partitions[${j}]`));
      ownedPartitions.push({ topic, partitions });
    }
  }
  if (effective >= 2) generationId = r.int32("generationId");
  if (effective >= 3) rackId = r.nullableString("rackId");

  return { version, topics, userData, ownedPartitions, generationId, rackId };
}
