/**
 * Naming the mistake: on a failed case, the submission's outcome is compared with every mutant's
 * outcome on the same input, and a match is named only with the mutant's own evidence (the field
 * it stopped in); several are named together, unless the catalogue declares one of them more
 * specific than the rest; with none, the kind of outcome may name one by itself (a crash on bad
 * bytes); else the case's hint is shown. The starter's stubs, timeouts and other limits are never
 * named as mistakes.
 */
import type { Outcome } from "../verdict/outcome.ts";
import type { Case } from "../cases/load.ts";
import { CATALOGUE, mistakeOf, type Mistake } from "./catalogue.ts";
import { caseHash } from "../cases/hash.ts";
import { loadDiagnosisData, outcomeHash, type CaseDiagnosis, type MemberBytes } from "./data.ts";

/** Where mutant outcomes come from: the data file, or running the mutants (instructor kit). */
export interface OutcomeSource {
  /** Mutant name to outcome hash on this case, or undefined when this source cannot tell. */
  outcomesFor(c: Case): Promise<Map<string, string> | undefined>;
  /** Mutant name to the offset it reported when it rejected bytes (the field it stopped in). */
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

/** What diagnosis knows of a case beyond the mutants' outcome hashes. */
export interface Evidence {
  /** The catalogue (the kit's by default; tests pass their own). */
  catalogue?: ReadonlyMap<string, Mistake>;
  /** Mutant name to the offset its error line reported on the case, for mutants that rejected bytes. */
  offsets?: ReadonlyMap<string, number> | undefined;
  /** Member id to its bytes' field layout (small cases), to tell which field an offset is in. */
  layouts?: ReadonlyMap<string, MemberBytes> | undefined;
}

/**
 * The field an offset of a member's bytes falls in, by name without `[i]`'s ` length`/` count`
 * suffix (`userData length` and `userData` are one field): the field whose bytes hold the offset,
 * or, for an offset just past a field (a read that found too few bytes after it), that field.
 */
export function fieldAt(layout: MemberBytes, offset: number): string {
  const span =
    layout.spans.find((s) => s.start <= offset && offset < s.end) ??
    [...layout.spans].reverse().find((s) => s.end === offset);
  return span === undefined ? `@${offset}` : span.field.replace(/ (length|count)$/, "");
}

/**
 * True when a program that rejected a member stopped where the mutant did: in the same field of
 * that member's bytes (or at the same offset, when the case has no recorded layout). A program
 * that gave no offset shows no such evidence.
 */
function stoppedInSameField(
  outcome: Extract<Outcome, { kind: "error" }>,
  mutantOffset: number | undefined,
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): boolean {
  if (mutantOffset === undefined) return true;
  if (outcome.offset === undefined) return false;
  const layout = layouts?.get(outcome.member);
  if (layout === undefined) return outcome.offset === mutantOffset;
  return fieldAt(layout, outcome.offset) === fieldAt(layout, mutantOffset);
}

/**
 * The outcome mistakes (catalogue evidence `outcome`) a failed outcome shows by itself: a crash or
 * an answer where Kafka rejects a member's bytes, or a member rejected whose bytes Kafka reads
 * (for a case that expects an error, only when the case's recorded layout shows that member's
 * bytes are valid).
 */
function outcomeMistakes(
  outcome: Outcome,
  expected: Case["expected"],
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): string[] {
  if ("error" in expected) {
    if (outcome.kind === "crash") return ["crash-on-bad-bytes"];
    if (outcome.kind === "output") return ["bad-bytes-accepted"];
    if (outcome.kind === "error" && layouts?.get(outcome.member)?.error === null)
      return ["valid-bytes-rejected"];
    return [];
  }
  return outcome.kind === "error" ? ["valid-bytes-rejected"] : [];
}

/**
 * The mistakes a failed outcome shows, most specific first (DESIGN.md: a precise name or none).
 *
 * A mutant mistake is named when one of its mutants (`id` or `id:form`) had the same outcome on
 * the case and, for a mutant that rejected a member's bytes, the program stopped in the same field
 * as that mutant (its reported offset; no offset, no name). Several such mistakes are all named,
 * unless the catalogue declares one more specific than the rest. When none is, the outcome
 * mistakes the outcome shows by itself are named (a crash or an answer on bad bytes, a valid
 * member rejected).
 *
 * @param outcome the program's outcome on the case
 * @param expected the case's expected outcome
 * @param mutantOutcomes mutant name to the hash of that mutant's outcome on the case
 * @returns catalogued ids in catalogue order; [] when nothing is shown or the outcome is not one a
 *   mutant can produce (stubs, limits, build errors)
 */
export function matchMistakes(
  outcome: Outcome,
  expected: Case["expected"],
  mutantOutcomes: ReadonlyMap<string, string>,
  evidence: Evidence = {},
): string[] {
  const { catalogue = CATALOGUE, offsets, layouts } = evidence;
  if (!isDiagnosable(outcome)) return [];
  const hash = outcomeHash(outcome);
  const shown = new Set<string>();
  for (const [mutant, mutantHash] of mutantOutcomes) {
    if (mutantHash !== hash) continue;
    if (outcome.kind === "error" && !stoppedInSameField(outcome, offsets?.get(mutant), layouts))
      continue;
    shown.add(mistakeOf(mutant));
  }
  const matches = [...catalogue.values()]
    .filter((m) => m.evidence === "mutant" && shown.has(m.id))
    .map((m) => m.id);
  if (matches.length === 0) {
    return outcomeMistakes(outcome, expected, layouts).filter((id) => catalogue.has(id));
  }
  const specific = matches.find((id) =>
    matches.every(
      (other) => other === id || (catalogue.get(id)?.moreSpecificThan ?? []).includes(other),
    ),
  );
  return matches.length > 1 && specific !== undefined ? [specific] : matches;
}

/**
 * Whether the mistakes named on a program's crashes stand: only when every crash the diagnosis
 * looked at is explained by some mistake. A program that also crashes where no mistake explains
 * it crashes for a reason of its own, so a crash elsewhere is no evidence of a named mistake
 * either (e.g. a crash on every case is not `unknown-topic-crash` on the case with an unknown
 * topic).
 *
 * @param crashes the mistakes named on each diagnosed case the program crashed on
 */
export function crashNamesStand(crashes: readonly (readonly string[])[]): boolean {
  return crashes.every((named) => named.length > 0);
}
