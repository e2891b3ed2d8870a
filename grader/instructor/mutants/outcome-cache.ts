/**
 * The mutants' outcomes on cases diagnosis.json does not cover (private, random or edited cases),
 * kept between grading runs (instructor kit). Without it, every run that met such a case ran every
 * mutant on it again (live.ts), for the same case and the same sources, so regrading with the
 * same --fixtures or --random N --seed S cost that each time.
 *
 * Kept in the kit's own .grader/ folder (never a shared temporary folder a submission could write;
 * programs never see it, run/program.ts), one folder per hash of what an outcome depends on: the
 * files diagnosis.json's hash covers, the built-in cases aside (OUTCOME_SOURCES), and Node's
 * version. In it, one JSON file per case, named by a hash of the case's mode, input and expected
 * answer, the mutants asked for and their limits: the same case gets the same file whatever its
 * id or folder. Written atomically (a temporary name, then rename); the folders of other hashes
 * are removed when a new one is made. A kit folder that cannot be written, or a file that cannot
 * be read, just means the mutants run.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Case } from "../../cases/load.ts";
import { KIT_ROOT } from "../../kit.ts";
import type { Outcome } from "../../verdict/outcome.ts";
import { CACHE_ROOT, hashFiles } from "./bundle-cache.ts";

/**
 * What a mutant's outcome on a case depends on besides the case, relative to the kit: the
 * reference and the replacements made of it, how a program is built, run and judged, and the
 * locked packages. diagnosis.json's hash covers these and the built-in cases.
 */
export const OUTCOME_SOURCES = [
  "solution/src/**",
  "grader/instructor/mutants/**",
  "grader/run/**",
  "grader/verdict/**",
  // The patterns the verdict reads standard error with (memory death, bad-input lines).
  "grader/patterns.ts",
  "grader/grade.ts",
  "grader/limits.ts",
  "grader/launch.mjs",
  "grader/cases/*.ts",
  "grader/diagnose/data.ts",
  "package-lock.json",
];

/** Mutant outcomes per case, kept on disk for the kit's present sources. */
export class OutcomeCache {
  private folder: string | undefined;

  /** The folder for the present sources (hashed once per instance). */
  private dir(): string {
    this.folder ??= join(
      CACHE_ROOT,
      `outcomes-${hashFiles(KIT_ROOT, OUTCOME_SOURCES, `${process.version}\0`)}`,
    );
    return this.folder;
  }

  /** The file that keeps the outcomes of case `c` run by mutants `ids` under `limits`. */
  file(c: Case, ids: readonly string[], limits: object): string {
    const key = createHash("sha256")
      .update(JSON.stringify([c.mode, c.inputText, c.expected, ids, limits]))
      .digest("hex")
      .slice(0, 32);
    return join(this.dir(), `${key}.json`);
  }

  /**
   * The outcomes kept for this case, mutants and limits: every id's, in `ids` order; undefined
   * when none are kept (or the file is not what this class writes).
   */
  read(c: Case, ids: readonly string[], limits: object): Map<string, Outcome> | undefined {
    try {
      const kept = JSON.parse(readFileSync(this.file(c, ids, limits), "utf8")) as unknown;
      if (!Array.isArray(kept) || kept.length !== ids.length) return undefined;
      const outcomes = new Map<string, Outcome>();
      ids.forEach((id, i) => {
        const entry: unknown = kept[i];
        const [keptId, outcome] = Array.isArray(entry) ? (entry as unknown[]) : [];
        const kind = (outcome as { kind?: unknown } | null | undefined)?.kind;
        if (keptId !== id || typeof kind !== "string") throw new Error("not an entry");
        outcomes.set(id, outcome as Outcome);
      });
      return outcomes;
    } catch {
      return undefined;
    }
  }

  /** Keeps the outcomes of this case, mutants and limits; a folder that cannot be written keeps nothing. */
  keep(
    c: Case,
    ids: readonly string[],
    limits: object,
    outcomes: ReadonlyMap<string, Outcome>,
  ): void {
    const dir = this.dir();
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      const file = this.file(c, ids, limits);
      const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
      writeFileSync(temporary, JSON.stringify(ids.map((id) => [id, outcomes.get(id)])), {
        mode: 0o644,
      });
      renameSync(temporary, file);
      // Outcomes of earlier sources are never read again.
      for (const name of readdirSync(CACHE_ROOT)) {
        if (name.startsWith("outcomes-") && join(CACHE_ROOT, name) !== dir)
          rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
      }
    } catch {
      // A read-only kit: the mutants run every time.
    }
  }
}
