/**
 * `--random N --seed S` (instructor kit only): N generated cases whose answers come from the
 * reference solution, run at grading time.
 *
 * Reproducible: case i depends only on (S, i), through fast-check's seeded generator (seeded.ts)
 * seeded with a hash of `S:i` — never Math.random — so `--random 5 --seed 7 --only random/003`
 * grades the same case 3 as the full run did, and case 3 is the same with `--random 10`. Kits
 * before this generator used a PRNG of their own (mulberry32): their seeds gave other cases. Each
 * case is written as a real case folder (case.json, input.json, expected.json) under a temporary
 * `random/` folder and loaded with loadCaseFolder, so it is validated like a built-in case and its
 * id is `random/NNN`.
 *
 * What the cases contain: 1-8 topics of 0-12 partitions and 1-10 members whose ids and topic names
 * come from pools of the names that catch mistakes (`consumer-2` against `consumer-10`, `Z`, `_x`
 * and `a`, `__proto__` and `constructor`, non-ASCII, a character above U+FFFF against one just
 * below it); about a third of the members static (an empty instance id among them); each
 * subscription a random subset of the topics, sometimes with a topic the metadata lacks or a topic
 * listed twice. The bytes are kafkajs's version-0 encoding with null, empty or random user data.
 * About one case in five runs in decode mode.
 *
 * About 3 cases in 10 also carry racks (drawRacks, from a second generator seeded with `S:i:racks`,
 * so drawing racks changes nothing else of a seed's case): members at version 3 with a rack id, and
 * `partitionRacks`. Those are extension cases of the rack stage.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import pLimit from "p-limit";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../../limits.ts";
import { SetupError } from "../../errors.ts";
import {
  loadCaseFolder,
  type Case,
  type CaseMeta,
  type FixtureSchemas,
  type Mode,
  type ProgramInput,
} from "../../cases/load.ts";
import { prepareProgram, runCase, type Program } from "../../run/prepare.ts";
import { KIT_ROOT } from "../../kit.ts";
import { expectedOutput } from "../../verdict/outcome.ts";
import { chance, randomInt as int, seededRandom, seedOf, type Rng } from "./seeded.ts";
import { encodeSubscriptionV3 } from "./subscription-v3.ts";
import type Kafkajs from "kafkajs";

/** Member ids: orders that differ between numeric, locale, code-point and code-unit sorting. */
const MEMBER_IDS = [
  "consumer-1",
  "consumer-2",
  "consumer-10",
  "consumer-11",
  "Z",
  "_x",
  "a",
  "A",
  "__proto__",
  "constructor",
  "toString",
  "error",
  "café",
  "日本",
  "😀",
  "ｗ", // U+FF57: after "😀" in code points, before it in UTF-16 code units
] as const;

/** group.instance.id values of static members ("" is a valid instance id: still static). */
const INSTANCE_IDS = ["", "billing-1", "billing-2", "billing-10", "Z", "_x", "a", "😀", "ｗ"];

/** Topic names for the metadata and the subscriptions. */
const TOPICS = [
  "orders",
  "payments",
  "audit",
  "topic-2",
  "topic-10",
  "Z",
  "_x",
  "a",
  "__proto__",
  "constructor",
  "café",
  "日本",
  "😀",
] as const;

/**
 * Subscribed to but never in the metadata. Kafka refuses to create a topic named "", so it can
 * only be a subscription the leader cannot assign; its bytes (length 0) decode fine.
 */
const MISSING_TOPICS = ["not-in-metadata", "deleted-topic", "日本-old"] as const;

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = int(rng, 0, i);
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

/** `count` distinct items of `pool`, in random order. */
function pick<T>(rng: Rng, pool: readonly T[], count: number): T[] {
  return shuffled(rng, pool).slice(0, count);
}

type Encode = (topics: string[], userData: Buffer | null) => string;

/** A member's subscription before it is encoded. */
interface DrawnMember {
  memberId: string;
  /** undefined: the field left out (a dynamic member, as null is). */
  groupInstanceId: string | null | undefined;
  topics: string[];
  userData: Buffer | null;
}

