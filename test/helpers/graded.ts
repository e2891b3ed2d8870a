// Gradings shared by the e2e files: each submission below is graded once per test run, with
// every format at once (github on standard output, the others and the text report to files), and
// kept in the run's folder (graded-setup.ts); a file that asks again reads that run.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import type { ExercismResults } from "../../grader/report/exercism.ts";
import type { GradescopeResults } from "../../grader/report/gradescope.ts";
import { grade, variantOfSolution, type ResultsJson } from "./grader.ts";
import { ROOT } from "./program.ts";

/** One grading run with every format. */
export interface AllFormatsRun {
  /** The grader's arguments before the --format options (the submission's path first). */
  args: string[];
  status: number | null;
  /** Standard output: the github format (workflow commands, the folded log). */
  stdout: string;
  stderr: string;
  /** The text report (--format text=FILE), without colour. */
  text: string;
  results: ResultsJson;
  junit: string;
  gradescope: GradescopeResults;
  exercism: ExercismResults;
  /** GITHUB_STEP_SUMMARY after the run: EARLIER_SUMMARY, then what the github format appended. */
  summary: string;
}

/** What GITHUB_STEP_SUMMARY holds before each run (a summary must be appended, not replaced). */
export const EARLIER_SUMMARY = "# An earlier step's summary\n";

/**
 * Grades `args` (a submission and options) once with every format.
 * @throws Error naming the file a format did not write, with the grader's exit and stderr
 */
export function gradeAllFormats(args: string[], env: NodeJS.ProcessEnv = {}): AllFormatsRun {
  const dir = mkdtempSync(join(tmpdir(), "kit-formats-"));
  const file = (name: string) => join(dir, name);
  writeFileSync(file("summary.md"), EARLIER_SUMMARY);
  const run = grade(
    [
      ...args,
      "--format",
      "github",
      "--format",
      `text=${file("report.txt")}`,
      "--format",
      `json=${file("results.json")}`,
      "--format",
      `junit=${file("junit.xml")}`,
      "--format",
      `gradescope=${file("gradescope.json")}`,
      "--format",
      `exercism=${file("exercism.json")}`,
    ],
    { GITHUB_STEP_SUMMARY: file("summary.md"), ...env },
  );
  const read = (name: string) => {
    try {
      return readFileSync(file(name), "utf8");
    } catch {
      throw new Error(`${name} was not written (exit ${run.status}): ${run.stderr}`);
    }
  };
  return {
    args,
    ...run,
    text: read("report.txt"),
    results: JSON.parse(read("results.json")) as ResultsJson,
    junit: read("junit.xml"),
    gradescope: JSON.parse(read("gradescope.json")) as GradescopeResults,
    exercism: JSON.parse(read("exercism.json")) as ExercismResults,
    summary: read("summary.md"),
  };
}

/** The submissions graded once per run. */
const SHARED = {
  /** solution/, the reference: full marks. */
  reference: () => ["solution"],
  /** starter/ (the default target): every case stops at a stub. */
  starter: () => [],
  /** The reference comparing member ids with localeCompare: some required and extension fail. */
  "locale-order-variant": () => [
    variantOfSolution([
      {
        file: "range-assignor.ts",
        search: "return a < b ? -1 : a > b ? 1 : 0;",
        replace: 'return a.localeCompare(b, "en-US");',
      },
    ]),
  ],
  /**
   * test/submissions/import-answers, which imports a golden answer: its build fails, so every case
   * is an error; graded on an assign case and a bad-input one.
   */
  "import-answers": () => [
    join(ROOT, "test", "submissions", "import-answers"),
    "--only",
    "01-lesson-7-partitions-3-members",
    "--only",
    "25-error-truncated-topic-string",
  ],
} as const;

/**
 * The grading of a shared submission in this test run, graded by the first file that asks. Files
 * run two at a time (vitest.config.ts): one that asks while another is grading waits for it.
 */
export function graded(name: keyof typeof SHARED): AllFormatsRun {
  const dir = inject("gradedDir");
  const path = join(dir, `${name}.json`);
  mkdirSync(dir, { recursive: true });
  try {
    mkdirSync(`${path}.lock`);
  } catch {
    // Another file is grading it (the lock is never removed): wait for its results, or its
    // failure, which is this file's failure too.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(path) && !existsSync(`${path}.failed`)) Atomics.wait(pause, 0, 0, 200);
    if (!existsSync(path)) throw new Error(readFileSync(`${path}.failed`, "utf8"));
    return JSON.parse(readFileSync(path, "utf8")) as AllFormatsRun;
  }
  let run: AllFormatsRun;
  try {
    run = gradeAllFormats(SHARED[name]());
  } catch (error) {
    writeFileSync(`${path}.failed`, `grading ${name} failed: ${(error as Error).message}`);
    throw error;
  }
  // Written whole, then renamed: a waiting file reads all of it or nothing.
  const partial = `${path}.partial`;
  writeFileSync(partial, JSON.stringify(run));
  renameSync(partial, path);
  return run;
}
