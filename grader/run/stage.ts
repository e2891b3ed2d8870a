/**
 * Staging: the grader copies a submission's `src/` folder, regular files only, into a fresh private
 * folder before anything reads the code (the bundler, tsc, the import check). Whatever the
 * submission's folder holds besides, and whatever its links point at, is then out of reach: the
 * tools see the copy only (bound into their sandbox at /dev/shm/src, see build.ts).
 *
 * The copy is the grader's own code, lstat-based, and never follows a link: a symbolic link, a
 * hard link to a file of the kit's or of a private-case folder (another name for an answer:
 * protectFolders), a FIFO (it would block a reader), a socket or a device is refused with the
 * file's name. A hard link to anything else (a classmate's file, as one archive unpacked beside
 * another can make) is copied like any file: it cannot be refused without failing the classmate
 * too. Sizes are capped
 * so that a submission cannot fill the disk or stall the grader. The submission folder's own path
 * is the instructor's choice (it may be a link); src/ must be a real folder in it; and in a
 * batch, every folder from the batch folder down to src/ must be real too, so that a student's
 * folder holding a link (`work -> ../bob`) is never read through it.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  opendirSync,
  readdirSync,
  readSync,
  realpathSync,
  rmSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { KIT_ROOT } from "../kit.ts";

/** How much of a submission is copied at most. */
export interface StageLimits {
  /** Regular files in src/, all folders together. */
  maxFiles: number;
  /** Folders in src/ (src/ itself not counted). */
  maxFolders: number;
  /** Bytes per file. */
  maxFileBytes: number;
  /** Bytes of all files together. */
  maxTotalBytes: number;
  /** Folders below src/: src/a/b/c.ts is at depth 2. */
  maxDepth: number;
}

/** The caps every submission is staged with: far above what the lesson needs. */
export const STAGE_LIMITS: Readonly<StageLimits> = {
  maxFiles: 200,
  maxFolders: 100,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024,
  maxDepth: 8,
};

/** A staged copy of a submission's src/ folder. */
export interface StagedSubmission {
  /** The private folder holding the copy (mode 0700): `<root>/src/...`. */
  root: string;
  /** `<root>/src`, the copy of the submission's src/ (folders 0755, files 0644). */
  src: string;
  /** Every copied file, relative to root with `/`: `src/main.ts`, `src/lib/util.ts`. */
  files: string[];
  /** Removes the copy (and anything else under root). */
  cleanup(): void;
}

/** The submission cannot be staged: one line per problem, each naming the file. */
export class StageError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "StageError";
  }
}

/** Stop listing problems after this many (a folder of 10 000 links needs one line, not 10 000). */
const MAX_PROBLEMS = 20;

const ONLY_REGULAR = "a submission's src/ may hold regular files only";

/** Folders whose files no submission may hold another name (hard link) of, besides the kit's. */
const protectedFolders: string[] = [];
/** `dev:ino` of every file under the kit (but node_modules) and protectedFolders, made once. */
let protectedInodes: Set<string> | undefined;
/** Files walked at most when listing protected inodes: a kit holds a few thousand. */
const MAX_PROTECTED_FILES = 200_000;

/**
 * Adds folders whose files a submission may not hold a hard link to, besides the kit's own (its
 * answers, reference, tests and grader): the --fixtures folders of a grading.
 *
 * @param dirs folders, absolute
 */
export function protectFolders(dirs: readonly string[]): void {
  protectedFolders.push(...dirs);
  protectedInodes = undefined;
}

/** Every regular file's `dev:ino` under `dirs`, links not followed, bounded by a count. */
function inodesUnder(dirs: readonly string[], skip: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const pending = [...dirs];
  let visited = 0;
  while (pending.length > 0 && visited < MAX_PROTECTED_FILES) {
    const dir = pending.pop() as string;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of entries) {
      const path = join(dir, name);
      if (skip.has(path)) continue;
      const s = lstatSync(path, { throwIfNoEntry: false });
      visited++;
      if (s?.isDirectory()) pending.push(path);
      else if (s?.isFile()) found.add(`${s.dev}:${s.ino}`);
    }
  }
  return found;
}

