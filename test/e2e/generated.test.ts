// Every generated file is current: what `npm run generate` writes (scripts/generated.ts) is
// regenerated into a temporary folder (the input validators, the built-in cases from their
// recipes, the diagnosis data from running every mutant on those cases) and must equal the kit's
// files byte for byte, with no generated file left over in the kit.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIAGNOSIS_FILE } from "../../grader/diagnose/data.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { CASE_FILES } from "../../fixtures/recipes/write.ts";
import { differences, generate, type Written } from "../../scripts/generated.ts";
import { VALIDATOR_TARGETS } from "../../scripts/validator-source.ts";
import { ROOT } from "../helpers/program.ts";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { CATALOGUE, mistakeOf } from "../../grader/diagnose/catalogue.ts";
import { matchMistakes } from "../../grader/diagnose/diagnose.ts";
import { outcomeKey, type Outcome } from "../../grader/verdict/outcome.ts";
import { LiveOutcomes, memberLayouts } from "../../grader/instructor/mutants/live.ts";

/** "pass" when an outcome is the case's expected one (as the verdict decides), else "fail". */
function judgedOutcome(c: Case, outcome: Outcome): "pass" | "fail" {
  const expected: Outcome =
    "error" in c.expected
      ? { kind: "error", member: c.expected.error.member }
      : { kind: "output", mode: c.mode, output: c.expected.output };
  return outcomeKey(outcome) === outcomeKey(expected) ? "pass" : "fail";
}

describe("the generated files are current (npm run generate)", () => {
  const root = mkdtempSync(join(tmpdir(), "kit-generated-"));
  let written: Written = new Map();
  const schemas = new FixtureSchemas();
  // Kept after generating: every mutant's real outcome on every case, for the naming check below.
  const mutants = new LiveOutcomes(schemas);
  // The diagnosis runs every mutant on every case: a few minutes on 2 cores.
  beforeAll(async () => {
    written = await generate(root, undefined, undefined, mutants);
  }, 900_000);
  afterAll(() => {
    mutants.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(VALIDATOR_TARGETS)("%s/input-validator.* is what the schema compiles to", (target) => {
    for (const file of ["input-validator.js", "input-validator.d.ts"]) {
      expect(readFileSync(join(ROOT, target, file), "utf8"), `${target}/${file}`).toBe(
        readFileSync(join(root, target, file), "utf8"),
      );
    }
  });

  it("fixtures/cases is exactly what the recipes write", () => {
    const out = join(root, "fixtures", "cases");
    const names = readdirSync(BUILT_IN_CASES_DIR).sort();
    expect(readdirSync(out).sort()).toEqual(names);
    for (const name of names) {
      for (const file of CASE_FILES) {
        const same = readFileSync(join(out, name, file)).equals(
          readFileSync(join(BUILT_IN_CASES_DIR, name, file)),
        );
        expect(same, `${name}/${file} differs from its recipe's output`).toBe(true);
      }
    }
  });

  it("grader/diagnose/diagnosis.json is what running the mutants on those cases gives", () => {
    expect(readFileSync(DIAGNOSIS_FILE, "utf8")).toBe(
      readFileSync(join(root, "grader", "diagnose", "diagnosis.json"), "utf8"),
    );
  });

  it("every mutant mistake is named alone, from a mutant's real outcome, on at least one case", async () => {
    const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
    const namedAlone = new Map<string, string>();
    for (const c of cases) {
      const outcomes = await mutants.outcomes(c);
      const evidence = { offsets: await mutants.offsetsFor(c), layouts: memberLayouts(c) };
      const hashes = await mutants.outcomesFor(c);
      for (const [name, outcome] of outcomes) {
        const verdict = judgedOutcome(c, outcome);
        if (verdict === "pass") continue;
        const named = matchMistakes(outcome, c.expected, hashes, evidence);
        if (named.length === 1 && named[0] === mistakeOf(name)) namedAlone.set(named[0], c.id);
      }
    }
    const mutantMistakes = [...CATALOGUE.values()].filter((m) => m.evidence === "mutant");
    expect(mutantMistakes.filter((m) => !namedAlone.has(m.id)).map((m) => m.id)).toEqual([]);
  });

  it("every artefact is written and nothing generated differs or is stale", () => {
    expect([...written.keys()]).toEqual(["validator", "cases", "diagnosis"]);
    expect(differences(root, written)).toEqual([]);
  });
});
