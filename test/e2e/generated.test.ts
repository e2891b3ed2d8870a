// Every generated file is current: the input validators and the built-in cases are regenerated
// into a temporary folder (from the schema and the recipes) and must equal the kit's files byte for
// byte (that grader/diagnose/diagnosis.json's recorded hash of its inputs is today's is
// test/unit/diagnosis-inputs.test.ts's, in process), and a live spot check runs every mutant
// on a case its mistake is claimed by: the outcome is the recorded one, and the grader names that
// mistake alone from it. Running every mutant on every case again (`npm run generate -- --check`,
// a minute and a half on 2 cores) is CI's, after npm test (.ci/run).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDiagnosisData } from "../../grader/diagnose/data.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { CASE_FILES } from "../../fixtures/recipes/write.ts";
import { differences, generate, type Written } from "../../scripts/generated.ts";
import { VALIDATOR_TARGETS } from "../../scripts/validator-source.ts";
import { ROOT } from "../helpers/program.ts";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { CATALOGUE, mistakeOf } from "../../grader/diagnose/catalogue.ts";
import { FileOutcomes, matchMistakes } from "../../grader/diagnose/diagnose.ts";
import { LiveOutcomes } from "../../grader/instructor/mutants/live.ts";
import { MUTANTS } from "../../grader/instructor/mutants/mutants.ts";

describe("the generated files are current (npm run generate)", () => {
  const root = mkdtempSync(join(tmpdir(), "kit-generated-"));
  let written: Written = new Map();
  beforeAll(async () => {
    written = await generate(root, ["validator", "cases"]);
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

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

  it("nothing else generated differs or is stale", () => {
    expect([...written.keys()]).toEqual(["validator", "cases"]);
    expect(differences(root, written)).toEqual([]);
  });
});

describe("the recorded outcomes, spot-checked live: each mutant on a case that claims its mistake", () => {
  const schemas = new FixtureSchemas();
  const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
  const recorded = new FileOutcomes(loadDiagnosisData());
  const mutantMistakes = [...CATALOGUE.values()].filter((m) => m.evidence === "mutant");
  const runners: LiveOutcomes[] = [];
  afterAll(() => {
    for (const runner of runners) runner.dispose();
  });

  it.each(mutantMistakes.map((m) => [m.id] as const))(
    "%s: its mutants do what diagnosis.json says, and the grader names it alone",
    async (id) => {
      const c = cases.find((k) => k.mistakes.includes(id));
      if (c === undefined) throw new Error(`no case claims ${id}`);
      const data = recorded.caseData(c);
      if (data === undefined) throw new Error(`${c.id} is not in diagnosis.json`);
      const forms = [...MUTANTS.keys()].filter((name) => mistakeOf(name) === id);
      const runner = new LiveOutcomes(schemas, forms);
      runners.push(runner);
      const live = await runner.outcomes(c);
      const hashes = await runner.outcomesFor(c);
      for (const form of forms) expect(hashes.get(form), form).toBe(data.outcomes.get(form));
      const evidence = { offsets: data.offsets, layouts: data.members };
      const named = [...live.values()].map((outcome) =>
        matchMistakes(outcome, c.expected, data.outcomes, evidence),
      );
      expect(named, `${id} on ${c.id}`).toContainEqual([id]);
    },
    120_000,
  );
});