/** True when `s` is a file of the kit's or of a protected folder (protectFolders). */
function isProtectedFile(s: Stats): boolean {
  protectedInodes ??= inodesUnder(
    [KIT_ROOT, ...protectedFolders],
    new Set([join(KIT_ROOT, "node_modules")]),
  );
  return protectedInodes.has(`${s.dev}:${s.ino}`);
}

/** What a non-regular, non-folder entry is, for the error line. */
function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return "a symbolic link";
  if (s.isFIFO()) return "a FIFO (named pipe)";
  if (s.isSocket()) return "a socket";
  if (s.isBlockDevice() || s.isCharacterDevice()) return "a device";
  return "not a regular file";
}

/**
 * Reads one file through a descriptor opened without following links and without blocking (a
 * FIFO swapped in after the lstat must not hang the grader), checking that it is still the
 * regular, singly linked file the lstat saw and that it did not grow past the cap.
 *
 * @returns the bytes, or the problem as a line naming `rel`
 */
function readStaged(path: string, rel: string, seen: Stats, maxBytes: number): Buffer | string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return `${rel} is a symbolic link: ${ONLY_REGULAR}`;
    return `${rel} cannot be read (${code ?? "error"})`;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile() || s.ino !== seen.ino || s.dev !== seen.dev) {
      return `${rel} changed while it was copied: ${ONLY_REGULAR}`;
    }
    if (s.nlink > 1 && isProtectedFile(s))
      return `${rel} is a hard link to a file of the kit's or of the private cases: ${ONLY_REGULAR}, none another name for one of those`;
    if (s.size > maxBytes) return tooBig(rel, s.size, maxBytes);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) return tooBig(rel, length, maxBytes);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function tooBig(rel: string, size: number, maxBytes: number): string {
  return `${rel} is ${size} bytes: a submission's files may be at most ${maxBytes} bytes each`;
}

/**
 * The names in a folder, at most `max` of them (a folder of a million entries is not listed
 * whole), sorted so that problems are reported in the same order on every machine.
 */
function namesIn(dir: string, max: number): { names: string[]; more: boolean } {
  const handle = opendirSync(dir);
  const names: string[] = [];
  let more = false;
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (names.length === max) {
        more = true;
        break;
      }
      names.push(entry.name);
    }
  } finally {
    handle.closeSync();
  }
  return { names: names.sort(), more };
}

/**
 * The real path of a submission folder. Without `within`, the path as given, links and all (the
 * instructor named it). With it (a batch folder holding the submission), `within` as given and
 * then each folder below it on the way to the submission checked with lstat: none may be a link.
 *
 * @throws StageError naming the link (relative to `within`), or when a folder is missing
 */
function submissionFolder(submissionDir: string, within: string | undefined): string {
  let real: string;
  try {
    real = realpathSync(within ?? submissionDir);
  } catch {
    throw new StageError(["the submission folder does not exist"]);
  }
  if (within === undefined) return real;
  const rel = relative(within, submissionDir);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new Error(`stageSubmission: ${submissionDir} is not inside ${within}`);
  }
  let shown = "";
  for (const part of rel === "" ? [] : rel.split(sep)) {
    real = join(real, part);
    shown = shown === "" ? part : `${shown}/${part}`;
    const s = lstatSync(real, { throwIfNoEntry: false });
    if (s === undefined) throw new StageError(["the submission folder does not exist"]);
    if (!s.isDirectory()) {
      throw new StageError([
        `${shown} is ${s.isSymbolicLink() ? "a symbolic link" : "not a folder"}: a batch grades real folders only, never what a link points to`,
      ]);
    }
  }
  return real;
}

