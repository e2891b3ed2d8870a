/**
 * The group leader's job as a program (complete: not part of the exercise).
 *
 *   main [--decode] [FILE]
 *
 * Reads one JSON document (FILE, or standard input): the topics the leader knows (name to
 * partition count), optionally the racks of each partition's replicas, and every member's id,
 * optional group instance id and subscription bytes as hex. Decodes each subscription with decodeSubscription, runs assignRange, and prints member id
 * to topic to partitions as one JSON object. With --decode it prints each decoded subscription
 * instead. Exit codes: 0 success; 1 a subscription is not valid (first line of standard error:
 * `error: member "<id>": <field> <problem> at offset <n>`); 2 the input is not the documented JSON;
 * 3 a function is still a stub; 70 any other exception (a bug), with its stack.
 */
import { readFileSync, writeSync } from "node:fs";
import { parseArgs } from "node:util";
import { SubscriptionDecodeError } from "./decode-error.ts";
import validateInput from "./input-validator.js";
import { NotImplementedError } from "./not-implemented.ts";
import { assignRange, type MemberSubscription } from "./range-assignor.ts";
import { decodeSubscription, type Subscription } from "./subscription.ts";

const USAGE = "usage: main [--decode] [FILE]   (reads standard input when FILE is absent)";

/** Exit codes of the program (docs/program.md, "Exit codes"). */
export const EXIT = { ok: 0, badSubscription: 1, badInput: 2, notImplemented: 3, bug: 70 } as const;

interface InputMember {
  memberId: string;
  groupInstanceId?: string | null;
  metadata: string;
}

interface Input {
  topics: Record<string, number>;
  /** Topic to, per partition, the racks of its replicas (`null`: a broker without a rack). */
  partitionRacks?: Record<string, (string | null)[][]>;
  members: InputMember[];
}

/** A member once its input is checked: its metadata as bytes (see hexToBytes). */
interface CheckedMember {
  memberId: string;
  groupInstanceId: string | null;
  bytes: Uint8Array;
}

/** The input once checked: the metadata of every member read into bytes, in the input's order. */
interface CheckedInput {
  topics: Record<string, number>;
  partitionRacks?: Record<string, (string | null)[][]>;
  members: CheckedMember[];
}

/** Input that is not the documented JSON: exit 2 with this message. */
class InputError extends Error {}

function main(argv: string[]): number {
  let decodeOnly: boolean;
  let file: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { decode: { type: "boolean", default: false } },
      allowPositionals: true,
    });
    if (positionals.length > 1) throw new Error("expected at most one FILE");
    decodeOnly = values.decode === true;
    file = positionals[0];
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${USAGE}\n`);
    return EXIT.badInput;
  }

  try {
    const input = readInput(file);
    const decoded = new Map<string, Subscription>();
    for (const member of input.members) {
      decoded.set(member.memberId, decodeMember(member.memberId, member.bytes));
    }
    const output = decodeOnly ? decodedJson(decoded) : assignmentJson(input, decoded);
    writeAll(1, `${JSON.stringify(output)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof SubscriptionDecodeError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.badSubscription;
    }
    if (error instanceof InputError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.badInput;
    }
    if (error instanceof NotImplementedError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.notImplemented;
    }
    process.stderr.write(
      `internal error (a bug, not bad input):\n${String(
        error instanceof Error ? error.stack : error,
      )}\n`,
    );
    return EXIT.bug;
  }
}

/** Wakes no one: Atomics.wait on it is a plain sleep (the main thread may block on it in Node). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` (UTF-8) to file descriptor `fd`, synchronously. Used for standard output
 * instead of process.stdout, which on a pipe loads Node's stream and net modules: about 5 ms of
 * every start, and the grader starts the program once per case. A write may take part of the
 * bytes (the rest is written next) or none while a non-blocking pipe is full (EAGAIN: wait 1 ms
 * and try again). EPIPE means the reader is gone, so the rest is dropped without a word.
 *
 * @throws the write's error for any other failure (EBADF, EIO, ...)
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

/**
 * Reads, parses and validates the input, and reads each member's metadata into bytes; throws
 * InputError with what is wrong.
 */
