// decodeSubscription (solution) against real encoders: kafkajs for version 0, and an encoder
// written here from Kafka's ConsumerProtocolSubscription.json schema for versions 1-3 and above.
// Every expected value comes from what the encoders were given, never from the decoder under test.
import fc from "fast-check";
import kafkajs from "kafkajs";
import { describe, expect, it } from "vitest";
import { SubscriptionDecodeError } from "../../solution/src/decode-error.ts";
import {
  decodeSubscription,
  type Subscription,
  type TopicPartitions,
} from "../../solution/src/subscription.ts";
import { readJsonl, type JavaSubscriptionVector } from "../helpers/vectors.ts";

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

const toHex = (bytes: Uint8Array | null): string | null =>
  bytes === null
    ? null
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/** `bytes` copied into a view at `byteOffset` of a larger ArrayBuffer whose other bytes are 0xAA. */
function inLargerBuffer(bytes: Uint8Array, byteOffset: number, tail: number): Uint8Array {
  const buffer = new ArrayBuffer(byteOffset + bytes.length + tail);
  new Uint8Array(buffer).fill(0xaa);
  const view = new Uint8Array(buffer, byteOffset, bytes.length);
  view.set(bytes);
  return view;
}

/** A subscription in a shape `toEqual` compares exactly: user data as hex, null kept apart. */
function comparable(subscription: Subscription) {
  const { userData, ...rest } = subscription;
  expect(userData === null || userData instanceof Uint8Array).toBe(true);
  return { ...rest, userData: toHex(userData) };
}

// ---------------------------------------------------------------------------------------------
// An encoder from Kafka's schema (clients/src/main/resources/common/message/
// ConsumerProtocolSubscription.json): "validVersions": "0-3", "flexibleVersions": "none", so every
// string is an int16 byte length + UTF-8, every array an int32 count, bytes an int32 length; all
// big-endian. Fields: Topics []string v0+; UserData nullable bytes v0+; OwnedPartitions
// []{Topic string, Partitions []int32} v1+; GenerationId int32 v2+ (default -1); RackId nullable
// string v3+ (default null).

interface EncodeOptions {
  /** The version whose fields are written; by default the header's, a version above 3 as 3. */
  bodyVersion?: number;
  /** The negative length written for null user data (Kafka writes -1; any negative is null). */
  userDataNullLength?: number;
  /** The negative length written for a null rack id (Kafka writes -1; any negative is null). */
  rackIdNullLength?: number;
  /** Bytes after the complete body (a newer client's fields, or garbage): ignored by Kafka. */
  trailing?: Uint8Array;
}

class SchemaWriter {
  private readonly out: number[] = [];

  int16(value: number): this {
    if (!Number.isInteger(value) || value < -0x8000 || value > 0x7fff)
      throw new Error(`int16 ${value}`);
    this.out.push((value >> 8) & 0xff, value & 0xff);
    return this;
  }

  int32(value: number): this {
    if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
      throw new Error(`int32 ${value}`);
    }
    this.out.push((value >> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff);
    return this;
  }

  raw(bytes: Uint8Array): this {
    for (const byte of bytes) this.out.push(byte);
    return this;
  }

  string(value: string): this {
    const utf8 = Buffer.from(value, "utf8");
    // A lone surrogate would be written as EF BF BD and could not come back: not a valid name.
    if (utf8.toString("utf8") !== value) throw new Error(`not representable in UTF-8: ${value}`);
    if (utf8.length > 0x7fff) throw new Error("string longer than an int16 length allows");
    return this.int16(utf8.length).raw(utf8);
  }

  nullableString(value: string | null, nullLength = -1): this {
    return value === null ? this.int16(nullLength) : this.string(value);
  }

  nullableBytes(value: Uint8Array | null, nullLength = -1): this {
    return value === null ? this.int32(nullLength) : this.int32(value.length).raw(value);
  }

