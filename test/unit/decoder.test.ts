// decodeSubscription (solution) against bytes real Kafka clients wrote and Kafka's own decoding.
import { describe, expect, it } from "vitest";
import { SubscriptionDecodeError } from "../../solution/src/decode-error.ts";
import { decodeSubscription, type Subscription } from "../../solution/src/subscription.ts";
import {
  readJsonl,
  type DecodeVector,
  type JavaSubscriptionVector,
  type LibrdkafkaSubscriptionVector,
} from "../helpers/vectors.ts";

const fromHex = (hex: string): Uint8Array =>
  new Uint8Array(Buffer.from(hex.replace(/\s+/g, ""), "hex"));
const toHex = (bytes: Uint8Array | null): string | null =>
  bytes === null ? null : Buffer.from(bytes).toString("hex");

/** The vectors list owned partitions one (topic, partition) pair at a time. */
function flatOwned(subscription: Subscription): { topic: string; partition: number }[] {
  return subscription.ownedPartitions.flatMap(({ topic, partitions }) =>
    partitions.map((partition) => ({ topic, partition })),
  );
}

/** Kafka's Java reads a generation id below 0 and an empty rack id back as null (vectors README). */
function asJavaReadsIt(subscription: Subscription) {
  return {
    version: subscription.version,
    topics: subscription.topics,
    userData: toHex(subscription.userData),
    ownedPartitions: flatOwned(subscription),
    generationId: subscription.generationId < 0 ? null : subscription.generationId,
    rackId: subscription.rackId === "" ? null : subscription.rackId,
  };
}

/** Decodes `hex` from a view at byte offset 8 of a larger buffer, as main.ts hands it over. */
function decodeAtOffset(hex: string): Subscription {
  const bytes = fromHex(hex);
  const buffer = new ArrayBuffer(bytes.length + 16);
  new Uint8Array(buffer).fill(0xaa);
  const view = new Uint8Array(buffer, 8, bytes.length);
  view.set(bytes);
  return decodeSubscription(view);
}

function decodeError(hex: string): SubscriptionDecodeError {
  try {
    decodeSubscription(fromHex(hex));
  } catch (error) {
    if (error instanceof SubscriptionDecodeError) return error;
    throw error;
  }
  throw new Error(`expected ${hex} to be rejected`);
}

describe("decodeSubscription on java-subscriptions.jsonl (Kafka 3.8 Java serializer)", () => {
  const vectors = readJsonl<JavaSubscriptionVector>("java-subscriptions.jsonl");
  it("has vectors of every version 0-3", () => {
    expect(new Set(vectors.map((v) => v.version))).toEqual(new Set([0, 1, 2, 3]));
  });
  it.each(vectors.map((v) => [v.description, v] as const))("%s", (_, vector) => {
    const { hex, ...rest } = vector;
    const expected = { ...rest, description: undefined };
    expect({ ...asJavaReadsIt(decodeAtOffset(hex)), description: undefined }).toEqual(expected);
  });
});

describe("decodeSubscription on librdkafka-subscriptions.jsonl (captured from librdkafka 2.0.2)", () => {
  const vectors = readJsonl<LibrdkafkaSubscriptionVector>("librdkafka-subscriptions.jsonl");
  it.each(vectors.map((v) => [v.description.slice(0, 100), v] as const))("%s", (_, vector) => {
    expect(asJavaReadsIt(decodeAtOffset(vector.hex))).toEqual(vector.kafkaDecodes);
  });
});

describe("decodeSubscription on decode.jsonl (Kafka's decoder on valid and invalid bytes)", () => {
  const vectors = readJsonl<DecodeVector>("decode.jsonl");
  it.each(vectors.map((v, i) => [`${i + 1}: ${v.note}`, v] as const))("%s", (_, vector) => {
    if ("error" in vector.expected) {
      expect(() => decodeAtOffset(vector.hex)).toThrow(SubscriptionDecodeError);
      return;
    }
    const decoded = decodeAtOffset(vector.hex);
    expect(decoded.version).toBe(vector.expected.version);
    expect(toHex(decoded.userData)).toBe(vector.expected.userData);
    // Names as Java reads them, CESU-8 lines included: one U+FFFD per encoded surrogate.
    expect(decoded.topics).toEqual(vector.expected.topics);
    expect(asJavaReadsIt(decoded).ownedPartitions).toEqual(vector.expected.ownedPartitions);
  });
});

