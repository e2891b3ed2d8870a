/**
 * The extension policy (`--extension`, and gradescope-bundle's `--extension`): how extension
 * points enter a grading's total, the one figure every format's total shows (the text report's
 * `Total:` line, the results file's `total`, JUnit's `total` property, the gradebook's `total`
 * column, Gradescope's top-level `score`, Classroom's points). The total is computed here and
 * nowhere else (results.ts scoresOf calls policyTotal); reporters only format it.
 *
 * - `ignore`: the total is the required score, out of the required maximum.
 * - `bonus` (the default): extension points are extra credit: added to the required score only
 *   once every required case passes, out of the required maximum (so a complete submission with
 *   extension points totals above it). `bonus=N` adds at most N of them.
 * - `count`: required and extension points added, out of both maxima together.
 *
 * Why `bonus` by default: a submission that fails a required case totals exactly its required
 * score, so no extension point ever stands in for a required one, and the required maximum stays
 * the assignment's full marks (extension cases are optional: the lesson's extension).
 */
import { SetupError } from "./errors.ts";

/** How extension points count in the total (see the module's comment). */
export type ExtensionPolicy =
  | { kind: "ignore" }
  /** `cap`: at most this many extension points; null for all of them. */
  | { kind: "bonus"; cap: number | null }
  | { kind: "count" };

/** The policy when none is given: every extension point as extra credit, once required pass. */
export const DEFAULT_EXTENSION_POLICY: ExtensionPolicy = { kind: "bonus", cap: null };

/** The policies' spellings, for help and error messages. */
export const EXTENSION_POLICY_SPELLINGS = "ignore | bonus | bonus=N | count";

/**
 * Reads a policy as `--extension` takes it: `ignore`, `bonus`, `bonus=N` (N a whole number of
 * points, 0 or more) or `count`.
 *
 * @param option the option's name, for the message
 * @throws SetupError for anything else, naming the spellings
 */
export function parseExtensionPolicy(text: string, option = "--extension"): ExtensionPolicy {
  if (text === "ignore") return { kind: "ignore" };
  if (text === "count") return { kind: "count" };
  if (text === "bonus") return { kind: "bonus", cap: null };
  const cap = /^bonus=(0|[1-9]\d{0,8})$/.exec(text)?.[1];
  if (cap !== undefined) return { kind: "bonus", cap: Number(cap) };
  throw new SetupError(
    `${option} takes ${EXTENSION_POLICY_SPELLINGS} (N a whole number of points), got ${JSON.stringify(text)}`,
  );
}

/** The policy as parseExtensionPolicy reads it back: `ignore`, `bonus`, `bonus=5`, `count`. */
export function extensionPolicyName(policy: ExtensionPolicy): string {
  if (policy.kind !== "bonus") return policy.kind;
  return policy.cap === null ? "bonus" : `bonus=${policy.cap}`;
}

/** What the policy does, in a few words for a report line (after its name). */
export function extensionPolicyRule(policy: ExtensionPolicy): string {
  switch (policy.kind) {
    case "ignore":
      return "extension points are not counted";
    case "count":
      return "required and extension points added, out of both maxima";
    case "bonus":
      return policy.cap === null
        ? "extension points added once every required case passes"
        : `at most ${policy.cap} extension points, added once every required case passes`;
  }
}

/** A grading's total under its policy. */
export interface Total {
  /** Points, which under `bonus` may exceed maxPoints (extra credit). */
  points: number;
  /** Full marks: what the assignment's total is out of. */
  maxPoints: number;
}

/** The four scores a total is made of, required and extension apart. */
export interface SplitScores {
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
}

/**
 * The total of `scores` under `policy` (see the module's comment for each policy).
 *
 * @param everyRequiredPassed whether every required case passed (results.ts everyRequiredPassed):
 *   `bonus` adds nothing until it is true
 */
export function policyTotal(
  policy: ExtensionPolicy,
  scores: SplitScores,
  everyRequiredPassed: boolean,
): Total {
  switch (policy.kind) {
    case "ignore":
      return { points: scores.score, maxPoints: scores.maxScore };
    case "count":
      return {
        points: scores.score + scores.extensionScore,
        maxPoints: scores.maxScore + scores.extensionMaxScore,
      };
    case "bonus": {
      const earned = everyRequiredPassed ? scores.extensionScore : 0;
      const bonus = policy.cap === null ? earned : Math.min(earned, policy.cap);
      return { points: scores.score + bonus, maxPoints: scores.maxScore };
    }
  }
}
