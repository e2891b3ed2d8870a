// `npm run build:diagnosis`: runs every mutant on every built-in case and writes
// grader/diagnose/diagnosis.json (the data the handout's grader diagnoses and draws from).
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import { DIAGNOSIS_FILE } from "../../diagnose/data.ts";
import { FixtureSchemas, loadCases } from "../../fixtures/load.ts";
import { BUILT_IN_CASES_DIR } from "../../kit.ts";
import { buildDiagnosisText } from "./diagnosis-json.ts";
import { LiveOutcomes } from "./live.ts";

const schemas = new FixtureSchemas();
const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
const started = performance.now();
const mutants = new LiveOutcomes(schemas);
try {
  writeFileSync(DIAGNOSIS_FILE, await buildDiagnosisText(cases, mutants));
} finally {
  mutants.dispose();
}
console.log(
  `wrote ${relative(process.cwd(), DIAGNOSIS_FILE)}: ${cases.length} cases, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
