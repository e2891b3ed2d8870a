/**
 * Building a TypeScript submission: once per grading run, into one ESM file that every case then
 * runs with plain `node` (no TypeScript loader on the timed path).
 *
 * Nothing that reads submitted code runs with the grader's eyes. The submission's src/ is copied
 * (regular files only, stage.ts); every import() and require() in the copy must name a literal
 * path (literal-imports.ts), so the bundler never expands a pattern; then esbuild bundles the copy
 * in a small worker (build-worker/build-worker.mjs) confined by the sandbox as a run identity,
 * seeing the copy and its own packages only (confined-tool.ts). The worker's resolver allows only
 * Node's built-in modules and files inside the copy, and it blanks source-map comments, whose maps
 * esbuild would otherwise read along with every file they list. Every message names no path
 * outside the copy.
 */
import {
  closeSync,
  constants,
  readFileSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import type { SourceMapPayload } from "node:module";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { runTool, scrubPaths, toolFailure, OUTSIDE } from "./confined-tool.ts";
import { checkLiteralImports } from "./literal-imports.ts";
import { SANDBOX_DIR } from "./sandbox.ts";
import { stageSubmission, StageError, type StagedSubmission } from "./stage.ts";

export interface BuildResult {
  /** The bundle's path when the build succeeded (in outDir, a private 0700 folder). */
  bundle?: string;
  /** The folder the bundle lives in (delete it when done); it holds nothing else. */
  outDir: string;
  /**
   * Build errors, one line each with file, line and column (1-based): `src/main.ts:3:7: Could not
   * resolve ...`. No path outside the submission's src/ appears in them.
   */
  errors: string[];
  /**
   * The bundle's source map when the build succeeded: `sources` are `src/...` (relative to the
   * submission), no `sourcesContent`. For stack-map.ts; never shown to the program.
   */
  sourceMap?: SourceMapPayload;
  /**
   * SHA-256 (hex) of the submission's src/main.ts as staged, line ends made LF: whether its
   * program part is the kit's own, for shared runs (shared-run.ts sharedEntry).
   */
  entryDigest?: string;
}

/** Where a submission lies, for staging it. */
export interface BuildOptions {
  /** The batch folder holding the submission, if any: see stage.ts stageSubmission. */
  within?: string | undefined;
}

/** The bundler's limits: a bundle of a few files takes well under a second of CPU. */
const BUILD_LIMITS = {
  cpuSeconds: 60,
  dataMiB: 2048,
  fileBytes: 64 * 1024 * 1024,
  openFiles: 1024,
};
/** The worker prints one short JSON line (20 errors at most). */
const WORKER_OUTPUT_CAP = 1024 * 1024;
/** A bundle or map bigger than this is not one of a submission's 4 MiB of sources. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The worker's answer (see build-worker.mjs). */
interface WorkerAnswer {
  errors: { text: string; file?: string; line?: number; column?: number }[];
}

function parseAnswer(stdout: string): WorkerAnswer | undefined {
  try {
    const answer = JSON.parse(stdout) as unknown;
    const errors = (answer as { errors?: unknown }).errors;
    if (!Array.isArray(errors)) return undefined;
    return {
      errors: errors.map((e: unknown) => {
        const o = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
        return {
          text: typeof o.text === "string" ? o.text : "unknown error",
          ...(typeof o.file === "string" ? { file: o.file } : {}),
          ...(typeof o.line === "number" ? { line: o.line } : {}),
          ...(typeof o.column === "number" ? { column: o.column } : {}),
        };
      }),
    };
  } catch {
    return undefined;
  }
}

/**
 * Reads a file the worker wrote, without following a link, as long as it is a regular file of at
 * most MAX_OUTPUT_BYTES.
 *
 * @throws Error naming the file otherwise
 */
function readOutput(path: string, name: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const s = fstatSync(fd);
    if (!s.isFile() || s.size > MAX_OUTPUT_BYTES) {
      throw new Error(`the bundler's ${name} is not a regular file of at most 64 MiB`);
    }
    const buffer = Buffer.alloc(s.size);
    let length = 0;
    while (length < s.size) {
      const n = readSync(fd, buffer, length, s.size - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The worker's source map with its `sources` made relative to the submission (`src/main.ts`): the
 * map sat in out/, next to src/, in the copy.
 */
function ownSourceMap(text: string): SourceMapPayload {
  const map = JSON.parse(text) as SourceMapPayload;
  const sources = Array.isArray(map.sources) ? map.sources : [];
  const rewritten = sources.map((s) => {
    const path = posix.normalize(posix.join("out", String(s)));
    return path.startsWith("src/") ? path : OUTSIDE;
  });
  return { ...map, sources: rewritten, sourcesContent: [] };
}

/** Bundles a staged copy with the confined worker; see buildSubmission. */
async function bundleStaged(
  staged: StagedSubmission,
  submissionDir: string,
  outDir: string,
): Promise<BuildResult> {
  const out = join(staged.root, "out");
  mkdirSync(out, { mode: 0o700 });
  const { run, paths } = await runTool({
    staged,
    packages: ["esbuild"],
    out,
    args: (p) => [`${p.worker}/build-worker.mjs`, JSON.stringify({ src: p.src, out: p.out })],
    limits: BUILD_LIMITS,
    outputCapBytes: WORKER_OUTPUT_CAP,
  });
  const roots = [SANDBOX_DIR, staged.root, paths.copyRoot];
  const answer = run.exitCode === 0 ? parseAnswer(run.stdout) : undefined;
  if (answer === undefined) return { outDir, errors: [toolFailure("the bundler", run, roots)] };
  if (answer.errors.length > 0) {
    return {
      outDir,
      errors: answer.errors.map((e) => {
        const where =
          e.file !== undefined && e.line !== undefined && e.column !== undefined
            ? `${e.file}:${e.line}:${e.column + 1}: `
            : "";
        return scrubPaths(`${where}${e.text}`, roots);
      }),
    };
  }
  let bundle: Buffer;
  let map: SourceMapPayload;
  try {
    bundle = readOutput(join(out, "main.mjs"), "bundle");
    map = ownSourceMap(readOutput(join(out, "main.mjs.map"), "source map").toString("utf8"));
  } catch (error) {
    return { outDir, errors: [(error as Error).message] };
  }
  const path = join(outDir, "main.mjs");
  // The grader's own file: whatever the run identity left in out/ goes with the copy.
  writeFileSync(path, bundle, { mode: 0o644, flag: "wx" });
  return { bundle: path, outDir, errors: [], sourceMap: map };
}

/** SHA-256 (hex) of a main.ts's bytes with CRLF line ends made LF (a checkout on Windows). */
export function entryDigest(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString("latin1").split("\r\n").join("\n");
  return createHash("sha256").update(Buffer.from(text, "latin1")).digest("hex");
}

/**
 * Bundles a submission's program: stages its src/, checks that every dynamic import names a
 * literal path, and bundles the copy in the confined worker.
 *
 * @param submissionDir the submission folder (holding src/main.ts)
 * @param options where it lies: the batch folder holding it, if any (staging follows no link
 *   below that folder)
 * @returns the bundle's path and source map, or the build errors (each naming a file relative to
 *   the submission, `src/...`, and no path outside it); never throws for a broken submission
 */
export async function buildSubmission(
  submissionDir: string,
  options: BuildOptions = {},
): Promise<BuildResult> {
  const outDir = mkdtempSync(join(tmpdir(), "kit-grade-"));
  let staged: StagedSubmission;
  try {
    staged = stageSubmission(submissionDir, undefined, options.within);
  } catch (error) {
    if (error instanceof StageError) return { outDir, errors: error.problems };
    throw error;
  }
  try {
    if (!staged.files.includes("src/main.ts")) {
      return { outDir, errors: ["src/main.ts is missing: a submission's program starts there"] };
    }
    // The check and the confined bundler run side by side (the bundler sees only the copy, so it
    // can expand nothing outside it); a refused import wins, and the bundle is then discarded.
    const [computed, bundled] = await Promise.all([
      checkLiteralImports(staged),
      bundleStaged(staged, submissionDir, outDir),
    ]);
    if (computed.length > 0) {
      if (bundled.bundle !== undefined) rmSync(bundled.bundle, { force: true });
      return { outDir, errors: computed.map((e) => scrubPaths(e, [staged.root])) };
    }
    if (bundled.bundle === undefined) return bundled;
    return {
      ...bundled,
      entryDigest: entryDigest(readFileSync(join(staged.root, "src", "main.ts"))),
    };
  } finally {
    staged.cleanup();
  }
}