describe("decodeSubscription by hand", () => {
  it("reads the lesson's example: version 0, topics [a], null user data", () => {
    expect(decodeSubscription(fromHex("0000 00000001 0001 61 ffffffff"))).toEqual({
      version: 0,
      topics: ["a"],
      userData: null,
      ownedPartitions: [],
      generationId: -1,
      rackId: null,
    });
  });

  it("keeps empty user data (length 0) apart from null (length -1)", () => {
    expect(decodeSubscription(fromHex("0000 00000000 00000000")).userData).toEqual(
      new Uint8Array(),
    );
    expect(decodeSubscription(fromHex("0000 00000000 ffffffff")).userData).toBeNull();
  });

  it("reads any negative user-data length as null, not only -1", () => {
    expect(decodeSubscription(fromHex("0000 00000000 fffffffe")).userData).toBeNull();
    expect(decodeSubscription(fromHex("0000 00000000 80000000")).userData).toBeNull();
  });

  it("honours the view's byteOffset (the bytes around it are 0xAA)", () => {
    expect(decodeAtOffset("0000 00000001 0001 61 00000002 beef").userData).toEqual(
      new Uint8Array([0xbe, 0xef]),
    );
  });

  it("counts string lengths in UTF-8 bytes and keeps a leading byte-order mark", () => {
    // "é" is 2 bytes; U+FEFF is 3 bytes (ef bb bf) and is part of the name for Kafka.
    expect(
      decodeSubscription(fromHex("0000 00000002 0002 c3a9 0004 efbbbf61 ffffffff")).topics,
    ).toEqual(["é", "\ufeffa"]);
  });

  it("reads a version above 3 as version 3 and keeps the version as written", () => {
    const v7 = decodeSubscription(fromHex("0007 00000001 0001 61 ffffffff 00000000 00000005 ffff"));
    expect(v7).toMatchObject({ version: 7, topics: ["a"], generationId: 5, rackId: null });
  });

  it("tells apart names whose bytes hash alike (the decoder keeps ASCII names it has seen)", () => {
    // "Aa" (41 61) and "BB" (42 42): 2 x 31 + 0x41 = 127, 127 x 31 + 0x61 = 4034, and
    // 2 x 31 + 0x42 = 128, 128 x 31 + 0x42 = 4034, the same hash for the same length.
    expect(
      decodeSubscription(fromHex("0000 00000003 0002 4161 0002 4242 0002 4161 ffffffff")).topics,
    ).toEqual(["Aa", "BB", "Aa"]);
    // An ASCII name seen before, then a non-ASCII name of the same length: each as its bytes say.
    expect(
      decodeSubscription(fromHex("0000 00000002 0002 4242 0002 c3a9 ffffffff")).topics,
    ).toEqual(["BB", "é"]);
  });

  it("returns user data that does not alias the input", () => {
    const bytes = fromHex("0000 00000000 00000001 07");
    const decoded = decodeSubscription(bytes);
    bytes[9] = 0;
    expect(decoded.userData).toEqual(new Uint8Array([7]));
  });
});

describe("SubscriptionDecodeError: field path and offset of the read that failed", () => {
  it.each([
    // [hex, field, offset, message]
    ["00", "version", 0, "version: int16 needs 2 bytes at offset 0, only 1 remain"],
    ["8000 00000000 ffffffff", "version", 0, "version: a version >= 0 at offset 0, found -32768"],
    ["0000 0000", "topics", 2, "topics: int32 needs 4 bytes at offset 2, only 2 remain"],
    [
      "0000 ffffffff ffffffff",
      "topics",
      2,
      "topics: an array length >= 0 (the field is not nullable) at offset 2, found -1",
    ],
    [
      "0000 00000002 0001 61 0004 6162",
      "topics[1]",
      11,
      "topics[1]: string needs 4 bytes at offset 11, only 2 remain",
    ],
    [
      "0000 00000002 0001 61 ffff ffffffff",
      "topics[1]",
      9,
      "topics[1]: a string length >= 0 (the field is not nullable) at offset 9, found -1",
    ],
    [
      "0000 00000000 00000005 0102",
      "userData",
      10,
      "userData: bytes needs 5 bytes at offset 10, only 2 remain",
    ],
    [
      "0000 7fffffff ffffffff",
      "topics",
      2,
      "topics: 2147483647 elements need at least 4294967294 bytes at offset 2, only 4 remain",
    ],
    [
      "0001 00000000 ffffffff 00000001 ffff 00000000",
      "ownedPartitions[0].topic",
      14,
      "ownedPartitions[0].topic: a string length >= 0 (the field is not nullable) at offset 14, found -1",
    ],
    [
      "0001 00000000 ffffffff 00000001 0001 61 00000002 00000000 0000",
      "ownedPartitions[0].partitions",
      17,
      "ownedPartitions[0].partitions: 2 elements need at least 8 bytes at offset 17, only 6 remain",
    ],
    [
      "0002 00000000 ffffffff 00000000 0000",
      "generationId",
      14,
      "generationId: int32 needs 4 bytes at offset 14, only 2 remain",
    ],
    [
      "0003 00000000 ffffffff 00000000 00000001 0003 7231",
      "rackId",
      20,
      "rackId: string needs 3 bytes at offset 20, only 2 remain",
    ],
    // A version-7 header on a version-0 body is read as version 3: the owned partitions are missing.
    [
      "0007 00000001 0001 61 ffffffff",
      "ownedPartitions",
      13,
      "ownedPartitions: int32 needs 4 bytes at offset 13, only 0 remain",
    ],
  ])("%s -> %s", (hex, field, offset, message) => {
    const error = decodeError(hex);
    expect(error).toMatchObject({ field, offset, memberId: undefined });
    expect(error.message).toBe(message);
    expect(error.forMember("c-3").message).toBe(`member "c-3": ${message}`);
  });
});
