// Runs the grader's command line as a user would (a separate process), and makes variants of the
// reference with a deliberate edit for tests.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./program.ts";

export interface GraderRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run grade -- ...args`, run as that script runs it, `node grader/launch.mjs` (the grader
 * compiled once into .grader/, not TypeScript compiled at every start), without npm's banner.
 */
export function grade(args: string[], env: NodeJS.ProcessEnv = {}): GraderRun {
  const result = spawnSync(process.execPath, [join(ROOT, "grader", "launch.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, INIT_CWD: ROOT, NO_COLOR: "1", ...env },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `grade` without blocking, so that two gradings can run at once: its exit status and standard
 * error (standard output is not kept). Killed after 4 minutes, as `grade` is.
 */
export function gradeAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, "grader", "launch.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, INIT_CWD: ROOT, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 240_000,
  });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) =>
      resolve({ status, stderr: Buffer.concat(stderr).toString("utf8") }),
    );
  });
}

/** Results of `--format json` on standard output. */
export interface ResultsJson {
  kit: { version: string; fixtures: string };
  submission: string;
  notGraded: { reason: string; errors: string[] } | null;
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
  cases: {
    id: string;
    title: string;
    required: boolean;
    status: string;
    reason: string | null;
    points: number;
    maxPoints: number;
    mistake: string | null;
    mistakes: string[];
    message: string;
  }[];
}

/** `grade` with `--format json` added (and `env` over the environment); the results parsed. */
export function gradeJson(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): {
  status: number | null;
  results: ResultsJson;
  stderr: string;
} {
  const run = grade([...args, "--format", "json"], env);
  return { status: run.status, results: JSON.parse(run.stdout) as ResultsJson, stderr: run.stderr };
}

/**
 * `grade` with the text report on standard output and the results JSON written beside it (one
 * run for both).
 */
export function gradeTextAndJson(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): GraderRun & { results: ResultsJson } {
  const file = join(mkdtempSync(join(tmpdir(), "kit-results-")), "results.json");
  const run = grade([...args, "--format", "text", "--format", `json=${file}`], env);
  let results: ResultsJson;
  try {
    results = JSON.parse(readFileSync(file, "utf8")) as ResultsJson;
  } catch {
    throw new Error(`results.json was not written (exit ${run.status}): ${run.stderr}`);
  }
  return { ...run, results };
}

/** A text edit of one file: `search` must occur exactly once. */
export interface Edit {
  file: string;
  search: string;
  replace: string;
}

/**
 * Copies solution/ into a temporary folder and applies the edits; returns the folder.
 * @throws Error when a search text does not occur exactly once (the edit would silently do nothing)
 */
export function variantOfSolution(edits: readonly Edit[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), "kit-variant-")), "submission");
  cpSync(join(ROOT, "solution"), dir, { recursive: true });
  for (const edit of edits) {
    const path = join(dir, "src", edit.file);
    const source = readFileSync(path, "utf8");
    const count = source.split(edit.search).length - 1;
    if (count !== 1)
      throw new Error(`${edit.file}: ${JSON.stringify(edit.search)} occurs ${count} times`);
    writeFileSync(
      path,
      source.replace(edit.search, () => edit.replace),
    );
  }
  return dir;
}

/**
 * Writes test/submissions/shared/NAME as a whole submission in `to`: the reference's src/ (main.ts
 * byte for byte the kit's, so its cases run shared), its range-assignor.ts and subscription.ts also
 * as reference-range-assignor.ts and reference-subscription.ts, and the folder's src/ files over
 * them (each wraps the reference's function). Returns `to`.
 */
export function sharedSubmission(name: string, to: string): string {
  const src = join(to, "src");
  cpSync(join(ROOT, "solution", "src"), src, { recursive: true });
  for (const file of ["range-assignor.ts", "subscription.ts"])
    cpSync(join(ROOT, "solution", "src", file), join(src, `reference-${file}`));
  cpSync(join(ROOT, "test", "submissions", "shared", name, "src"), src, { recursive: true });
  return to;
}

/** The reference with idle members dropped: fails any case with a member that gets nothing. */
export const dropsIdleMembers = (): string =>
  variantOfSolution([
    {
      file: "range-assignor.ts",
      search: "for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());",
      replace: "",
    },
    {
      file: "range-assignor.ts",
      search: "assignment.get(member.memberId)?.set(topic, partitions);",
      replace:
        "(assignment.get(member.memberId) ?? assignment.set(member.memberId, new Map()).get(member.memberId))?.set(topic, partitions);",
    },
    {
      // The same in the rack path's writer.
      file: "range-assignor.ts",
      search: "assignment.get(member.memberId)?.set(this.topic, partitions);",
      replace:
        "(assignment.get(member.memberId) ?? assignment.set(member.memberId, new Map()).get(member.memberId))?.set(this.topic, partitions);",
    },
  ]);
