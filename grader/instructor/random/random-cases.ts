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
import { prepareProgram, runCase, type Program } from "../../grade.ts";
import { KIT_ROOT } from "../../kit.ts";
import { chance, randomInt as int, seededRandom, seedOf, type Rng } from "./seeded.ts";
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

/** One generated case: its mode and the program input. */
function generateInput(rng: Rng, encode: Encode): { mode: Mode; input: ProgramInput } {
  const mode: Mode = chance(rng, 0.2) ? "decode" : "assign";
  const topics = Object.create(null) as Record<string, number>;
  const topicNames = pick(rng, TOPICS, int(rng, 1, 8));
  for (const name of topicNames) topics[name] = int(rng, 0, 12);
  const missing: string[] = [...MISSING_TOPICS, ...TOPICS.filter((t) => !topicNames.includes(t))];
  const emptyNameCase = chance(rng, 0.05);

  const instanceIds = shuffled(rng, INSTANCE_IDS);
  const members: ProgramInput["members"] = pick(rng, MEMBER_IDS, int(rng, 1, 10)).map(
    (memberId, i) => {
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
      const metadata = encode(listed, userData);
      const instanceId = chance(rng, 1 / 3) ? instanceIds.pop() : undefined;
      if (instanceId !== undefined) return { memberId, groupInstanceId: instanceId, metadata };
      // A dynamic member: the field absent, or null (both mean the same).
      return chance(rng, 0.25)
        ? { memberId, groupInstanceId: null, metadata }
        : { memberId, metadata };
    },
  );
  return { mode, input: { topics, members } };
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

function caseMeta(index: number, seed: number, mode: Mode): CaseMeta {
  return {
    title: `random case ${index} (seed ${seed})`,
    description:
      `Generated by --random with seed ${seed}: ${mode === "decode" ? "decoded subscriptions" : "a range assignment"} ` +
      "for random topics and members (kafkajs version-0 bytes). Its answer comes from the reference solution, run at grading time.",
    mode,
    points: 1,
    required: true,
    mistakes: [],
    hint:
      mode === "decode"
        ? "Compare your decoded subscriptions with the expected ones above, then rerun this case alone with the command below."
        : "Compare who owns which partition with the expected answer above, then rerun this case alone with the command below.",
    lesson: mode === "decode" ? "the-subscription-bytes" : "the-range-assignor",
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

  const generated: { meta: CaseMeta; c: Case }[] = [];
  for (let index = 1; index <= count; index++) {
    const rng = seededRandom(seedOf(`${seed}:${index}`));
    const { mode, input } = generateInput(rng, encode);
    const name = String(index).padStart(width, "0");
    const meta = caseMeta(index, seed, mode);
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
    generated.push({ meta, c });
  }

  const reference = await prepareProgram(
    { kind: "folder", path: join(KIT_ROOT, "solution"), name: "reference" },
    { memoryMiB: MEMORY_MIB, timeoutMs: 20_000 },
  );
  try {
    const program = reference.program;
    if (program === undefined) {
      throw new Error(`the reference solution does not build: ${reference.errors.join("; ")}`);
    }
    // The reference runs one case per core at a time (p-limit keeps the queue).
    await pLimit(availableParallelism()).map(generated, async ({ meta, c }) => {
      const output = await referenceAnswer(program, c);
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
