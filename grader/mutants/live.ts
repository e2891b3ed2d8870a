/**
 * The live diagnosis path (instructor kit): for a case the data file does not cover (a private or
 * random case, or one edited since), build every mutant once and run each on that case.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { judge } from "../compare/verdict.ts";
import { CATALOGUE } from "../diagnose/catalogue.ts";
import { outcomeHash } from "../diagnose/data.ts";
import type { OutcomeSource } from "../diagnose/diagnose.ts";
import type { Case, FixtureSchemas } from "../fixtures/load.ts";
import { runCase } from "../grade.ts";
import { buildSubmission } from "../run/build.ts";
import { writeMutant } from "./mutants.ts";

export class LiveOutcomes implements OutcomeSource {
  private bundles: Promise<Map<string, string>> | undefined;
  private readonly cleanup: string[] = [];
  private readonly cache = new Map<string, Promise<Map<string, string>>>();

  constructor(
    private readonly schemas: FixtureSchemas,
    private readonly timeoutMs = 20_000,
  ) {}

  /** Mistake id to the path of that mutant's bundle, built on first use. */
  private build(): Promise<Map<string, string>> {
    this.bundles ??= (async () => {
      const bundles = new Map<string, string>();
      for (const id of CATALOGUE.keys()) {
        const dir = writeMutant(id);
        this.cleanup.push(dirname(dir));
        const built = await buildSubmission(dir);
        this.cleanup.push(built.outDir);
        if (built.bundle === undefined)
          throw new Error(`mutant ${id} does not build: ${built.errors.join("; ")}`);
        bundles.set(id, built.bundle);
      }
      return bundles;
    })();
    return this.bundles;
  }

  outcomesFor(c: Case): Promise<Map<string, string>> {
    let outcomes = this.cache.get(c.id);
    if (outcomes === undefined) {
      outcomes = (async () => {
        const workDir = mkdtempSync(join(tmpdir(), "kit-mutant-case-"));
        this.cleanup.push(workDir);
        const limits = {
          memoryMiB: 512,
          timeoutMs: this.timeoutMs,
          outputCapBytes: 4 * 1024 * 1024,
        };
        const runs = await Promise.all(
          [...(await this.build())].map(async ([id, bundle]): Promise<[string, string]> => {
            const run = await runCase(bundle, c, workDir, limits);
            return [id, outcomeHash(judge(c, run, this.schemas.output(c.mode)).outcome)];
          }),
        );
        return new Map(runs);
      })();
      this.cache.set(c.id, outcomes);
    }
    return outcomes;
  }

  /** Removes the mutants' folders and bundles. */
  dispose(): void {
    for (const dir of this.cleanup) rmSync(dir, { recursive: true, force: true });
  }
}
