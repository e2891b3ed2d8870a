/**
 * A batch's report folder, written by --batch (one shard or all) and by --merge alike:
 *
 *   OUT/shard.json          the manifest: kit stamp, shard (I/N, or null for a whole class), the
 *                           cases, every folder of the class the shard was cut from, and each
 *                           submission's name with its results file
 *   OUT/results/<file>.json each submission's results JSON (as --format json writes it), named
 *                           from the folder name's exact bytes (names.ts resultsFileName), so no
 *                           two submissions share one, on any file system
 *   OUT/gradebook.csv       see gradebook.ts
 *   OUT/report.html         see report-html.ts
 *
 * The gradebook and the report are built from the results JSON alone, so merging shards gives
 * the bytes an unsharded run gives.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { SetupError } from "../errors.ts";
import { writeReportFile } from "../safe-write.ts";
import { KIT_ROOT } from "../kit.ts";
import { gradebookCsv, type CaseInfo, type SubmissionResults } from "./gradebook.ts";
import { safeJson } from "../report/escape.ts";
import { reportHtml } from "./report-html.ts";
import { byCodeUnits } from "./shard.ts";
import { isFolderName, resultsFileName } from "./names.ts";

/** Marks a manifest as this kit's, in this layout. */
export const MANIFEST_FORMAT = "kafka-range-kit-batch/3";

/** OUT/shard.json. */
export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  kit: { version: string; fixtures: string };
  /** Which shard of the class this folder holds; null for the whole class (or a merge). */
  shard: { index: number; count: number } | null;
  cases: CaseInfo[];
  /**
   * Every folder of the batch DIR the report was cut from (all shards' folders, not only this
   * one's), names in code-unit order: what --merge checks a class's shards against (merge.ts).
   * For a whole class, the names of `submissions`; for a merge, every shard's.
   */
  listed: string[];
  /** In code-unit order of name; file is relative to the folder (results/<file>.json). */
  submissions: { name: string; file: string }[];
}

export { resultsFileName };

/**
 * Makes OUT ready for a new report: creates it, or, when it holds an earlier report (a
 * shard.json), removes that report's files. Anything else in OUT is left alone.
 *
 * @throws SetupError when OUT is a file, or a folder with other content and no shard.json
 */
export function prepareReportDir(dir: string): void {
  if (existsSync(dir) || lstatSync(dir, { throwIfNoEntry: false }) !== undefined) {
    // Never a link: the report would land wherever it points.
    if (lstatSync(dir).isSymbolicLink())
      throw new SetupError(`--report-dir ${dir} is a symbolic link: give a real folder`);
    if (!statSync(dir).isDirectory()) throw new SetupError(`--report-dir ${dir} is a file`);
    const entries = readdirSync(dir);
    if (entries.length > 0 && !entries.includes("shard.json")) {
      throw new SetupError(
        `--report-dir ${dir} is not empty and holds no earlier report (no shard.json): give a new or empty folder`,
      );
    }
    for (const name of ["shard.json", "gradebook.csv", "report.html", "results"]) {
      rmSync(join(dir, name), { recursive: true, force: true });
    }
  }
  mkdirSync(join(dir, "results"), { recursive: true });
}

/**
 * Writes one submission's results JSON (as --format json: safeJson, so it parses to the exact
 * strings) into a new file of OUT/results/ (prepareReportDir empties it); returns its path
 * relative to OUT.
 *
 * @throws SetupError when the file exists already: it would be another submission's (names.ts
 *   makes that impossible for folder names; this is the last guard against overwriting one)
 */
export function writeSubmissionResults(dir: string, results: SubmissionResults): string {
  const file = resultsFileName(results.submission);
  writeReportFile(join(dir, file), `${safeJson(results)}\n`, { exclusive: true });
  return file;
}

/**
 * Writes the manifest, the gradebook and the report for the results already in OUT/results/.
 *
 * @param manifest the manifest's fields; `listed` (sorted here) defaults to the submissions'
 *   names, a whole class
 * @param missing folders of the class left out of a partial merge (--allow-partial), which the
 *   class report names at its top
 * @returns the paths written, relative to OUT
 */
export function writeClassReport(
  dir: string,
  manifest: Omit<Manifest, "format" | "submissions" | "listed"> & { listed?: readonly string[] },
  submissions: readonly SubmissionResults[],
  missing: readonly string[] = [],
): string[] {
  const sorted = [...submissions].sort((a, b) => byCodeUnits(a.submission, b.submission));
  const full: Manifest = {
    format: MANIFEST_FORMAT,
    kit: manifest.kit,
    shard: manifest.shard,
    cases: manifest.cases,
    listed: [...(manifest.listed ?? sorted.map((s) => s.submission))].sort(byCodeUnits),
    submissions: sorted.map((s) => ({ name: s.submission, file: resultsFileName(s.submission) })),
  };
  writeReportFile(join(dir, "gradebook.csv"), gradebookCsv(sorted, manifest.cases));
  writeReportFile(
    join(dir, "report.html"),
    reportHtml(sorted, manifest.cases, manifest.kit, missing),
  );
  // Last: a folder whose shard.json is there is a finished report (readReportDir).
  writeReportFile(join(dir, "shard.json"), `${safeJson(full)}\n`);
  return ["gradebook.csv", "report.html", "results/", "shard.json"];
}

