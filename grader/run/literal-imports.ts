/**
 * False only for a text that cannot hold an `import()` or `require()` call at all, so the parse
 * can be skipped (most files: parsing cost the grader ~0.1 s per submission). A dynamic import is
 * the keyword `import`, then only white space or comments, then `(`; a require call names the
 * identifier `require`, literally or with a `\u` escape in it. The test is on the raw text, so a
 * comment or string that merely mentions them only costs a parse, never lets a call through.
 */
export function mayCallImportOrRequire(text: string): boolean {
  return /\bimport\s*(?:\(|\/[/*])|require|\\u/.test(text);
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
import { readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { extname, join } from "node:path";
import type { Node } from "acorn";
import type { Loader } from "esbuild";
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
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart };
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
  // Loaded on first use: most submissions never need them, and loading esbuild's API cost every
  // grader start ~0.1 s.
  const [{ transform }, { parse }] = await Promise.all([import("esbuild"), import("acorn")]);
  let js: string;
  let map: string;
  try {
    const out = await transform(text, {
      loader,
      sourcefile: rel,
      sourcemap: "external",
      // Lowered like the bundle is, so that acorn parses it (decorators, `using`).
      target: "node20",
      // Never a tsconfig.json of the submission's, nor any other file.
      tsconfigRaw: {},
      logLevel: "silent",
    });
    js = out.code;
    map = out.map;
  } catch (error) {
    const failure = error as {
      errors?: { text: string; location?: { line: number; column: number } | null }[];
    };
    if (failure.errors === undefined) return [`${rel}: ${String(error)}`];
    return failure.errors.map((e) =>
      e.location
        ? `${rel}:${e.location.line}:${e.location.column + 1}: ${e.text}`
        : `${rel}: ${e.text}`,
    );
  }
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
  return found
    .sort((a, b) => a.start - b.start)
    .map(({ call, start }) => {
      const at = lineColumn(js, start);
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
  const problems: string[] = [];
  for (const rel of staged.files) {
    const loader = CODE_LOADERS.get(extname(rel).toLowerCase());
    if (loader === undefined) continue;
    const text = readFileSync(join(staged.root, rel), "utf8");
    if (!mayCallImportOrRequire(text)) continue;
    problems.push(...(await checkFileImports(rel, text, loader)));
  }
  return problems;
}
