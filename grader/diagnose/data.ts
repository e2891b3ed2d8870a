/**
 * The diagnosis data file, grader/diagnose/diagnosis.json: for every built-in case, each mutant's
 * outcome (as a hash) and the field boundaries of each member's subscription bytes. Written by
 * `npm run build:diagnosis` in the instructor kit; the student handout ships it instead of the
 * mutants, so the grader can name mistakes and draw hex dumps without any reference code.
 * Everything keyed by a member id or mutant name is stored as [key, value] pairs and read into Maps.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { outcomeKey, type Outcome } from "../verdict/outcome.ts";
import { KIT_ROOT } from "../kit.ts";

export const DIAGNOSIS_FILE = join(KIT_ROOT, "grader", "diagnose", "diagnosis.json");

/** One field of a subscription's bytes: [start, end) offsets and a short rendering of its value. */
export interface FieldSpan {
  field: string;
  start: number;
  end: number;
  value: string;
}

/** How a member's bytes read: their fields, and where Kafka's reading stops if they are bad. */
export interface MemberBytes {
  spans: FieldSpan[];
  error: { field: string; offset: number; message: string } | null;
}

export interface CaseDiagnosis {
  /** Hash of the case's files: a case edited since the data was built is not diagnosed from it. */
  hash: string;
  /** Mutant name (grader/instructor/mutants: a mistake id, or id:form) to the hash of its outcome on the case. */
  outcomes: Map<string, string>;
  /** Mutant name to the offset its error line reported, for mutants that rejected bytes. */
  offsets: Map<string, number>;
  /** Mutant name to the member it rejected, for mutants whose outcome rejected a member's bytes. */
  rejected: Map<string, string>;
  /** Member id to its bytes' fields (small cases only). */
  members: Map<string, MemberBytes>;
}

/** The file's JSON shape. */
export interface DiagnosisJson {
  note: string;
  /**
   * A hash of everything the outcomes depend on (diagnosisInputs, instructor kit): equal when the
   * file was generated from the kit's present sources, cases and packages.
   */
  inputs?: string;
  cases: {
    id: string;
    hash: string;
    outcomes: [string, string][];
    offsets?: [string, number][];
    rejected?: [string, string][];
    members: [string, MemberBytes][];
  }[];
}

/** 16 hex digits of SHA-256 of an outcome's key: equal hashes mean the same behaviour. */
export function outcomeHash(outcome: Outcome): string {
  return createHash("sha256").update(outcomeKey(outcome)).digest("hex").slice(0, 16);
}

/** Mutant name to the offset reported by mutants whose outcome rejected a member's bytes. */
export function mutantOffsets(outcomes: ReadonlyMap<string, Outcome>): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const [id, o] of outcomes)
    if (o.kind === "error" && o.offset !== undefined) offsets.set(id, o.offset);
  return offsets;
}

/** Mutant name to the member it rejected, for mutants whose outcome rejected a member's bytes. */
export function mutantRejections(outcomes: ReadonlyMap<string, Outcome>): Map<string, string> {
  const rejected = new Map<string, string>();
  for (const [id, o] of outcomes) if (o.kind === "error") rejected.set(id, o.member);
  return rejected;
}

/**
 * Reads the data file into Maps, by case id.
 * @returns an empty Map when the file does not exist (a kit without diagnosis data)
 */
export function loadDiagnosisData(file = DIAGNOSIS_FILE): Map<string, CaseDiagnosis> {
  if (!existsSync(file)) return new Map();
  const json = JSON.parse(readFileSync(file, "utf8")) as DiagnosisJson;
  return new Map(
    json.cases.map((c) => [
      c.id,
      {
        hash: c.hash,
        outcomes: new Map(c.outcomes),
        offsets: new Map(c.offsets ?? []),
        rejected: new Map(c.rejected ?? []),
        members: new Map(c.members),
      },
    ]),
  );
}
