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

/** A bounds-checked big-endian reader over one subscription. */
class Reader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  get offset(): number {
    return this.pos;
  }

  private need(field: string, start: number, count: number, what: string): void {
    if (this.bytes.length - this.pos < count) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: `${what} needs ${count} bytes`,
        found: `only ${this.bytes.length - this.pos} remain`,
      });
    }
  }

  int16(field: string): number {
    this.need(field, this.pos, 2, "int16");
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  int32(field: string): number {
    this.need(field, this.pos, 4, "int32");
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  /** A non-nullable string, or null when nullable and the length is negative. */
  string(field: string, nullable: boolean): string | null {
    const start = this.pos;
    const len = this.int16(field);
    if (len < 0) {
      if (nullable) return null;
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: "a string length >= 0",
        found: `found ${len}`,
      });
    }
    if (this.remaining < len) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: `string needs ${len} bytes`,
        found: `only ${this.remaining} remain`,
      });
    }
    const s = utf8.decode(this.bytes.subarray(this.pos, this.pos + len));
    this.pos += len;
    return s;
  }

  /** Nullable bytes: negative length is null. */
  bytesField(field: string): Uint8Array | null {
    const start = this.pos;
    const len = this.int32(field);
    if (len < 0) return null;
    if (this.remaining < len) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: `bytes need ${len} bytes`,
        found: `only ${this.remaining} remain`,
      });
    }
    const out = this.bytes.slice(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** A non-nullable array count, checked against the bytes left (each element >= minSize). */
  count(field: string, minSize: number): number {
    const start = this.pos;
    const c = this.int32(field);
    if (c < 0) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: "a count >= 0",
        found: `found ${c}`,
      });
    }
    if (c * minSize > this.remaining) {
      throw new SubscriptionDecodeError({
        field,
        offset: start,
        expected: `room for ${c} elements`,
        found: `only ${this.remaining} bytes remain`,
      });
    }
    return c;
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
    throw new SubscriptionDecodeError({
      field: "version",
      offset: 0,
      expected: "a version >= 0",
      found: `found ${version}`,
    });
  }

  const topicCount = r.count("topics", 2);
  const topics: string[] = [];
  for (let i = 0; i < topicCount; i++) {
    topics.push(r.string(`topics[${i}]`, false)!);
  }
  const userData = r.bytesField("userData");

  // TODO (extension): ownedPartitions, generationId and rackId for versions 1-3.
  return { version, topics, userData, ownedPartitions: [], generationId: -1, rackId: null };
}
