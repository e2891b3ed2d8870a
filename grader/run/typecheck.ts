/**
 * `--types`: type-checks a TypeScript submission with the kit's own tsc and strict settings before
 * grading (never on the timed path). Type errors fail the build, one line each with file and line.
 *
 * tsc reads submitted code and follows its imports (type imports included), so it runs as the
 * bundler does (confined-tool.ts): over a staged copy of src/ only, confined as a run identity,
 * with the kit's typescript and @types/node visible read-only and nothing else of the kit's; and
 * under Node's permission model, allowed to read only those. What it prints names no path outside
 * the copy.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { runTool, scrubPaths, toolFailure } from "./confined-tool.ts";
import { SANDBOX_DIR, sandboxFeatures } from "./sandbox.ts";
import { stageSubmission, StageError, type StagedSubmission } from "./stage.ts";

/** The compiler options of the kit's tsconfig.json that a submission is checked with. */
function tscOptions(typeRoots: string): string[] {
  return [
    // The submission's own tsconfig.json (if any) is not ours to trust or require.
    "--ignoreConfig",
    "--noEmit",
    "--strict",
    "--noUncheckedIndexedAccess",
    "--target",
    "ES2022",
    // Resolved as esbuild bundles it, whether or not a package.json says "type": "module".
    "--module",
    "preserve",
    "--moduleResolution",
    "bundler",
    "--allowImportingTsExtensions",
    "--allowJs",
    "--skipLibCheck",
    "--types",
    "node",
    "--typeRoots",
    typeRoots,
    "--pretty",
    "false",
  ];
}

/** tsc's limits: a few files with Node's types take a few seconds and a few hundred MiB. */
const TSC_LIMITS = {
  cpuSeconds: 120,
  dataMiB: 4096,
  fileBytes: 64 * 1024 * 1024,
  openFiles: 1024,
};
/** Bytes kept of tsc's output: thousands of error lines, more than anyone reads. */
const TSC_OUTPUT_CAP = 1024 * 1024;

/** Where a submission lies, for staging it. */
export interface TypeCheckOptions {
  /** The batch folder holding the submission, if any: see stage.ts stageSubmission. */
  within?: string | undefined;
}

/**
 * Runs tsc over `<submission>/src/main.ts` and what it imports, in the staged copy.
 *
 * @param submissionDir the submission folder (holding src/main.ts)
 * @param options where it lies: the batch folder holding it, if any (staging follows no link
 *   below that folder)
 * @returns the type errors, one per line (`src/main.ts(3,7): error TS2322: ...`, no path outside
 *   the copy), or the staging problems; empty when the submission type-checks
 */
export async function typeCheck(
  submissionDir: string,
  options: TypeCheckOptions = {},
): Promise<string[]> {
  let staged: StagedSubmission;
  try {
    staged = stageSubmission(submissionDir, undefined, options.within);
  } catch (error) {
    if (error instanceof StageError) return error.problems;
    throw error;
  }
  try {
    // tsc writes nothing (--noEmit); the folder is there because every tool run has one.
    const out = join(staged.root, "out");
    mkdirSync(out, { mode: 0o700 });
    const { run, paths } = await runTool({
      staged,
      packages: ["typescript", "@types/node"],
      out,
      args: (p) => [
        // Node's permission model as well: tsc reads only the copy and its own packages, even
        // where the sandbox has no namespaces, whatever path the submission names.
        sandboxFeatures().permissionFlag,
        "--no-warnings",
        ...[...new Set(p.readable)].map((dir) => `--allow-fs-read=${dir}`),
        join(p.pkg("typescript"), "bin", "tsc"),
        ...tscOptions(dirname(p.pkg("@types/node"))),
        join(p.src, "main.ts"),
      ],
      limits: TSC_LIMITS,
      outputCapBytes: TSC_OUTPUT_CAP,
    });
    if (run.exitCode === 0) return [];
    const roots = [SANDBOX_DIR, staged.root, paths.copyRoot];
    const lines = run.stdout.split("\n").filter((l) => l.trim() !== "");
    // tsc exits 1 or 2 when it found errors; anything else is tsc (or the sandbox) failing.
    if (lines.length === 0 || (run.exitCode !== 1 && run.exitCode !== 2)) {
      return [toolFailure("tsc", run, roots)];
    }
    return lines.map((line) => scrubPaths(line, roots));
  } finally {
    staged.cleanup();
  }
}
