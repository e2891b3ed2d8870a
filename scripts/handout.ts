/**
 * `npm run handout -- OUT`: builds the student handout, the repository students clone, from this
 * kit. OUT gets exactly the files listed in HANDOUT below, nothing else: the lesson, the starter as
 * the student's workspace at src/ (so the handout's root is itself a submission and
 * `npm run grade` grades it), the grader without grader/instructor/ (the parts that run or embed
 * the reference: the mutants, the random cases), the built-in cases with their answers, a README for
 * students, a GitHub Actions workflow, a package.json and lockfile with only what grading needs,
 * and kit-stamp.json (kit version and case-set hash, the stamp every report prints).
 *
 * Before it reports success it checks what it wrote: every import of a shipped file resolves to a
 * shipped file or a package the handout installs, and no file contains a line of the reference
 * (solution/) that the starter and the shipped grader do not also have. A handout that fails a
 * check is deleted. Exit 0 on success, 2 with a message otherwise.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { builtinModules } from "node:module";
import { dirname, isAbsolute, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { escapePath, globSync } from "tinyglobby";
import { SetupError } from "../grader/errors.ts";
import { fixtureHash } from "../grader/cases/hash.ts";
import { FixtureSchemas, loadCases } from "../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR, KIT_ROOT, kitVersion } from "../grader/kit.ts";

/**
 * Which grading workflow the handout gets: `own`, .github/workflows/grade.yml (the job's check,
 * summary and annotations); `classroom` (--classroom), .github/workflows/classroom.yml, the same
 * report plus the points GitHub Classroom reads, under Classroom's names.
 */
export type HandoutWorkflow = "own" | "classroom";

/** One entry of the handout: where it goes in OUT, and where it comes from in the kit. */
export type HandoutEntry =
  /**
   * A file copied as it is; with `workflow`, only in the handout built for that kind of course
   * (`classroom`: with --classroom, for GitHub Classroom; `own`: without it).
   */
  | { kind: "file"; to: string; from: string; workflow?: HandoutWorkflow }
  /** A file from handout/ with its {{PLACEHOLDERS}} filled in (kit version, case set). */
  | { kind: "template"; to: string; from: string }
  /**
   * The files of a kit folder whose names match, in that folder only or (deep) below it too,
   * leaving out the subfolder `except` names (relative to `from`), if any.
   */
  | { kind: "folder"; to: string; from: string; match: RegExp; deep: boolean; except?: string }
  /** A file this script writes. */
  | { kind: "generated"; to: "package.json" | "package-lock.json" | "kit-stamp.json" };

/**
 * The grader's instructor-only folder, relative to grader/: everything that runs or embeds the
 * reference (the mutants, the random cases) lives below it, and nothing below it ships. The
 * rule is the layout, not a list: any other grader folder ships.
 */
export const INSTRUCTOR_ONLY_DIR = "instructor";

/**
 * The grader's code and data: TypeScript, JSON, and the plain JavaScript that Node runs directly
 * (the launcher, the build worker).
 */
const GRADER_CODE = /\.(ts|json|mjs)$/;

/** The handout, file by file or folder by folder: nothing that is not listed here is written. */
export const HANDOUT: readonly HandoutEntry[] = [
  { kind: "template", to: "README.md", from: "handout/README.md" },
  { kind: "file", to: ".gitignore", from: "handout/gitignore" },
  { kind: "file", to: "tsconfig.json", from: "handout/tsconfig.json" },
  {
    kind: "file",
    to: ".github/workflows/grade.yml",
    from: "handout/workflow-grade.yml",
    workflow: "own",
  },
  {
    kind: "file",
    to: ".github/workflows/classroom.yml",
    from: "handout/workflow-classroom.yml",
    workflow: "classroom",
  },
  { kind: "file", to: "LESSON.md", from: "LESSON.md" },
  { kind: "file", to: "LICENSE", from: "LICENSE" },
  { kind: "folder", to: "figures", from: "figures", match: /\.svg$/, deep: false },
  // The student's workspace: the starter, stubs and complete helpers (input-validator.* too).
  { kind: "folder", to: "src", from: "starter/src", match: /^[^.]/, deep: false },
  // The grader, all of it but grader/instructor/.
  {
    kind: "folder",
    to: "grader",
    from: "grader",
    match: GRADER_CODE,
    deep: true,
    except: INSTRUCTOR_ONLY_DIR,
  },
  // The visible cases with their answers, and the schemas they are validated with.
  { kind: "folder", to: "fixtures/cases", from: "fixtures/cases", match: /\.json$/, deep: true },
  { kind: "folder", to: "fixtures/schema", from: "fixtures/schema", match: /\.json$/, deep: false },
  { kind: "generated", to: "package.json" },
  { kind: "generated", to: "package-lock.json" },
  { kind: "generated", to: "kit-stamp.json" },
];