/** The members and topics drawn for a case; the order of draws fixes what a seed gives. */
function drawGroup(rng: Rng): {
  mode: Mode;
  topics: Record<string, number>;
  members: DrawnMember[];
} {
  const mode: Mode = chance(rng, 0.2) ? "decode" : "assign";
  const topics = Object.create(null) as Record<string, number>;
  const topicNames = pick(rng, TOPICS, int(rng, 1, 8));
  for (const name of topicNames) topics[name] = int(rng, 0, 12);
  const missing: string[] = [...MISSING_TOPICS, ...TOPICS.filter((t) => !topicNames.includes(t))];
  const emptyNameCase = chance(rng, 0.05);

  const instanceIds = shuffled(rng, INSTANCE_IDS);
  const members = pick(rng, MEMBER_IDS, int(rng, 1, 10)).map((memberId, i): DrawnMember => {
    const share = 0.3 + 0.7 * rng();
    const subscribed: string[] = topicNames.filter(() => chance(rng, share));
    if (chance(rng, 0.2)) subscribed.push(missing[int(rng, 0, missing.length - 1)] as string);
    if (emptyNameCase && i === 0) subscribed.push("");
    const listed = shuffled(rng, subscribed);
    if (listed.length > 0 && chance(rng, 0.15)) {
      listed.push(listed[int(rng, 0, listed.length - 1)] as string);
    }
    const kind = rng();
    const userData =
      kind < 0.4
        ? null
        : kind < 0.6
          ? Buffer.alloc(0)
          : Buffer.from(Array.from({ length: int(rng, 1, 8) }, () => int(rng, 0, 255)));
    const instanceId = chance(rng, 1 / 3) ? instanceIds.pop() : undefined;
    if (instanceId !== undefined) {
      return { memberId, groupInstanceId: instanceId, topics: listed, userData };
    }
    // A dynamic member: the field absent, or null (both mean the same).
    const groupInstanceId = chance(rng, 0.25) ? null : undefined;
    return { memberId, groupInstanceId, topics: listed, userData };
  });
  return { mode, topics, members };
}

/**
 * Members' racks (client.rack). Kafka compares racks as they are: "USE1-AZ1" is not "use1-az1";
 * "" (like null) is no rack.
 */
const MEMBER_RACKS = ["use1-az1", "use1-az2", "use1-az3", "USE1-AZ1", "", null] as const;
/** Replicas' racks: "" is a rack name here, and null a broker without a rack. */
const REPLICA_RACKS = ["use1-az1", "use1-az2", "use1-az3", "", null] as const;
/** Racks no member is on: a topic on these alone never needs rack matching. */
const FOREIGN_RACKS = ["euw1-az1", "euw1-az2"] as const;

/**
 * The rack part of a case, drawn from its own generator so that the rest of the case (members,
 * topics, bytes) depends on the seed and index alone, with racks or without.
 *
 * @returns null for a case without racks (about 7 in 10); otherwise each member's rack (undefined:
 *   the member stays at version 0, with no rack field) and the topics' replica racks
 */
function drawRacks(
  rng: Rng,
  topics: Record<string, number>,
  memberCount: number,
): {
  memberRacks: (string | null | undefined)[];
  partitionRacks: Record<string, (string | null)[][]>;
  /** Whether some topic may need rack matching; when false, by construction none does. */
  mayMatch: boolean;
} | null {
  if (!chance(rng, 0.3)) return null;
  const mayMatch = chance(rng, 0.65);
  const memberRacks = Array.from({ length: memberCount }, () =>
    chance(rng, 0.85) ? MEMBER_RACKS[int(rng, 0, MEMBER_RACKS.length - 1)] : undefined,
  );
  const replicas = (pool: readonly (string | null)[], max: number) =>
    Array.from({ length: int(rng, 1, max) }, () => pool[int(rng, 0, pool.length - 1)] ?? null);
  const partitionRacks = Object.create(null) as Record<string, (string | null)[][]>;
  for (const [topic, count] of Object.entries(topics)) {
    if (!chance(rng, 0.75)) continue; // left out: replicas without racks
    // varied: partitions on different racks (the topic may need matching); same: every partition
    // on one set of racks, in shuffled replica orders (it never does); foreign: no member's rack.
    const layout = mayMatch && chance(rng, 0.6) ? "varied" : chance(rng, 0.5) ? "same" : "foreign";
    const shared = replicas(REPLICA_RACKS, 3);
    partitionRacks[topic] = Array.from({ length: count }, () =>
      layout === "varied"
        ? chance(rng, 0.1)
          ? [] // a partition without replicas
          : replicas(REPLICA_RACKS, 3)
        : layout === "same"
          ? shuffled(rng, shared)
          : replicas(FOREIGN_RACKS, 2),
    );
  }
  return { memberRacks, partitionRacks, mayMatch };
}

