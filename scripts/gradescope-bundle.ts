/**
 * `npm run gradescope-bundle -- OUT [--fixtures DIR ...] [--types] [--extension POLICY]`: builds a Gradescope autograder from
 * the instructor kit. OUT gets what grading needs (package.json, package-lock.json, tsconfig.json,
 * grader/, fixtures/, starter/, LESSON.md, LICENSE; never solution/ or test/), Gradescope's two
 * entry points from templates/gradescope/ (setup.sh, run_autograder) at its root, and each
 * `--fixtures DIR` copied to OUT/private-cases/<DIR name>/ (so the cases keep their ids,
 * "<DIR name>/<case>"). OUT.zip, next to OUT, is the same tree zipped with those two files at the
 * zip's root: the file to upload as the assignment's autograder. `--types` bakes the grader's
 * `--types` into both entry points (gradescope-options.ts): every submission is type-checked
 * first, type errors failing the build. `--extension POLICY` (the grader's, totals.ts; default
 * bonus) is written to OUT/extension-policy, which run_autograder passes to the grader, so the
 * results' top-level score is the total under it. Prints every file it wrote, the policy, and
 * the points to set as the assignment's total on Gradescope.
 * Exit 0 on success, 2 with a message for bad arguments, an invalid private case, or one whose
 * case.json still holds new-case's TODO placeholders (each case and field named).
 */
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { zipSync, type Zippable } from "fflate";
import { globSync } from "tinyglobby";
import { SetupError } from "../grader/errors.ts";
import { FixtureSchemas, loadCases } from "../grader/cases/load.ts";
import { fixtureHash } from "../grader/cases/hash.ts";
import { BUILT_IN_CASES_DIR, KIT_ROOT, kitVersion } from "../grader/kit.ts";
import { unfinishedCases, unfinishedLines } from "../grader/cases/placeholders.ts";
import { bakeOptions, type BundleOptions } from "./gradescope-options.ts";
import {
  DEFAULT_EXTENSION_POLICY,
  EXTENSION_POLICY_SPELLINGS,
  extensionPolicyName,
  extensionPolicyRule,
  parseExtensionPolicy,
  policyTotal,
  type ExtensionPolicy,
} from "../grader/totals.ts";

/** The kit's files and folders a Gradescope autograder needs to grade. */
const BUNDLED = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "LESSON.md",
  "LICENSE",
  "grader",
  "fixtures",
  "starter",
] as const;
/** Gradescope's entry points, copied to OUT's root and made executable. */
const ENTRY_POINTS = ["setup.sh", "run_autograder"] as const;
const PRIVATE_CASES_DIR = "private-cases";
/** The file, at OUT's root, that holds the extension policy run_autograder grades with. */
const EXTENSION_POLICY_FILE = "extension-policy";

const USAGE = `Usage: npm run gradescope-bundle -- OUT [--fixtures DIR ...] [--types] [--extension POLICY]

Builds a Gradescope autograder in the folder OUT (which must not exist yet, or be empty) and
OUT.zip, the file to upload on Gradescope (Configure Autograder > Zip file upload).
  --fixtures DIR       private cases to grade with (repeatable), copied to OUT/${PRIVATE_CASES_DIR}/<DIR name>
  --types              type-check every submission first (the grader's --types): type errors fail
                       the build, and setup.sh installs typescript and @types/node for it
  --extension POLICY   how extension points enter each submission's score, as the grader's
                       --extension: ${EXTENSION_POLICY_SPELLINGS} (default bonus: added only once
                       every required case passes, as extra credit); written to
                       OUT/${EXTENSION_POLICY_FILE}. The summary says what to set as the
                       assignment's total points.`;

/**
 * Every file under `dir`, relative to it, with `/` separators, sorted (code unit order). Dot
 * files count; symbolic links, followed or not, do not.
 */
function filesUnder(dir: string): string[] {
  return globSync("**", { cwd: dir, dot: true, followSymbolicLinks: false }).sort();
}

/**
 * A zip archive (deflate, Unix permissions kept) of the files under `root`, paths relative to it,
 * in filesUnder's order, every entry stamped with the time of the call (as a DOS date, local
 * time). Only files: no entries for folders, which unzip tools create as needed.
 */
function zipFolder(root: string): Uint8Array {
  const mtime = new Date();
  const files: Zippable = {};
  // Flat keys with `/` (nested objects would add folder entries). Object keys keep insertion
  // order, so the archive is sorted too (save an integer-like top-level name, which OUT has not).
  for (const rel of filesUnder(root)) {
    const path = join(root, rel);
    const mode = statSync(path).mode & 0o777;
    // os 3 (Unix): the upper 16 bits of attrs are the file's st_mode, a regular file and its mode.
    files[rel] = [readFileSync(path), { os: 3, attrs: ((0o100000 | mode) << 16) >>> 0, mtime }];
  }
  return zipSync(files, { level: 6 });
}

/** What was written: a top-level file or folder of OUT (or OUT.zip) and its file count. */
interface Written {
  path: string;
  /** Files in it, for a folder; null for a file. */
  files: number | null;
}

/**
 * Builds the bundle in OUT and OUT.zip.
 *
 * @returns what it wrote, top-level entry by entry, and the assignment's total to set on
 *   Gradescope: full marks under the policy (totals.ts policyTotal's maxPoints) over every case,
 *   built-in and private
 */