/**
 * Packages grading runs on: tsx runs the grader, esbuild bundles the submission, acorn checks
 * its dynamic imports, ajv validates the cases, diff and picocolors shape the report,
 * csv-stringify writes --batch's gradebook, fast-xml-builder the JUnit report, shell-quote
 * quotes the rerun command, p-limit runs the cases (and a batch's submissions) a few at a time,
 * chokidar watches src/ for --watch.
 * The build fails when a shipped file imports a package that is not here.
 */
const RUNTIME_PACKAGES = [
  "acorn",
  "ajv",
  "chokidar",
  "csv-stringify",
  "diff",
  "esbuild",
  "fast-xml-builder",
  "p-limit",
  "picocolors",
  "shell-quote",
  "tsx",
] as const;
/** Packages for `npm run grade -- --types` and the student's editor (Node's types, tsc). */
const DEV_PACKAGES = ["@types/node", "typescript"] as const;

/**
 * The Node.js versions the handout runs on: runtime only (grading, tsc), no lint or test toolchain.
 * 20.19 and 22.12 are the oldest CI grades with (.ci/node-smoke.sh); every package the handout
 * installs accepts them (test/unit/engines.test.ts). The kit's own range is narrower on 22 (eslint
 * 10 needs 22.13).
 */
export const HANDOUT_ENGINES = { node: "^20.19.0 || ^22.12.0 || >=24" } as const;

/** The handout's package name (the kit's is kafka-range-assignment-kit). */
const HANDOUT_NAME = "kafka-range-assignment";

const USAGE = `Usage: npm run handout -- OUT [--classroom]

Builds the student handout, the repository students clone, in the folder OUT (which must not
exist yet, or be empty). It holds no reference code: see "The student handout" in docs/instructors.md.

  --classroom   for a GitHub Classroom assignment: the workflow is .github/workflows/classroom.yml,
                which also gives Classroom the grader's points (docs/platforms.md, GitHub Classroom),
                instead of .github/workflows/grade.yml`;

/** One file of the handout: its path in OUT (with /) and its source in the kit, if copied. */
export interface HandoutFile {
  path: string;
  /** The kit file it is copied from; undefined for a generated file. */
  source: string | undefined;
  entry: HandoutEntry;
}

/**
 * Every file under `dir` (deep: in subfolders too), relative to it, with `/`, sorted (code unit
 * order); the subfolder `except` (a path relative to `dir`) left out. Dot files count; symbolic
 * links, followed or not, do not.
 */
function filesUnder(dir: string, deep: boolean, except?: string): string[] {
  return globSync(deep ? "**" : "*", {
    cwd: dir,
    dot: true,
    followSymbolicLinks: false, // and so leave them out (tinyglobby's excludeSymlinks)
    // `except/**/*`, not `except/**`, which would also drop a file named like the folder.
    ignore: except === undefined ? [] : [`${escapePath(except)}/**/*`],
  }).sort();
}