/**
 * Copies `<submissionDir>/src/` into a fresh private folder: regular files and folders only.
 *
 * @param submissionDir the submission folder (it may itself be a link: the grader's choice,
 *   unless `within` says otherwise)
 * @param limits the caps (STAGE_LIMITS unless a test says otherwise)
 * @param within the batch folder that holds submissionDir, when there is one: then no folder
 *   below it on the way to src/ may be a symbolic link
 * @returns the copy; call its cleanup when done
 * @throws StageError when src/ is missing or holds anything but regular files and folders, or
 *   goes over a cap, or a folder below `within` is a link: one line per problem, naming the file
 *   relative to the submission (`src/answers.ts is a symbolic link: ...`), or to `within`
 */
export function stageSubmission(
  submissionDir: string,
  limits: StageLimits = STAGE_LIMITS,
  within?: string,
): StagedSubmission {
  const from = join(submissionFolder(submissionDir, within), "src");
  let top: Stats;
  try {
    top = lstatSync(from);
  } catch {
    throw new StageError(["src/ is missing: a submission's program is src/main.ts"]);
  }
  if (!top.isDirectory()) throw new StageError([`src is ${kindOf(top)}: it must be a folder`]);

  const root = mkdtempSync(join(tmpdir(), "kit-stage-"));
  const src = join(root, "src");
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  const problems: string[] = [];
  const files: string[] = [];
  let folders = 0;
  let total = 0;
  const problem = (line: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(line);
  };

  const copyFolder = (dir: string, to: string, rel: string, depth: number, seen: Stats) => {
    mkdirSync(to);
    // Explicit modes, whatever the umask: the run identity reads the copy through a bind mount.
    chmodSync(to, 0o755);
    const room = limits.maxFiles + limits.maxFolders - files.length - folders + 1;
    const { names, more } = namesIn(dir, Math.max(room, 0));
    // The folder must still be the one lstat saw (not swapped for a link while we listed it).
    const after = lstatSync(dir);
    if (!after.isDirectory() || after.ino !== seen.ino || after.dev !== seen.dev) {
      problem(`${rel} changed while it was copied: ${ONLY_REGULAR}`);
      return;
    }
    if (more) {
      problem(
        `${rel} holds more than ${limits.maxFiles} files: a submission may hold at most ${limits.maxFiles}`,
      );
      return;
    }
    for (const name of names) {
      if (problems.length >= MAX_PROBLEMS) return;
      const path = join(dir, name);
      const relName = `${rel}/${name}`;
      const s = lstatSync(path);
      if (s.isDirectory()) {
        folders++;
        if (depth + 1 > limits.maxDepth) {
          problem(
            `${relName} is ${depth + 1} folders below src/: a submission may nest folders ${limits.maxDepth} deep at most`,
          );
        } else if (folders > limits.maxFolders) {
          problem(
            `${relName}: src/ holds more than ${limits.maxFolders} folders: a submission may hold at most ${limits.maxFolders}`,
          );
        } else {
          copyFolder(path, join(to, name), relName, depth + 1, s);
        }
        continue;
      }
      if (!s.isFile()) {
        problem(`${relName} is ${kindOf(s)}: ${ONLY_REGULAR}`);
        continue;
      }
      if (files.length >= limits.maxFiles) {
        problem(
          `${relName}: src/ holds more than ${limits.maxFiles} files: a submission may hold at most ${limits.maxFiles}`,
        );
        return;
      }
      const bytes = readStaged(path, relName, s, limits.maxFileBytes);
      if (typeof bytes === "string") {
        problem(bytes);
        continue;
      }
      total += bytes.length;
      if (total > limits.maxTotalBytes) {
        problem(
          `${relName}: src/ holds more than ${limits.maxTotalBytes} bytes: a submission may hold at most ${limits.maxTotalBytes}`,
        );
        return;
      }
      // "wx": a name that already exists in the fresh copy would mean something is wrong.
      writeFileSync(join(to, name), bytes, { flag: "wx" });
      chmodSync(join(to, name), 0o644);
      files.push(relName);
    }
  };

  try {
    copyFolder(from, src, "src", 0, top);
  } catch (error) {
    cleanup();
    throw error;
  }
  if (problems.length > 0) {
    cleanup();
    throw new StageError(problems);
  }
  return { root, src, files, cleanup };
}
