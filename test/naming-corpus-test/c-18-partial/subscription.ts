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

/** Reads the subscription from left to right, checking each length before reading. */
class Reader {
  private readonly view: DataView;
  pos = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  fail(field: string, offset: number, expected: string, found: string): never {
    throw new SubscriptionDecodeError({ field, offset, expected, found });
  }

  int16(field: string): number {
    if (this.remaining() < 2) {
      this.fail(field, this.pos, "int16 needs 2 bytes", `only ${this.remaining()} remain`);
    }
    const v = this.view.getInt16(this.pos);
    this.pos += 2;
    return v;
  }

  int32(field: string): number {
    if (this.remaining() < 4) {
      this.fail(field, this.pos, "int32 needs 4 bytes", `only ${this.remaining()} remain`);
    }
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  string(field: string): string {
    const start = this.pos;
    const len = this.int16(field);
    if (len < 0) this.fail(field, start, "a string length >= 0", `found ${len}`);
    if (this.remaining() < len) {
      this.fail(field, start, `string needs ${len} bytes`, `only ${this.remaining()} remain`);
    }
    const s = utf8.decode(this.bytes.subarray(this.pos)).slice(0, len);
    this.pos += len;
    return s;
  }

  nullableBytes(field: string): Uint8Array | null {
    const start = this.pos;
    const len = this.int32(field);
    if (len < 0) return null;
    if (this.remaining() < len) {
      this.fail(field, start, `bytes need ${len} bytes`, `only ${this.remaining()} remain`);
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
  if (version < 0) r.fail("version", 0, "a version >= 0", `found ${version}`);

  const countAt = r.pos;
  const count = r.int32("topics");
  if (count < 0) r.fail("topics", countAt, "a topic count >= 0", `found ${count}`);
  if (count * 2 > r.remaining()) {
    r.fail("topics", countAt, `room for ${count} topics`, `only ${r.remaining()} bytes remain`);
  }
  const topics: string[] = [];
  for (let i = 0; i < count; i++) topics.push(r.string(`topics[${i}]`));

  const userData = r.nullableBytes("userData");

  // TODO (extension): ownedPartitions, generationId and rackId for versions 1-3.
  return { version, topics, userData, ownedPartitions: [], generationId: -1, rackId: null };
}
