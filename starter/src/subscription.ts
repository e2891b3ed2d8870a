import { NotImplementedError } from "./not-implemented.ts";

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
  // TODO: read the version, the topics and the user data (LESSON.md#the-subscription-bytes).
  throw new NotImplementedError("decodeSubscription");
}