const byPath = (a: { path: string }, b: { path: string }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/**
 * Expands HANDOUT into the handout's files, checking the kit on the way.
 *
 * @param kitRoot the instructor kit (default: this one)
 * @param workflow which grading workflow the handout gets (default `own`, grade.yml)
 * @returns every file OUT will hold, sorted by path
 * @throws SetupError when a listed source is missing
 */
export function handoutFiles(
  kitRoot: string = KIT_ROOT,
  workflow: HandoutWorkflow = "own",
): HandoutFile[] {
  const files: HandoutFile[] = [];
  for (const entry of HANDOUT) {
    if (entry.kind === "file" && entry.workflow !== undefined && entry.workflow !== workflow)
      continue;
    if (entry.kind === "generated") {
      files.push({ path: entry.to, source: undefined, entry });
      continue;
    }
    const from = join(kitRoot, entry.from);
    if (!existsSync(from))
      throw new SetupError(`the handout needs ${entry.from}, which is missing`);
    if (entry.kind !== "folder") {
      files.push({ path: entry.to, source: from, entry });
      continue;
    }
    const names = filesUnder(from, entry.deep, entry.except).filter((rel) =>
      entry.match.test(posix.basename(rel)),
    );
    if (names.length === 0) throw new SetupError(`${entry.from} has no file for the handout`);
    for (const rel of names) {
      files.push({ path: `${entry.to}/${rel}`, source: join(from, rel), entry });
    }
  }
  files.sort(byPath);
  for (let i = 1; i < files.length; i++) {
    if (files[i]?.path === files[i - 1]?.path) {
      throw new SetupError(`scripts/handout.ts lists ${files[i]?.path} twice`);
    }
  }
  return files;
}

/** The stamp the handout records: what every report's `kit` holds for its built-in cases. */
export interface KitStamp {
  kit: { version: string; fixtures: string };
  cases: number;
  /** The kit commit the handout was built from, when the kit is a git work tree. */
  builtFrom: { commit: string; uncommittedChanges: boolean } | null;
}

function git(args: string[]): string | undefined {
  const result = spawnSync("git", args, { cwd: KIT_ROOT, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The kit's stamp: version, hash of the built-in case set (as the grader computes it), commit. */
function kitStamp(): KitStamp {
  const cases = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas());
  const commit = git(["rev-parse", "HEAD"]);
  const status = git(["status", "--porcelain"]);
  return {
    kit: { version: kitVersion(), fixtures: fixtureHash(cases) },
    cases: cases.length,
    builtFrom:
      commit === undefined ? null : { commit, uncommittedChanges: (status ?? "").length > 0 },
  };
}

interface PackageJson {
  version?: string;
  license?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

/** The handout's package.json: the kit's version, and only the packages grading needs. */
function handoutPackageJson(kit: PackageJson): PackageJson & Record<string, unknown> {
  const pick = (names: readonly string[]) => {
    const out: Record<string, string> = {};
    for (const name of names) {
      const version = kit.dependencies?.[name] ?? kit.devDependencies?.[name];
      if (version === undefined) {
        throw new SetupError(`the handout needs the package ${name}, which package.json lacks`);
      }
      out[name] = version;
    }
    return out;
  };
  const grade = kit.scripts?.grade;
  if (grade === undefined) throw new SetupError("package.json has no grade script");
  return {
    name: HANDOUT_NAME,
    version: kit.version ?? "0.0.0",
    description:
      "Apache Kafka's range assignor as an exercise: decode consumer subscriptions, assign partitions. Read LESSON.md, then npm run grade.",
    license: kit.license ?? "Apache-2.0",
    private: true,
    type: "module",
    engines: { ...HANDOUT_ENGINES },
    scripts: { grade, test: grade, typecheck: "tsc -p tsconfig.json --noEmit" },
    dependencies: pick(RUNTIME_PACKAGES),
    devDependencies: pick(DEV_PACKAGES),
    // npm 11 prints a notice for every dependency's install script that allowScripts does not
    // cover (esbuild's checks its binary): the kit's entries, so a student is asked nothing.
    allowScripts: { ...kit.allowScripts },
  };
}

/** How to run npm: the npm that runs this script (npm run handout), else `npm` on the PATH. */
function npmCommand(): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  if (cli !== undefined && /npm-cli\.js$/.test(cli) && existsSync(cli)) {
    return { command: process.execPath, args: [cli] };
  }
  return { command: "npm", args: [] };
}

interface Lockfile {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
}

/**
 * Writes OUT/package-lock.json: the kit's lockfile pruned by npm to the handout's package.json
 * (offline, from the lockfile alone; the network only if npm insists), so the handout installs
 * exactly the versions the kit is tested with.
 *
 * @throws SetupError when npm fails, or the result names a version the kit's lockfile does not
 */
function writeLockfile(out: string): void {
  const kitLockPath = join(KIT_ROOT, "package-lock.json");
  copyFileSync(kitLockPath, join(out, "package-lock.json"));
  const npm = npmCommand();
  let failure = "";
  for (const network of ["--offline", "--prefer-offline"]) {
    const result = spawnSync(
      npm.command,
      [
        ...npm.args,
        "install",
        "--package-lock-only",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        network,
      ],
      { cwd: out, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } },
    );
    if (result.status === 0) {
      failure = "";
      break;
    }
    failure = `${result.stderr}${result.error?.message ?? ""}`.trim();
  }
  if (failure !== "") {
    throw new SetupError(`npm could not write the handout's package-lock.json:\n${failure}`);
  }
  const kitLock = JSON.parse(readFileSync(kitLockPath, "utf8")) as Lockfile;
  const lock = JSON.parse(readFileSync(join(out, "package-lock.json"), "utf8")) as Lockfile;
  for (const [path, meta] of Object.entries(lock.packages)) {
    if (path === "") continue;
    if (kitLock.packages[path]?.version !== meta.version) {
      throw new SetupError(
        `the handout's lockfile has ${path}@${meta.version ?? "?"}, which the kit's does not`,
      );
    }
  }
}

/** The package a bare import names: `@scope/name` or `name` (the rest is a path inside it). */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

const BUILTINS = new Set(builtinModules);
const STATIC_IMPORT =
  /^\s*(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const REQUIRE = /\brequire(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g;

/**
 * Checks that the shipped code imports only what the handout has: shipped files, Node's
 * built-ins, and the packages in its package.json. A dynamic import may reach grader/instructor/
 * (the grader loads it only in the instructor kit).
 *
 * @returns one line per problem
 */
function checkImports(files: readonly HandoutFile[], installed: ReadonlySet<string>): string[] {
  const shipped = new Set(files.map((f) => f.path));
  const instructorOnly = `grader/${INSTRUCTOR_ONLY_DIR}/`;
  const problems: string[] = [];
  for (const file of files) {
    if (file.source === undefined || !/\.(ts|js|mjs)$/.test(file.path)) continue;
    const text = readFileSync(file.source, "utf8");
    const found: { specifier: string; dynamic: boolean }[] = [];
    for (const m of text.matchAll(STATIC_IMPORT)) {
      found.push({ specifier: m[1] ?? m[2] ?? "", dynamic: false });
    }
    for (const m of text.matchAll(DYNAMIC_IMPORT))
      found.push({ specifier: m[1] ?? "", dynamic: true });
    for (const m of text.matchAll(REQUIRE)) found.push({ specifier: m[1] ?? "", dynamic: true });
    for (const { specifier, dynamic } of found) {
      if (specifier.startsWith(".")) {
        const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
        if (shipped.has(target)) continue;
        if (dynamic && target.startsWith(instructorOnly)) continue;
        problems.push(`${file.path} imports ${specifier}, which the handout does not have`);
      } else if (specifier.startsWith("node:") || BUILTINS.has(specifier)) {
        continue;
      } else if (!installed.has(packageName(specifier))) {
        problems.push(
          `${file.path} imports the package ${packageName(specifier)}: add it to RUNTIME_PACKAGES in scripts/handout.ts`,
        );
      }
    }
  }
  return problems;
}

/** A line with its white space folded: trimmed, every run of white space one space. */
function foldWhiteSpace(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** A whole text folded line by line (line breaks kept), to search folded lines in. */
function foldText(text: string): string {
  return text.split(/\r?\n/).map(foldWhiteSpace).join("\n");
}

/**
 * The lines of the reference that no handout file may contain: every line of solution/ that is
 * 40 characters or more once white space is folded (and every `canary` line, whatever its
 * length), unless the starter or a shipped grader file has it too.
 */
function referenceOnlyLines(files: readonly HandoutFile[]): string[] {
  const solutionDir = join(KIT_ROOT, "solution");
  const allowed = [
    ...filesUnder(join(KIT_ROOT, "starter"), true).map((rel) => join(KIT_ROOT, "starter", rel)),
    ...files.filter((f) => f.path.startsWith("grader/")).map((f) => f.source ?? ""),
  ].map((path) => foldText(readFileSync(path, "utf8")));
  const lines = new Set<string>();
  for (const rel of filesUnder(solutionDir, true)) {
    for (const raw of readFileSync(join(solutionDir, rel), "utf8").split(/\r?\n/)) {
      const line = foldWhiteSpace(raw);
      if (line.length < 40 && !/\bcanary\b/i.test(line)) continue;
      if (line === "" || allowed.some((text) => text.includes(line))) continue;
      lines.add(line);
    }
  }
  return [...lines];
}

/** Looks for reference lines in every file written to OUT; returns one line per finding. */
function findLeaks(out: string, files: readonly HandoutFile[]): string[] {
  const secret = referenceOnlyLines(files);
  const leaks: string[] = [];
  for (const file of files) {
    const text = foldText(readFileSync(join(out, file.path), "utf8"));
    for (const line of secret) {
      if (text.includes(line)) leaks.push(`${file.path} contains a line of the reference: ${line}`);
    }
  }
  return leaks;
}

/**
 * Fills in handout/README.md's {{PLACEHOLDERS}} (kit version, case set, case count, the workflow's
 * path and the report format it grades with).
 *
 * @param from the template's path, for the error message
 * @throws SetupError for a placeholder this function does not know
 */
export function fillTemplate(
  text: string,
  stamp: KitStamp,
  from: string,
  workflow: HandoutWorkflow,
): string {
  const values: Record<string, string> = {
    KIT_VERSION: stamp.kit.version,
    FIXTURES: stamp.kit.fixtures,
    CASES: String(stamp.cases),
    WORKFLOW: `.github/workflows/${workflow === "classroom" ? "classroom" : "grade"}.yml`,
    FORMAT: workflow === "classroom" ? "classroom" : "github",
  };
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new SetupError(`${from}: unknown placeholder ${whole}`);
    return value;
  });
}

/** What the build did: the files written and the stamp recorded. */
export interface HandoutBuild {
  files: HandoutFile[];
  stamp: KitStamp;
}

/**
 * Builds the handout in `out` (created; it must not exist or be empty) and checks it, with the
 * grading workflow `workflow` (HandoutWorkflow).
 *
 * @returns the files written and the stamp
 * @throws SetupError when OUT is in the way, the kit lacks a listed file, or a check fails (the
 *   folder is then removed)
 */
export function buildHandout(out: string, workflow: HandoutWorkflow = "own"): HandoutBuild {
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0)) {
    throw new SetupError(
      `${out} already exists and is not an empty folder: remove it or pick another OUT`,
    );
  }
  const files = handoutFiles(KIT_ROOT, workflow);
  const stamp = kitStamp();
  const kitPackage = JSON.parse(
    readFileSync(join(KIT_ROOT, "package.json"), "utf8"),
  ) as PackageJson;
  const pkg = handoutPackageJson(kitPackage);

  mkdirSync(out, { recursive: true });
  try {
    for (const file of files) {
      const target = join(out, file.path);
      mkdirSync(dirname(target), { recursive: true });
      if (file.entry.kind === "template" && file.source !== undefined) {
        writeFileSync(
          target,
          fillTemplate(readFileSync(file.source, "utf8"), stamp, file.entry.from, workflow),
        );
      } else if (file.source !== undefined) {
        copyFileSync(file.source, target);
      } else if (file.path === "package.json") {
        writeFileSync(target, `${JSON.stringify(pkg, null, 2)}\n`);
      } else if (file.path === "kit-stamp.json") {
        writeFileSync(target, `${JSON.stringify(stamp, null, 2)}\n`);
      }
    }
    writeLockfile(out); // needs package.json in place

    const installed = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
    const problems = [...checkImports(files, installed), ...findLeaks(out, files)];
    const written = filesUnder(out, true);
    const expected = files.map((f) => f.path);
    if (written.join("\n") !== expected.join("\n")) {
      problems.push(
        `OUT holds ${written.filter((p) => !expected.includes(p)).join(", ") || "fewer files"} beyond the list`,
      );
    }
    if (problems.length > 0) {
      throw new SetupError(
        `the handout failed its checks, so ${out} was removed:\n  ${problems.slice(0, 20).join("\n  ")}`,
      );
    }
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  return { files, stamp };
}

/**
 * The build's report: one line per top-level entry of OUT, the stamp, and what to do next.
 *
 * @param shown OUT as the user wrote it, for the `wrote` lines
 */
export function summary(build: HandoutBuild, shown: string): string {
  const counts = new Map<string, number>();
  for (const file of build.files) {
    const top = file.path.includes("/") ? `${file.path.split("/")[0]}/` : file.path;
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  const { kit, cases } = build.stamp;
  return [
    ...[...counts].map(([top, n]) =>
      top.endsWith("/")
        ? `wrote ${shown}/${top} (${n} file${n === 1 ? "" : "s"})`
        : `wrote ${shown}/${top}`,
    ),
    ``,
    `Student handout: kit ${kit.version}, fixtures ${kit.fixtures} (${cases} cases), ${build.files.length} files.`,
    `Checked: no line of solution/ in it, and every import resolves inside it.`,
    ``,
    `Try it:    cd ${shown} && npm ci && npm run grade     (the stubs: 0 points, exit 1)`,
    `Publish:   push it to a new repository and mark that a template repository (or use it as a`,
    `           GitHub Classroom assignment's starter code). Grade authoritatively from this kit.`,
    ``,
  ].join("\n");
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h", default: false },
      classroom: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const target = positionals[0];
  if (positionals.length !== 1 || target === undefined) {
    throw new SetupError(`give exactly one OUT folder\n\n${USAGE}`);
  }
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out = resolve(cwd, target);
  const build = buildHandout(out, values.classroom ? "classroom" : "own");
  const shown = isAbsolute(target) ? out : relative(cwd, out) || ".";
  process.stdout.write(summary(build, shown));
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`handout: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
