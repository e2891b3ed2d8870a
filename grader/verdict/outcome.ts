/**
 * A run's outcome, the thing verdicts and mistake diagnosis compare: the program's normalised
 * output, or "bad input naming member X", or how it died. Two runs with equal outcome keys did
 * the same thing on that case.
 */
import type {
  AssignmentOutput,
  DecodeOutput,
  Mode,
  ProgramOutput,
  SyncOutput,
} from "../cases/load.ts";
import type { AnswerSize } from "./answer-size.ts";
import { assignmentKey } from "./assignment-bytes.ts";
import { byCodeUnits } from "./order.ts";

export type Outcome =
  | { kind: "output"; mode: Mode; output: ProgramOutput }
  | {
      kind: "error";
      member: string;
      /** The offset the program's error line reported (`at offset N`), if any: not in the key. */
      offset?: number | undefined;
      /**
       * The program's first line of standard error, as the verdict keeps it (printable: unsafe
       * characters as `\uXXXX`), for diagnosis: not in the key.
       */
      line?: string | undefined;
    }
  | {
      kind: "crash";
      exitCode: number | null;
      signal: string | null;
      /** The start of the program's standard error (what it said as it died): not in the key. */
      stderr?: string | undefined;
    }
  | { kind: "invalid-output" }
  /**
   * An answer far larger than the case allows (answer-size.ts), judged by its size alone: its
   * counts, not its content, so nothing after the verdict works on it. Every such answer has the
   * same key, and no mutant is matched on it.
   */
  | { kind: "oversized"; mode: Mode; size: AnswerSize }
  | { kind: "not-implemented" }
  | { kind: "timeout" }
  | { kind: "memory" }
  | { kind: "output-cap" }
  | { kind: "build-error" };

const sortedEntries = <T>(o: Record<string, T>): [string, T][] =>
  Object.entries(o).sort(([a], [b]) => byCodeUnits(a, b));

/**
 * An assignment as sorted `[member, [[topic, partitions], ...]]` entries, topics with no
 * partitions left out (`"t": []` and a missing `"t"` are the same answer).
 */
export function normaliseAssignment(output: AssignmentOutput): [string, [string, number[]][]][] {
  return sortedEntries(output).map(([member, topics]) => [
    member,
    sortedEntries(topics).filter(([, partitions]) => partitions.length > 0),
  ]);
}

/**
 * The program's --decode output as the case checks it: a member's `rackId` is dropped where the
 * case's expected entry for that member has none (the required decode cases predate the rack
 * stage and check version, topics and user data only). Other fields pass unchanged.
 *
 * @param actual the program's validated --decode output
 * @param expected the case's expected output
 * @returns a new object (null prototype) with the same members
 */
export function decodeFieldsChecked(actual: DecodeOutput, expected: DecodeOutput): DecodeOutput {
  const checked = Object.create(null) as DecodeOutput;
  for (const [member, decoded] of Object.entries(actual)) {
    const want = Object.hasOwn(expected, member) ? expected[member] : undefined;
    if (want !== undefined && !("rackId" in want) && "rackId" in decoded) {
      checked[member] = {
        version: decoded.version,
        topics: decoded.topics,
        userData: decoded.userData,
      };
    } else checked[member] = decoded;
  }
  return checked;
}

/**
 * The answer a generated case checks (--random, new-case): the reference's output, less the
 * members' `rackId` in a decode case without racks, since decodeFieldsChecked checks `rackId`
 * only where expected.json lists it, and the decode cases of the stages before racks do not.
 *
 * @param hasRacks whether the case belongs to the rack stage (some member has a rack)
 * @returns the output to write as expected.json's `output` (a new object where one is dropped)
 */
export function expectedOutput(mode: Mode, hasRacks: boolean, output: unknown): unknown {
  if (mode !== "decode" || hasRacks || typeof output !== "object" || output === null) return output;
  const checked = Object.create(null) as Record<string, unknown>;
  for (const [member, decoded] of Object.entries(output)) {
    if (typeof decoded === "object" && decoded !== null) {
      checked[member] = Object.fromEntries(
        Object.entries(decoded).filter(([field]) => field !== "rackId"),
      );
    } else checked[member] = decoded;
  }
  return checked;
}

/** Keys already worked out: a case's outcome is keyed by the verdict and again by the diagnosis. */
const keys = new WeakMap<Outcome, string>();

/**
 * A stable string for an outcome: equal keys mean the same observable behaviour on a case.
 * Outcomes are never changed once made, so each object's key is worked out once.
 */
export function outcomeKey(outcome: Outcome): string {
  let key = keys.get(outcome);
  if (key === undefined) {
    key = keyOf(outcome);
    keys.set(outcome, key);
  }
  return key;
}

function keyOf(outcome: Outcome): string {
  switch (outcome.kind) {
    case "output":
      return `output:${JSON.stringify(
        outcome.mode === "assign"
          ? normaliseAssignment(outcome.output as AssignmentOutput)
          : outcome.mode === "sync"
            ? // Each member's bytes as Kafka reads them: the order of topic entries is not kept.
              sortedEntries(outcome.output as SyncOutput).map(([m, hex]) => [m, assignmentKey(hex)])
            : sortedEntries(outcome.output as DecodeOutput).map(([m, d]) =>
                // rackId counts only where it was printed and the case checks it (see below).
                "rackId" in d
                  ? [m, d.version, d.topics, d.userData, d.rackId]
                  : [m, d.version, d.topics, d.userData],
              ),
      )}`;
    case "error":
      return `error:${JSON.stringify(outcome.member)}`;
    case "crash":
      // Every crash is one behaviour: exit 70 from main.ts, exit 1 from an uncaught exception
      // in another language's runtime or a signal all say the program broke on this input.
      return "crash";
    default:
      return outcome.kind;
  }
}

/** A one-line description of an outcome, for reports. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "output":
      return "printed an answer (exit 0)";
    case "error":
      return `rejected member ${JSON.stringify(outcome.member)}'s bytes (exit 1)`;
    case "crash":
      return outcome.exitCode !== null
        ? `crashed (exit ${outcome.exitCode})`
        : `was killed (${outcome.signal ?? "?"})`;
    case "invalid-output":
      return "printed output that is not the documented JSON";
    case "oversized":
      return "printed an answer far larger than Kafka's (exit 0)";
    case "not-implemented":
      return "stopped at a stub (exit 3)";
    case "timeout":
      return "ran out of time";
    case "memory":
      return "ran out of memory";
    case "output-cap":
      return "printed more than the output cap";
    case "build-error":
      return "did not build";
  }
}
