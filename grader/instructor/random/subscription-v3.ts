/**
 * A ConsumerProtocolSubscription encoder (versions 0-3; version 3 by default), for `--random`
 * cases whose members have a rack (kafkajs writes version 0 only, which has no rack field) and,
 * through fixtures/recipes/encoders.ts's subscriptionBytes, for the golden cases. The layout is Kafka's schema at tag
 * 3.8.0 (clients/src/main/resources/common/message/ConsumerProtocolSubscription.json, not
 * flexible): int16 version, then Topics ([]string), UserData (nullable bytes), OwnedPartitions
 * ([]{Topic string, Partitions []int32}), GenerationId (int32), RackId (nullable string). Arrays
 * and bytes carry an int32 length, strings an int16 length of their UTF-8 bytes, null is length -1.
 * Version 0 stops after UserData, 1 after OwnedPartitions, 2 after GenerationId. Proven byte for
 * byte against every row of test/vectors/java-subscriptions.jsonl
 * (test/unit/subscription-encoder.test.ts).
 */

/** What a version-3 subscription carries, in the schema's field order. */
export interface SubscriptionV3 {
  /** Written in this order, repeats included (the Java client sorts them first; this does not). */
  topics: readonly string[];
  userData: Uint8Array | null;
  /** One entry per topic, as the schema groups them (Java: sorted by topic, then partition). */
  ownedPartitions: readonly { topic: string; partitions: readonly number[] }[];
  /** -1 when unknown (the schema's default). */
  generationId: number;
  rackId: string | null;
}

/**
 * Encodes a subscription at `version`, writing the fields that version has.
 *
 * @param subscription the fields; names must be at most 32,767 UTF-8 bytes, numbers int32
 * @param version 0-3 (default 3)
 * @returns the bytes, as Kafka's Java client would write them for the same field values
 * @throws RangeError when a name is too long for its int16 length, a number is not an int32, or
 *   the version is not 0-3
 */
export function encodeSubscriptionV3(subscription: SubscriptionV3, version = 3): Buffer {
  if (!Number.isInteger(version) || version < 0 || version > 3) {
    throw new RangeError(`the encoder writes versions 0-3, not ${version}`);
  }
  const parts: Buffer[] = [];
  const int16 = (n: number) => {
    const b = Buffer.alloc(2);
    b.writeInt16BE(n);
    parts.push(b);
  };
  const int32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    parts.push(b);
  };
  const string = (s: string | null) => {
    if (s === null) return int16(-1);
    const bytes = Buffer.from(s, "utf8");
    int16(bytes.length);
    parts.push(bytes);
  };

  int16(version);
  int32(subscription.topics.length);
  for (const topic of subscription.topics) string(topic);
  if (subscription.userData === null) int32(-1);
  else {
    int32(subscription.userData.length);
    parts.push(Buffer.from(subscription.userData));
  }
  if (version >= 1) {
    int32(subscription.ownedPartitions.length);
    for (const { topic, partitions } of subscription.ownedPartitions) {
      string(topic);
      int32(partitions.length);
      for (const p of partitions) int32(p);
    }
  }
  if (version >= 2) int32(subscription.generationId);
  if (version >= 3) string(subscription.rackId);
  return Buffer.concat(parts);
}
