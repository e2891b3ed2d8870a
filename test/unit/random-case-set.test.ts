// `--random N --seed S` as the grader loads it (context.ts loadCaseSet, in process): which cases
// the seed gives, how they are named, and that another seed gives others. That two gradings
// with the same N and S grade the same cases (the case set's stamp in their results), that the
// reference passes them, that a wrong program's failure prints a rerun command that reproduces
// it, and --list-cases with them are test/e2e/private-cases.test.ts's.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FixtureSchemas, type Case } from "../../grader/cases/load.ts";
import { loadCaseSet } from "../../grader/context.ts";

const schemas = new FixtureSchemas();

const randomSet = (count: number, seed: number) =>
  loadCaseSet({ fixtures: [], random: { count, seed } }, schemas);
/** The set of seed 42, generated once for the tests below. */
const seed42 = randomSet(3, 42);
const generated = <T extends { id: string }>(cases: readonly T[]) =>
  cases.filter((c) => c.id.startsWith("random/"));

describe("--random 3 --seed 42", () => {
  it("adds random/001 to random/003 after the built-in cases, titled with their seed", async () => {
    const cases = generated(await seed42);
    expect(cases.map((c) => c.id)).toEqual(["random/001", "random/002", "random/003"]);
    expect(cases.map((c) => c.title)).toEqual([1, 2, 3].map((n) => `random case ${n} (seed 42)`));
    // Seed 42 draws racks for cases 1 and 2 (a case with racks is an extension case), not for 3.
    expect(cases.map((c) => c.required)).toEqual([false, false, true]);
  });

  it("case 1 of seed 43 is another case than seed 42's", async () => {
    const input = (c: Case | undefined) => readFileSync(join(c?.dir ?? "", "input.json"), "utf8");
    const [first] = generated(await seed42);
    const [other] = generated(await randomSet(1, 43));
    expect(other?.id).toBe("random/001");
    expect(input(other)).not.toBe(input(first));
  });
});
