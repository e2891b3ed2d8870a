/**
 * Running a tool that reads submitted code (the bundler's worker, tsc) inside the sandbox, over a
 * staged copy only (stage.ts), and making what it says safe to show.
 *
 * In the namespaced modes the tool runs as a run identity (root mode) in a root built from the
 * sandbox's allow-list, and sees, besides the system folders any program sees: the copy's src/
 * read-only at /dev/shm/src, an output folder writable at /dev/shm/out, the packages it needs
 * read-only at /dev/shm/node_modules/<name>, and the build worker's folder read-only at
 * /dev/shm/worker. Nothing else of the machine exists for it: not the kit, not the submission
 * itself, not private cases or reports. In mode none it runs unconfined, with the kernel limits
 * only, but still over the copy.
 */
import { chownSync, existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { KIT_ROOT } from "../kit.ts";
import { runIdentities } from "./identities.ts";
import { runProcess, type RawRun } from "./run-process.ts";
import {
  confinedSpec,
  programEnv,
  SANDBOX_DIR,
  sandboxFeatures,
  wallBackstops,
  type Bind,
  type KernelLimits,
} from "./sandbox.ts";
import type { StagedSubmission } from "./stage.ts";

/** What stands in a message for a path outside the staged copy. */
export const OUTSIDE = "<outside the submission>";

/** The build worker's folder (it holds the worker only), from the kit's root. */
export const WORKER_DIR = join(KIT_ROOT, "grader", "run", "build-worker");

/**
 * The real folder of an installed package, looked up the way Node looks up a package imported
 * from the kit's root (its node_modules, then each parent's).
 *
 * @throws Error when the package is not installed
 */
export function packageDir(name: string): string {
  const require = createRequire(join(KIT_ROOT, "package.json"));
  for (const dir of require.resolve.paths(name) ?? []) {
    const candidate = join(dir, name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
  }
  throw new Error(`the package ${name} is not installed: run npm install in ${KIT_ROOT}`);
}

/**
 * `names` and every installed package they depend on (dependencies, and optional dependencies
 * that are installed, such as esbuild's binary for this platform), each once.
 */
export function withDependencies(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string, optional: boolean) => {
    if (seen.has(name)) return;
    let dir: string;
    try {
      dir = packageDir(name);
    } catch (error) {
      if (optional) return;
      throw error;
    }
    seen.add(name);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, true);
  };
  for (const name of names) visit(name, false);
  return [...seen];
}

/** Where the tool finds things, as paths valid where it runs. */
export interface ToolPaths {
  /** The folder holding src/ (and out/): /dev/shm, or the staged copy's root in mode none. */
  copyRoot: string;
  /** The copy of the submission's src/. */
  src: string;
  /** The output folder. */
  out: string;
  /** The build worker's folder. */
  worker: string;
  /** An installed package's folder. */
  pkg(name: string): string;
  /**
   * Every folder the tool may need to read (the copy, the worker, the packages and, for a scoped
   * package, its scope's folder): for Node's permission model, where a tool can run under it.
   */
  readable: string[];
}

/** One run of a tool over a staged copy. */
export interface ToolRun {
  staged: StagedSubmission;
  /** Packages to make visible (their installed dependencies come along). */
  packages: readonly string[];
  /** A real folder inside the staged root, bound writable at /dev/shm/out (the run owns it). */
  out: string;
  /** The command line (`node` is process.execPath), given where things are. */
  args(paths: ToolPaths): string[];
  limits: KernelLimits;
  /** Bytes kept of each output stream. */
  outputCapBytes: number;
}

/**
 * Runs `node <args>` confined as described in this module's comment, as a fresh run identity in
 * root mode (released afterwards).
 *
 * @returns the run (its output unscrubbed: pass what is shown through scrubPaths) and the paths
 *   the tool was given
 */
