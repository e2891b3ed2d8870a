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

/** Topic names are text: turn each byte into its character. */
function decodeName(raw: Uint8Array): string {
  let name = "";
  for (const b of raw) name += String.fromCharCode(b);
  return name;
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
