/**
 * Every file `npm run generate` writes, by artefact: the input validators, the built-in cases
 * (from their recipes) and the diagnosis data (from running the mutants on those cases). Each
 * writer writes into a tree laid out like the kit, never into the kit itself: the CLI installs a
 * finished tree into the kit, and the currency test (test/e2e/generated.test.ts) compares one with it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { DIAGNOSIS_FILE } from "../grader/diagnose/data.ts";
import { FixtureSchemas, loadCases } from "../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR, KIT_ROOT } from "../grader/kit.ts";
import { buildDiagnosisText } from "../grader/instructor/mutants/diagnosis-json.ts";
import { LiveOutcomes } from "../grader/instructor/mutants/live.ts";
import { CASE_FILES, writeCases } from "../fixtures/recipes/write.ts";
import { VALIDATOR_TARGETS, validatorFiles } from "./validator-source.ts";

/** Each artefact generated, with its files relative to the tree written. */
export type Written = ReadonlyMap<Artefact, readonly string[]>;

/** The artefacts, in the order they are written (the diagnosis runs on the cases just written). */
export const ARTEFACTS = ["validator", "cases", "diagnosis"] as const;
export type Artefact = (typeof ARTEFACTS)[number];

const CASES = relative(KIT_ROOT, BUILT_IN_CASES_DIR);
const DIAGNOSIS = relative(KIT_ROOT, DIAGNOSIS_FILE);
const VALIDATOR_FILES = VALIDATOR_TARGETS.flatMap((target) => [
  `${target}/input-validator.js`,
  `${target}/input-validator.d.ts`,
]);

/** What each artefact is, for messages. */
export const ARTEFACT_DESCRIPTIONS: Readonly<Record<Artefact, string>> = {
  validator: `{${VALIDATOR_TARGETS.join(",")}}/input-validator.{js,d.ts} from the input schema`,
  cases: `${CASES}/*/{${CASE_FILES.join(",")}} from each folder's recipe.ts`,
  diagnosis: `${DIAGNOSIS} from every mutant run on every built-in case`,
};

/**
 * The files an artefact owns in the kit now, relative to the kit root: a file here that a fresh
 * generation does not write is stale.
 */
function ownedInKit(artefact: Artefact): string[] {
  switch (artefact) {
    case "validator":
      return VALIDATOR_FILES;
    case "cases":
      return readdirSync(BUILT_IN_CASES_DIR)
        .filter((name) => statSync(join(BUILT_IN_CASES_DIR, name)).isDirectory())
        .flatMap((name) => CASE_FILES.map((file) => `${CASES}/${name}/${file}`))
        .filter((path) => existsSync(join(KIT_ROOT, path)));
    case "diagnosis":
      return [DIAGNOSIS];
  }
}

function write(root: string, path: string, text: string): string {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  return path;
}

/**
 * Writes the artefacts into `root`, laid out like the kit.
 *
 * @param root a folder other than the kit (the cases writer empties its fixtures/cases first)
 * @param artefacts which to write; the diagnosis runs on the cases written here when they are
 *   among them, else on the kit's
 * @param log progress lines
 * @param mutants how the diagnosis runs the mutants: `shared` each mutant's cases in shared
 *   processes first, every case it does not pass cleanly there again alone (as a grading runs
 *   them; what diagnosis.json records), `processes` every run a sandboxed process of its own
 *   (--isolate: the same bytes, by the rule that only clean passes are kept), `threads` in worker
 *   threads wherever a thread can vouch for the outcome (live.ts; what --check compares with the
 *   record, so that a check also proves that the threads give the outcomes the processes gave)
 * @returns each artefact's files written, relative to `root`, in a stable order
 * @throws Error (or the grader's SetupError) when a recipe or a written case is invalid
 */
export async function generate(
  root: string,
  artefacts: readonly Artefact[] = ARTEFACTS,
  log: (line: string) => void = () => {},
  mutants: "shared" | "processes" | "threads" = "shared",
): Promise<Written> {
  if (resolve(root) === resolve(KIT_ROOT)) {
    throw new Error("generate writes into a copy; the CLI installs it into the kit");
  }
  const schemas = new FixtureSchemas();
  const all = new Map<Artefact, string[]>();
  let casesDir = BUILT_IN_CASES_DIR;
  for (const artefact of ARTEFACTS.filter((a) => artefacts.includes(a))) {
    const started = performance.now();
    const written: string[] = [];
    if (artefact === "validator") {
      const { js, dts } = validatorFiles();
      for (const target of VALIDATOR_TARGETS) {
        written.push(write(root, `${target}/input-validator.js`, js));
        written.push(write(root, `${target}/input-validator.d.ts`, dts));
      }
    } else if (artefact === "cases") {
      casesDir = join(root, CASES);
      const files = await writeCases(BUILT_IN_CASES_DIR, casesDir, schemas);
      written.push(...files.map((file) => `${CASES}/${file}`));
    } else {
      const cases = loadCases(casesDir, [], schemas);
      const runner = new LiveOutcomes(schemas, undefined, {
        processesOnly: mutants !== "threads",
      });
      try {
        if (mutants === "shared") await runner.shareRuns(cases);
        written.push(write(root, DIAGNOSIS, await buildDiagnosisText(cases, runner, casesDir)));
      } finally {
        runner.dispose();
      }
    }
    all.set(artefact, written);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`${artefact}: ${written.length} files, ${seconds} s`);
  }
  return all;
}

/** A generated file that is not the kit's, or a kit file nothing generates any more. */
export interface Difference {
  /** Relative to the kit root. */
  path: string;
  problem: "differs" | "missing from the kit" | "stale (not generated)";
}

/**
 * How the kit differs from a tree `generate` wrote: byte for byte, file by file, for each
 * artefact written (a kit file of that artefact that was not written is stale).
 *
 * @param written what generate returned for `root`
 */
export function differences(root: string, written: Written): Difference[] {
  const found: Difference[] = [];
  for (const path of [...written.values()].flat()) {
    const kitFile = join(KIT_ROOT, path);
    if (!existsSync(kitFile)) found.push({ path, problem: "missing from the kit" });
    else if (!readFileSync(kitFile).equals(readFileSync(join(root, path)))) {
      found.push({ path, problem: "differs" });
    }
  }
  const generated = new Set([...written.values()].flat());
  for (const path of [...written.keys()].flatMap(ownedInKit)) {
    if (!generated.has(path)) found.push({ path, problem: "stale (not generated)" });
  }
  return found;
}

/**
 * Copies what `generate` wrote into the kit, only the files whose bytes changed, and removes
 * nothing (a stale file is reported by `differences`).
 *
 * @returns the kit files changed, relative to the kit root
 */
export function install(root: string, written: Written): string[] {
  const changed: string[] = [];
  for (const path of [...written.values()].flat()) {
    const text = readFileSync(join(root, path));
    const kitFile = join(KIT_ROOT, path);
    if (existsSync(kitFile) && readFileSync(kitFile).equals(text)) continue;
    mkdirSync(dirname(kitFile), { recursive: true });
    writeFileSync(kitFile, text);
    changed.push(path);
  }
  return changed;
}
