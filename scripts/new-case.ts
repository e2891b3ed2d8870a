/**
 * `npm run new-case -- DIR [--input FILE] [--mode assign|decode|sync] [--slug NAME]`: scaffolds one
 * private case for `npm run grade -- ... --fixtures DIR` (instructor kit only).
 *
 * Reads the program's input JSON from FILE (or standard input), validates it against
 * fixtures/schema/input.schema.json, runs the reference solution on it to compute the answer
 * (exit 0: its output; exit 1: the member whose bytes it rejected), and writes
 * DIR/<NN>-<slug>/ with input.json, expected.json and a case.json scaffold (TODO title,
 * description and hint; case-scaffold.ts) that already validates. NN is the next free number in
 * DIR. Never overwrites: an existing case with the same slug is an error, and so is a case in DIR
 * whose case.json still says TODO (fill it in first). Exit 0 on success; 2 with a message for bad
 * arguments, invalid input, an existing slug or an unfinished case; 1 when the kit itself failed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { expectedOutput } from "../grader/verdict/outcome.ts";
import { firstLine, memberOfErrorLine } from "../grader/verdict/verdict.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../grader/limits.ts";
import { SetupError } from "../grader/errors.ts";
import {
  FixtureSchemas,
  formatAjvErrors,
  type ProgramOutput,
  type Case,
  type DecodeOutput,
  type Expected,
  type Mode,
  type ProgramInput,
} from "../grader/cases/load.ts";
import { prepareProgram, runCase } from "../grader/run/prepare.ts";
import { KIT_ROOT } from "../grader/kit.ts";
// The case files' JSON layout, the same as fixtures/cases/ (one writer for both).
import { formatJson } from "../fixtures/recipes/write.ts";
import { unfinishedCases, unfinishedLines } from "../grader/cases/placeholders.ts";
import { scaffoldMeta } from "./case-scaffold.ts";

const USAGE = `Usage: npm run new-case -- DIR [--input FILE] [--mode assign|decode|sync] [--slug NAME]

Scaffolds a private case in DIR/<NN>-<slug>/ (DIR is created if needed): input.json from FILE
(or standard input), expected.json computed by the reference solution, and case.json with TODO
fields to fill in. Grade with it: npm run grade -- PATH --fixtures DIR
  --input FILE    the program's input (fixtures/schema/input.schema.json); default: standard input
  --mode MODE     assign (default), decode (the program runs with --decode) or sync (--sync)
  --slug NAME     the folder name after the number: lowercase letters, digits, '-' (default: case)`;

const TIMEOUT_MS = 20_000;

/** What one run of the script was asked to do. */
interface Request {
  dir: string;
  /** DIR as typed, for the paths printed. */
  dirArg: string;
  inputFile: string | undefined;
  mode: Mode;
  slug: string;
}

function parse(argv: string[], cwd: string): Request | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        input: { type: "string" },
        mode: { type: "string", default: "assign" },
        slug: { type: "string", default: "case" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new SetupError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new SetupError(`give exactly one DIR, the folder of private cases\n\n${USAGE}`);
  }
  if (values.mode !== "assign" && values.mode !== "decode" && values.mode !== "sync") {
    throw new SetupError(`--mode is assign, decode or sync, got ${JSON.stringify(values.mode)}`);
  }
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(values.slug)) {
    throw new SetupError(
      `--slug takes lowercase letters, digits and single '-' between them (e.g. idle-again), got ${JSON.stringify(values.slug)}`,
    );
  }
  return {
    dir: resolve(cwd, positionals[0]),
    dirArg: positionals[0],
    inputFile: values.input === undefined ? undefined : resolve(cwd, values.input),
    mode: values.mode,
    slug: values.slug,
  };
}