function readInput(file: string | undefined): CheckedInput {
  let text: string;
  try {
    text = readFileSync(file ?? 0, "utf8");
  } catch (error) {
    throw new InputError(`cannot read ${file ?? "standard input"}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`input is not JSON: ${(error as Error).message}`);
  }
  if (!validateInput(data)) {
    const problems = (validateInput.errors ?? []).map(
      (e) => `  ${e.instancePath || "(root)"}: ${e.message ?? e.keyword}`,
    );
    throw new InputError(`input does not match input.schema.json:\n${problems.join("\n")}`);
  }
  const input = data as Input;
  for (const [topic, partitions] of Object.entries(input.partitionRacks ?? {})) {
    const path = `/partitionRacks/${jsonPointerToken(topic)}`;
    if (!Object.hasOwn(input.topics, topic)) {
      throw new InputError(`${path}: topic ${JSON.stringify(topic)} is not in topics`);
    }
    const count = input.topics[topic];
    if (partitions.length !== count) {
      throw new InputError(
        `${path}: ${partitions.length} rack lists for ${count} partitions (one list per partition)`,
      );
    }
  }
  const memberIds = new Set<string>();
  const instanceIds = new Set<string>();
  const members = input.members.map((member, i): CheckedMember => {
    if (memberIds.has(member.memberId)) {
      throw new InputError(`/members/${i}: duplicate memberId ${JSON.stringify(member.memberId)}`);
    }
    memberIds.add(member.memberId);
    const instanceId = member.groupInstanceId ?? null;
    if (instanceId !== null) {
      if (instanceIds.has(instanceId)) {
        throw new InputError(
          `/members/${i}: duplicate groupInstanceId ${JSON.stringify(instanceId)} (a broker fences one of them)`,
        );
      }
      instanceIds.add(instanceId);
    }
    const bytes = hexToBytes(member.metadata);
    if (bytes === null) throw new InputError(`/members/${i}/metadata: odd number of hex digits`);
    return { memberId: member.memberId, groupInstanceId: instanceId, bytes };
  });
  return { topics: input.topics, partitionRacks: input.partitionRacks, members };
}

/** A JSON Pointer reference token (RFC 6901): `~` and `/` escaped, as ajv writes paths. */
function jsonPointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A member's metadata (hex digits and white space, as the schema checked) as bytes, or null when
 * it has an odd number of hex digits. The bytes are a view that starts at byte offset 8 of a
 * larger buffer whose other bytes are 0xAA, so a decoder that ignores `byteOffset` reads the
 * wrong bytes on every run, not only by bad luck.
 */
function hexToBytes(metadata: string): Uint8Array | null {
  const length = metadata.length / 2;
  if (Number.isInteger(length)) {
    const buffer = Buffer.alloc(length + 16, 0xaa);
    // Node's hex decoder stops at the first character that is not a digit: every byte written
    // means there was no white space (the usual case: one pass, no regex).
    if (buffer.write(metadata, 8, "hex") === length) {
      return new Uint8Array(buffer.buffer, buffer.byteOffset + 8, length);
    }
  }
  const digits = metadata.replace(/\s+/g, "");
  // Digits only now (the schema allows nothing else), which the branch above takes when even.
  return digits.length % 2 === 0 && digits !== metadata ? hexToBytes(digits) : null;
}

/** Decodes one member's subscription bytes; a decode error names the member. */
function decodeMember(memberId: string, bytes: Uint8Array): Subscription {
  try {
    return decodeSubscription(bytes);
  } catch (error) {
    if (error instanceof SubscriptionDecodeError) throw error.forMember(memberId);
    throw error;
  }
}

/**
 * `--decode` output: member id to `{version, topics, userData, rackId}` (user data as lowercase
 * hex; rackId as decoded: null below version 3).
 */
function decodedJson(decoded: Map<string, Subscription>): Record<string, unknown> {
  const output: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [memberId, subscription] of decoded) {
    output[memberId] = {
      version: subscription.version,
      topics: subscription.topics,
      userData:
        subscription.userData === null ? null : Buffer.from(subscription.userData).toString("hex"),
      rackId: subscription.rackId,
    };
  }
  return output;
}

/** The assignment as JSON: null-prototype objects, so ids like `__proto__` stay plain keys. */
function assignmentJson(
  input: CheckedInput,
  decoded: Map<string, Subscription>,
): Record<string, Record<string, number[]>> {
  const partitionsPerTopic = new Map<string, number>(Object.entries(input.topics));
  const subscriptions = new Map<string, MemberSubscription>();
  for (const member of input.members) {
    const subscription = decoded.get(member.memberId);
    if (subscription === undefined) continue; // unreachable: every member was decoded
    subscriptions.set(member.memberId, {
      topics: subscription.topics,
      groupInstanceId: member.groupInstanceId,
      rackId: subscription.rackId,
    });
  }
  const partitionRacks = new Map(Object.entries(input.partitionRacks ?? {}));
  const assignment = assignRange(partitionsPerTopic, subscriptions, partitionRacks);
  // Printed as assignRange returned it: a member it leaves out stays out, so the grader sees it.
  const output = Object.create(null) as Record<string, Record<string, number[]>>;
  for (const [memberId, topicPartitions] of assignment) {
    const topics = Object.create(null) as Record<string, number[]>;
    for (const [topic, partitions] of topicPartitions) topics[topic] = partitions;
    output[memberId] = topics;
  }
  return output;
}

process.exitCode = main(process.argv.slice(2));
