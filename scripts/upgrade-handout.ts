/**
 * `npm run upgrade-handout -- --from OLD --to NEW REPO [REPO ...]`: moves student repositories made
 * from the handout OLD (built by `npm run handout` from an earlier kit) to the handout NEW, file by
 * file, as a three-way merge whose base is OLD:
 *
 * - the student's own files (src/subscription.ts, src/range-assignor.ts, src/assignment.ts, each
 *   `--keep PATH`, and every file neither handout has) are never read, written or deleted, except
 *   that a student file OLD lacks (the stub of a stage NEW adds) is added like a kit-owned file:
 *   written where the repository has none, a conflict where it has one of its own;
 * - a kit-owned file (any other file of OLD or NEW) is brought to NEW's version when the
 *   repository still holds OLD's bytes (added when OLD lacked it, deleted when NEW lacks it);
 * - a kit-owned file the kit changed and the repository changed too (edited, deleted, replaced by
 *   a link or a folder, or a file of the student's at a path NEW adds) is a conflict: left exactly
 *   as it is and reported;
 * - a kit-owned file the kit did not change is left as the repository has it;
 * - kit-stamp.json, written last, takes NEW's stamp only once no conflict is left, so a repository
 *   that says NEW is upgraded whole, and running the command again after resolving conflicts
 *   finishes the job (a file already at NEW's version counts as done).
 *
 * Nothing is read or written through a symbolic link in a repository. No prompt: exit 0 when every
 * repository is upgraded or already at NEW; 1 when some repository has conflicts (its other files
 * upgraded); 2 when the command could not run (bad arguments, OLD or NEW not a handout) or some
 * repository was refused untouched (not a folder, no kit-stamp.json, or a stamp that is neither
 * OLD's nor NEW's). `--json` prints a machine-readable summary instead of the text; `--dry-run`
 * writes nothing and reports what it would do.
 */
import { printable } from "../grader/printable.ts";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { globSync } from "tinyglobby";
import { SetupError } from "../grader/errors.ts";

/** The handout's files that are the student's work: the stubs of starter/src/. */
export const STUDENT_FILES: readonly string[] = [
  "src/subscription.ts",
  "src/range-assignor.ts",
  "src/assignment.ts",
];

/** The file every handout carries with the kit version and case-set hash it was built from. */
export const STAMP_FILE = "kit-stamp.json";

/** A handout's kit stamp, as kit-stamp.json records it (scripts/handout.ts's KitStamp). */
export interface Stamp {
  version: string;
  fixtures: string;
}

/** A handout folder: its stamp and its files (path with `/` to bytes and mode). */
export interface Handout {
  dir: string;
  stamp: Stamp;
  files: Map<string, { bytes: Buffer; mode: number }>;
}

/** Why a kit-owned file was left as the repository has it although the kit changed it. */
export interface Conflict {
  path: string;
  reason: string;
}

/** What the upgrade did (or, with dryRun, would do) to one repository. */
export interface RepositoryResult {
  repository: string;
  /**
   * `upgraded`: every kit-owned file at NEW, the stamp written; `current`: nothing to do, already
   * at NEW; `conflicts`: the non-conflicting files upgraded, the stamp left at OLD; `refused`:
   * nothing read beyond the stamp, nothing written (see `message`), or, when the message starts
   * with "stopped part-way", a file could not be read or written: the stamp is left at OLD, and
   * running again once it can carries on.
   */
  status: "upgraded" | "current" | "conflicts" | "refused";
  /** The stamp the repository held before: null when refused for want of one. */
  from: Stamp | null;
  added: string[];
  updated: string[];
  removed: string[];
  conflicts: Conflict[];
  /** Student files whose starter version changed between OLD and NEW: theirs is kept. */
  starterChanged: string[];
  message: string;
}

/**
 * What a handout folder leaves out of the kit's files: git's folder, and what handout/gitignore
 * ignores (what npm ci and a grading write in a handout that was tried: packages, the compiled
 * grader, reports and logs at its root).
 */
const NOT_KIT_FILES = [
  ".git/**/*",
  "node_modules/**/*",
  ".grader/**/*",
  "*.log",
  "results.json",
  "junit.xml",
];

/** Every file under `dir`, relative paths with `/`, sorted; NOT_KIT_FILES left out. */
function listFiles(dir: string): string[] {
  return globSync("**", {
    cwd: dir,
    dot: true,
    followSymbolicLinks: false,
    ignore: NOT_KIT_FILES,
  }).sort();
}

