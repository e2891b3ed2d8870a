/**
 * Which folders of a batch DIR are graded, and by which shard. Every subfolder of DIR is listed
 * (hidden ones, whose names start with ".", are not); one with src/main.ts is a submission, one
 * without is still listed so the gradebook shows it. Names are sorted in UTF-16 code-unit order,
 * and shard I of N takes every N-th name of that list starting at the I-th (round-robin), so the
 * shards of one DIR are disjoint, together cover it, and differ in size by at most one.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SetupError } from "../errors.ts";
import { byCodeUnits } from "../verdict/order.ts";

/** One subfolder of a batch DIR. */
export interface BatchEntry {
  /** The folder's name: the submission's name in the gradebook and report. */
  name: string;
  /** Its absolute path. */
  path: string;
  /** true when it has src/main.ts (a submission); false otherwise (listed with every case error). */
  isSubmission: boolean;
}

export { byCodeUnits };

/**
 * Lists the subfolders of a batch DIR, sorted by name in code-unit order. Symbolic links to
 * folders count as folders; files and hidden folders (".git") are left out.
 *
 * @param dir an absolute path
 * @throws SetupError when DIR does not exist, is not a folder, or has no subfolder
 */
export function listBatch(dir: string): BatchEntry[] {
  if (!existsSync(dir)) throw new SetupError(`--batch: no such folder: ${dir}`);
  if (!statSync(dir).isDirectory()) {
    throw new SetupError(`--batch takes a folder of submission folders; ${dir} is a file`);
  }
  const entries: BatchEntry[] = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      isDirectory = false; // a dangling link
    }
    if (!isDirectory) continue;
    const main = join(path, "src", "main.ts");
    let isSubmission: boolean;
    try {
      isSubmission = statSync(main).isFile();
    } catch {
      isSubmission = false;
    }
    entries.push({ name, path, isSubmission });
  }
  if (entries.length === 0) {
    throw new SetupError(
      `--batch: ${dir} has no subfolders; it should hold one folder per submission (each with src/main.ts)`,
    );
  }
  return entries.sort((a, b) => byCodeUnits(a.name, b.name));
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
