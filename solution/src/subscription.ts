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
  const versionOffset = reader.offset;
  const version = reader.int16("version");
  if (version < 0) {
    throw new SubscriptionDecodeError({
      field: "version",
      offset: versionOffset,
      expected: "a version >= 0",
      found: `found ${version}`,
    });
  }
  const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);

  const topics = reader.array("topics", 2, (field) => reader.string(field));
  const userData = reader.nullableBytes("userData");

  const subscription: Subscription = {
    version,
    topics,
    userData,
    ownedPartitions: [],
    generationId: -1,
    rackId: null,
  };
  if (readAs >= 1) {
    // Each entry is at least a 2-byte topic length and a 4-byte partition count.
    subscription.ownedPartitions = reader.array("ownedPartitions", 6, (field) => ({
      topic: reader.string(() => `${pathOf(field)}.topic`),
      partitions: reader.array(
        () => `${pathOf(field)}.partitions`,
        4,
        (partition) => reader.int32(partition),
      ),
    }));
  }
  if (readAs >= 2) subscription.generationId = reader.int32("generationId");
  if (readAs >= 3) subscription.rackId = reader.nullableString("rackId");
  return subscription;
}

/**
 * A field's path for error messages (`topics[1]`), or a function that builds it: paths of array
 * items are built only when an error needs one, since building `topics[17]` for every topic costs
 * more than reading the topic.
 */
type Field = string | (() => string);

const pathOf = (field: Field): string => (typeof field === "string" ? field : field());

/**
 * Reads Kafka's primitive types from a byte view, checking the remaining length before every read,
 * so a bad length becomes a SubscriptionDecodeError naming the field and the offset.
 */
class ByteReader {
  /** Offset of the next unread byte, relative to the start of the view. */
  offset = 0;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  /** The same bytes as a Node Buffer, for decoding UTF-8. */
  private readonly text: Buffer;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    // The view may start anywhere inside its ArrayBuffer: pass byteOffset and byteLength.
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.byteLength - this.offset;
  }

  int16(field: Field): number {
    this.need(field, 2, "int16");
    const value = this.view.getInt16(this.offset);
    this.offset += 2;
    return value;
  }

  int32(field: Field): number {
    this.need(field, 4, "int32");
    const value = this.view.getInt32(this.offset);
    this.offset += 4;
    return value;
  }

  /** A non-nullable string: int16 byte length (negative is an error), then UTF-8 bytes. */
  string(field: Field): string {
    const lengthOffset = this.offset;
    const value = this.nullableString(field);
    if (value === null) {
      throw new SubscriptionDecodeError({
        field: pathOf(field),
        offset: lengthOffset,
        expected: "a string length >= 0 (the field is not nullable)",
        found: `found ${this.view.getInt16(lengthOffset)}`,
      });
    }
    return value;
  }

  /** A nullable string: int16 byte length, any negative length meaning null. */
  nullableString(field: Field): string | null {
    const length = this.int16(field);
    if (length < 0) return null;
    this.need(field, length, "string");
    // Kafka's strings are UTF-8. Like TextDecoder (and Java), Buffer replaces invalid sequences
    // with U+FFFD and keeps a leading U+FEFF, which is part of the name for Kafka; for short
    // names it is the faster of the two in Node.
    const value = this.text.toString("utf8", this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Nullable bytes: int32 length, any negative length meaning null; returns a copy. */
  nullableBytes(field: Field): Uint8Array | null {
    const length = this.int32(field);
    if (length < 0) return null;
    return this.take(field, length, "bytes").slice();
  }

  /**
   * A non-nullable array: int32 count (negative is an error), then `count` items. The count is
   * checked against the remaining bytes (each item needs at least `minItemBytes`) before anything
   * is read, so a huge count never drives a loop or an allocation.
   */
  array<T>(field: Field, minItemBytes: number, readItem: (itemField: Field) => T): T[] {
    const countOffset = this.offset;
    const count = this.int32(field);
    if (count < 0) {
      throw new SubscriptionDecodeError({
        field: pathOf(field),
        offset: countOffset,
        expected: "an array length >= 0 (the field is not nullable)",
        found: `found ${count}`,
      });
    }
    if (count * minItemBytes > this.remaining) {
      throw new SubscriptionDecodeError({
        field: pathOf(field),
        offset: countOffset,
        expected: `${count} elements need at least ${count * minItemBytes} bytes`,
        found: `only ${this.remaining} remain`,
      });
    }
    const items: T[] = [];
    for (let i = 0; i < count; i++) items.push(readItem(() => `${pathOf(field)}[${i}]`));
    return items;
  }

  /** The next `length` bytes as a view, after checking they exist. */
  private take(field: Field, length: number, what: string): Uint8Array {
    this.need(field, length, what);
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  private need(field: Field, length: number, what: string): void {
    if (length > this.remaining) {
      throw new SubscriptionDecodeError({
        field: pathOf(field),
        offset: this.offset,
        expected: `${what} needs ${length} byte${length === 1 ? "" : "s"}`,
        found: `only ${this.remaining} remain`,
      });
    }
  }
}
