/**
 * Building a TypeScript submission: esbuild bundles `<submission>/src/main.ts` once per grading
 * run into one ESM file that every case then runs with plain `node` (no TypeScript loader on the
 * timed path). The resolver allows only Node's built-in modules and files inside the submission's
 * own folder, so a submission cannot import the golden answers or the grader.
 */
import { builtinModules } from "node:module";
import { mkdtempSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { build, type Plugin } from "esbuild";

export interface BuildResult {
  /** The bundle's path when the build succeeded. */
  bundle?: string;
  /** The folder the bundle lives in (delete it when done). */
  outDir: string;
  /** Build errors, one line each with file and line: `src/main.ts:3:7: Could not resolve ...`. */
  errors: string[];
}

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** An esbuild plugin that refuses every import outside `root` that is not a Node built-in. */
function confineTo(root: string): Plugin {
  return {
    name: "confine-to-submission",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (BUILTINS.has(args.path)) return { path: args.path, external: true };
        if (args.kind === "entry-point") return undefined;
        const isPath = args.path.startsWith(".") || isAbsolute(args.path);
        if (!isPath) {
          return {
            errors: [
              {
                text: `import of package "${args.path}": a submission may import only Node's built-in modules and its own files`,
              },
            ],
          };
        }
        const target = resolve(args.resolveDir, args.path);
        let real = target;
        try {
          real = realpathSync(target);
        } catch {
          // A file that does not exist: esbuild reports it (or tries other extensions) itself.
        }
        const inside = (p: string) => p === root || p.startsWith(root + sep);
        if (!inside(target) || !inside(real)) {
          return {
            errors: [
              {
                text: `import of "${args.path}" reaches outside the submission folder (${relative(root, real)})`,
              },
            ],
          };
        }
        return undefined; // let esbuild resolve it (extensions, index files)
      });
      // The import text is not enough (extension-less paths, ?query suffixes, template-string
      // imports, symlinks): every file esbuild is about to read must be a regular file whose
      // real path is inside the submission folder. The grader may run as root.
      b.onLoad({ filter: /.*/ }, (args) => {
        let real: string;
        try {
          real = realpathSync(args.path);
        } catch {
          return { errors: [{ text: `cannot read ${relative(root, args.path)}` }] };
        }
        const inside = real === root || real.startsWith(root + sep);
        if (!inside) {
          return {
            errors: [
              {
                text: `${relative(root, args.path)} reaches outside the submission folder (${real})`,
              },
            ],
          };
        }
        if (!statSync(real).isFile()) {
          return { errors: [{ text: `${relative(root, args.path)} is not a regular file` }] };
        }
        return undefined;
      });
    },
  };
}

/**
 * Bundles a submission's program.
 *
 * @param submissionDir the submission folder (holding src/main.ts)
 * @returns the bundle's path, or the build errors; never throws for a broken submission
 */
export async function buildSubmission(submissionDir: string): Promise<BuildResult> {
  const root = realpathSync(submissionDir);
  const outDir = mkdtempSync(join(tmpdir(), "kit-grade-"));
  const bundle = join(outDir, "main.mjs");
  try {
    await build({
      entryPoints: [join(root, "src", "main.ts")],
      absWorkingDir: root,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: bundle,
      logLevel: "silent",
      sourcemap: "inline",
      // The submission's own tsconfig.json (paths, baseUrl, extends) must not steer resolution.
      tsconfigRaw: {},
      plugins: [confineTo(root)],
    });
    return { bundle, outDir, errors: [] };
  } catch (error) {
    const failure = error as {
      errors?: { text: string; location?: { file: string; line: number; column: number } | null }[];
    };
    const errors = (failure.errors ?? [{ text: String(error), location: null }]).map((e) =>
      e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text,
    );
    return { outDir, errors };
  }
}
