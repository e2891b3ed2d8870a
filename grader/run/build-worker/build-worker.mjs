// The bundler's side of a submission's build (build.ts starts it): plain JavaScript that Node runs
// directly, confined by the sandbox as a run identity, seeing only the staged copy of the
// submission's src/ (read-only), an output folder (writable) and the esbuild packages. It never
// runs submitted code; it bundles it.
//
// Argument: one JSON object {src, out}: the copy's src/ folder and the output folder, as paths
// valid where this process runs. Standard output: one JSON object {errors: [{text, file?, line?,
// column?}]} (empty errors: out/main.mjs and out/main.mjs.map were written). Exit 0 whenever that
// JSON was written.
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, extname, isAbsolute, join, resolve, sep } from "node:path";
import { build } from "esbuild";

/** At most this many errors are reported: enough to fix the first, never a flood. */
const MAX_ERRORS = 20;

/** The loader each file type is read with (the import check in literal-imports.ts uses the same). */
const LOADERS = new Map([
  [".ts", "ts"],
  [".mts", "ts"],
  [".cts", "ts"],
  [".tsx", "tsx"],
  [".js", "js"],
  [".mjs", "js"],
  [".cjs", "js"],
  [".jsx", "jsx"],
  [".json", "json"],
  [".txt", "text"],
]);

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Source-map comments in every spelling a bundler honours (`//# sourceMappingURL=`, the older
 * `//@`, and the block form). esbuild would read the map they name (inline or a file) and the
 * files its `sources` list. The word is blanked with spaces of the same length, so that lines and
 * columns, and with them our own source map, stay exact. (Inside a string literal this changes the
 * string; a submission has no use for that text.)
 */
const SOURCE_MAP_PRAGMA = /(\/[/*][#@][ \t]*)(sourceMappingURL)/gi;

function stripSourceMapComments(text) {
  return text.replace(SOURCE_MAP_PRAGMA, (_match, head, word) => head + " ".repeat(word.length));
}

const inside = (path, root) => path === root || path.startsWith(root + sep);

/** An esbuild plugin: only Node built-ins and files inside `root`, each read by us. */
function confineTo(root) {
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
        if (!inside(resolve(args.resolveDir, args.path), root)) {
          return {
            errors: [
              {
                text: `import of "${args.path}" reaches outside the submission folder: a submission may import only its own files in src/`,
              },
            ],
          };
        }
        return undefined; // esbuild resolves it (extensions, index files) and onLoad checks it
      });
      // Every file esbuild is about to read is read here instead: a regular file inside the copy
      // (the copy holds nothing else, but a glob import or an odd path must not find out), its
      // source-map comments blanked, its loader fixed by its extension.
      b.onLoad({ filter: /.*/ }, (args) => {
        const loader = LOADERS.get(extname(args.path).toLowerCase());
        let real;
        try {
          real = realpathSync(args.path);
        } catch {
          return { errors: [{ text: `${args.path} cannot be read` }] };
        }
        if (!inside(real, root) || !lstatSync(real).isFile()) {
          return { errors: [{ text: `${args.path} is not a file of the submission's src/` }] };
        }
        if (loader === undefined) {
          return {
            errors: [
              {
                text: `${args.path}: a submission may import only .ts, .tsx, .js, .mjs, .cjs, .jsx, .json and .txt files`,
              },
            ],
          };
        }
        const contents = readFileSync(real, "utf8");
        return {
          contents:
            loader === "json" || loader === "text" ? contents : stripSourceMapComments(contents),
          loader,
          resolveDir: dirname(real),
        };
      });
    },
  };
}

/** Bundles `<src>/main.ts` into `<out>/main.mjs` and `<out>/main.mjs.map`; returns the errors. */
async function bundle(src, out) {
  const root = realpathSync(src);
  try {
    await build({
      entryPoints: [join(root, "main.ts")],
      // Error locations come out relative to it: `src/main.ts`.
      absWorkingDir: dirname(root),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: join(out, "main.mjs"),
      logLevel: "silent",
      // For the grader's own stack mapping (stack-map.ts): the map goes to the grader, not to the
      // program, and holds no source text.
      sourcemap: "external",
      sourcesContent: false,
      // The submission's own tsconfig.json (paths, baseUrl, extends) must not steer anything.
      tsconfigRaw: {},
      plugins: [confineTo(root)],
    });
    return [];
  } catch (error) {
    // Only the errors' text and location: never their notes, where esbuild lists what a pattern
    // matched.
    const errors = Array.isArray(error?.errors) ? error.errors : [{ text: String(error) }];
    return errors.slice(0, MAX_ERRORS).map((e) =>
      e.location
        ? {
            text: e.text,
            file: e.location.file,
            line: e.location.line,
            column: e.location.column,
          }
        : { text: e.text },
    );
  }
}

const { src, out } = JSON.parse(process.argv[2] ?? "{}");
const errors = await bundle(src, out);
process.stdout.write(`${JSON.stringify({ errors })}\n`);