function buildBundle(
  out: string,
  fixtures: readonly string[],
  options: BundleOptions,
  extension: ExtensionPolicy,
): { written: Written[]; fullMarks: number } {
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0)) {
    throw new SetupError(
      `${out} already exists and is not an empty folder: remove it or pick another OUT`,
    );
  }
  const names = new Map<string, string>();
  for (const dir of fixtures) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new SetupError(`--fixtures ${dir}: no such folder`);
    }
    const name = basename(dir);
    const clash = names.get(name);
    if (clash !== undefined) {
      throw new SetupError(
        `--fixtures ${clash} and ${dir} have the same folder name, so their case ids would clash`,
      );
    }
    names.set(name, dir);
  }
  // No scaffold placeholder, which students would read in their results (every case named,
  // by its folder's name as in the bundle; the grader would refuse them too) ...
  const unfinished = [...names].flatMap(([name, dir]) =>
    unfinishedLines(unfinishedCases(dir), `  ${name}/`),
  );
  if (unfinished.length > 0) {
    throw new SetupError(
      [
        `private cases still hold npm run new-case's placeholders (students would read them):`,
        ...unfinished,
        `Fill in those fields of each case.json, then build the bundle again (nothing was written).`,
      ].join("\n"),
    );
  }
  // ... and the private cases must load as the grader will load them (exit 2 with every problem).
  const cases = loadCases(BUILT_IN_CASES_DIR, [...fixtures], new FixtureSchemas());
  const points = (required: boolean) =>
    cases.filter((c) => c.required === required).reduce((sum, c) => sum + c.points, 0);
  const fullMarks = policyTotal(
    extension,
    { score: 0, maxScore: points(true), extensionScore: 0, extensionMaxScore: points(false) },
    false,
  ).maxPoints;

  for (const item of BUNDLED) {
    cpSync(join(KIT_ROOT, item), join(out, item), {
      recursive: true,
      filter: (src) => !/[\\/](node_modules|\.DS_Store)$/.test(src),
    });
  }
  for (const file of ENTRY_POINTS) {
    const text = readFileSync(join(KIT_ROOT, "templates", "gradescope", file), "utf8");
    writeFileSync(join(out, file), bakeOptions(text, file, options), { mode: 0o755 });
    chmodSync(join(out, file), 0o755);
  }
  for (const [name, dir] of names) {
    cpSync(dir, join(out, PRIVATE_CASES_DIR, name), { recursive: true });
  }
  writeFileSync(join(out, EXTENSION_POLICY_FILE), `${extensionPolicyName(extension)}\n`);
  const zip = `${out.replace(/[\\/]+$/, "")}.zip`;
  writeFileSync(zip, zipFolder(out));

  const written: Written[] = [];
  for (const entry of readdirSync(out, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const path = join(out, entry.name);
    written.push({ path, files: entry.isDirectory() ? filesUnder(path).length : null });
  }
  written.push({ path: zip, files: null });
  return { written, fullMarks };
}

/**
 * The bundle's stamps: the built-in cases' (what students see, as the handout's kit-stamp.json
 * records it) and, with private cases, the whole set's (what the text report, for instructors only,
 * prints), each a fixtureHash as the grader computes it.
 */
function stampLines(fixtures: readonly string[]): string[] {
  const schemas = new FixtureSchemas();
  const builtIn = loadCases(BUILT_IN_CASES_DIR, [], schemas);
  const lines = [
    `Kit ${kitVersion()}, fixtures ${fixtureHash(builtIn)} (${builtIn.length} cases): the stamp students see, as in the handout's kit-stamp.json.`,
  ];
  if (fixtures.length > 0) {
    const all = loadCases(BUILT_IN_CASES_DIR, [...fixtures], schemas);
    lines.push(
      `With the private cases: fixtures ${fixtureHash(all)} (${all.length} cases), the stamp of the text report instructors see.`,
    );
  }
  return [...lines, ``];
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      fixtures: { type: "string", multiple: true, default: [] },
      types: { type: "boolean", default: false },
      extension: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new SetupError(`give exactly one OUT folder\n\n${USAGE}`);
  }
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out = resolve(cwd, positionals[0]);
  const fixtures = values.fixtures.map((dir) => resolve(cwd, dir));
  const extension =
    values.extension === undefined
      ? DEFAULT_EXTENSION_POLICY
      : parseExtensionPolicy(values.extension);
  const { written, fullMarks } = buildBundle(out, fixtures, { types: values.types }, extension);
  // Paths as the user wrote OUT: relative to where they typed the command, unless OUT was absolute.
  const shown = (path: string) =>
    isAbsolute(positionals[0] ?? "") ? path : relative(cwd, path) || ".";
  process.stdout.write(
    [
      ...written.map(
        (w) => `wrote ${shown(w.path)}${w.files === null ? "" : `/ (${w.files} files)`}`,
      ),
      ``,
      ...stampLines(fixtures),
      `Upload ${shown(`${out}.zip`)} on Gradescope (the assignment's Configure Autograder page, Zip`,
      `file upload). Private cases: ${fixtures.length === 0 ? "none" : fixtures.map((f) => basename(f)).join(", ")}.`,
      values.types
        ? `Type errors fail the build (--types).`
        : `Type errors are not checked (build with --types to fail them).`,
      `Extension policy: ${extensionPolicyName(extension)} (${extensionPolicyRule(extension)}).`,
      `Set the assignment's total points on Gradescope to ${fullMarks}.`,
      ``,
    ].join("\n"),
  );
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `gradescope-bundle: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 2;
}