let validateResults: ValidateFunction | undefined;
/** The results JSON Schema (grader/results.schema.json), compiled once. */
function resultsValidator(): ValidateFunction {
  validateResults ??= new Ajv({ allErrors: true, strict: true }).compile(
    JSON.parse(readFileSync(join(KIT_ROOT, "grader", "results.schema.json"), "utf8")) as object,
  );
  return validateResults;
}

/** The most shards a manifest may name (--shard I/N's N): a forged count cannot size an array. */
const MAX_SHARDS = 10_000;

/**
 * A report folder's file as text, read only when it is a regular file: a FIFO planted in a shard
 * folder would otherwise hold the merge forever (opened without blocking, then checked).
 *
 * @throws Error naming what the path is when it is not a regular file
 */
function readRegularFile(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) throw new Error("not a regular file");
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isKit(value: unknown): value is Manifest["kit"] {
  return isRecord(value) && typeof value.version === "string" && typeof value.fixtures === "string";
}

function isCaseInfo(value: unknown): value is CaseInfo {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.title === "string" &&
    typeof value.required === "boolean" &&
    typeof value.maxPoints === "number"
  );
}

/**
 * Reads a report folder's manifest and every results file it lists, checked: the manifest's
 * shape, each results file against grader/results.schema.json, its submission name and kit stamp
 * against the manifest's.
 *
 * @throws SetupError naming the folder and what is wrong with it
 */
export function readReportDir(dir: string): { manifest: Manifest; results: SubmissionResults[] } {
  const path = join(dir, "shard.json");
  if (!existsSync(path)) {
    // A batch writes shard.json last, after every submission's results.
    if (existsSync(join(dir, "results"))) {
      throw new SetupError(
        `${dir} is an incomplete report: it has results/ but no shard.json, so the batch that writes it did not finish (it failed or was stopped); grade that shard again`,
      );
    }
    throw new SetupError(
      `${dir} is not a batch report folder (no shard.json): give the --report-dir folders of --batch runs`,
    );
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(readRegularFile(path));
  } catch (error) {
    throw new SetupError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const shard = isRecord(manifest) ? manifest.shard : undefined;
  if (
    !isRecord(manifest) ||
    manifest.format !== MANIFEST_FORMAT ||
    !isKit(manifest.kit) ||
    !(
      shard === null ||
      (isRecord(shard) &&
        Number.isInteger(shard.count) &&
        Number.isInteger(shard.index) &&
        (shard.count as number) >= 1 &&
        (shard.count as number) <= MAX_SHARDS &&
        (shard.index as number) >= 1 &&
        (shard.index as number) <= (shard.count as number))
    ) ||
    !Array.isArray(manifest.cases) ||
    !manifest.cases.every(isCaseInfo) ||
    !Array.isArray(manifest.listed) ||
    !manifest.listed.every((name: unknown) => typeof name === "string") ||
    !Array.isArray(manifest.submissions) ||
    !manifest.submissions.every(
      (s: unknown) => isRecord(s) && typeof s.name === "string" && typeof s.file === "string",
    )
  ) {
    throw new SetupError(
      `${path} is not a manifest this grader wrote (format ${MANIFEST_FORMAT}); rerun that shard with this kit`,
    );
  }
  const checked = manifest as unknown as Manifest;
  const validate = resultsValidator();
  const seen = new Set<string>();
  const results = checked.submissions.map(({ name, file }) => {
    if (seen.has(name)) {
      throw new SetupError(`${path} lists submission ${JSON.stringify(name)} twice`);
    }
    seen.add(name);
    if (!isFolderName(name)) {
      throw new SetupError(
        `${path}: submission ${JSON.stringify(name)} is not a folder name, so not one a batch writes; rerun that shard with this kit`,
      );
    }
    if (file !== resultsFileName(name)) {
      throw new SetupError(
        `${path}: submission ${JSON.stringify(name)} has an unexpected file ${JSON.stringify(file)}`,
      );
    }
    const resultsPath = join(dir, file);
    let data: unknown;
    try {
      data = JSON.parse(readRegularFile(resultsPath));
    } catch (error) {
      throw new SetupError(`cannot read ${resultsPath}: ${(error as Error).message}`);
    }
    if (!validate(data)) {
      throw new SetupError(
        `${resultsPath} does not match grader/results.schema.json: ${new Ajv().errorsText(validate.errors)}`,
      );
    }
    const results = data as SubmissionResults;
    if (results.submission !== name) {
      throw new SetupError(
        `${resultsPath} holds the results of ${JSON.stringify(results.submission)}, not ${JSON.stringify(name)}`,
      );
    }
    if (
      results.kit.version !== checked.kit.version ||
      results.kit.fixtures !== checked.kit.fixtures
    ) {
      throw new SetupError(`${resultsPath} was graded with another kit than ${path} says`);
    }
    return results;
  });
  return { manifest: checked, results };
}