/**
 * The sync part of a case, drawn from its own generator so that the rest of the case depends on
 * the seed and index alone: whether an assign case becomes a sync case (about 1 in 4; --sync
 * reads the same input), and then each member's assignment user data (null, as the range
 * assignor sends, about half the time; else empty or a few bytes, as hex).
 *
 * @returns undefined for a case that stays an assign case; otherwise one entry per member
 *   (undefined: the field left out, which is null)
 */
function drawSync(rng: Rng, memberCount: number): (string | undefined)[] | undefined {
  if (!chance(rng, 0.25)) return undefined;
  return Array.from({ length: memberCount }, () => {
    const kind = rng();
    if (kind < 0.5) return undefined;
    if (kind < 0.65) return "";
    return Buffer.from(Array.from({ length: int(rng, 1, 8) }, () => int(rng, 0, 255))).toString(
      "hex",
    );
  });
}

/** One generated case: its mode, the program input, and whether it carries racks. */
export interface GeneratedInput {
  mode: Mode;
  input: ProgramInput;
  /** null: no racks; otherwise whether some topic may need rack matching */
  racks: { mayMatch: boolean } | null;
}

/**
 * Case `index` of seed `seed`: its mode and input, from three seeded generators (`S:i` for the
 * group, `S:i:racks` for its racks, `S:i:sync` for whether an assign case is a sync case, and its
 * members' assignment user data). Members with a rack are encoded at version 3 (with a
 * generation id, nothing owned), the rest with `encode` at version 0.
 */
export function generateInput(seed: number, index: number, encode: Encode): GeneratedInput {
  const group = drawGroup(seededRandom(seedOf(`${seed}:${index}`)));
  const { topics, members } = group;
  const sync =
    group.mode === "assign"
      ? drawSync(seededRandom(seedOf(`${seed}:${index}:sync`)), members.length)
      : undefined;
  const mode: Mode = sync === undefined ? group.mode : "sync";
  const rackRng = seededRandom(seedOf(`${seed}:${index}:racks`));
  const racks = drawRacks(rackRng, topics, members.length);
  const encoded: ProgramInput["members"] = members.map((m, i) => {
    const rackId = racks?.memberRacks[i];
    const metadata =
      rackId === undefined
        ? encode(m.topics, m.userData)
        : encodeSubscriptionV3({
            topics: m.topics,
            userData: m.userData,
            ownedPartitions: [],
            generationId: chance(rackRng, 0.5) ? -1 : int(rackRng, 0, 100),
            rackId,
          }).toString("hex");
    const member: ProgramInput["members"][number] =
      m.groupInstanceId === undefined
        ? { memberId: m.memberId, metadata }
        : { memberId: m.memberId, groupInstanceId: m.groupInstanceId, metadata };
    const userData = sync?.[i];
    return userData === undefined ? member : { ...member, assignmentUserData: userData };
  });
  const input: ProgramInput =
    racks === null
      ? { topics, members: encoded }
      : { topics, partitionRacks: racks.partitionRacks, members: encoded };
  return { mode, input, racks: racks === null ? null : { mayMatch: racks.mayMatch } };
}

/** kafkajs's version-0 encoder (a dev dependency: it exists in the instructor kit). */
async function kafkajsEncoder(): Promise<Encode> {
  let kafkajs: typeof Kafkajs;
  try {
    kafkajs = (await import("kafkajs")).default;
  } catch {
    throw new SetupError(
      "--random encodes subscriptions with kafkajs: run npm ci in the kit first",
    );
  }
  return (topics, userData) =>
    kafkajs.AssignerProtocol.MemberMetadata.encode({
      version: 0,
      topics,
      // kafkajs writes length -1 for null (its types say Buffer; null is what its encoder accepts).
      userData: userData as Buffer,
    }).toString("hex");
}

/**
 * case.json of case `index`: a case with racks (the rack-aware stage) or a sync case (the sync
 * stage) is an extension case.
 */
