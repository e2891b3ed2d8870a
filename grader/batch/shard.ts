/**
 * Which folders of a batch DIR are graded, and by which shard. Every entry of DIR is listed by its
 * exact bytes (names.ts), hidden ones (names starting with ".") aside. A real folder with
 * src/main.ts is a submission, and so is one whose only submission is one real folder down
 * (DIR/alice/alice-main/src/main.ts: a repository downloaded as a zip, or an upload of a folder,
 * as GitHub Classroom's and Gradescope's downloads hold them). Links are never followed: a
 * symbolic link in DIR, or one where the grader looks for the program (NAME/src,
 * NAME/src/main.ts, and one folder down NAME/X, NAME/X/src, NAME/X/src/main.ts), is not a
 * submission, whatever it points to, and the listing names it. So is a folder whose name is not
 * UTF-8 (the grader's tools name files by strings). Each such folder is still listed so that the
 * gradebook shows it, with why. Names are sorted in UTF-16 code-unit order, and shard I of N takes
 * every N-th name of that list starting at the I-th (round-robin), so the shards of one DIR are
 * disjoint, together cover it, and differ in size by at most one.
 */
import { existsSync, lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SetupError } from "../errors.ts";
import { byCodeUnits } from "../verdict/order.ts";
import {
  decodeName,
  hasUndecodableBytes,
  lookAlikeKey,
  resultsFileName,
  shownName,
} from "./names.ts";

/** One entry of a batch DIR that is listed (graded, or shown as not a submission). */
export interface BatchEntry {
  /**
   * The folder's name, its exact bytes as names.ts decodeName keeps them: the submission's name
   * in the gradebook, the report and its results file.
   */
  name: string;
  /** The submission's absolute path: DIR/name, or DIR/name/inner. */
  path: string;
  /**
   * The batch DIR the entry is in: staging follows no link from it down to path/src (a link
   * DIR itself is, or lies under, is the instructor's).
   */
  dir: string;
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
  why: "a hidden folder" | "a hidden symbolic link" | "not a folder";
}

/** What listBatch found in DIR. */
export interface BatchListing {
  /** Every non-hidden folder and symbolic link, sorted by name in code-unit order. */
  entries: BatchEntry[];
  /** The entries of DIR left out (hidden entries, files), sorted by name. */
  skipped: SkippedEntry[];
  /**
   * Names a reader could take for one another (names.ts lookAlikeKey: equal once shown, in NFC,
   * case-folded), each group sorted, groups by their first name. Each is still graded into its
   * own results file.
   */
  lookAlike: string[][];
}

export { byCodeUnits };

/** `parent/name` as a path of bytes (a name need not be UTF-8). */
function child(parent: Buffer, name: Buffer | string): Buffer {
  return Buffer.concat([parent, Buffer.from("/"), Buffer.from(name)]);
}

/** What is at `path`, links not followed. */
function kindAt(path: Buffer): "folder" | "link" | "file" | "other" | "missing" {
  const s = lstatSync(path, { throwIfNoEntry: false });
  if (s === undefined) return "missing";
  if (s.isSymbolicLink()) return "link";
  if (s.isDirectory()) return "folder";
  return s.isFile() ? "file" : "other";
}

/**
 * Whether `folder` holds a program: src/ a real folder with main.ts a regular file in it. When a
 * link stands where src/ or src/main.ts should be, which one ("src", "src/main.ts").
 */
function programAt(folder: Buffer): { found: boolean; link: string | null } {
  const src = kindAt(child(folder, "src"));
  if (src === "link") return { found: false, link: "src" };
  if (src !== "folder") return { found: false, link: null };
  const main = kindAt(child(child(folder, "src"), "main.ts"));
  if (main === "link") return { found: false, link: "src/main.ts" };
  return { found: main === "file", link: null };
}

const NEVER_FOLLOWED = "a batch grades real folders only, never what a link points to";

/** A listed entry that is not a submission. */
function notSubmission(dir: string, name: string, why: string, short: string): BatchEntry {
  return {
    name,
    path: join(dir, name),
    dir,
    isSubmission: false,
    inner: null,
    problem: { why, short },
  };
}

/**
 * Where the submission of the real folder DIR/name is: the folder itself when it has src/main.ts;
 * else the one real folder inside it (not hidden, not node_modules) with src/main.ts; else none,
 * with why. No link is followed (see the module's comment).
 *
 * @param dir the batch DIR, absolute
 * @param bytes the folder's name as the file system holds it
 */
