/**
 * Naming the mistake: on a failed case, the submission's outcome is compared with every mutant's
 * outcome on the same input, and a match is named only with the mutant's own evidence (the field
 * it stopped in); several are named together, unless the catalogue declares one of them more
 * specific than the rest; with none, the kind of outcome may name one by itself (a crash on bad
 * bytes); else the case's hint is shown. The starter's stubs, timeouts and other limits are never
 * named as mistakes.
 */
import {
  BAD_INPUT_LINE,
  ERROR_LINE,
  ERROR_NAME_LINE,
  LINE_END,
  NOT_A_NUMBER,
  PRINTABLE_ESCAPE,
  REPORTED_OFFSET,
  UNCAUGHT_WHERE,
} from "../patterns.ts";
import type { Outcome } from "../verdict/outcome.ts";
import { sourceFrameOf } from "../verdict/verdict.ts";
import type { Case, SyncOutput } from "../cases/load.ts";
import { CATALOGUE, mistakeOf, type Mistake } from "./catalogue.ts";
import { caseHash } from "../cases/hash.ts";
import { loadDiagnosisData, outcomeHash, type CaseDiagnosis, type MemberBytes } from "./data.ts";
import { hiddenOn, syncMistakes } from "./sync-evidence.ts";

/** Where mutant outcomes come from: the data file, or running the mutants (instructor kit). */
export interface OutcomeSource {
  /** Mutant name to outcome hash on this case, or undefined when this source cannot tell. */
  outcomesFor(c: Case): Promise<Map<string, string> | undefined>;
  /**
   * Like outcomesFor, but only from what is at hand (recorded, or already run): undefined rather
   * than running anything. For cases a program passed, whose outcomes are a bonus.
   */
  knownOutcomesFor?(c: Case): Promise<Map<string, string> | undefined>;
  /** Mutant name to the offset it reported when it rejected bytes (the field it stopped in). */
  offsetsFor?(c: Case): Promise<Map<string, number> | undefined>;
  /** Mutant name to the member it rejected, for mutants whose outcome rejected a member's bytes. */
  rejectionsFor?(c: Case): Promise<Map<string, string> | undefined>;
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
  knownOutcomesFor(c: Case): Promise<Map<string, string> | undefined> {
    return this.outcomesFor(c);
  }
  offsetsFor(c: Case): Promise<Map<string, number> | undefined> {
    return Promise.resolve(this.caseData(c)?.offsets);
  }
  rejectionsFor(c: Case): Promise<Map<string, string> | undefined> {
    return Promise.resolve(this.caseData(c)?.rejected);
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
  async knownOutcomesFor(c: Case): Promise<Map<string, string> | undefined> {
    for (const source of this.sources) {
      const outcomes = await source.knownOutcomesFor?.(c);
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
  async rejectionsFor(c: Case): Promise<Map<string, string> | undefined> {
    // The rejections of the source whose outcomes are used.
    for (const source of this.sources) {
      if ((await source.outcomesFor(c)) !== undefined) return source.rejectionsFor?.(c);
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

/**
 * Outcomes a mutant can share with a student's program (not stubs, limits or build errors, nor an
 * answer far larger than the case allows, whose content is never read).
 */
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
  /** A member's subscription bytes (from the case's input), for the values a program reports. */
  memberBytes?: ((memberId: string) => Uint8Array | undefined) | undefined;
}

/** Fields read as integers: versions, lengths, counts, generation ids, partition numbers. */
const INTEGER_FIELD = /(^version$| length$| count$|^generationId$|\.partitions\[\d+\]$)/;
/** The most numbers of an error line looked at, and the most characters (it is program text). */
const LINE_NUMBERS = 20;
const LINE_CHARS = 1000;

/**
 * The numbers a program's error line reports beside its offset: every integer in the line after
 * `error: member "<id>"` (the id as the program wrote it), but the `at offset N` one and the
 * escapes the verdict wrote for unsafe characters (`\u2028` is no number of the program's); at
 * most LINE_NUMBERS, from the first LINE_CHARS after the id. None for a line not in that form.
 *
 * @param line the program's first line of standard error, as the verdict keeps it (printable)
 */
export function reportedNumbers(line: string): number[] {
  const prefix = BAD_INPUT_LINE.exec(line)?.[0];
  if (prefix === undefined) return [];
  const text = line
    .slice(prefix.length)
    .replace(PRINTABLE_ESCAPE, " ")
    .replace(REPORTED_OFFSET, " ");
  const tokens = text.slice(0, LINE_CHARS).split(NOT_A_NUMBER);
  // The last token of a line cut short may be a number cut short.
  if (text.length > LINE_CHARS) tokens.pop();
  const numbers = tokens
    .filter((token) => token !== "")
    .map(Number)
    .filter(Number.isSafeInteger);
  return [...new Set(numbers)].slice(0, LINE_NUMBERS);
}

/**
 * Mistakes a rejection of bytes Kafka reads shows by the values the program reports, tested on
 * the bytes themselves (one hypothesis per mistake). `little-endian`: at the offset the program
 * reported, an integer field starts or ends whose bytes, read little-endian (signed or not), give
 * a length or count too large for the bytes that remain, or a negative one, that no big-endian
 * reading gives; and the line reports that little-endian value (or it plus the field's own width,
 * a length counted with its prefix), and no big-endian one (nor a big-endian length plus the
 * width). A line that reports no such value, or bytes that read the same both ways (ffffffff),
 * show nothing.
 *
 * @param outcome the program's rejection (its member, offset and error line)
 * @param bytes that member's subscription bytes; layout: their fields (grader/diagnose/data.ts)
 * @returns mistake ids, [] when no hypothesis holds
 */
export function valueMistakes(
  outcome: Extract<Outcome, { kind: "error" }>,
  bytes: Uint8Array | undefined,
  layout: MemberBytes | undefined,
): string[] {
  const { offset, line } = outcome;
  if (bytes === undefined || layout === undefined || layout.error !== null) return [];
  if (offset === undefined || line === undefined) return [];
  const numbers = new Set(reportedNumbers(line));
  if (numbers.size === 0) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const span of layout.spans) {
    const width = span.end - span.start;
    if ((width !== 2 && width !== 4) || !INTEGER_FIELD.test(span.field)) continue;
    if (span.start !== offset && span.end !== offset) continue;
    const bigs =
      width === 2
        ? [view.getInt16(span.start), view.getUint16(span.start)]
        : [view.getInt32(span.start), view.getUint32(span.start)];
    if (bigs.some((big) => numbers.has(big) || (big >= 0 && numbers.has(big + width)))) continue;
    const littles =
      width === 2
        ? [view.getInt16(span.start, true), view.getUint16(span.start, true)]
        : [view.getInt32(span.start, true), view.getUint32(span.start, true)];
    const remaining = bytes.length - span.end;
    for (const little of littles) {
      if (bigs.includes(little) || (little >= 0 && little <= remaining)) continue;
      if (numbers.has(little) || numbers.has(little + width)) return ["little-endian"];
    }
  }
  return [];
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
 * an answer (of any size) where Kafka rejects a member's bytes, or a member rejected whose bytes Kafka reads
 * (for a case that expects an error, only when the case's recorded layout shows that member's
 * bytes are valid).
 */
export function outcomeMistakes(
  outcome: Outcome,
  expected: Case["expected"],
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): string[] {
  if ("error" in expected) {
    if (outcome.kind === "crash") return ["crash-on-bad-bytes"];
    if (outcome.kind === "output" || outcome.kind === "oversized") return ["bad-bytes-accepted"];
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
 * unless the catalogue declares one more specific than the rest; but a valid member rejected
 * whose reported value shows its mistake (valueMistakes) is named by that alone, first. When none
 * is, the outcome mistakes the outcome shows by itself are named (a crash or an answer on bad
 * bytes, a valid member rejected).
 *
 * @param outcome the program's outcome on the case
 * @param expected the case's expected outcome
 * @param mutantOutcomes mutant name to the hash of that mutant's outcome on the case
 * @returns catalogued ids in catalogue order; [] when nothing is shown or the outcome is not one a
 *   mutant can produce (stubs, limits, build errors); for an answer far larger than the case
 *   allows, only its outcome mistakes
 */
export function matchMistakes(
  outcome: Outcome,
  expected: Case["expected"],
  mutantOutcomes: ReadonlyMap<string, string>,
  evidence: Evidence = {},
): string[] {
  const { catalogue = CATALOGUE, offsets, layouts, memberBytes } = evidence;
  // An answer far larger than the case allows is still an answer (bad bytes accepted).
  if (outcome.kind === "oversized")
    return outcomeMistakes(outcome, expected, layouts).filter((id) => catalogue.has(id));
  if (!isDiagnosable(outcome)) return [];
  // A valid member rejected with the value that shows why: a field's own reading outweighs a
  // mutant that merely stopped in the same field.
  if (
    outcome.kind === "error" &&
    outcomeMistakes(outcome, expected, layouts).includes("valid-bytes-rejected")
  ) {
    const shownByValues = valueMistakes(
      outcome,
      memberBytes?.(outcome.member),
      layouts?.get(outcome.member),
    ).filter((id) => catalogue.has(id));
    if (shownByValues.length > 0) return shownByValues;
  }
  // An encoder's bytes read the way a mistake writes them: the bytes themselves are its evidence.
  if (outcome.kind === "output" && outcome.mode === "sync" && "output" in expected) {
    const read = syncMistakes(outcome.output as SyncOutput, expected.output as SyncOutput);
    const shownByBytes = [...catalogue.keys()].filter((id) => read.includes(id));
    if (shownByBytes.length > 0) return shownByBytes;
  }
  const hash = outcomeHash(outcome);
  const shown = new Set<string>();
  for (const [mutant, mutantHash] of mutantOutcomes) {
    if (mutantHash !== hash) continue;
    if (outcome.kind === "error" && !stoppedInSameField(outcome, offsets?.get(mutant), layouts))
      continue;
    const evidence = catalogue.get(mistakeOf(mutant))?.crashEvidence;
    if (outcome.kind === "crash" && evidence !== undefined && !evidence.test(outcome.stderr ?? ""))
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

/** Every crash's outcome hash (outcomeKey: every crash is one behaviour). */
const CRASH_HASH = outcomeHash({ kind: "crash", exitCode: null, signal: null });
/** The outcome hash of output that is not an answer. */
const INVALID_HASH = outcomeHash({ kind: "invalid-output" });

/**
 * The mistakes one of whose mutants failed the case the same way as the program in kind, not in
 * detail: rejected the same member's bytes (wherever it stopped), or, where Kafka rejects a
 * member, printed an answer (whatever answer). Nothing for other outcomes: every assignor mutant
 * gives some wrong answer, so a wrong answer alone says nothing of which. Used only with another
 * case's evidence (confirmNames rule 4).
 *
 * @param rejected mutant name to the member it rejected (mutants whose outcome was an error)
 * @returns mutant mistakes in catalogue order
 */
export function sameWayMistakes(
  outcome: Outcome,
  expected: Case["expected"],
  mutantOutcomes: ReadonlyMap<string, string>,
  rejected: ReadonlyMap<string, string>,
  catalogue: ReadonlyMap<string, Mistake> = CATALOGUE,
): string[] {
  const failsSameWay = (mutant: string, hash: string): boolean => {
    if (outcome.kind === "error") return rejected.get(mutant) === outcome.member;
    if ((outcome.kind === "output" || outcome.kind === "oversized") && "error" in expected)
      return !rejected.has(mutant) && hash !== CRASH_HASH && hash !== INVALID_HASH;
    return false;
  };
  const shown = new Set<string>();
  for (const [mutant, hash] of mutantOutcomes)
    if (failsSameWay(mutant, hash)) shown.add(mistakeOf(mutant));
  return [...catalogue.values()]
    .filter((m) => m.evidence === "mutant" && shown.has(m.id))
    .map((m) => m.id);
}

/**
 * The mistakes that predict a crash on the case: one of whose mutants crashed on it, and the
 * outcome mistake a crash there shows (a crash where Kafka rejects the bytes).
 */
export function crashPredictors(
  expected: Case["expected"],
  mutantOutcomes: ReadonlyMap<string, string>,
): Set<string> {
  const ids = new Set<string>();
  for (const [mutant, hash] of mutantOutcomes) if (hash === CRASH_HASH) ids.add(mistakeOf(mutant));
  if ("error" in expected) ids.add("crash-on-bad-bytes");
  return ids;
}

/** The outcome a case expects, as the verdict compares it. */
function expectedOutcome(c: Case): Outcome {
  return "error" in c.expected
    ? { kind: "error", member: c.expected.error.member }
    : { kind: "output", mode: c.mode, output: c.expected.output };
}

/**
 * The mutant mistakes every one of whose mutants fails the case (their outcome is not the
 * expected one): a program that passes it does not have them.
 *
 * @param mutantOutcomes mutant name to the hash of its outcome on the case
 */
export function mistakesFailing(c: Case, mutantOutcomes: ReadonlyMap<string, string>): Set<string> {
  const right = outcomeHash(expectedOutcome(c));
  const passes = new Set<string>();
  const mistakes = new Set<string>();
  for (const [mutant, hash] of mutantOutcomes) {
    mistakes.add(mistakeOf(mutant));
    if (hash === right) passes.add(mistakeOf(mutant));
  }
  return new Set([...mistakes].filter((id) => !passes.has(id)));
}

/**
 * Where a crash happened, as a crash's identity across cases: the error's type and the first
 * frame in the program's own sources (`TypeError @ src/range-assignor.ts:41`), or the error's
 * line when no frame is given. Not the message: a program's own `throw new Error(...)` often
 * names the case's data, and the same throw on two cases is the same crash.
 *
 * @param stderr the start of the program's standard error as it died (Outcome crash.stderr)
 */
export function crashSignature(stderr: string | undefined): string {
  const lines = (stderr ?? "").split(LINE_END).slice(0, 40);
  const error = lines.find((l) => ERROR_LINE.test(l.trim()) || ERROR_NAME_LINE.test(l.trim()));
  const type = error === undefined ? "" : (error.trim().split(":")[0] ?? "");
  const where = lines.find((l) => UNCAUGHT_WHERE.test(l.trim()))?.trim();
  const frame = lines.map((l) => sourceFrameOf(l.trim())).find((f) => f !== undefined);
  const place = where ?? (frame === undefined ? undefined : `${frame.file}:${frame.line}`);
  return place === undefined ? (error?.trim() ?? lines[0] ?? "") : `${type} @ ${place}`;
}

/** What the submission-level pass needs of one graded case (see confirmNames). */
export interface NamedCase {
  /** The case passed. */
  passed: boolean;
  /** The case is a required one (not an extension case). */
  required: boolean;
  /** The mistakes matchMistakes named on it (for a failed case with diagnosis data). */
  named: readonly string[];
  /**
   * When the names are the mistakes the program's bytes show (sync-evidence.ts shownByBytes):
   * the ways of writing that show them. Each name is there, whatever the mutants' outcomes on
   * other cases say; but a passed sync case on which every one of those ways would have shown
   * (passedSync, hiddenOn) says the program does not write that way, and the names go.
   */
  byBytes?: readonly number[] | undefined;
  /** For a passed sync case: Kafka's answer, which the program's bytes equal. */
  passedSync?: Readonly<Record<string, string>> | undefined;
  /** The outcome mistakes its outcome shows by itself (outcomeMistakes), the fallback. */
  fallback: readonly string[];
  /** Diagnosis data covered the case (mutant outcomes were known). */
  diagnosed: boolean;
  /** The program crashed on it. */
  crashed: boolean;
  /** For a crash, where it happened (crashSignature). */
  crash?: string | undefined;
  /** The mistakes every one of whose mutants fails the case (from the diagnosis data). */
  failedByEveryMutantOf: ReadonlySet<string>;
  /**
   * The mistakes that predict a crash on this case: one of whose mutants crashed on it, and the
   * outcome mistake a crash here would show (a crash where Kafka rejects the bytes).
   */
  crashPredictedBy: ReadonlySet<string>;
  /**
   * For a failed case no mutant matched in detail: the mistakes one of whose mutants failed it the
   * same way (sameWayMistakes: accepted the bad bytes, or rejected the same member).
   */
  sameWay: readonly string[];
}

/**
 * The names that stand once every case of a submission is graded: a name on one case is a
 * promise about the whole program, so each is checked against what that mistake predicts for the
 * other cases (a precise name or none), and never withdrawn because another case failed for a
 * reason of its own:
 *
 * 1. A mutant mistake is dropped when the program passed a case that every mutant of it fails: a
 *    program with that mistake would have failed there too. An extension case contradicts only
 *    the extension stages' mistakes: a program's rack pass is often code of its own, where a
 *    mistake in its plain ranges does not reach. Names the program's bytes show (NamedCase
 *    `byBytes`) are checked by the way of writing that shows them instead: a mutant writes a
 *    mistake one way, and another way (one field little-endian) may show on fewer cases. They go,
 *    all together, when the program passed a sync case on which that way would have shown.
 * 2. A name on a crash is dropped when the program crashed at the same place (crashSignature) on
 *    a required case where that mistake predicts no crash: the crash is not that mistake's (a
 *    crash on every case is not `unknown-topic-crash` on the case with an unknown topic). A crash
 *    elsewhere at another place, or on an extension case, leaves the name alone (a program with a
 *    second mistake, or a stage not started).
 * 3. Where a case names several mistakes and some of them are named alone on another case, only
 *    those stay: the program has been shown to have them, and they explain this case as well.
 *    Not for names a program's bytes show: each of those is there.
 * 4. A failed case left with no name, whose outcome some mistake's mutants share in kind
 *    (`sameWay`), gets those of them another case shows (named alone there): the mistake shown
 *    elsewhere predicts this failure too (an unsigned user-data length rejects a valid member here
 *    at another offset, a decoder that stops after version 0's fields accepts these bad bytes).
 *
 * A case left with no name gets its outcome mistakes (a crash or an answer on bad bytes, a valid
 * member rejected), as matchMistakes gives when no mutant matches, unless it is a crash whose
 * names rule 2 dropped.
 *
 * @param cases every case of the submission, in any order
 * @returns the names for each case, in the same order
 */
export function confirmNames(
  cases: readonly NamedCase[],
  catalogue: ReadonlyMap<string, Mistake> = CATALOGUE,
): string[][] {
  const contradicted = new Set<string>();
  for (const c of cases) {
    if (!c.passed) continue;
    for (const id of c.failedByEveryMutantOf)
      if (c.required || catalogue.get(id)?.extension === true) contradicted.add(id);
  }
  const notItsCrash = (c: NamedCase, id: string) =>
    c.crashed &&
    cases.some(
      (other) =>
        other.diagnosed &&
        other.crashed &&
        other.required &&
        other.crash === c.crash &&
        !other.crashPredictedBy.has(id),
    );
  // Crashes whose every remaining name rule 2 took: they keep no outcome name either.
  const dropped = new Set<number>();
  let named = cases.map((c, i) => {
    const byBytes = c.byBytes;
    const uncontradicted =
      byBytes === undefined
        ? c.named.filter((id) => !contradicted.has(id))
        : cases.some((p) => p.passedSync !== undefined && !hiddenOn(byBytes, p.passedSync))
          ? []
          : c.named;
    const kept = uncontradicted.filter((id) => !notItsCrash(c, id));
    if (kept.length === 0 && uncontradicted.length > 0 && c.crashed) dropped.add(i);
    return kept;
  });
  const alone = new Set(named.filter((n) => n.length === 1).map((n) => n[0] ?? ""));
  named = named.map((n, i) => {
    if (cases[i]?.byBytes !== undefined) return n;
    const shown = n.filter((id) => alone.has(id));
    return n.length > 1 && shown.length > 0 ? shown : n;
  });
  // Mistakes shown by a mutant's own evidence somewhere (not an outcome's class alone).
  const shownAlone = new Set(
    named.flatMap((n, i) =>
      n.length === 1 && !(cases[i]?.fallback ?? []).includes(n[0] ?? "") ? n : [],
    ),
  );
  return named.map((n, i) => {
    const c = cases[i];
    if (c === undefined || c.passed) return n;
    // Only the outcome's class (matchMistakes found no mutant): what another case shows first.
    if (n.every((id) => c.fallback.includes(id))) {
      const shownElsewhere = c.sameWay.filter((id) => shownAlone.has(id) && !contradicted.has(id));
      if (shownElsewhere.length > 0) return shownElsewhere;
    }
    if (n.length > 0) return n;
    if (dropped.has(i)) return [];
    return c.fallback.filter((id) => !notItsCrash(c, id));
  });
}
