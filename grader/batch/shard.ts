/**
 * Which folders of a batch DIR are graded, and by which shard. Every subfolder of DIR is listed
 * (hidden ones, whose names start with ".", are not); one with src/main.ts is a submission, and so
 * is one whose only submission is one folder down (DIR/alice/alice-main/src/main.ts: a repository
 * downloaded as a zip, or an upload of a folder, as GitHub Classroom's and Gradescope's downloads
 * hold them); one without is still listed so the gradebook shows it, with why. Names are sorted in
 * UTF-16 code-unit order, and shard I of N takes every N-th name of that list starting at the I-th
 * (round-robin), so the shards of one DIR are disjoint, together cover it, and differ in size by
 * at most one.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SetupError } from "../errors.ts";
import { byCodeUnits } from "../verdict/order.ts";

/** One subfolder of a batch DIR. */
export interface BatchEntry {
  /** The folder's name: the submission's name in the gradebook and report. */
  name: string;
  /** The submission's absolute path: DIR/name, or DIR/name/inner. */
  path: string;
  /** true when it holds a submission (src/main.ts, at its top or one folder down). */
  isSubmission: boolean;
  /** The folder inside DIR/name that holds the submission, when it is one folder down; else null. */
  inner: string | null;
  /**
   * Why it is not a submission, as the end of a sentence starting `the folder "NAME" ` (for its
   * results' message), and in short (for the progress line); null for a submission.
   */
  problem: { why: string; short: string } | null;
}

/** An entry of DIR that is not listed at all, and why. */
export interface SkippedEntry {
  name: string;
  why: "a hidden folder" | "not a folder";
}

/** What listBatch found in DIR. */
export interface BatchListing {
  /** Every non-hidden folder, sorted by name in code-unit order. */
  entries: BatchEntry[];
  /** The entries of DIR left out (hidden folders, files), sorted by name. */
  skipped: SkippedEntry[];
}

export { byCodeUnits };

/** true when `path` is a folder (a link to one counts; a dangling link does not). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** true when `folder` holds src/main.ts as a file. */
function hasMain(folder: string): boolean {
  try {
    return statSync(join(folder, "src", "main.ts")).isFile();
  } catch {
    return false;
  }
}

/**
 * Where the submission of DIR/name is: the folder itself when it has src/main.ts; else the one
 * folder inside it (not hidden, not node_modules) with src/main.ts; else none, with why.
 */
export function locateSubmission(dir: string, name: string): BatchEntry {
  const path = join(dir, name);
  if (hasMain(path)) return { name, path, isSubmission: true, inner: null, problem: null };
  const inside = readdirSync(path)
    .filter((n) => !n.startsWith(".") && n !== "node_modules" && isFolder(join(path, n)))
    .filter((n) => hasMain(join(path, n)))
    .sort(byCodeUnits);
  const [only] = inside;
  if (inside.length === 1 && only !== undefined) {
    return { name, path: join(path, only), isSubmission: true, inner: only, problem: null };
  }
  const problem =
    inside.length === 0
      ? {
          why: "has no src/main.ts, nor has any folder inside it (each folder of the batch must hold one submission, at its top or one folder down)",
          short: "no src/main.ts",
        }
      : {
          why: `has no src/main.ts, and ${inside.length} folders inside it have one (${inside.join(", ")}): keep one submission per folder`,
          short: `${inside.length} submissions inside it`,
        };
  return { name, path, isSubmission: false, inner: null, problem };
}

/**
 * Lists the subfolders of a batch DIR, sorted by name in code-unit order, each with where its
 * submission is (locateSubmission). Symbolic links to folders count as folders; files and hidden
 * folders (".git") are left out, and returned as `skipped`.
 *
 * @param dir an absolute path
 * @throws SetupError when DIR does not exist, is not a folder, or has no subfolder
 */
export function listBatch(dir: string): BatchListing {
  if (!existsSync(dir)) throw new SetupError(`--batch: no such folder: ${dir}`);
  if (!statSync(dir).isDirectory()) {
    throw new SetupError(`--batch takes a folder of submission folders; ${dir} is a file`);
  }
  const entries: BatchEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const name of readdirSync(dir)) {
    if (!isFolder(join(dir, name))) skipped.push({ name, why: "not a folder" });
    else if (name.startsWith(".")) skipped.push({ name, why: "a hidden folder" });
    else entries.push(locateSubmission(dir, name));
  }
  if (entries.length === 0) {
    throw new SetupError(
      `--batch: ${dir} has no subfolders; it should hold one folder per submission (each with src/main.ts)`,
    );
  }
  return {
    entries: entries.sort((a, b) => byCodeUnits(a.name, b.name)),
    skipped: skipped.sort((a, b) => byCodeUnits(a.name, b.name)),
  };
}

/**
 * What a batch says about DIR before grading, one line each: every entry skipped and why, every
 * folder that is not a submission (graded as every case `error`) and why, and every submission
 * found one folder down. Names are made printable by the caller.
 */
export function listingNotes(listing: BatchListing): string[] {
  return [
    ...listing.skipped.map((s) => `skipped ${s.name}: ${s.why}`),
    ...listing.entries.flatMap((e) =>
      e.problem !== null
        ? [`not a submission, every case error: ${e.name}: ${e.problem.short}`]
        : e.inner !== null
          ? [`graded one folder down: ${e.name}/${e.inner}/`]
          : [],
    ),
  ];
}

/**
 * The share of a sorted list that shard `index` of `count` grades: the entries at positions
 * index-1, index-1+count, index-1+2*count, ... (round-robin over the code-unit order).
 *
 * @param sorted entries sorted by name (as listBatch returns them)
 * @param shard I/N with I counting from 1; undefined: every entry
 */
export function shareOf<T>(
  sorted: readonly T[],
  shard: { index: number; count: number } | undefined,
): T[] {
  if (shard === undefined) return [...sorted];
  return sorted.filter((_, position) => position % shard.count === shard.index - 1);
}
