/**
 * Naming the mistake: on a failed case, the submission's outcome is compared with every mutant's
 * outcome on the same input. One match is named; several are named together, unless the
 * catalogue declares one of them more specific than the rest; none falls back to the case's hint.
 * The starter's stubs, timeouts and other limits are never named as mistakes.
 */
import type { Outcome } from "../verdict/outcome.ts";
import type { Case } from "../cases/load.ts";
import { CATALOGUE, type Mistake } from "./catalogue.ts";
import { caseHash } from "../cases/hash.ts";
import { loadDiagnosisData, outcomeHash, type CaseDiagnosis, type MemberBytes } from "./data.ts";

/** Where mutant outcomes come from: the data file, or running the mutants (instructor kit). */
export interface OutcomeSource {
  /** Mistake id to outcome hash on this case, or undefined when this source cannot tell. */
  outcomesFor(c: Case): Promise<Map<string, string> | undefined>;
  /** Mistake id to the offset its mutant reported when it rejected bytes (breaks ties). */
  offsetsFor?(c: Case): Promise<Map<string, number> | undefined>;
  /**
   * Member id to the field boundaries of its subscription bytes, for the explanation's hex dump;
   * undefined when this source has none for the case (only the recorded data has them).
   */
  layoutsFor?(c: Case): Promise<ReadonlyMap<string, MemberBytes> | undefined>;
}

/** Outcomes recorded in grader/diagnose/diagnosis.json (built-in cases, unchanged since). */
export class FileOutcomes implements OutcomeSource {
  private readonly data: Map<string, CaseDiagnosis>;
  constructor(data: Map<string, CaseDiagnosis> = loadDiagnosisData()) {
    this.data = data;
  }
  /** The recorded data for a case, if the case is unchanged since it was recorded. */
  caseData(c: Case): CaseDiagnosis | undefined {
    const recorded = this.data.get(c.id);
    return recorded !== undefined && recorded.hash === caseHash(c) ? recorded : undefined;
  }
  outcomesFor(c: Case): Promise<Map<string, string> | undefined> {
    return Promise.resolve(this.caseData(c)?.outcomes);
  }
  offsetsFor(c: Case): Promise<Map<string, number> | undefined> {
    return Promise.resolve(this.caseData(c)?.offsets);
  }
  layoutsFor(c: Case): Promise<ReadonlyMap<string, MemberBytes> | undefined> {
    return Promise.resolve(this.caseData(c)?.members);
  }
}

/** Tries each source in turn. */
export class FirstOf implements OutcomeSource {
  constructor(private readonly sources: readonly OutcomeSource[]) {}
  async outcomesFor(c: Case): Promise<Map<string, string> | undefined> {
    for (const source of this.sources) {
      const outcomes = await source.outcomesFor(c);
      if (outcomes !== undefined) return outcomes;
    }
    return undefined;
  }
  async offsetsFor(c: Case): Promise<Map<string, number> | undefined> {
    // The offsets of the source whose outcomes are used.
    for (const source of this.sources) {
      if ((await source.outcomesFor(c)) !== undefined) return source.offsetsFor?.(c);
    }
    return undefined;
  }
  async layoutsFor(c: Case): Promise<ReadonlyMap<string, MemberBytes> | undefined> {
    for (const source of this.sources) {
      const layouts = await source.layoutsFor?.(c);
      if (layouts !== undefined) return layouts;
    }
    return undefined;
  }
}

/** Outcomes a mutant can share with a student's program (not stubs, limits or build errors). */
export function isDiagnosable(outcome: Outcome): boolean {
  return (
    outcome.kind === "output" ||
    outcome.kind === "error" ||
    outcome.kind === "crash" ||
    outcome.kind === "invalid-output"
  );
}

/**
 * The mistakes a failed outcome matches, most specific first.
 *
 * @param mutantOutcomes mistake id to the hash of that mutant's outcome on the case
 * @param catalogue the mistakes and their declared specificity (the kit's catalogue by default)
 * @param mutantOffsets mistake id to the offset its mutant's error line reported on the case
 * @returns catalogued ids in catalogue order; one id when a match is declared more specific than
 *   all the others; [] when nothing matches or the outcome is not one a mutant can produce
 */
export function matchMistakes(
  outcome: Outcome,
  mutantOutcomes: ReadonlyMap<string, string>,
  catalogue: ReadonlyMap<string, Mistake> = CATALOGUE,
  mutantOffsets: ReadonlyMap<string, number> = new Map(),
): string[] {
  if (!isDiagnosable(outcome)) return [];
  const hash = outcomeHash(outcome);
  let matches = [...catalogue.keys()].filter((id) => mutantOutcomes.get(id) === hash);
  // Mistakes that reject the same member's bytes (reading little-endian, or ignoring byteOffset)
  // are told apart by where the program said it stopped, when its offset matches only some.
  const offset = outcome.kind === "error" ? outcome.offset : undefined;
  const sameOffset = matches.filter(
    (id) => offset !== undefined && mutantOffsets.get(id) === offset,
  );
  if (matches.length > 1 && sameOffset.length > 0) matches = sameOffset;
  const specific = matches.find((id) =>
    matches.every(
      (other) => other === id || (catalogue.get(id)?.moreSpecificThan ?? []).includes(other),
    ),
  );
  return matches.length > 1 && specific !== undefined ? [specific] : matches;
}