/** Reads and validates the input; the text written to input.json is the input, reformatted. */
function readInput(file: string | undefined, schemas: FixtureSchemas): ProgramInput {
  let text: string;
  try {
    if (file === undefined && process.stdin.isTTY) {
      process.stderr.write("reading the input JSON from standard input (end it with Ctrl-D)\n");
    }
    text = readFileSync(file ?? 0, "utf8");
  } catch (error) {
    throw new SetupError(`cannot read ${file ?? "standard input"}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SetupError(`${file ?? "standard input"} is not JSON: ${(error as Error).message}`);
  }
  if (!schemas.input(data)) {
    throw new SetupError(
      `${file ?? "standard input"} does not match fixtures/schema/input.schema.json:\n${formatAjvErrors(schemas.input.errors, "  ").join("\n")}`,
    );
  }
  return data as ProgramInput;
}

/** The next case number in DIR (and its digits); a case with this slug already there is an error. */
function nextNumber(
  dir: string,
  slug: string,
  shown: (path: string) => string,
): { number: number; width: number } {
  let highest = 0;
  let width = 2;
  if (!existsSync(dir)) return { number: 1, width };
  if (!statSync(dir).isDirectory()) throw new SetupError(`${shown(dir)} is a file, not a folder`);
  for (const name of readdirSync(dir)) {
    const match = /^(\d+)-(.*)$/.exec(name);
    if (match === null) continue;
    if (match[2] === slug) {
      throw new SetupError(
        `${shown(join(dir, name))} already exists: choose another --slug (nothing was written)`,
      );
    }
    highest = Math.max(highest, Number(match[1]));
    width = Math.max(width, (match[1] ?? "").length);
  }
  return { number: highest + 1, width };
}

/** Runs the reference solution on the case; returns its answer as expected.json holds it. */
async function referenceAnswer(c: Case): Promise<{ expected: Expected; note: string }> {
  const prepared = await prepareProgram(
    { kind: "folder", path: join(KIT_ROOT, "solution"), name: "reference" },
    { memoryMiB: MEMORY_MIB, timeoutMs: TIMEOUT_MS, outputCapBytes: OUTPUT_CAP_BYTES },
  );
  try {
    if (prepared.program === undefined) {
      throw new Error(`the reference solution does not build: ${prepared.errors.join("; ")}`);
    }
    const run = await runCase(prepared.program, c, {
      timeoutMs: TIMEOUT_MS,
      outputCapBytes: OUTPUT_CAP_BYTES,
    });
    const line = firstLine(run.stderr);
    if (run.exitCode === 0) {
      const output = JSON.parse(run.stdout) as ProgramOutput;
      // A decode case checks rackId only when some member has one (the rack stage), as --random's.
      const hasRacks =
        c.mode === "decode" &&
        Object.values(output as DecodeOutput).some((d) => (d.rackId ?? null) !== null);
      return {
        expected: {
          output: expectedOutput(c.mode, hasRacks, output) as ProgramOutput,
        },
        note: "the reference answered (exit 0)",
      };
    }
    const member = run.exitCode === 1 ? memberOfErrorLine(line) : undefined;
    if (member !== undefined) {
      return {
        expected: { error: { member } },
        note: `the reference rejected member ${JSON.stringify(member)}'s bytes (exit 1): ${line}`,
      };
    }
    if (run.exitCode === 2) {
      throw new SetupError(`the reference solution refused the input (exit 2):\n${run.stderr}`);
    }
    throw new Error(
      `the reference solution failed (exit ${String(run.exitCode)}${run.timedOut ? ", timed out" : ""}):\n${run.stderr}`,
    );
  } finally {
    prepared.cleanup();
  }
}

async function main(argv: string[]): Promise<number> {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const request = parse(argv, cwd);
  if (request === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // Paths as the user wrote DIR: relative to where they typed the command, unless DIR was absolute.
  const shown = (path: string) => (isAbsolute(request.dirArg) ? path : relative(cwd, path) || ".");
  // One case at a time: a scaffold left unfilled would reach students' reports as "TODO: ...".
  const unfinished = unfinishedCases(request.dir);
  if (unfinished.length > 0) {
    throw new SetupError(
      [
        `${shown(request.dir)} has a case still holding the scaffold's placeholders:`,
        ...unfinishedLines(unfinished, `  ${shown(request.dir)}/`),
        `Fill in those fields before adding another case (nothing was written).`,
      ].join("\n"),
    );
  }
  const schemas = new FixtureSchemas();
  const input = readInput(request.inputFile, schemas);
  const { number, width } = nextNumber(request.dir, request.slug, shown);
  const name = `${String(number).padStart(width, "0")}-${request.slug}`;
  const caseDir = join(request.dir, name);
  const inputText = `${formatJson(input)}\n`;

  const placeholder: Expected = { output: {} };
  const { expected, note } = await referenceAnswer({
    ...scaffoldMeta(request.mode, placeholder),
    id: name,
    dir: caseDir,
    inputText,
    input,
    expected: placeholder,
  });
  const meta = scaffoldMeta(request.mode, expected);

  // Everything must validate as the grader will check it, before anything is written.
  const problems = [
    ...(schemas.case(meta) ? [] : formatAjvErrors(schemas.case.errors, "case.json ")),
    ...(schemas.expected(expected)
      ? []
      : formatAjvErrors(schemas.expected.errors, "expected.json ")),
  ];
  if ("output" in expected && !schemas.output(request.mode)(expected.output)) {
    problems.push(...formatAjvErrors(schemas.output(request.mode).errors, "expected.json /output"));
  }
  if (problems.length > 0)
    throw new Error(`the scaffold does not validate:\n${problems.join("\n")}`);

  // mkdir without recursive for the case folder itself: it fails rather than reuse a folder.
  mkdirSync(request.dir, { recursive: true });
  try {
    mkdirSync(caseDir);
  } catch {
    throw new SetupError(`${shown(caseDir)} already exists: nothing was written`);
  }
  const files: [string, string][] = [
    ["input.json", inputText],
    ["expected.json", `${formatJson(expected)}\n`],
    ["case.json", `${formatJson(meta)}\n`],
  ];
  for (const [file, text] of files) writeFileSync(join(caseDir, file), text, { flag: "wx" });

  process.stdout.write(
    [
      ...files.map(([file]) => `wrote ${shown(join(caseDir, file))}`),
      `${note}`,
      ``,
      `Now review expected.json (computed by the reference) and fill in case.json (title, description, hint, points, mistakes, lesson).`,
      `Grade with it: npm run grade -- solution --fixtures ${shown(request.dir)}`,
      ``,
    ].join("\n"),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`new-case: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(
        `new-case: internal error of the kit:\n${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
