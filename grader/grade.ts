/**
 * Grading one submission: build it once, run every case as its own process (several at a time),
 * judge each run, and hand each result to the reporters in fixture order.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judge, type Reason, type Status, type Verdict } from "./compare/verdict.ts";
import type { Case, FixtureSchemas } from "./fixtures/load.ts";
import { buildSubmission } from "./run/build.ts";
import { runProcess, type RawRun } from "./run/run-process.ts";
import type { Reporter } from "./report/reporter.ts";
import { matchMistakes, type OutcomeSource } from "./diagnose/diagnose.ts";

/** What is graded: a folder with src/main.ts. */
export interface Submission {
  /** The folder, absolute. */
  path: string;
  /** How the user named it (shown in reports and in the rerun command). */
  name: string;
}

export interface GradeOptions {
  submission: Submission;
  cases: readonly Case[];
  schemas: FixtureSchemas;
  /** Per-case wall-clock limit, milliseconds. */
  timeoutMs: number;
  /** Bytes kept per output stream before the program is stopped. */
  outputCapBytes: number;
  /** Heap limit for the program, MiB (Node's --max-old-space-size). */
  memoryMiB: number;
  /** Cases run at once. */
  concurrency: number;
  kit: { version: string; fixtures: string };
  reporters: readonly Reporter[];
  /** Rebuilds the command line that reruns one case, for failure messages. */
  rerunCommand: (caseId: string) => string;
  /** Where mutant outcomes come from, to name mistakes on failed cases (none: no diagnosis). */
  diagnosis?: OutcomeSource;
}

/** One case's result: the results file's fields plus what the text report shows. */
export interface CaseResult {
  id: string;
  title: string;
  required: boolean;
  status: Status;
  reason: Reason | null;
  points: number;
  maxPoints: number;
  /** The catalogued mistake the outcome matches, when one does (see diagnose/); the first of several. */
  mistake: string | null;
  /** Every catalogued mistake the outcome matches (most specific first; usually one). */
  mistakes: string[];
  message: string;
  case: Case;
  verdict: Verdict;
  /** Standard error as the program wrote it (capped). */
  stderr: string;
  durationMs: number;
  rerun: string;
}

export interface GradeResults {
  kit: { version: string; fixtures: string };
  submission: string;
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
  cases: CaseResult[];
  /** Build errors, when the submission did not build (every case is then `error`). */
  buildErrors: string[];
  durationMs: number;
}

function result(
  c: Case,
  verdict: Verdict,
  run: RawRun | null,
  rerun: string,
  mistakes: string[] = [],
): CaseResult {
  return {
    id: c.id,
    title: c.title,
    required: c.required,
    status: verdict.status,
    reason: verdict.reason,
    points: verdict.status === "pass" ? c.points : 0,
    maxPoints: c.points,
    mistake: mistakes[0] ?? null,
    mistakes,
    message: verdict.message,
    case: c,
    verdict,
    stderr: run?.stderr ?? "",
    durationMs: run?.durationMs ?? 0,
    rerun,
  };
}

/** The environment a submission runs with: nothing of the grader's own. */
function programEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
  };
}

/** Runs one case of a built program: its own process, the case's input on standard input. */
export function runCase(
  bundle: string,
  c: Case,
  workDir: string,
  limits: Pick<GradeOptions, "memoryMiB" | "timeoutMs" | "outputCapBytes">,
): Promise<RawRun> {
  return runProcess(
    {
      command: process.execPath,
      args: [
        `--max-old-space-size=${limits.memoryMiB}`,
        "--enable-source-maps",
        bundle,
        ...(c.mode === "decode" ? ["--decode"] : []),
      ],
      cwd: workDir,
      env: programEnv(),
      stdin: c.inputText,
    },
    { timeoutMs: limits.timeoutMs, outputCapBytes: limits.outputCapBytes },
  );
}

/**
 * Grades a submission against the cases.
 *
 * @returns every case's result in case order, and the scores (required and extension apart)
 */
export async function gradeSubmission(options: GradeOptions): Promise<GradeResults> {
  const started = performance.now();
  const { cases, reporters } = options;
  for (const r of reporters)
    r.onRunStart?.({ submission: options.submission.name, cases, kit: options.kit });

  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(cases.length);
  let reported = 0;
  const publish = () => {
    // Reporters see results in fixture order even though cases finish in any order.
    while (reported < cases.length && results[reported] !== undefined) {
      const done = results[reported] as CaseResult;
      for (const r of reporters) r.onCaseResult?.(done);
      reported++;
    }
  };

  const build = await buildSubmission(options.submission.path);
  const workDir = mkdtempSync(join(tmpdir(), "kit-case-"));
  try {
    if (build.bundle === undefined) {
      const message = `the submission did not build: ${build.errors[0] ?? "unknown error"}`;
      cases.forEach((c, i) => {
        results[i] = result(
          c,
          { status: "error", reason: "build-error", message, outcome: { kind: "build-error" } },
          null,
          options.rerunCommand(c.id),
        );
      });
      publish();
    } else {
      const bundle = build.bundle;
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const index = next++;
          const c = cases[index] as Case;
          const run = await runCase(bundle, c, workDir, options);
          const verdict = judge(c, run, options.schemas.output(c.mode));
          let mistakes: string[] = [];
          if (verdict.status !== "pass" && options.diagnosis !== undefined) {
            const outcomes = await options.diagnosis.outcomesFor(c);
            if (outcomes !== undefined) mistakes = matchMistakes(verdict.outcome, outcomes);
          }
          results[index] = result(c, verdict, run, options.rerunCommand(c.id), mistakes);
          publish();
        }
      };
      await Promise.all(
        Array.from({ length: Math.max(1, Math.min(options.concurrency, cases.length)) }, worker),
      );
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(build.outDir, { recursive: true, force: true });
  }

  const done = results as CaseResult[];
  const sum = (required: boolean, key: "points" | "maxPoints") =>
    done.filter((r) => r.required === required).reduce((total, r) => total + r[key], 0);
  const graded: GradeResults = {
    kit: options.kit,
    submission: options.submission.name,
    score: sum(true, "points"),
    maxScore: sum(true, "maxPoints"),
    extensionScore: sum(false, "points"),
    extensionMaxScore: sum(false, "maxPoints"),
    cases: done,
    buildErrors: build.errors,
    durationMs: performance.now() - started,
  };
  for (const r of reporters) r.onRunEnd?.(graded);
  return graded;
}

/** True when every required case passed (exit code 0). */
export function allRequiredPassed(results: GradeResults): boolean {
  return results.cases.every((r) => !r.required || r.status === "pass");
}