export async function runTool(tool: ToolRun): Promise<{ run: RawRun; paths: ToolPaths }> {
  const f = sandboxFeatures();
  const namespaced = f.mode !== "none";
  const packages = withDependencies(tool.packages);
  const binds: Bind[] = [
    { source: tool.staged.src, target: `${SANDBOX_DIR}/src` },
    { source: tool.out, target: `${SANDBOX_DIR}/out`, writable: true },
    { source: WORKER_DIR, target: `${SANDBOX_DIR}/worker` },
    ...packages.map((name) => ({
      source: packageDir(name),
      target: `${SANDBOX_DIR}/node_modules/${name}`,
    })),
  ];
  const paths: ToolPaths = namespaced
    ? {
        copyRoot: SANDBOX_DIR,
        src: `${SANDBOX_DIR}/src`,
        out: `${SANDBOX_DIR}/out`,
        worker: `${SANDBOX_DIR}/worker`,
        pkg: (name) => `${SANDBOX_DIR}/node_modules/${name}`,
        // Everything the tool is given is under /dev/shm; the rest it must not read anyway.
        readable: [SANDBOX_DIR],
      }
    : {
        copyRoot: tool.staged.root,
        src: tool.staged.src,
        out: tool.out,
        worker: WORKER_DIR,
        pkg: packageDir,
        readable: [
          tool.staged.root,
          WORKER_DIR,
          ...packages.map((name) =>
            name.startsWith("@") ? dirname(packageDir(name)) : packageDir(name),
          ),
        ],
      };
  const uid = f.mode === "root" ? await runIdentities.acquire() : undefined;
  try {
    // The output folder is the run's own to write, and no one else's.
    if (uid !== undefined) chownSync(tool.out, uid, uid);
    const spec = confinedSpec(
      {
        command: process.execPath,
        args: tool.args(paths),
        binds,
        cwd: paths.copyRoot,
        limits: tool.limits,
        stdin: "",
        env: programEnv(),
        uid,
      },
      f,
    );
    const backstops = wallBackstops(tool.limits.cpuSeconds);
    const run = await runProcess(spec, {
      timeoutMs: backstops.capMs,
      idle: backstops.idle,
      outputCapBytes: tool.outputCapBytes,
    });
    return { run, paths };
  } finally {
    if (uid !== undefined) runIdentities.release(uid);
  }
}

/**
 * Why a tool's run produced no usable answer, in words, with the first line of its standard error
 * (paths scrubbed, at most 300 characters) for whoever has to fix it.
 *
 * @param copyRoots as for scrubPaths
 */
export function toolFailure(what: string, run: RawRun, copyRoots: readonly string[]): string {
  let why: string;
  if (run.sandboxError !== null) why = `${what} could not start: ${run.sandboxError}`;
  else if (run.spawnError !== null) why = `${what} could not start: ${run.spawnError}`;
  else if (run.timedOut) why = `${what} did not finish in time`;
  else if (run.outputCapped !== null) why = `${what} wrote too much output`;
  else if (run.signal !== null)
    why = `${what} was stopped by ${run.signal} (a CPU or memory limit)`;
  else why = `${what} failed (exit ${run.exitCode ?? "unknown"})`;
  const first = run.stderr.split("\n").find((l) => l.trim() !== "");
  return first === undefined ? why : `${why}: ${scrubPaths(first.trim(), copyRoots).slice(0, 300)}`;
}

/** Characters that end a path in a message: white space, quotes, brackets, separators. */
const PATH_CHARS = "[^\\s'\"`<>()\\[\\]{},;|]";
/** An absolute path or file: URL that does not continue a word, a relative path or a URL. */
const ABSOLUTE = new RegExp(`(?<![\\w.~/:\\-])(?:file://)?/${PATH_CHARS}+`, "g");
/** A relative path that starts by going up (`../x`, `./../x`). */
const UPWARD = new RegExp(`(?<![\\w.~/\\-])(?:\\./)*(?:\\.\\./)+${PATH_CHARS}*`, "g");
/** The file a message is about, when it starts with one: `src/x.ts:1:2: ` or `src/x.ts(1,2): `. */
const MESSAGE_FILE = /^(src\/[^\s:(]*)[:(]/;

/**
 * A message from a tool with every path made safe to show: a path inside the copy becomes
 * `src/...` (relative to the copy's root), any other absolute path (or file: URL) becomes
 * `<outside the submission>`, and so does a relative path that climbs out of src/ (resolved from
 * the message's own file, e.g. an import specifier quoted by tsc).
 *
 * @param copyRoots the folders that held src/ where the tool ran (/dev/shm, the staged root)
 */
export function scrubPaths(message: string, copyRoots: readonly string[]): string {
  let text = message.replace(ABSOLUTE, (token) => {
    const trailing = /[.:]+$/.exec(token)?.[0] ?? "";
    let path = token.slice(0, token.length - trailing.length);
    if (path.startsWith("file://")) {
      try {
        path = fileURLToPath(path);
      } catch {
        return OUTSIDE + trailing;
      }
    }
    for (const root of copyRoots) {
      const src = posix.join(root, "src");
      if (path === src || path.startsWith(`${src}/`))
        return `src${path.slice(src.length)}${trailing}`;
    }
    return OUTSIDE + trailing;
  });
  const file = MESSAGE_FILE.exec(text)?.[1];
  const base = file === undefined ? "src" : posix.dirname(file);
  text = text.replace(UPWARD, (token) => {
    const resolved = posix.normalize(posix.join(base, token));
    return resolved === "src" || resolved.startsWith("src/") ? token : OUTSIDE;
  });
  return text;
}