export function locateSubmission(dir: string, bytes: Uint8Array): BatchEntry {
  const name = decodeName(bytes);
  const folder = child(Buffer.from(dir), Buffer.from(bytes));
  if (hasUndecodableBytes(name)) {
    return notSubmission(
      dir,
      name,
      `has a name that is not valid UTF-8 (shown as ${shownName(name)}, each byte that is not UTF-8 as \\xNN): rename the folder to grade it`,
      "name not UTF-8",
    );
  }
  const top = programAt(folder);
  const path = join(dir, name);
  if (top.found) return { name, path, dir, isSubmission: true, inner: null, problem: null };
  if (top.link !== null) {
    return notSubmission(
      dir,
      name,
      `holds ${top.link} as a symbolic link: ${NEVER_FOLLOWED}`,
      `${top.link} is a symbolic link`,
    );
  }
  const inside: string[] = [];
  const links: string[] = [];
  for (const innerBytes of readdirSync(folder, "buffer")) {
    const inner = decodeName(innerBytes);
    if (inner.startsWith(".") || inner === "node_modules") continue;
    const kind = kindAt(child(folder, innerBytes));
    if (kind === "link") links.push(inner);
    if (kind !== "folder") continue;
    const program = programAt(child(folder, innerBytes));
    if (program.found) inside.push(inner);
    else if (program.link !== null) links.push(`${inner}/${program.link}`);
  }
  inside.sort(byCodeUnits);
  links.sort(byCodeUnits);
  const [only] = inside;
  if (inside.length === 1 && only !== undefined) {
    if (hasUndecodableBytes(only)) {
      return notSubmission(
        dir,
        name,
        `has its submission in a folder whose name is not valid UTF-8 (shown as ${shownName(only)}): rename that folder to grade it`,
        "inner name not UTF-8",
      );
    }
    return { name, path: join(path, only), dir, isSubmission: true, inner: only, problem: null };
  }
  if (inside.length > 1) {
    return notSubmission(
      dir,
      name,
      `has no src/main.ts, and ${inside.length} folders inside it have one (${inside.map(shownName).join(", ")}): keep one submission per folder`,
      `${inside.length} submissions inside it`,
    );
  }
  if (links.length > 0) {
    const shown = links.map(shownName).join(", ");
    return notSubmission(
      dir,
      name,
      `has no src/main.ts, nor has any real folder inside it; symbolic links inside it (${shown}) are not followed: ${NEVER_FOLLOWED}`,
      `only symbolic links inside it (${shown})`,
    );
  }
  return notSubmission(
    dir,
    name,
    "has no src/main.ts, nor has any folder inside it (each folder of the batch must hold one submission, at its top or one folder down)",
    "no src/main.ts",
  );
}

/**
 * Lists the entries of a batch DIR by their exact bytes, sorted by name in code-unit order, each
 * with where its submission is (locateSubmission). Hidden entries (".git") and files are left out,
 * and returned as `skipped`; a symbolic link (to a folder or anything else, or dangling) is listed
 * as not a submission. Names a reader could take for one another are returned as `lookAlike`.
 *
 * @param dir an absolute path (itself it may be a link: the instructor's choice)
 * @throws SetupError when DIR does not exist, is not a folder, or has no subfolder or link
 */
export function listBatch(dir: string): BatchListing {
  if (!existsSync(dir)) throw new SetupError(`--batch: no such folder: ${dir}`);
  if (!statSync(dir).isDirectory()) {
    throw new SetupError(`--batch takes a folder of submission folders; ${dir} is a file`);
  }
  const entries: BatchEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const bytes of readdirSync(dir, "buffer")) {
    const name = decodeName(bytes);
    const kind = kindAt(child(Buffer.from(dir), bytes));
    if (name.startsWith(".")) {
      skipped.push({
        name,
        why:
          kind === "folder"
            ? "a hidden folder"
            : kind === "link"
              ? "a hidden symbolic link"
              : "not a folder",
      });
    } else if (kind === "link") {
      entries.push(
        notSubmission(dir, name, `is a symbolic link: ${NEVER_FOLLOWED}`, "a symbolic link"),
      );
    } else if (kind === "folder") entries.push(locateSubmission(dir, bytes));
    else skipped.push({ name, why: "not a folder" });
  }
  if (entries.length === 0) {
    throw new SetupError(
      `--batch: ${dir} has no subfolders; it should hold one folder per submission (each with src/main.ts)`,
    );
  }
  entries.sort((a, b) => byCodeUnits(a.name, b.name));
  const groups = new Map<string, string[]>();
  for (const { name } of entries) {
    const key = lookAlikeKey(name);
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return {
    entries,
    skipped: skipped.sort((a, b) => byCodeUnits(a.name, b.name)),
    lookAlike: [...groups.values()].filter((names) => names.length > 1),
  };
}

/**
 * What a batch says about DIR before grading, one line each: every entry skipped and why, every
 * folder that is not a submission (graded as every case `error`) and why, every submission found
 * one folder down, and every group of names that look alike with each one's results file. Names
 * are shown by names.ts shownName; the caller makes the lines printable.
 */
export function listingNotes(listing: BatchListing): string[] {
  return [
    ...listing.skipped.map((s) => `skipped ${shownName(s.name)}: ${s.why}`),
    ...listing.entries.flatMap((e) =>
      e.problem !== null
        ? [`not a submission, every case error: ${shownName(e.name)}: ${e.problem.short}`]
        : e.inner !== null
          ? [`graded one folder down: ${e.name}/${e.inner}/`]
          : [],
    ),
    ...listing.lookAlike.map(
      (names) =>
        `names that look alike, each graded into its own results file: ${names.map((n) => `${shownName(n)} (${resultsFileName(n)})`).join(", ")}`,
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