/** The stamp kit-stamp.json holds, or a message saying what is wrong with it. */
function readStamp(file: string): Stamp | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return `${STAMP_FILE} cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const kit = (parsed as { kit?: { version?: unknown; fixtures?: unknown } } | null)?.kit;
  if (typeof kit?.version !== "string" || typeof kit.fixtures !== "string") {
    return `${STAMP_FILE} has no kit.version and kit.fixtures`;
  }
  return { version: kit.version, fixtures: kit.fixtures };
}

const sameStamp = (a: Stamp, b: Stamp) => a.version === b.version && a.fixtures === b.fixtures;
const showStamp = (s: Stamp) => `kit ${s.version}, fixtures ${s.fixtures}`;

/**
 * Reads a handout folder built by `npm run handout`, or a clone of one (NOT_KIT_FILES left out).
 *
 * @param label `--from` or `--to`, for messages
 * @throws SetupError when `dir` is not a folder or has no valid kit-stamp.json
 */
export function readHandout(dir: string, label: string): Handout {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SetupError(`${label} ${dir}: no such folder`);
  }
  if (!existsSync(join(dir, STAMP_FILE))) {
    throw new SetupError(`${label} ${dir}: no ${STAMP_FILE}, so not a handout (npm run handout)`);
  }
  const stamp = readStamp(join(dir, STAMP_FILE));
  if (typeof stamp === "string") throw new SetupError(`${label} ${dir}: ${stamp}`);
  const files = new Map<string, { bytes: Buffer; mode: number }>();
  for (const path of listFiles(dir)) {
    const full = join(dir, path);
    files.set(path, { bytes: readFileSync(full), mode: statSync(full).mode & 0o777 });
  }
  return { dir, stamp, files };
}

/** What a repository holds at a path: nothing, a regular file's bytes, or something else. */
type Held = { kind: "absent" } | { kind: "file"; bytes: Buffer } | { kind: "other"; what: string };

/**
 * What `repo` holds at `path`, without following a link: a link anywhere on the way, or a
 * folder or a special file at the path, is `other`.
 */
function held(repo: string, path: string): Held {
  const parts = path.split("/");
  let at = repo;
  for (let i = 0; i < parts.length; i++) {
    at = join(at, parts[i] ?? "");
    let stat;
    try {
      stat = lstatSync(at);
    } catch {
      return { kind: "absent" };
    }
    const shown = parts.slice(0, i + 1).join("/");
    if (stat.isSymbolicLink()) return { kind: "other", what: `${shown} is a symbolic link` };
    if (i < parts.length - 1 && !stat.isDirectory()) {
      return { kind: "other", what: `${shown} is not a folder` };
    }
    if (i === parts.length - 1 && !stat.isFile()) {
      return { kind: "other", what: `${shown} is not a regular file` };
    }
  }
  return { kind: "file", bytes: readFileSync(at) };
}

const sameBytes = (a: Buffer | undefined, b: Buffer | undefined) =>
  a === undefined || b === undefined ? a === b : a.equals(b);

/** Removes the now empty folders above `path`, up to (not including) `repo`. */
function removeEmptyParents(repo: string, path: string): void {
  for (let dir = dirname(path); dir !== "." && dir !== ""; dir = dirname(dir)) {
    const full = join(repo, dir);
    if (readdirSync(full).length > 0) return;
    rmdirSync(full);
  }
}

/** Options of one upgrade: the student's files beyond STUDENT_FILES, and whether to write. */
export interface UpgradeOptions {
  keep?: readonly string[];
  dryRun?: boolean;
}

/** A repository's result before anything was done (or when it stopped): refused, with `message`. */
function refused(repo: string, message: string): RepositoryResult {
  return {
    repository: repo,
    status: "refused",
    from: null,
    added: [],
    updated: [],
    removed: [],
    conflicts: [],
    starterChanged: [],
    message,
  };
}

/**
 * Upgrades one repository from `from` to `to` (see the module's comment for the rules).
 *
 * @param repo the repository's folder (its work tree; .git and node_modules are never touched)
 * @returns what was done; a refusal is a result, never a throw
 */
export function upgradeRepository(
  repo: string,
  from: Handout,
  to: Handout,
  options: UpgradeOptions = {},
): RepositoryResult {
  const result = refused(repo, "");
  if (!existsSync(repo) || !lstatSync(repo).isDirectory()) {
    result.message = !existsSync(repo)
      ? "no such folder"
      : lstatSync(repo).isSymbolicLink()
        ? "a symbolic link, not a folder"
        : "not a folder";
    return result;
  }
  const stampHeld = held(repo, STAMP_FILE);
  if (stampHeld.kind !== "file") {
    result.message =
      stampHeld.kind === "absent"
        ? `no ${STAMP_FILE}: not made from a handout, or the file was deleted (restore it from the repository's history)`
        : `${stampHeld.what}`;
    return result;
  }
  const stamp = readStamp(join(repo, STAMP_FILE));
  if (typeof stamp === "string") {
    result.message = stamp;
    return result;
  }
  result.from = stamp;
  if (!sameStamp(stamp, from.stamp) && !sameStamp(stamp, to.stamp)) {
    result.message = `${STAMP_FILE} says ${showStamp(stamp)}: neither --from (${showStamp(from.stamp)}) nor --to (${showStamp(to.stamp)})`;
    return result;
  }

  // A student file OLD lacks is a new stage's stub: added as the kit's file would be (below).
  const studentFiles = new Set([
    ...STUDENT_FILES.filter((path) => from.files.has(path)),
    ...(options.keep ?? []),
  ]);
  for (const path of STUDENT_FILES) {
    if (!from.files.has(path)) continue;
    if (!sameBytes(from.files.get(path)?.bytes, to.files.get(path)?.bytes)) {
      result.starterChanged.push(path);
    }
  }
  const paths = [...new Set([...from.files.keys(), ...to.files.keys()])]
    .filter((path) => path !== STAMP_FILE && !studentFiles.has(path))
    .sort();
  const write = (path: string) => {
    const file = to.files.get(path);
    if (file === undefined || options.dryRun) return;
    // A new file renamed over the old one: a file with other names (a hard link to something
    // outside the repository) keeps its contents, and nothing is written through it.
    const target = join(repo, path);
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.upgrade-${process.pid}.tmp`;
    writeFileSync(temporary, file.bytes, { flag: "wx", mode: file.mode });
    chmodSync(temporary, file.mode);
    renameSync(temporary, target);
  };

  for (const path of paths) {
    const base = from.files.get(path)?.bytes;
    const next = to.files.get(path)?.bytes;
    if (sameBytes(base, next)) continue; // the kit did not change it: the repository's stays
    const now = held(repo, path);
    if (now.kind === "other") {
      result.conflicts.push({ path, reason: now.what });
      continue;
    }
    const bytes = now.kind === "file" ? now.bytes : undefined;
    if (sameBytes(bytes, next)) continue; // already NEW's
    if (!sameBytes(bytes, base)) {
      result.conflicts.push({
        path,
        reason:
          bytes === undefined
            ? `deleted in the repository, and ${to.stamp.version} changes it`
            : base === undefined
              ? `the repository has its own file where ${to.stamp.version} adds one`
              : next === undefined
                ? `changed in the repository, and ${to.stamp.version} deletes it`
                : `changed in the repository, and ${to.stamp.version} changes it`,
      });
      continue;
    }
    // The repository holds OLD's version (or nothing where OLD had nothing): take NEW's.
    if (next === undefined) {
      result.removed.push(path);
      if (!options.dryRun) {
        unlinkSync(join(repo, path));
        removeEmptyParents(repo, path);
      }
    } else if (base === undefined) {
      result.added.push(path);
      write(path);
    } else {
      result.updated.push(path);
      write(path);
    }
  }

  const changes = result.added.length + result.updated.length + result.removed.length;
  if (result.conflicts.length > 0) {
    result.status = "conflicts";
    result.message = `${result.conflicts.length} conflict${result.conflicts.length === 1 ? "" : "s"}: ${STAMP_FILE} left at ${stamp.version} until they are resolved`;
    return result;
  }
  const stampFile = to.files.get(STAMP_FILE);
  const stampNow = held(repo, STAMP_FILE);
  const stampCurrent =
    stampNow.kind === "file" && stampFile !== undefined && stampNow.bytes.equals(stampFile.bytes);
  if (changes === 0 && sameStamp(stamp, to.stamp)) {
    result.status = "current";
    result.message = `already at ${to.stamp.version}`;
    return result;
  }
  if (!stampCurrent) {
    result.updated.push(STAMP_FILE);
    write(STAMP_FILE);
  }
  result.status = "upgraded";
  result.message = `${options.dryRun ? "would upgrade" : "upgraded"} ${stamp.version} -> ${to.stamp.version}: ${result.updated.length} updated, ${result.added.length} added, ${result.removed.length} removed`;
  return result;
}

/** The exit code for a set of results: 2 if any was refused, else 1 if any has conflicts, else 0. */
export function exitCode(results: readonly RepositoryResult[]): 0 | 1 | 2 {
  if (results.some((r) => r.status === "refused")) return 2;
  if (results.some((r) => r.status === "conflicts")) return 1;
  return 0;
}

const USAGE = `Usage: npm run upgrade-handout -- --from OLD --to NEW REPO [REPO ...]

Upgrades student repositories made from the handout OLD to the handout NEW (both built with
npm run handout, with the same --classroom choice). The student's own files (src/subscription.ts,
src/range-assignor.ts, src/assignment.ts, each --keep PATH, anything neither handout has) are never
touched, except that a stub OLD lacks (a new stage's) is added where the repository has none; every
other file of OLD or NEW is brought to NEW's version if the repository still has OLD's; a file the
kit changed and the repository changed too is a conflict, left as it is and reported.
kit-stamp.json takes NEW's stamp once no conflict is left: run again after resolving them.

  --from OLD      the handout the repositories were made from (its kit-stamp.json must match theirs)
  --to NEW        the handout to upgrade to
  --keep PATH     a further file to treat as the student's (repeatable), e.g. README.md
  --dry-run       write nothing; report what would be done
  --json          print a JSON summary on standard output instead of the text

Exit codes: 0 every repository upgraded or already at NEW; 1 some repository has conflicts (its
other files upgraded); 2 bad arguments, OLD or NEW not a handout, or some repository refused
untouched (no such folder, no kit-stamp.json, a stamp neither OLD's nor NEW's).
See "Upgrading a course" in docs/instructors.md.`;

/** The text report of one repository's upgrade. */
export function describe(result: RepositoryResult, shown: string): string {
  const lines = [`${shown}: ${result.status === "refused" ? "refused, " : ""}${result.message}`];
  for (const c of result.conflicts) lines.push(`  conflict ${c.path}: ${c.reason}`);
  for (const path of result.starterChanged) {
    if (result.status === "upgraded" || result.status === "conflicts") {
      lines.push(`  note ${path}: the starter's version changed; the student's is kept`);
    }
  }
  return lines.join("\n");
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h", default: false },
      from: { type: "string" },
      to: { type: "string" },
      keep: { type: "string", multiple: true, default: [] },
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.from === undefined || values.to === undefined || positionals.length === 0) {
    throw new SetupError(`give --from OLD, --to NEW and at least one REPO\n\n${USAGE}`);
  }
  for (const path of values.keep) {
    if (path === STAMP_FILE || path.startsWith("/") || path.split("/").includes("..")) {
      throw new SetupError(
        `--keep ${path}: a path inside the repository, other than ${STAMP_FILE}`,
      );
    }
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const from = readHandout(resolve(cwd, values.from), "--from");
  const to = readHandout(resolve(cwd, values.to), "--to");
  const options = { keep: values.keep, dryRun: values["dry-run"] };
  const results = positionals.map((repo) => {
    let result: RepositoryResult;
    try {
      result = upgradeRepository(resolve(cwd, repo), from, to, options);
    } catch (error) {
      // A file the command may not read or write: this repository stops, the others go on.
      result = refused(
        repo,
        `stopped part-way: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // A repository's stamp and file names are a student's text: made printable line by line.
    if (!values.json)
      process.stdout.write(`${describe(result, repo).split("\n").map(printable).join("\n")}\n`);
    return result;
  });
  if (values.json) {
    const summary = {
      from: from.stamp,
      to: to.stamp,
      dryRun: options.dryRun,
      repositories: results.map((r, i) => ({ ...r, repository: positionals[i] })),
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else if (results.some((r) => r.updated.includes("package-lock.json"))) {
    process.stdout.write(`package-lock.json changed: run npm ci in each upgraded repository.\n`);
  }
  return exitCode(results);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `upgrade-handout: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 2;
  }
}
