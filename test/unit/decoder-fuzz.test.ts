// decodeSubscription (solution) on more than 100,000 random and mutated buffers, from a seeded
// generator so every run decodes the same buffers. Each decode must return a well-formed
// Subscription or throw the documented SubscriptionDecodeError; anything else fails. Where the answer is known
// from the encoder (truncations, negative versions, huge counts) it is checked exactly; for the
// rest, error-or-not and the decoded values are checked against a small model of Kafka's reader
// written here from the schema (ConsumerProtocol.deserializeSubscription and the generated
// ConsumerProtocolSubscriptionData.read), not against the decoder under test.
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { SubscriptionDecodeError } from "../../solution/src/decode-error.ts";
import {
  decodeSubscription,
  type Subscription,
  type TopicPartitions,
} from "../../solution/src/subscription.ts";
import {
  chance,
  randomInt,
  seededRandom,
  type Rng,
} from "../../grader/instructor/random/seeded.ts";

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

// ---------------------------------------------------------------------------------------------
// Seeded randomness (fast-check's generator, grader/instructor/random/seeded.ts): the same
// buffers on every run, bounded by count, never by clock.

class Random {
  private readonly rng: Rng;
  constructor(seed: number) {
    this.rng = seededRandom(seed);
  }
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return randomInt(this.rng, min, max);
  }
  chance(p: number): boolean {
    return chance(this.rng, p);
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.int(0, 255);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// An encoder from Kafka's ConsumerProtocolSubscription.json (versions 0-3, not flexible: int16
// string lengths, int32 array counts and bytes lengths, big-endian), which also records where it
// wrote every length and count so the mutations can overwrite them.

interface LengthField {
  offset: number;
  size: 2 | 4;
  /** A nullable field (user data, rack id) reads any negative length as null. */
  nullable: boolean;
}

interface Encoded {
  bytes: Uint8Array;
  /** Length of the complete body, without the trailing bytes. */
  bodyLength: number;
  lengthFields: LengthField[];
  /** What Kafka reads back from these bytes. */
  expected: Subscription;
}

class SchemaWriter {
  readonly out: number[] = [];
  readonly lengthFields: LengthField[] = [];

  int16(value: number): void {
    this.out.push((value >> 8) & 0xff, value & 0xff);
  }
  int32(value: number): void {
    this.out.push((value >> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff);
  }
  length(size: 2 | 4, value: number, nullable: boolean): void {
    this.lengthFields.push({ offset: this.out.length, size, nullable });
    if (size === 2) this.int16(value);
    else this.int32(value);
  }
  raw(bytes: Uint8Array): void {
    for (const byte of bytes) this.out.push(byte);
  }
  string(value: string, nullable = false): void {
    const utf8 = Buffer.from(value, "utf8");
    this.length(2, utf8.length, nullable);
    this.raw(utf8);
  }
  nullableString(value: string | null): void {
    if (value === null) this.length(2, -1, true);
    else this.string(value, true);
  }
  nullableBytes(value: Uint8Array | null): void {
    this.length(4, value === null ? -1 : value.length, true);
    if (value !== null) this.raw(value);
  }
  array<T>(items: readonly T[], writeItem: (item: T) => void): void {
    this.length(4, items.length, false);
    for (const item of items) writeItem(item);
  }
}

function encode(subscription: Subscription, trailing: Uint8Array): Encoded {
  const readAs = Math.min(subscription.version, 3);
  const w = new SchemaWriter();
  w.int16(subscription.version);
  w.array(subscription.topics, (topic) => w.string(topic));
  w.nullableBytes(subscription.userData);
  if (readAs >= 1) {
    w.array(subscription.ownedPartitions, ({ topic, partitions }) => {
      w.string(topic);
      w.array(partitions, (partition) => w.int32(partition));
    });
  }
  if (readAs >= 2) w.int32(subscription.generationId);
  if (readAs >= 3) w.nullableString(subscription.rackId);
  const bodyLength = w.out.length;
  w.raw(trailing);
  return {
    bytes: Uint8Array.from(w.out),
    bodyLength,
    lengthFields: w.lengthFields,
    expected: {
      version: subscription.version,
      topics: subscription.topics,
      userData: subscription.userData,
      ownedPartitions: readAs >= 1 ? subscription.ownedPartitions : [],
      generationId: readAs >= 2 ? subscription.generationId : -1,
      rackId: readAs >= 3 ? subscription.rackId : null,
    },
  };
}

const NAMES = ["a", "orders", "", "__proto__", "constructor", "café", "日本語", "😀", "\ufeffa"];

function randomName(random: Random): string {
  if (random.chance(0.6)) return random.pick(NAMES);
  let name = "";
  const length = random.int(0, 6);
  for (let i = 0; i < length; i++) {
    // Any code point but the surrogates, which UTF-8 cannot carry.
    const codePoint = random.pick([
      random.int(0x20, 0x7e),
      random.int(0, 0x7ff),
      random.int(0xe000, 0xffff),
      random.int(0x10000, 0x10ffff),
    ]);
    name += String.fromCodePoint(codePoint);
  }
  return name;
}

function randomSubscription(random: Random): Encoded {
  const version = random.chance(0.8) ? random.int(0, 3) : random.int(4, 0x7fff);
  const list = <T>(max: number, item: () => T): T[] =>
    Array.from({ length: random.int(0, max) }, item);
  const subscription: Subscription = {
    version,
    topics: list(4, () => randomName(random)),
    userData: random.chance(0.3) ? null : random.bytes(random.pick([0, 1, random.int(0, 12)])),
    ownedPartitions: list(3, () => ({
      topic: randomName(random),
      partitions: list(3, () => random.pick([0, 1, random.int(INT32_MIN, INT32_MAX)])),
    })),
    generationId: random.pick([-1, 0, 5, random.int(INT32_MIN, INT32_MAX)]),
    rackId: random.chance(0.4) ? null : randomName(random),
  };
  return encode(
    subscription,
    random.chance(0.3) ? random.bytes(random.int(1, 8)) : new Uint8Array(),
  );
}

// ---------------------------------------------------------------------------------------------
// A model of Kafka's reader, for the values of mutated buffers. It follows the Java code: a
// negative version is an error, a version above 3 is read as 3; running out of bytes is an error;
// a negative length or count for a non-nullable string or array is an error; an array count larger
// than the remaining bytes is an error ("Tried to allocate a collection of size ..."); a negative
// length for user data or rack id is null; bytes after the body are ignored. A string of valid
// UTF-8 is its text; one of malformed UTF-8 is INVALID_UTF8, which matches any decoded string
// with a U+FFFD in it: how many U+FFFD Java puts there is test/unit/java-strings.test.ts's, from
// the JDK's own output.

/** What the model reads from malformed UTF-8 (see above). */
const INVALID_UTF8 = "\u0000malformed UTF-8\u0000";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

class KafkaRejects extends Error {}

function kafkaModel(bytes: Uint8Array): Subscription | KafkaRejects {
  let at = 0;
  const need = (n: number) => {
    if (bytes.length - at < n) throw new KafkaRejects("buffer underflow");
  };
  const i16 = () => {
    need(2);
    const value = (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16)) >> 16;
    at += 2;
    return value;
  };
  const i32 = () => {
    need(4);
    const value =
      ((bytes[at] ?? 0) << 24) |
      ((bytes[at + 1] ?? 0) << 16) |
      ((bytes[at + 2] ?? 0) << 8) |
      (bytes[at + 3] ?? 0);
    at += 4;
    return value;
  };
  const take = (n: number) => {
    need(n);
    at += n;
    return bytes.subarray(at - n, at);
  };
  const text = (n: number) => {
    const bytes = take(n);
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return INVALID_UTF8;
    }
  };
  const string = () => {
    const length = i16();
    if (length < 0) throw new KafkaRejects("non-nullable field was serialized as null");
    return text(length);
  };
  const array = <T>(item: () => T): T[] => {
    const count = i32();
    if (count < 0) throw new KafkaRejects("non-nullable field was serialized as null");
    if (count > bytes.length - at) throw new KafkaRejects("Tried to allocate a collection");
    const items: T[] = [];
    for (let i = 0; i < count; i++) items.push(item());
    return items;
  };
  try {
    const version = i16();
    if (version < 0) throw new KafkaRejects("Unsupported subscription version");
    const readAs = Math.min(version, 3);
    const topics = array(string);
    const userDataLength = i32();
    const userData = userDataLength < 0 ? null : take(userDataLength).slice();
    const ownedPartitions: TopicPartitions[] =
      readAs >= 1 ? array(() => ({ topic: string(), partitions: array(i32) })) : [];
    const generationId = readAs >= 2 ? i32() : -1;
    let rackId: string | null = null;
    if (readAs >= 3) {
      const length = i16();
      rackId = length < 0 ? null : text(length);
    }
    return { version, topics, userData, ownedPartitions, generationId, rackId };
  } catch (error) {
    if (error instanceof KafkaRejects) return error;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Checking one decode

const FIELD_PATH =
  /^(version|topics(\[\d+\])?|userData|ownedPartitions(\[\d+\](\.topic|\.partitions(\[\d+\])?)?)?|generationId|rackId)$/;

const isInt32 = (n: unknown): n is number =>
  typeof n === "number" && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX;

/** Why a decoded value is not a well-formed Subscription, or null when it is one. */
function shapeProblem(value: Subscription): string | null {
  const keys = Object.keys(value).sort().join();
  if (keys !== "generationId,ownedPartitions,rackId,topics,userData,version") return `keys ${keys}`;
  const { version, topics, userData, ownedPartitions, generationId, rackId } = value;
  if (!Number.isInteger(version) || version < 0 || version > 0x7fff) return `version ${version}`;
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === "string")) return "topics";
  if (userData !== null && !(userData instanceof Uint8Array)) return "userData";
  const ownedOk =
    Array.isArray(ownedPartitions) &&
    ownedPartitions.every(
      (entry) =>
        typeof entry.topic === "string" &&
        Array.isArray(entry.partitions) &&
        entry.partitions.every(isInt32),
    );
  if (!ownedOk) return "ownedPartitions";
  if (!isInt32(generationId)) return "generationId";
  if (rackId !== null && typeof rackId !== "string") return "rackId";
  // Fields newer than the version take Kafka's defaults.
  if (version < 1 && ownedPartitions.length > 0) return "ownedPartitions below version 1";
  if (version < 2 && generationId !== -1) return "generationId below version 2";
  if (version < 3 && rackId !== null) return "rackId below version 3";
  return null;
}

