/**
 * The diagnosis of one graded case, and the confirming pass over a submission's cases: what a
 * grading asks of diagnose/ per case and once its cases (or a phase's) are graded.
 */
import { metadataBytes, type Case, type SyncOutput } from "../cases/load.ts";
import type { Verdict } from "../verdict/verdict.ts";
import type { MemberBytes } from "./data.ts";
import {
  confirmNames,
  crashPredictors,
  crashSignature,
  matchMistakes,
  mistakesFailing,
  outcomeMistakes,
  sameWayMistakes,
  type NamedCase,
  type OutcomeSource,
} from "./diagnose.ts";
import { shownByBytes } from "./sync-evidence.ts";

/** One case's diagnosis: the names its outcome shows, and what the confirming pass needs of it. */
export interface CaseDiagnosis {
  /** The mistakes named on this case alone, most specific first (to be confirmed). */
  mistakes: string[];
  /** The recorded byte layouts of the case's members, for the explanation's hex dump. */
  layouts: ReadonlyMap<string, MemberBytes> | undefined;
  /** What confirmNames reads of this case. */
  named: NamedCase;
}

/**
 * Diagnoses one graded case from the mutants' outcomes on it (`source`; none: nothing named). A
 * passed case is evidence too, from data at hand: mutants are never run just for it.
 */
export async function diagnoseCase(
  c: Case,
  verdict: Verdict,
  source: OutcomeSource | undefined,
): Promise<CaseDiagnosis> {
  const ok = verdict.status === "pass";
  let mistakes: string[] = [];
  let fallback: string[] = [];
  let layouts: ReadonlyMap<string, MemberBytes> | undefined;
  let diagnosed = false;
  let failedByEveryMutantOf: ReadonlySet<string> = new Set();
  let crashPredictedBy: ReadonlySet<string> = new Set();
  let sameWay: string[] = [];
  if (source !== undefined) {
    const outcomes = ok ? await source.knownOutcomesFor?.(c) : await source.outcomesFor(c);
    if (outcomes !== undefined) {
      failedByEveryMutantOf = mistakesFailing(c, outcomes);
      crashPredictedBy = crashPredictors(c.expected, outcomes);
    }
    if (!ok) {
      layouts = await source.layoutsFor?.(c);
      if (outcomes !== undefined) {
        diagnosed = true;
        const offsets = await source.offsetsFor?.(c);
        mistakes = matchMistakes(verdict.outcome, c.expected, outcomes, {
          offsets,
          layouts,
          memberBytes: (memberId) => {
            const member = c.input.members.find((m) => m.memberId === memberId);
            return member === undefined ? undefined : metadataBytes(member);
          },
        });
        fallback = outcomeMistakes(verdict.outcome, c.expected, layouts);
        const rejected = (await source.rejectionsFor?.(c)) ?? new Map<string, string>();
        sameWay = sameWayMistakes(verdict.outcome, c.expected, outcomes, rejected);
      }
    }
  }
  return {
    mistakes,
    layouts,
    named: {
      passed: ok,
      required: c.required,
      named: mistakes,
      fallback,
      diagnosed,
      byBytes:
        !ok &&
        verdict.outcome.kind === "output" &&
        verdict.outcome.mode === "sync" &&
        "output" in c.expected
          ? shownByBytes(
              verdict.outcome.output as SyncOutput,
              c.expected.output as SyncOutput,
              mistakes,
            )
          : undefined,
      passedSync:
        ok && c.mode === "sync" && "output" in c.expected
          ? (c.expected.output as SyncOutput)
          : undefined,
      crashed: verdict.outcome.kind === "crash",
      crash: verdict.outcome.kind === "crash" ? crashSignature(verdict.outcome.stderr) : undefined,
      failedByEveryMutantOf,
      crashPredictedBy,
      sameWay,
    },
  };
}

/**
 * The confirming pass of a grading (confirmNames): cases are added by index as they are
 * diagnosed; `confirm(to)` checks the names of every case before `to` not yet confirmed against
 * every diagnosed case before `to`, and returns the indexes whose names it changed, with the
 * names that stand.
 */
export class Confirmation {
  private readonly cases: (NamedCase | undefined)[] = [];
  private confirmedUpTo = 0;

  /** Records case `index`'s diagnosis (diagnoseCase's `named`), in any order. */
  add(index: number, named: NamedCase): void {
    this.cases[index] = named;
  }

  /**
   * Confirms the names of the cases before `to` (0-based, exclusive) against every diagnosed case
   * before it.
   * @returns case index to the names that stand, for each case whose names changed
   */
  confirm(to: number): Map<number, string[]> {
    // Cases that did not run (aborted or skipped) have nothing to say.
    const graded = this.cases
      .slice(0, to)
      .flatMap((n, i) => (n === undefined ? [] : [[i, n] as const]));
    const confirmed = confirmNames(graded.map(([, n]) => n));
    const changed = new Map<number, string[]>();
    graded.forEach(([index, n], k) => {
      const names = confirmed[k] ?? [];
      const same = names.length === n.named.length && names.every((id, j) => id === n.named[j]);
      if (index >= this.confirmedUpTo && n.named.length > 0 && !same) changed.set(index, names);
    });
    this.confirmedUpTo = to;
    return changed;
  }
}
