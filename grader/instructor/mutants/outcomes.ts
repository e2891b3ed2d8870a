/**
 * Running the mutants: every mutant graded on a set of cases, each case's outcome kept. This is
 * the live diagnosis path (instructor kit) and what build-diagnosis.ts records.
 */
import { availableParallelism } from "node:os";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Outcome } from "../../compare/outcome.ts";
import type { Case, FixtureSchemas } from "../../fixtures/load.ts";
import { gradeSubmission } from "../../grade.ts";
import { MUTANTS, writeMutant } from "./mutants.ts";

/** Mistake id to case id to the mutant's outcome on that case. */
export type OutcomeMatrix = Map<string, Map<string, Outcome>>;

/**
 * Grades every mutant (or those in `ids`) on `cases` and keeps each outcome.
 *
 * @param timeoutMs per-case limit (mutants are the reference with one edit: they finish fast)
 */
export async function mutantOutcomes(
  cases: readonly Case[],
  schemas: FixtureSchemas,
  ids: readonly string[] = [...MUTANTS.keys()],
  timeoutMs = 20_000,
): Promise<OutcomeMatrix> {
  const matrix: OutcomeMatrix = new Map();
  for (const id of ids) {
    const dir = writeMutant(id);
    try {
      const results = await gradeSubmission({
        submission: { kind: "folder", path: dir, name: `mutant ${id}` },
        cases,
        schemas,
        timeoutMs,
        outputCapBytes: 4 * 1024 * 1024,
        memoryMiB: 512,
        concurrency: availableParallelism(),
        kit: { version: "", fixtures: "" },
        reporters: [],
        rerunCommand: () => "",
      });
      matrix.set(id, new Map(results.cases.map((r) => [r.id, r.verdict.outcome])));
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }
  return matrix;
}
