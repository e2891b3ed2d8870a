/**
 * False only for a text that cannot hold an `import()` or `require()` call at all, so the parse
 * can be skipped (most files: parsing cost the grader ~0.1 s per submission, and the kit's own
 * input-validator.js, which says `"required"` throughout, cost a third of a second). A dynamic
 * import is the keyword `import` (a keyword has no escapes), then only white space or comments,
 * then `(`; a require call names the identifier `require`, which `\u` escapes may spell, so they
 * are read first. An identifier is a whole word: `required` is another name, never a call to
 * `require`, while `$require` or `érequire` (not word characters to the pattern) still count.
 * The test is on the raw text, so a comment or string that merely mentions them only costs a
 * parse, never lets a call through.
 */
export function mayCallImportOrRequire(text: string): boolean {
  if (/\bimport\s*(?:\(|\/[/*])/.test(text)) return true;
  const unescaped = text.replace(
    /\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g,
    (escape, braced, four) => {
      const code = Number.parseInt(String(braced ?? four), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : escape;
    },
  );
  return /\brequire\b/.test(unescaped);
}

/**
 * The check before bundling: every `import()` and `require()` in a staged submission names a
 * literal path. esbuild expands a computed one (`import(\`./cases/${id}.json\`)`, `"./a" + b`)
 * into every file the pattern matches, reading folders to find them: the bundle (or the build
 * errors) would then show files and names a submission must not see.
 *
 * Each file is first turned into JavaScript by esbuild's transform (types gone, in memory only,
 * no file read), then parsed with acorn: comments and strings cannot fool a parser the way they
 * would fool a pattern over the text. Positions are mapped back to the TypeScript source through
 * the transform's source map.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { extname, join } from "node:path";
import type { Node } from "acorn";
import type { Loader } from "esbuild";
import pLimit from "p-limit";
import { availableParallelism } from "node:os";
import { packageDir } from "./confined-tool.ts";
import { runProcess } from "./run-process.ts";
import { wallBackstops } from "./sandbox.ts";
import type { StagedSubmission } from "./stage.ts";

/** The loader each code file is read with: the same table as the build worker's. */
export const CODE_LOADERS: ReadonlyMap<string, Loader> = new Map<string, Loader>([
  [".ts", "ts"],
  [".mts", "ts"],
  [".cts", "ts"],
  [".tsx", "tsx"],
  [".js", "js"],
  [".mjs", "js"],
  [".cjs", "js"],
  [".jsx", "jsx"],
]);

/** A node's type and its children, walked without knowing every ESTree shape. */
type Walkable = Node & Record<string, unknown>;

const isNode = (value: unknown): value is Walkable =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { type?: unknown }).type === "string";

/** True for `"a"`, `'a'` and a template without `${}`: a path esbuild resolves as written. */
function isLiteralPath(node: unknown): boolean {
  if (!isNode(node)) return false;
  if (node.type === "Literal") return typeof node.value === "string";
  if (node.type === "TemplateLiteral") {
    const expressions = node.expressions;
    return Array.isArray(expressions) && expressions.length === 0;
  }
  return false;
}

/** The computed dynamic imports of one parsed file: which call, and where (generated code). */
function computedImports(program: Node): { call: string; start: number }[] {
  const found: { call: string; start: number }[] = [];
  // An explicit stack, not recursion: a deeply nested expression must not overflow the grader.
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (!isNode(node)) continue;
    if (node.type === "ImportExpression" && !isLiteralPath(node.source)) {
      found.push({ call: "import()", start: node.start });
    }
    if (node.type === "CallExpression") {
      const callee = node.callee;
      const args = node.arguments;
      const isRequire = isNode(callee) && callee.type === "Identifier" && callee.name === "require";
      if (isRequire && !(Array.isArray(args) && args.length === 1 && isLiteralPath(args[0]))) {
        found.push({ call: "require()", start: node.start });
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== "loc" && typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return found;
}

/** Line (1-based) and column (0-based) of a character offset. */
/** The offset where each line of `text` starts (line 1 first). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and 0-based column of `offset`, by binary search over the line starts. */
function lineColumn(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) };
}

/** At most this many computed imports are listed per file (the first ones): enough to act on. */
const MAX_PROBLEMS = 20;

/**
 * esbuild's own executable for this platform (`@esbuild/<platform>-<arch>`), or its Node launcher.
 * The check runs it once per file as a process of its own: input that crashes esbuild then fails
 * that one submission's build, never the grader's esbuild for the submissions after it.
 */
function esbuildCommand(): { command: string; args: string[] } {
  try {
    const binary = join(
      packageDir(`@esbuild/${process.platform}-${process.arch}`),
      "bin",
      "esbuild",
    );
    if (existsSync(binary)) return { command: binary, args: [] };
  } catch {
    // Not installed as a platform package: use the launcher.
  }
  return { command: process.execPath, args: [join(packageDir("esbuild"), "bin", "esbuild")] };
}

/** runProcess's wall-clock stops for a tool run allowed `cpuSeconds` of CPU (wallBackstops). */
function wallStops(cpuSeconds: number) {
  const { capMs, idle } = wallBackstops(cpuSeconds);
  return { timeoutMs: capMs, idle };
}

/**
 * Checks one file's text.
 *
 * @param rel the file's name relative to the copy's root (`src/main.ts`), used in the lines
 * @returns one line per computed import, `src/x.ts:LINE:COL: import() with a computed path: ...`
 *   (line and column 1-based, in the file as written), or the transform's own errors
 */
export async function checkFileImports(
  rel: string,
  text: string,
  loader: Loader,
): Promise<string[]> {
  // Loaded on first use: most submissions never need a parse.
  const { parse } = await import("acorn");
  const { command, args } = esbuildCommand();
  // Not spawnSync: the grader's event loop keeps serving the bundler beside this check.
  const out = await runProcess(
    {
      command,
      args: [
        ...args,
        `--loader=${loader}`,
        `--sourcefile=${rel}`,
        "--sourcemap=inline",
        // Lowered like the bundle is, so that acorn parses it (decorators, `using`).
        "--target=node20",
        // Never a tsconfig.json of the submission's, nor any other file.
        "--tsconfig-raw={}",
        "--log-level=error",
        "--color=false",
      ],
      env: process.env,
      stdin: text,
    },
    // Stopped only when it uses almost no CPU (it hangs), never for being slow on a busy machine:
    // a check cut short would fail the build.
    { ...wallStops(60), outputCapBytes: 64 * 1024 * 1024 },
  );
  if (out.exitCode !== 0) {
    // esbuild's own message: `✘ [ERROR] ...` then the location line `    src/x.ts:3:5:`.
    const message = /\[ERROR\] (.*)/.exec(out.stderr)?.[1];
    const where = /^\s+(\S+?):(\d+):(\d+):/m.exec(out.stderr);
    if (message !== undefined && where !== null)
      return [`${rel}:${where[2]}:${Number(where[3]) + 1}: ${message}`];
    return [
      `${rel}: could not be checked for computed imports (esbuild ${out.signal === null && !out.timedOut ? "failed" : "crashed"} reading it)`,
    ];
  }
  const marker = "//# sourceMappingURL=data:application/json;base64,";
  const at = out.stdout.lastIndexOf(marker);
  const js = at === -1 ? out.stdout : out.stdout.slice(0, at);
  const map =
    at === -1
      ? '{"version":3,"sources":[],"mappings":""}'
      : Buffer.from(out.stdout.slice(at + marker.length).trim(), "base64").toString("utf8");
  let program: Node;
  try {
    program = parse(js, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    try {
      // Old-style CommonJS (a top-level return, sloppy-mode code) is not a module.
      program = parse(js, {
        ecmaVersion: "latest",
        sourceType: "script",
        allowReturnOutsideFunction: true,
      });
    } catch (error) {
      return [
        `${rel}: could not be checked for computed imports (${(error as Error).message}): a submission must be plain TypeScript or JavaScript`,
      ];
    }
  }
  const found = computedImports(program);
  if (found.length === 0) return [];
  const sourceMap = new SourceMap(JSON.parse(map) as SourceMapPayload);
  const starts = lineStarts(js);
  return found
    .sort((a, b) => a.start - b.start)
    .slice(0, MAX_PROBLEMS)
    .map(({ call, start }) => {
      const at = lineColumn(starts, start);
      const entry = sourceMap.findEntry(at.line - 1, at.column) as Partial<{
        originalLine: number;
        originalColumn: number;
      }>;
      const where =
        entry.originalLine === undefined || entry.originalColumn === undefined
          ? rel
          : `${rel}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      return `${where}: ${call} with a computed path: a submission may import only literal paths`;
    });
}

/**
 * Checks every code file of a staged submission (whether main.ts imports it or not: the bundler
 * would expand a pattern in any file it reaches).
 *
 * @returns one line per problem, each naming the file (relative, `src/...`) and position; empty
 *   when every import() and require() names a literal path
 */
export async function checkLiteralImports(staged: StagedSubmission): Promise<string[]> {
  // Files are checked side by side, a few at a time; their lines keep the files' order.
  const limit = pLimit(availableParallelism());
  const checks = staged.files.map((rel) =>
    limit(async () => {
      const loader = CODE_LOADERS.get(extname(rel).toLowerCase());
      if (loader === undefined) return [];
      const text = readFileSync(join(staged.root, rel), "utf8");
      if (!mayCallImportOrRequire(text)) return [];
      return checkFileImports(rel, text, loader);
    }),
  );
  return (await Promise.all(checks)).flat();
}
