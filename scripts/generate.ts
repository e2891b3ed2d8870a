/**
 * `npm run generate -- [--only NAME,...] [--check | --out DIR]`: writes every generated file of
 * the kit (scripts/generated.ts lists them): the input validators, the built-in cases from their
 * recipes, and the diagnosis data. Everything is written into a temporary copy first and checked,
 * then only changed files are copied into the kit, so a failed run leaves the kit as it was.
 *
 * Exit 0 when done (with --check: when the kit is current); 1 when a recipe or a case is invalid
 * or (--check) a file differs; 2 for bad arguments.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  ARTEFACT_DESCRIPTIONS,
  ARTEFACTS,
  differences,
  generate,
  install,
  type Artefact,
} from "./generated.ts";

const USAGE = `Usage: npm run generate -- [--only NAME[,NAME...]] [--check | --out DIR] [--isolate]

Writes every generated file of the kit:
${ARTEFACTS.map((a) => `  ${a.padEnd(10)} ${ARTEFACT_DESCRIPTIONS[a]}`).join("\n")}
  --only NAMES  only these (comma-separated); the diagnosis uses the kit's cases unless
                cases is among them
  --check       write into a temporary folder and compare with the kit, byte for byte;
                exit 1 and list the files when any differs
  --out DIR     write into DIR, laid out like the kit, instead of into the kit
                (DIR/fixtures/cases is replaced)
  --isolate     the diagnosis runs every mutant on every case in a process of its own
                (by default each mutant's cases run in shared processes first, and only
                the cases it does not pass cleanly there run alone: the same outcomes)`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function parse(): {
  artefacts: Artefact[];
  check: boolean;
  out: string | undefined;
  isolate: boolean;
} {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        only: { type: "string" },
        check: { type: "boolean", default: false },
        out: { type: "string" },
        isolate: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.check && values.out !== undefined) fail("--check and --out go separately");
  const names = values.only === undefined ? [...ARTEFACTS] : values.only.split(",");
  const unknown = names.filter((n) => !(ARTEFACTS as readonly string[]).includes(n));
  if (unknown.length > 0) fail(`--only: unknown ${unknown.join(", ")}`);
  if (values.check && values.isolate) fail("--check runs the mutants in threads: no --isolate");
  return {
    artefacts: names as Artefact[],
    check: values.check,
    out: values.out,
    isolate: values.isolate,
  };
}

const { artefacts, check, out, isolate } = parse();
const root = out === undefined ? mkdtempSync(join(tmpdir(), "kit-generate-")) : resolve(out);
try {
  // A check runs the mutants in threads: equal to the record made by processes, it also shows that
  // the grader's live outcomes (live.ts) are the processes' outcomes.
  const mutants = check ? "threads" : isolate ? "processes" : "shared";
  const written = await generate(root, artefacts, (line) => console.log(line), mutants);
  const count = [...written.values()].flat().length;
  if (out !== undefined) {
    console.log(`wrote ${count} files into ${root}`);
  } else if (check) {
    const found = differences(root, written);
    for (const d of found) console.error(`${d.path}: ${d.problem}`);
    if (found.length > 0) {
      console.error(`${found.length} generated file(s) not current: run npm run generate`);
      process.exitCode = 1;
    } else {
      console.log(`all ${count} generated files are current`);
    }
  } else {
    const changed = install(root, written);
    for (const path of changed) console.log(`wrote ${path}`);
    for (const d of differences(root, written)) {
      console.error(`${d.path}: ${d.problem}; remove it by hand`);
      process.exitCode = 1;
    }
    console.log(`${changed.length} of ${count} generated files changed`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  if (out === undefined) rmSync(root, { recursive: true, force: true });
}