export function caseMeta(
  index: number,
  seed: number,
  mode: Mode,
  racks: GeneratedInput["racks"],
): CaseMeta {
  const assignment =
    racks === null
      ? "a range assignment"
      : racks.mayMatch
        ? "a range assignment with racks"
        : "a range assignment with racks that Kafka does not match (no topic needs it)";
  const what =
    mode === "sync"
      ? `the SyncGroup assignment bytes of ${assignment}, some members with assignment user data`
      : mode === "decode"
        ? racks === null
          ? "decoded subscriptions"
          : "decoded subscriptions, some of version 3 with a rack id"
        : assignment;
  const bytes =
    racks === null ? "kafkajs version-0 bytes" : "kafkajs version-0 and version-3 bytes";
  return {
    title: `random case ${index} (seed ${seed})`,
    description:
      `Generated by --random with seed ${seed}: ${what} for random topics and members (${bytes}). ` +
      "Its answer comes from the reference solution, run at grading time.",
    mode,
    points: 1,
    required: racks === null && mode !== "sync",
    mistakes: [],
    hint:
      mode === "decode"
        ? "Compare your decoded subscriptions with the expected ones above, then rerun this case alone with the command below."
        : mode === "sync"
          ? "Compare each member's bytes field by field with Kafka's above, then rerun this case alone with the command below."
          : "Compare who owns which partition with the expected answer above, then rerun this case alone with the command below.",
    lesson:
      mode === "decode"
        ? "the-subscription-bytes"
        : mode === "sync"
          ? "the-assignment-bytes"
          : racks === null
            ? "the-range-assignor"
            : "rack-aware-assignment",
  };
}

/** Runs the reference on one case; its output is the case's answer. */
async function referenceAnswer(program: Program, c: Case): Promise<unknown> {
  const run = await runCase(program, c, { timeoutMs: 20_000, outputCapBytes: OUTPUT_CAP_BYTES });
  if (run.exitCode !== 0) {
    throw new Error(
      `the reference solution did not answer ${c.id} (exit ${String(run.exitCode)}${run.timedOut ? ", timed out" : ""}${run.spawnError === null ? "" : `, ${run.spawnError}`}):\n${run.stderr.slice(0, 2000)}`,
    );
  }
  return JSON.parse(run.stdout) as unknown;
}

/**
 * Generates `count` cases from `seed`, computes each answer with the reference solution, and loads
 * them as case folders `random/001`, `random/002`, ... (removed when the grader exits).
 *
 * @param count how many cases (--random N)
 * @param seed the PRNG seed (--seed S); the same (count, seed) gives the same cases
 * @param schemas the fixture validators, so generated cases are checked like built-in ones
 * @throws SetupError when kafkajs is missing or a generated case is invalid; Error when the
 *   reference does not build or does not answer (a bug in the kit, not in the submission)
 */
export async function randomCases(
  count: number,
  seed: number,
  schemas: FixtureSchemas,
): Promise<Case[]> {
  const encode = await kafkajsEncoder();
  const root = mkdtempSync(join(tmpdir(), "kit-random-"));
  process.once("exit", () => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, "random");
  const width = Math.max(3, String(count).length);

  const generated: { meta: CaseMeta; c: Case; hasRacks: boolean }[] = [];
  for (let index = 1; index <= count; index++) {
    const { mode, input, racks } = generateInput(seed, index, encode);
    const name = String(index).padStart(width, "0");
    const meta = caseMeta(index, seed, mode, racks);
    const inputText = `${JSON.stringify(input, null, 2)}\n`;
    const c: Case = {
      ...meta,
      id: `random/${name}`,
      source: { kind: "random" },
      dir: join(dir, name),
      inputText,
      input,
      expected: { output: {} }, // the reference's answer, written to expected.json below
    };
    generated.push({ meta, c, hasRacks: racks !== null });
  }

  const reference = await prepareProgram(
    { kind: "folder", path: join(KIT_ROOT, "solution"), name: "reference" },
    { memoryMiB: MEMORY_MIB, timeoutMs: 20_000, outputCapBytes: OUTPUT_CAP_BYTES },
  );
  try {
    const program = reference.program;
    if (program === undefined) {
      throw new Error(`the reference solution does not build: ${reference.errors.join("; ")}`);
    }
    // The reference runs one case per core at a time (p-limit keeps the queue).
    await pLimit(availableParallelism()).map(generated, async ({ meta, c, hasRacks }) => {
      const output = expectedOutput(meta.mode, hasRacks, await referenceAnswer(program, c));
      mkdirSync(c.dir, { recursive: true });
      writeFileSync(join(c.dir, "case.json"), `${JSON.stringify(meta, null, 2)}\n`);
      writeFileSync(join(c.dir, "input.json"), c.inputText);
      writeFileSync(join(c.dir, "expected.json"), `${JSON.stringify({ output }, null, 2)}\n`);
    });
  } finally {
    reference.cleanup();
  }
  return loadCaseFolder(dir, "random", schemas, { kind: "random" });
}