/** Why an error is not the documented SubscriptionDecodeError for `length` bytes, or null. */
function errorProblem(error: SubscriptionDecodeError, length: number): string | null {
  const { field, offset, expected, found, message, memberId } = error;
  if (error.name !== "SubscriptionDecodeError") return `name ${error.name}`;
  if (!FIELD_PATH.test(field)) return `field ${JSON.stringify(field)}`;
  if (!Number.isInteger(offset) || offset < 0 || offset > length) return `offset ${offset}`;
  if (typeof expected !== "string" || expected === "") return "empty expected";
  if (typeof found !== "string" || found === "") return "empty found";
  if (memberId !== undefined) return "memberId set";
  if (message !== `${field}: ${expected} at offset ${offset}, ${found}`)
    return `message ${message}`;
  return null;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/**
 * True when the decoder's subscription equals the model's (or what was encoded), a string the
 * model read as INVALID_UTF8 matching any decoded string that holds a U+FFFD.
 */
function sameSubscription(decoded: Subscription, model: Subscription): boolean {
  const like = (got: string, want: string | null | undefined) =>
    want === INVALID_UTF8 && got.includes("\uFFFD") ? INVALID_UTF8 : got;
  const matched: Subscription = {
    ...decoded,
    topics: decoded.topics.map((t, i) => like(t, model.topics[i])),
    ownedPartitions: decoded.ownedPartitions.map((e, i) => ({
      ...e,
      topic: like(e.topic, model.ownedPartitions[i]?.topic),
    })),
    rackId: decoded.rackId === null ? null : like(decoded.rackId, model.rackId),
  };
  const plain = (s: Subscription) =>
    JSON.stringify([
      s.version,
      s.topics,
      s.userData === null ? null : hex(s.userData),
      s.ownedPartitions.map((e) => [e.topic, e.partitions]),
      s.generationId,
      s.rackId,
    ]);
  return plain(matched) === plain(model);
}

type Outcome = { ok: true; value: Subscription } | { ok: false; error: SubscriptionDecodeError };

class Fuzz {
  decodes = 0;
  successes = 0;
  readonly failures: string[] = [];
  /** Error field paths seen, indexes replaced by [i]. */
  readonly errorFields = new Set<string>();
  private readonly random: Random;

  constructor(random: Random) {
    this.random = random;
  }

  /**
   * Decodes `bytes` (half the time from a view inside a larger 0xAA-filled buffer) and checks the
   * outcome is a well-formed Subscription or the documented error; returns it for more checks.
   */
  decode(bytes: Uint8Array): Outcome | null {
    this.decodes++;
    let input = bytes;
    if (this.random.chance(0.5)) {
      const buffer = new ArrayBuffer(bytes.length + 16);
      new Uint8Array(buffer).fill(0xaa);
      input = new Uint8Array(buffer, this.random.int(1, 8), bytes.length);
      input.set(bytes);
    }
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: decodeSubscription(input) };
    } catch (error) {
      if (!(error instanceof SubscriptionDecodeError)) {
        this.fail(bytes, `threw ${error instanceof Error ? error.stack : String(error)}`);
        return null;
      }
      outcome = { ok: false, error };
    }
    if (outcome.ok) {
      this.successes++;
      const problem = shapeProblem(outcome.value);
      if (problem !== null) return this.fail(bytes, `malformed subscription: ${problem}`);
    } else {
      this.errorFields.add(outcome.error.field.replace(/\[\d+\]/g, "[i]"));
      const problem = errorProblem(outcome.error, bytes.length);
      if (problem !== null) return this.fail(bytes, `undocumented error: ${problem}`);
    }
    return outcome;
  }

  /** Decodes and compares with the Kafka model: error or not, and every value on success. */
  decodeLikeKafka(bytes: Uint8Array): Outcome | null {
    const outcome = this.decode(bytes);
    if (outcome === null) return null;
    const kafka = kafkaModel(bytes);
    if (kafka instanceof KafkaRejects) {
      if (outcome.ok) this.fail(bytes, `decoded, but Kafka rejects it (${kafka.message})`);
    } else if (!outcome.ok) {
      this.fail(bytes, `rejected (${outcome.error.message}), but Kafka decodes it`);
    } else if (!sameSubscription(outcome.value, kafka)) {
      this.fail(bytes, "decoded values differ from Kafka's");
    }
    return outcome;
  }

  fail(bytes: Uint8Array, why: string): null {
    if (this.failures.length < 20) this.failures.push(`${hex(bytes)}: ${why}`);
    else if (this.failures.length === 20) this.failures.push("...");
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

const RUNS = {
  randomBytes: 40_000,
  truncations: 20_000,
  flips: 20_000,
  lengthOverwrites: 20_000,
  overwriteAndTruncate: 5_000,
  negativeVersions: 1_000,
};

/** Pieces of valid subscriptions: int32 0, 1, 2 and -1; int16 0 and -1; the string "a"; a byte. */
const TOKENS: readonly (readonly number[])[] = [
  [0, 0, 0, 0],
  [0, 0, 0, 1],
  [0, 0, 0, 2],
  [0xff, 0xff, 0xff, 0xff],
  [0, 0],
  [0xff, 0xff],
  [0, 1, 0x61],
  [0x2a],
];

/**
 * Every field whose read can fail (indexes as [i]). A partition number itself never can: the
 * count check before the partitions guarantees 4 bytes for each.
 */
const EVERY_FAILING_FIELD = [
  "generationId",
  "ownedPartitions",
  "ownedPartitions[i].partitions",
  "ownedPartitions[i].topic",
  "rackId",
  "topics",
  "topics[i]",
  "userData",
  "version",
];

const INT16_SPECIALS = [-1, -2, -0x8000, 0x7fff, 0x7ffe, 0x4000, 0];
const INT32_SPECIALS = [-1, -2, INT32_MIN, INT32_MAX, 0x7fff, 0xffff, 0x10000000, 0x40000000, 0];

/**
 * Overwrites one recorded length or count with a special value or one off its written value;
 * returns the field and the value now there.
 */
function overwriteLength(
  random: Random,
  encoded: Encoded,
): { field: LengthField; value: number } | null {
  const field = encoded.lengthFields[random.int(0, encoded.lengthFields.length - 1)];
  if (field === undefined) return null;
  const bytes = encoded.bytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (field.size === 2) {
    const value = random.chance(0.8)
      ? random.pick(INT16_SPECIALS)
      : view.getInt16(field.offset) + random.pick([-1, 1]);
    view.setInt16(field.offset, value);
    return { field, value: view.getInt16(field.offset) };
  }
  const value = random.chance(0.8)
    ? random.pick(INT32_SPECIALS)
    : view.getInt32(field.offset) + random.pick([-1, 1]);
  view.setInt32(field.offset, value | 0);
  return { field, value: view.getInt32(field.offset) };
}

describe("decodeSubscription on random and mutated buffers (seeded)", () => {
  it(`the total is at least 100,000 decodes`, () => {
    expect(Object.values(RUNS).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(100_000);
  });

  it(`${RUNS.randomBytes} random buffers of 0-64 bytes behind a valid version header`, () => {
    const random = new Random(0xc0ffee);
    const fuzz = new Fuzz(random);
    for (let run = 0; run < RUNS.randomBytes; run++) {
      const bytes = new Uint8Array(random.int(0, 64));
      // A third each: uniform bytes; mostly zeros, small numbers and 0xff; and a soup of the
      // schema's tokens (small counts and lengths, -1, a one-byte name), so that lengths and counts
      // are often plausible and the reads get past the first field.
      const mode = random.int(0, 2);
      for (let i = 0; i < bytes.length;) {
        const token =
          mode === 0
            ? [random.int(0, 255)]
            : mode === 1
              ? [random.pick([0, 0, 0, 0, 1, 2, 3, 0xff, random.int(0, 255)])]
              : random.pick(TOKENS);
        for (const byte of token) if (i < bytes.length) bytes[i++] = byte;
      }
      const version = random.chance(0.8) ? random.int(0, 3) : random.int(4, 0x7fff);
      if (bytes.length >= 2) new DataView(bytes.buffer).setInt16(0, version);
      fuzz.decodeLikeKafka(bytes);
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.randomBytes);
    // Not all rejected at the first count: some decode, and errors come from every field.
    expect(fuzz.successes).toBeGreaterThan(100);
    expect([...fuzz.errorFields].sort()).toEqual(EVERY_FAILING_FIELD);
  });

  it(`${RUNS.truncations} truncations of valid encodings: an error below the body's length, the subscription from it on`, () => {
    const random = new Random(0xdecade);
    const fuzz = new Fuzz(random);
    while (fuzz.decodes < RUNS.truncations) {
      const encoded = randomSubscription(random);
      const { bytes, bodyLength, expected } = encoded;
      for (let length = 0; length <= bytes.length && fuzz.decodes < RUNS.truncations; length++) {
        const prefix = bytes.slice(0, length);
        const outcome = fuzz.decode(prefix);
        if (outcome === null) continue;
        if (length < bodyLength && outcome.ok) {
          fuzz.fail(prefix, `decoded, but the body needs ${bodyLength} bytes`);
        } else if (length >= bodyLength && !outcome.ok) {
          fuzz.fail(prefix, `rejected (${outcome.error.message}), but the body is complete`);
        } else if (outcome.ok && !sameSubscription(outcome.value, expected)) {
          fuzz.fail(prefix, "decoded values differ from what was encoded");
        }
      }
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.truncations);
    expect([...fuzz.errorFields].sort()).toEqual(EVERY_FAILING_FIELD);
    expect(fuzz.successes).toBeGreaterThan(0);
  });

  it(`${RUNS.flips} valid encodings with one to three bytes changed`, () => {
    const random = new Random(0xf11b);
    const fuzz = new Fuzz(random);
    for (let run = 0; run < RUNS.flips; run++) {
      const { bytes } = randomSubscription(random);
      const flips = random.pick([1, 1, 1, 2, 3]);
      for (let i = 0; i < flips; i++) {
        const at = random.int(0, bytes.length - 1);
        bytes[at] = random.chance(0.5)
          ? (bytes[at] ?? 0) ^ (1 << random.int(0, 7))
          : random.int(0, 255);
      }
      fuzz.decodeLikeKafka(bytes);
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.flips);
    expect([...fuzz.errorFields].sort()).toEqual(EVERY_FAILING_FIELD);
  });

  it(`${RUNS.lengthOverwrites} valid encodings with a length or count set to -1, -2, 0x7fff, INT_MAX, INT_MIN, huge or one off`, () => {
    const random = new Random(0x1e57);
    const fuzz = new Fuzz(random);
    let hugeRejected = 0;
    for (let run = 0; run < RUNS.lengthOverwrites; run++) {
      const encoded = randomSubscription(random);
      const overwritten = overwriteLength(random, encoded);
      const outcome = fuzz.decodeLikeKafka(encoded.bytes);
      // Schema fact: a non-nullable length or count that is negative, or larger than the whole
      // buffer, can never decode.
      if (overwritten === null || overwritten.field.nullable) continue;
      const { value } = overwritten;
      if (value < 0 || value > encoded.bytes.length) {
        if (outcome?.ok === true) {
          fuzz.fail(encoded.bytes, `decoded with a non-nullable length or count of ${value}`);
        }
        hugeRejected++;
      }
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.lengthOverwrites);
    // Every field but the version, which is not a length.
    expect([...fuzz.errorFields].sort()).toEqual(
      EVERY_FAILING_FIELD.filter((f) => f !== "version"),
    );
    expect(hugeRejected).toBeGreaterThan(RUNS.lengthOverwrites / 4);
  });

  it(`${RUNS.overwriteAndTruncate} valid encodings with a length overwritten, then truncated`, () => {
    const random = new Random(0xab1e);
    const fuzz = new Fuzz(random);
    for (let run = 0; run < RUNS.overwriteAndTruncate; run++) {
      const encoded = randomSubscription(random);
      overwriteLength(random, encoded);
      fuzz.decodeLikeKafka(encoded.bytes.slice(0, random.int(0, encoded.bytes.length)));
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.overwriteAndTruncate);
    expect([...fuzz.errorFields].sort()).toEqual(EVERY_FAILING_FIELD);
  });

  it(`${RUNS.negativeVersions} valid bodies behind a negative version: an error at the version`, () => {
    const random = new Random(0x0e9);
    const fuzz = new Fuzz(random);
    for (let run = 0; run < RUNS.negativeVersions; run++) {
      const { bytes } = randomSubscription(random);
      new DataView(bytes.buffer).setInt16(0, random.pick([-1, -0x8000, random.int(-0x8000, -1)]));
      const outcome = fuzz.decode(bytes);
      if (
        outcome !== null &&
        (outcome.ok || outcome.error.field !== "version" || outcome.error.offset !== 0)
      ) {
        fuzz.fail(bytes, "not rejected at the version (offset 0)");
      }
    }
    expect(fuzz.failures).toEqual([]);
    expect(fuzz.decodes).toBe(RUNS.negativeVersions);
  });

  // A full garbage collection before measuring, so that garbage of earlier tests collected during
  // the decode cannot hide what the decode allocates (the usual way to reach gc() without
  // starting node with --expose-gc).
  v8.setFlagsFromString("--expose-gc");
  const collectGarbage = vm.runInNewContext("gc") as () => void;

  /**
   * One decode that must fail, with how much the heap and ArrayBuffers grew. No clock: failing at
   * the count's own offset (not at an element's) shows the count was checked before any element
   * was read, and the growth that nothing was allocated for the elements.
   */
  function measuredFailure(bytes: Uint8Array) {
    collectGarbage();
    const before = process.memoryUsage();
    let thrown: unknown;
    try {
      decodeSubscription(bytes);
    } catch (error) {
      thrown = error;
    }
    const after = process.memoryUsage();
    return {
      thrown,
      arrayBuffersGrowth: after.arrayBuffers - before.arrayBuffers,
      heapGrowth: after.heapUsed - before.heapUsed,
    };
  }
  const MB = 2 ** 20;

  it("a topic count of 0x7fffffff in a 13-byte buffer fails at once, without a large allocation", () => {
    // Version 0, topic count INT_MAX, then 7 bytes: the name "a" and a null user-data length.
    const bytes = new Uint8Array(
      Buffer.from("0000 7fffffff 0001 61 ffffffff".replace(/ /g, ""), "hex"),
    );
    expect(bytes.length).toBe(13);
    decodeSubscription(new Uint8Array(Buffer.from("000000000001000161ffffffff", "hex"))); // warm-up
    const { thrown, arrayBuffersGrowth, heapGrowth } = measuredFailure(bytes);
    expect(thrown).toBeInstanceOf(SubscriptionDecodeError);
    expect(thrown).toMatchObject({ field: "topics", offset: 2 });
    expect(arrayBuffersGrowth).toBeLessThan(4 * MB);
    expect(heapGrowth).toBeLessThan(4 * MB);
  });

  it.each([
    ["ownedPartitions", "0001 00000000 ffffffff 7fffffff 0001 61", 10],
    ["ownedPartitions[0].partitions", "0001 00000000 ffffffff 00000001 0001 61 7fffffff 00", 17],
    ["topics", "0000 7fffffff 7fffffff 7fffffff", 2],
  ])(
    "a count of 0x7fffffff for %s fails at that count, without a large allocation",
    (field, text, offset) => {
      const bytes = new Uint8Array(Buffer.from(text.replace(/ /g, ""), "hex"));
      const { thrown, arrayBuffersGrowth, heapGrowth } = measuredFailure(bytes);
      expect(thrown).toBeInstanceOf(SubscriptionDecodeError);
      expect(thrown).toMatchObject({ field, offset });
      expect(arrayBuffersGrowth).toBeLessThan(4 * MB);
      expect(heapGrowth).toBeLessThan(4 * MB);
    },
  );
});
