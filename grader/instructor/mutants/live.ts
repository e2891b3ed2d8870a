/**
 * The live diagnosis path (instructor kit): for a case the data file does not cover (a private or
 * random case, or one edited since), build every mutant once and run each on that case.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { judge } from "../../compare/verdict.ts";
import { CATALOGUE } from "../../diagnose/catalogue.ts";
import type { Outcome } from "../../compare/outcome.ts";
import { mutantOffsets, outcomeHash } from "../../diagnose/data.ts";
import type { OutcomeSource } from "../../diagnose/diagnose.ts";
import type { Case, FixtureSchemas } from "../../fixtures/load.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../../context.ts";
import { prepareProgram, runCase, type Program } from "../../grade.ts";
import { writeMutant } from "./mutants.ts";

/**
 * Mutant outcomes found by running every mutant on the case (built once, kept per case), for
 * cases the recorded data does not cover. Call dispose() to remove what it built.
 */
export class LiveOutcomes implements OutcomeSource {
  private programs: Promise<Map<string, Program>> | undefined;
  private readonly cleanup: (() => void)[] = [];
  private readonly cache = new Map<string, Promise<Map<string, Outcome>>>();

  constructor(
    private readonly schemas: FixtureSchemas,
    private readonly timeoutMs = 20_000,
  ) {}

  /** Mistake id to that mutant's program, built on first use. */
  private build(): Promise<Map<string, Program>> {
    this.programs ??= (async () => {
      const programs = new Map<string, Program>();
      for (const id of CATALOGUE.keys()) {
        const dir = writeMutant(id);
        this.cleanup.push(() => rmSync(dirname(dir), { recursive: true, force: true }));
        const prepared = await prepareProgram(
          { kind: "folder", path: dir, name: `mutant ${id}` },
          { memoryMiB: MEMORY_MIB, timeoutMs: this.timeoutMs },
        );
        this.cleanup.push(prepared.cleanup);
        if (prepared.program === undefined) {
          throw new Error(`mutant ${id} does not build: ${prepared.errors.join("; ")}`);
        }
        programs.set(id, prepared.program);
      }
      return programs;
    })();
    return this.programs;
  }

  /** Every mutant's outcome on the case, run once per case and kept. */
  private outcomes(c: Case): Promise<Map<string, Outcome>> {
    let outcomes = this.cache.get(c.id);
    if (outcomes === undefined) {
      outcomes = (async () => {
        const limits = { timeoutMs: this.timeoutMs, outputCapBytes: OUTPUT_CAP_BYTES };
        const runs = await Promise.all(
          [...(await this.build())].map(async ([id, program]): Promise<[string, Outcome]> => {
            const run = await runCase(program, c, limits);
            return [id, judge(c, run, this.schemas.output(c.mode)).outcome];
          }),
        );
        return new Map(runs);
      })();
      this.cache.set(c.id, outcomes);
    }
    return outcomes;
  }

  async outcomesFor(c: Case): Promise<Map<string, string>> {
    return new Map([...(await this.outcomes(c))].map(([id, o]) => [id, outcomeHash(o)]));
  }

  async offsetsFor(c: Case): Promise<Map<string, number>> {
    return mutantOffsets(await this.outcomes(c));
  }

  /** Removes the mutants' folders and bundles. */
  dispose(): void {
    for (const clean of this.cleanup) clean();
  }
}
