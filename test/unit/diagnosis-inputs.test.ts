// grader/diagnose/diagnosis.json records the mutants' outcomes on every case, and the hash of the
// inputs those outcomes depend on (the reference's sources, the mutants, the cases, the packages
// that build and run them): a hash that is not today's means the file is stale. Checked in
// process; that the recorded outcomes are what the mutants do is test/e2e/generated.test.ts's
// live spot check.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIAGNOSIS_FILE, type DiagnosisJson } from "../../grader/diagnose/data.ts";
import { diagnosisInputs } from "../../grader/instructor/mutants/diagnosis-json.ts";

describe("grader/diagnose/diagnosis.json", () => {
  it("was generated from the kit's present inputs", () => {
    const json = JSON.parse(readFileSync(DIAGNOSIS_FILE, "utf8")) as DiagnosisJson;
    expect(
      json.inputs,
      "a source, case or package the mutants' outcomes depend on changed: npm run generate",
    ).toBe(diagnosisInputs());
  });
});
