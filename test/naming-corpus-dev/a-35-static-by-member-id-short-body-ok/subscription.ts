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

/** Is b a continuation byte (10xxxxxx)? */
function isCont(b: number | undefined): boolean {
  return b !== undefined && b >= 0x80 && b <= 0xbf;
}

/** Decodes bytes the way Java's new String(bytes, UTF_8) does (see LESSON.md table). */
function javaUtf8(b: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < b.length) {
    const b0 = b[i]!;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i += 1;
      continue;
    }
    let len: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) len = 2;
    else if (b0 >= 0xe0 && b0 <= 0xef) len = 3;
    else if (b0 >= 0xf0 && b0 <= 0xf4) len = 4;
    else {
      out += "\uFFFD";
      i += 1;
      continue;
    }
    // second byte
    if (i + 1 >= b.length) {
      out += "\uFFFD";
      break;
    }
    const b1 = b[i + 1]!;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 === 0xe0) lo = 0xa0;
    else if (b0 === 0xf0) lo = 0x90;
    else if (b0 === 0xf4) hi = 0x8f;
    if (b1 < lo || b1 > hi) {
      out += "\uFFFD";
      i += 1;
      continue;
    }
    if (len === 2) {
      out += String.fromCharCode(((b0 & 0x1f) << 6) | (b1 & 0x3f));
      i += 2;
      continue;
    }
    if (i + 2 >= b.length) {
      out += "\uFFFD";
      break;
    }
    const b2 = b[i + 2]!;
    if (!isCont(b2)) {
      out += "\uFFFD";
      i += 2;
      continue;
    }
    if (len === 3) {
      const cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      out += cp >= 0xd800 && cp <= 0xdfff ? "\uFFFD" : String.fromCharCode(cp);
      i += 3;
      continue;
    }
    if (i + 3 >= b.length) {
      out += "\uFFFD";
      break;
    }
    const b3 = b[i + 3]!;
    if (!isCont(b3)) {
      out += "\uFFFD";
      i += 3;
      continue;
    }
    const cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
    out += String.fromCodePoint(cp);
    i += 4;
  }
  return out;
}

/** Reads big-endian signed fields from a subscription, checking the length before every read. */
class Reader {
  private readonly view: DataView;
  pos = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  private need(field: string, n: number, what: string): void {
    if (this.remaining() < n) {
      throw new SubscriptionDecodeError({
        field,
        offset: this.pos,
        expected: `${what} needs ${n} bytes`,
        found: `only ${this.remaining()} remain`,
      });
    }
  }

  int16(field: string): number {
    this.need(field, 2, "int16");
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  int32(field: string): number {
    this.need(field, 4, "int32");
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  /** A count of a non-null array whose elements take at least `minSize` bytes each. */
  count(field: string, minSize: number): number {
    const start = this.pos;
    const n = this.int32(field);
    if (n < 0) {
      throw new SubscriptionDecodeError({ field, offset: start, expected: "a count >= 0", found: `found ${n}` });
    }
    if (n * minSize > this.remaining()) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: `${n} elements of at least ${minSize} bytes`,
        found: `only ${this.remaining()} remain`,
      });
    }
    return n;
  }

  /** A string; `null` only when nullable and the length is negative. */
  string(field: string, nullable: boolean): string | null {
    const start = this.pos;
    const len = this.int16(field);
    if (len < 0) {
      if (nullable) return null;
      throw new SubscriptionDecodeError({ field, offset: start, expected: "a string length >= 0", found: `found ${len}` });
    }
    if (len > this.remaining()) {
      this.pos = start;
      this.need(field, len + 2, "string");
    }
    const raw = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    const s = utf8.decode(raw);
    return s.includes("\uFFFD") ? javaUtf8(raw) : s;
  }

  /** Nullable bytes: a negative length is null. */
  nullableBytes(field: string): Uint8Array | null {
    const start = this.pos;
    const len = this.int32(field);
    if (len < 0) return null;
    if (len > this.remaining()) {
      this.pos = start;
      this.need(field, len + 4, "bytes");
    }
    const out = this.bytes.slice(this.pos, this.pos + len);
    this.pos += len;
    return out;
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
  const r = new Reader(bytes);
  const version = r.int16("version");
  if (version < 0) {
    throw new SubscriptionDecodeError({ field: "version", offset: 0, expected: "a version >= 0", found: `found ${version}` });
  }
  const v = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);

  const topicCount = r.count("topics", 2);
  const topics: string[] = [];
  for (let i = 0; i < topicCount; i++) {
    topics.push(r.string(`topics[${i}]`, false)!);
  }
  const userData = r.nullableBytes("userData");

  const ownedPartitions: TopicPartitions[] = [];
  let generationId = -1;
  let rackId: string | null = null;
  if (v >= 1 && r.remaining() > 0) {
    const n = r.count("ownedPartitions", 6);
    for (let i = 0; i < n; i++) {
      const topic = r.string(`ownedPartitions[${i}].topic`, false)!;
      const pc = r.count(`ownedPartitions[${i}].partitions`, 4);
      const partitions: number[] = [];
      for (let j = 0; j < pc; j++) partitions.push(r.int32(`ownedPartitions[${i}].partitions[${j}]`));
      ownedPartitions.push({ topic, partitions });
    }
  }
  // Old clients may stop early: a missing field keeps its default.
  if (v >= 2 && r.remaining() > 0) generationId = r.int32("generationId");
  if (v >= 3 && r.remaining() > 0) rackId = r.string("rackId", true);

  return { version, topics, userData, ownedPartitions, generationId, rackId };
}