  array<T>(items: readonly T[], writeItem: (item: T) => void): this {
    this.int32(items.length);
    for (const item of items) writeItem(item);
    return this;
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

function encodeFromSchema(subscription: Subscription, options: EncodeOptions = {}): Uint8Array {
  const body = options.bodyVersion ?? Math.min(subscription.version, 3);
  const w = new SchemaWriter();
  w.int16(subscription.version);
  w.array(subscription.topics, (topic) => w.string(topic));
  w.nullableBytes(subscription.userData, options.userDataNullLength);
  if (body >= 1) {
    w.array(subscription.ownedPartitions, ({ topic, partitions }) => {
      w.string(topic);
      w.array(partitions, (partition) => w.int32(partition));
    });
  }
  if (body >= 2) w.int32(subscription.generationId);
  if (body >= 3) w.nullableString(subscription.rackId, options.rackIdNullLength);
  if (options.trailing !== undefined) w.raw(options.trailing);
  return w.bytes();
}

/** What Kafka reads back from a body of `version`: fields the version lacks take their defaults. */
function expectedFromSchema(subscription: Subscription): Subscription {
  const readAs = Math.min(subscription.version, 3);
  return {
    version: subscription.version,
    topics: subscription.topics,
    userData: subscription.userData,
    ownedPartitions: readAs >= 1 ? subscription.ownedPartitions : [],
    generationId: readAs >= 2 ? subscription.generationId : -1,
    rackId: readAs >= 3 ? subscription.rackId : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Topic names (and rack ids): awkward ones by name, then any well-formed Unicode. */
const name = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "",
    "a",
    "orders",
    "café",
    "日本語",
    "😀",
    "\ufeffa", // a leading byte-order mark is part of the name
    "a\u0000b",
    "\u{10ffff}",
    "t".repeat(249),
  ),
  // "binary": any code point except lone surrogates, which UTF-8 cannot carry.
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
);

const int32 = fc.integer({ min: INT32_MIN, max: INT32_MAX });
const userData = fc.oneof(
  fc.constant(null),
  fc.constant(new Uint8Array(0)),
  fc.uint8Array({ maxLength: 64 }),
);
const topics = fc.array(name, { maxLength: 12 });
const ownedPartitions: fc.Arbitrary<TopicPartitions[]> = fc.array(
  fc.record({ topic: name, partitions: fc.array(int32, { maxLength: 8 }) }),
  { maxLength: 6 },
);
const placement = fc.record({ byteOffset: fc.integer({ min: 1, max: 17 }), tail: fc.nat(16) });

// ---------------------------------------------------------------------------------------------

describe("version 0 from kafkajs's encoder (kafkajs.AssignerProtocol.MemberMetadata)", () => {
  const encodeWithKafkajs = (topicList: string[], data: Uint8Array | null): Uint8Array =>
    kafkajs.AssignerProtocol.MemberMetadata.encode({
      version: 0,
      topics: topicList,
      // kafkajs writes length -1 for null; its types say Buffer, but null is what it accepts.
      userData: (data === null ? null : Buffer.from(data)) as Buffer,
    });

  it("decodes back to the same version, topics and user data, also from a view at an offset", () => {
    fc.assert(
      fc.property(topics, userData, placement, (topicList, data, { byteOffset, tail }) => {
        const bytes = encodeWithKafkajs(topicList, data);
        const expected = {
          version: 0,
          topics: topicList,
          userData: toHex(data),
          ownedPartitions: [],
          generationId: -1,
          rackId: null,
        };
        const direct = decodeSubscription(new Uint8Array(bytes));
        expect(comparable(direct)).toEqual(expected);
        // Null stays null, empty stays empty (not null).
        if (data === null) expect(direct.userData).toBeNull();
        else expect(direct.userData?.length).toBe(data.length);
        expect(comparable(decodeSubscription(inLargerBuffer(bytes, byteOffset, tail)))).toEqual(
          expected,
        );
      }),
      { numRuns: 400, seed: 0x5eed0 },
    );
  });

  it("the schema encoder writes version 0 byte for byte as kafkajs does", () => {
    fc.assert(
      fc.property(topics, userData, (topicList, data) => {
        const ours = encodeFromSchema({
          version: 0,
          topics: topicList,
          userData: data,
          ownedPartitions: [],
          generationId: -1,
          rackId: null,
        });
        expect(toHex(ours)).toBe(toHex(encodeWithKafkajs(topicList, data)));
      }),
      { numRuns: 200, seed: 0x5eed1 },
    );
  });
});

describe("the schema encoder against java-subscriptions.jsonl (Kafka 3.8 Java serializer)", () => {
  const vectors = readJsonl<JavaSubscriptionVector>("java-subscriptions.jsonl");

  /** The vectors flatten owned partitions; Java writes consecutive pairs of a topic as one entry. */
  function grouped(pairs: JavaSubscriptionVector["ownedPartitions"]): TopicPartitions[] {
    const entries: TopicPartitions[] = [];
    for (const { topic, partition } of pairs) {
      const last = entries.at(-1);
      if (last !== undefined && last.topic === topic) last.partitions.push(partition);
      else entries.push({ topic, partitions: [partition] });
    }
    return entries;
  }

  // The vectors hold what Java reads back: a generation below 0 and an empty rack id read as null.
  // Java's serializer writes generation -1 when it has none; a null rack may have been written as
  // null or as "" (the "empty rack id" vector), so both are tried.
  it.each(vectors.map((v) => [v.description, v] as const))("%s", (_, vector) => {
    const candidates = (vector.rackId === null ? [null, ""] : [vector.rackId]).map((rackId) =>
      toHex(
        encodeFromSchema({
          version: vector.version,
          topics: vector.topics,
          userData:
            vector.userData === null ? null : new Uint8Array(Buffer.from(vector.userData, "hex")),
          ownedPartitions: grouped(vector.ownedPartitions),
          generationId: vector.generationId ?? -1,
          rackId,
        }),
      ),
    );
    if (!candidates.includes(vector.hex)) expect(candidates[0]).toBe(vector.hex);
    // The one vector whose rack id Java wrote as "" (not null) is the one that says so.
    const writtenAsEmpty = candidates[0] !== vector.hex && candidates[1] === vector.hex;
    expect(writtenAsEmpty).toBe(vector.description === "v3, empty rack id");
  });
});

describe("versions 1-3 and above from the schema encoder", () => {
  const version = fc.oneof(
    fc.constantFrom(1, 2, 3),
    fc.constantFrom(4, 7, 100, 0x7fff),
    fc.integer({ min: 4, max: 0x7fff }),
  );
  const subscription: fc.Arbitrary<Subscription> = fc.record({
    version,
    topics,
    userData,
    ownedPartitions,
    generationId: fc.oneof(fc.constantFrom(-1, 0, INT32_MIN, INT32_MAX), int32),
    rackId: fc.option(name, { nil: null }),
  });
  const options = fc.record({
    userDataNullLength: fc.oneof(fc.constant(-1), fc.integer({ min: INT32_MIN, max: -1 })),
    rackIdNullLength: fc.oneof(fc.constant(-1), fc.integer({ min: -0x8000, max: -1 })),
    trailing: fc.option(fc.uint8Array({ minLength: 1, maxLength: 24 }), { nil: undefined }),
  });

  it("decode back to every field, a version above 3 read as 3 and trailing bytes ignored", () => {
    fc.assert(
      fc.property(subscription, options, placement, (written, opts, { byteOffset, tail }) => {
        const bytes = encodeFromSchema(written, opts);
        const expected = comparable(expectedFromSchema(written));
        expect(comparable(decodeSubscription(bytes))).toEqual(expected);
        expect(comparable(decodeSubscription(inLargerBuffer(bytes, byteOffset, tail)))).toEqual(
          expected,
        );
      }),
      { numRuns: 1000, seed: 0x5eed2 },
    );
  });

  // The first field each body version lacks, and its size: the read of it must fail at the end.
  const missing = [
    { field: "ownedPartitions", size: 4 },
    { field: "generationId", size: 4 },
    { field: "rackId", size: 2 },
  ] as const;

  it("reject a header newer than the body (e.g. version 7 on a version-0 body), as Kafka does", () => {
    const headerAboveBody = fc
      .record({
        body: fc.integer({ min: 0, max: 2 }),
        header: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 0x7fff })),
      })
      .filter(({ body, header }) => header > body);
    fc.assert(
      fc.property(headerAboveBody, subscription, fc.nat(3), ({ body, header }, written, extra) => {
        const first = missing[body];
        if (first === undefined) throw new Error(`body version ${body}`);
        // Fewer bytes after the body than the first missing field needs: it cannot be read.
        const trailing = new Uint8Array(Math.min(extra, first.size - 1)).fill(0x01);
        const bodyOnly = encodeFromSchema({ ...written, version: header }, { bodyVersion: body });
        const bytes = encodeFromSchema(
          { ...written, version: header },
          { bodyVersion: body, trailing },
        );
        let thrown: unknown;
        try {
          decodeSubscription(bytes);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(SubscriptionDecodeError);
        expect(thrown).toMatchObject({ field: first.field, offset: bodyOnly.length });
      }),
      { numRuns: 500, seed: 0x5eed3 },
    );
  });
});
