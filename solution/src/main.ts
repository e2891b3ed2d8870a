/**
 * The group leader's job as a program (complete: not part of the exercise).
 *
 *   main [--decode | --sync] [FILE]
 *
 * Reads one JSON document (FILE, or standard input): the topics the leader knows (name to
 * partition count), optionally the racks of each partition's replicas, and every member's id,
 * optional group instance id and subscription bytes as hex (and, for --sync, optionally the
 * assignment user data the leader sends it). Decodes each subscription with decodeSubscription,
 * runs assignRange, and prints member id to topic to partitions as one JSON object. With --decode
 * it prints each decoded subscription instead; with --sync, member id to the hex of the assignment
 * bytes the leader sends that member in SyncGroup (encodeAssignment). Exit codes: 0 success; 1 a
 * subscription is not valid (first line of standard error:
 * `error: member "<id>": <field> <problem> at offset <n>`); 2 the input is not the documented JSON;
 * 3 a function is still a stub; 70 any other exception (a bug), with its stack.
 *
 * `run` is the program as a function (arguments and input in, exit code and output text out);
 * the file runs it only when it is the program Node started, so importing it runs nothing.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SubscriptionDecodeError } from "./decode-error.ts";
import validateInput from "./input-validator.js";
import { NotImplementedError } from "./not-implemented.ts";
import { encodeAssignment } from "./assignment.ts";
import { assignRange, type Assignment, type MemberSubscription } from "./range-assignor.ts";
import { decodeSubscription, type Subscription } from "./subscription.ts";

const USAGE = "usage: main [--decode | --sync] [FILE]   (reads standard input when FILE is absent)";

/** Exit codes of the program (docs/program.md, "Exit codes"). */
export const EXIT = { ok: 0, badSubscription: 1, badInput: 2, notImplemented: 3, bug: 70 } as const;

interface InputMember {
  memberId: string;
  groupInstanceId?: string | null;
  metadata: string;
  assignmentUserData?: string;
}

interface Input {
  topics: Record<string, number>;
  /** Topic to, per partition, the racks of its replicas (`null`: a broker without a rack). */
  partitionRacks?: Record<string, (string | null)[][]>;
  members: InputMember[];
}

/** A member once its input is checked: its metadata and assignment user data as bytes (hexToBytes). */
interface CheckedMember {
  memberId: string;
  groupInstanceId: string | null;
  bytes: Uint8Array;
  /** What the leader's assignor gives this member as user data: null when the input has none. */
  assignmentUserData: Uint8Array | null;
}

/** The input once checked: the metadata of every member read into bytes, in the input's order. */
interface CheckedInput {
  topics: Record<string, number>;
  partitionRacks?: Record<string, (string | null)[][]>;
  members: CheckedMember[];
}

/** Input that is not the documented JSON: exit 2 with this message. */
class InputError extends Error {}

/** What one run of the program produced: its exit code and the text of its two outputs. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * The whole program, without touching the process: parses `argv` (the arguments after the script),
 * reads the input (FILE, or `stdin`), decodes, assigns and returns what to print and the exit code.
 * The program itself (the end of this file) prints the result; a harness that runs many cases in
 * one process calls this instead.
 *
 * @param argv `[--decode | --sync] [FILE]`
 * @param stdin standard input's text, or a function that reads it (called only when there is no
 *   FILE, so a FILE run never waits on standard input)
 * @returns the exit code (see EXIT) and the text for standard output and standard error
 * @throws nothing: every error becomes an exit code and a message (70 with its stack for a bug)
 */
export function run(argv: readonly string[], stdin: string | (() => string)): RunResult {
  let decodeOnly: boolean;
  let sync: boolean;
  let file: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: {
        decode: { type: "boolean", default: false },
        sync: { type: "boolean", default: false },
      },
      allowPositionals: true,
    });
    if (positionals.length > 1) throw new Error("expected at most one FILE");
    decodeOnly = values.decode === true;
    sync = values.sync === true;
    if (decodeOnly && sync) throw new Error("--decode and --sync cannot be given together");
    file = positionals[0];
  } catch (error) {
    return failure(EXIT.badInput, `error: ${(error as Error).message}\n${USAGE}\n`);
  }

  try {
    const input = readInput(file, stdin);
    const decoded = new Map<string, Subscription>();
    for (const member of input.members) {
      decoded.set(member.memberId, decodeMember(member.memberId, member.bytes));
    }
    const output = decodeOnly
      ? decodedJson(decoded)
      : sync
        ? syncJson(input, assignmentOf(input, decoded))
        : assignmentJson(assignmentOf(input, decoded));
    return { exitCode: EXIT.ok, stdout: `${JSON.stringify(output)}\n`, stderr: "" };
  } catch (error) {
    if (error instanceof SubscriptionDecodeError) {
      return failure(EXIT.badSubscription, `error: ${error.message}\n`);
    }
    if (error instanceof InputError) return failure(EXIT.badInput, `error: ${error.message}\n`);
    if (error instanceof NotImplementedError) {
      return failure(EXIT.notImplemented, `${error.message}\n`);
    }
    const stack = String(error instanceof Error ? error.stack : error);
    return failure(EXIT.bug, `internal error (a bug, not bad input):\n${stack}\n`);
  }
}

/** A run that printed nothing on standard output. */
function failure(exitCode: number, stderr: string): RunResult {
  return { exitCode, stdout: "", stderr };
}

/**
 * Reads (FILE, or standard input), parses and validates the input, and reads each member's
 * metadata into bytes; throws InputError with what is wrong.
 */
function readInput(file: string | undefined, stdin: string | (() => string)): CheckedInput {
  let text: string;
  try {
    if (file !== undefined) text = readFileSync(file, "utf8");
    else text = typeof stdin === "string" ? stdin : stdin();
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
    const where = `member ${JSON.stringify(member.memberId)} (/members/${i}/metadata)`;
    const bytes = hexToBytes(member.metadata, where);
    const userData =
      member.assignmentUserData === undefined
        ? null
        : hexToBytes(
            member.assignmentUserData,
            `member ${JSON.stringify(member.memberId)} (/members/${i}/assignmentUserData)`,
          );
    return {
      memberId: member.memberId,
      groupInstanceId: instanceId,
      bytes,
      assignmentUserData: userData,
    };
  });
  return { topics: input.topics, partitionRacks: input.partitionRacks, members };
}

/** A JSON Pointer reference token (RFC 6901): `~` and `/` escaped, as ajv writes paths. */
function jsonPointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * A member's metadata (or assignment user data) as bytes: hex digits, two per byte, white space anywhere ignored. The bytes
 * are a view that starts at byte offset 8 of a larger buffer whose other bytes are 0xAA, so a
 * decoder that ignores `byteOffset` reads the wrong bytes on every run, not only by bad luck.
 *
 * @param metadata the hex text, as the input gives it
 * @param path which member and where in the input (a JSON Pointer), for the error message
 * @throws InputError for a character that is neither a hex digit nor white space, or an odd
 *   number of hex digits
 */
export function hexToBytes(metadata: string, path: string): Uint8Array {
  const bad = /[^0-9a-fA-F\s]/.exec(metadata);
  if (bad !== null) {
    const found = JSON.stringify(bad[0]);
    throw new InputError(`${path}: ${found} at character ${bad.index} is not a hex digit`);
  }
  const digits = metadata.replace(/\s/g, "");
  if (digits.length % 2 !== 0) {
    throw new InputError(`${path}: odd number of hex digits (${digits.length})`);
  }
  const length = digits.length / 2;
  const buffer = Buffer.alloc(8 + length + 8, 0xaa);
  buffer.write(digits, 8, "hex"); // every character is a digit now, so every byte is written
  return new Uint8Array(buffer.buffer, buffer.byteOffset + 8, length);
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

/** Runs assignRange on the input's topics, racks and decoded members. */
function assignmentOf(input: CheckedInput, decoded: Map<string, Subscription>): Assignment {
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
  return assignRange(partitionsPerTopic, subscriptions, partitionRacks);
}

/** The assignment as JSON: null-prototype objects, so ids like `__proto__` stay plain keys. */
function assignmentJson(assignment: Assignment): Record<string, Record<string, number[]>> {
  // Printed as assignRange returned it: a member it leaves out stays out, so the grader sees it.
  const output = Object.create(null) as Record<string, Record<string, number[]>>;
  for (const [memberId, topicPartitions] of assignment) {
    const topics = Object.create(null) as Record<string, number[]>;
    for (const [topic, partitions] of topicPartitions) topics[topic] = partitions;
    output[memberId] = topics;
  }
  return output;
}

/**
 * `--sync` output: member id to the hex of the assignment bytes the leader sends it in SyncGroup
 * (encodeAssignment of its partitions and its assignment user data). Every member assignRange
 * returned is printed, one that owns nothing too; a member it left out stays out, so the grader
 * sees it.
 */
function syncJson(input: CheckedInput, assignment: Assignment): Record<string, string> {
  const userData = new Map(input.members.map((m) => [m.memberId, m.assignmentUserData]));
  const output = Object.create(null) as Record<string, string>;
  for (const [memberId, topicPartitions] of assignment) {
    const bytes = encodeAssignment(topicPartitions, userData.get(memberId) ?? null);
    output[memberId] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
      "hex",
    );
  }
  return output;
}

/**
 * Whether this module is the program Node was started with (`node main.mjs`, `tsx src/main.ts`),
 * rather than imported by a harness that calls run. It compares paths, so it holds inside a bundle
 * too (there import.meta.url is the bundle's); Node 20 has no import.meta.main. Node gives the
 * script's real path to import.meta.url, so a path through a symbolic link is resolved first.
 */
function isProgram(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  const self = fileURLToPath(import.meta.url);
  if (script === self) return true;
  try {
    return realpathSync(script) === self;
  } catch {
    return false; // not a file this process may read: not this module
  }
}

if (isProgram()) {
  const { exitCode, stdout, stderr } = run(process.argv.slice(2), () => readFileSync(0, "utf8"));
  // process.stdout, not fs.writeSync: once anything has used process.stdout (a console.log while
  // debugging), a pipe is non-blocking, and while the reader is slow a plain write takes only what
  // fits (the next one fails with EAGAIN); the stream waits instead. exitCode, not process.exit(),
  // so that everything is written before the process ends.
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = exitCode;
}
