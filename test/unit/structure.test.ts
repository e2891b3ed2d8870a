// The grader's own structure, read from its import graph: every relative import of
// every file under grader/ (type imports, re-exports, dynamic import() and import("...") types
// included, as TypeScript's ts.preProcessFile finds them) must form no cycle, and data must flow
// one way, options -> cases -> build and run -> verdict -> diagnosis -> results -> explanation ->
// report, with the modules that drive a grading (grade.ts, cli.ts, batch/, ...) on top.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/program.ts";

const GRADER = join(ROOT, "grader");

/** A grader file as a `/`-separated path from the kit's root, e.g. `grader/report/text.ts`. */
type Module = string;

/** One import of a module: where it points, and whether only types are imported. */
interface Edge {
  to: Module;
  typeOnly: boolean;
}

/** Every .ts and .mjs file under `dir`, as Module paths. */
function sourceFiles(dir: string): Module[] {
  const out: Module[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mjs)$/.test(name)) out.push(relative(ROOT, path).split(sep).join("/"));
  }
  return out;
}

/**
 * Specifiers imported only for their types: `import type ...`, `export type ... from`, and
 * imports whose every named binding is `type X`. Anything else (a value import, a side-effect
 * import, a dynamic import()) counts as a value import.
 */
function typeOnlySpecifiers(file: Module, text: string): Set<string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const typeOnly = new Set<string>();
  const values = new Set<string>();
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const specifier = statement.moduleSpecifier.text;
      const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
      const named = clause?.namedBindings;
      const onlyTypes = ts.isExportDeclaration(statement)
        ? statement.isTypeOnly
        : clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              named !== undefined &&
              ts.isNamedImports(named) &&
              named.elements.length > 0 &&
              named.elements.every((e) => e.isTypeOnly)));
      (onlyTypes ? typeOnly : values).add(specifier);
    }
  }
  // A specifier imported once for values and once for types is a value import.
  for (const specifier of values) typeOnly.delete(specifier);
  return typeOnly;
}

/** The grader's import graph: module to the grader modules it imports (packages left out). */
function importGraph(): Map<Module, Edge[]> {
  const graph = new Map<Module, Edge[]>();
  for (const file of sourceFiles(GRADER)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const typeOnly = typeOnlySpecifiers(file, text);
    const edges: Edge[] = [];
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue; // a package or node: built-in
      const target = relative(ROOT, resolve(ROOT, dirname(file), fileName))
        .split(sep)
        .join("/");
      edges.push({ to: target, typeOnly: typeOnly.has(fileName) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The cycles of a graph: each strongly connected component of more than one module (Tarjan). */
function cycles(graph: ReadonlyMap<Module, readonly Edge[]>): Module[][] {
  let next = 0;
  const index = new Map<Module, number>();
  const low = new Map<Module, number>();
  const stack: Module[] = [];
  const onStack = new Set<Module>();
  const found: Module[][] = [];
  const visit = (m: Module): void => {
    index.set(m, next);
    low.set(m, next);
    next++;
    stack.push(m);
    onStack.add(m);
    for (const { to } of graph.get(m) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(m, Math.min(low.get(m) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(m, Math.min(low.get(m) as number, index.get(to) as number));
      }
    }
    if (low.get(m) === index.get(m)) {
      const component: Module[] = [];
      let member: Module | undefined;
      do {
        member = stack.pop() as Module;
        onStack.delete(member);
        component.push(member);
      } while (member !== m);
      const selfLoop = (graph.get(m) ?? []).some((e) => e.to === m);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const m of graph.keys()) if (!index.has(m)) visit(m);
  return found;
}

/** Every module `from` reaches through value imports (what runs), itself left out. */
function valueReach(from: Module): Set<Module> {
  const seen = new Set<Module>();
  const queue = [from];
  while (queue.length > 0) {
    const m = queue.pop() as Module;
    for (const { to, typeOnly } of graph.get(m) ?? []) {
      if (typeOnly || seen.has(to) || to === from) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

/** Every module `from` reaches through its imports, itself left out. */
function reachable(graph: ReadonlyMap<Module, readonly Edge[]>, from: Module): Set<Module> {
  const seen = new Set<Module>();
  const queue = [from];
  while (queue.length > 0) {
    const m = queue.pop() as Module;
    for (const { to } of graph.get(m) ?? []) {
      if (seen.has(to) || to === from) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

/**
 * Where each module sits in the flow. A module may import only modules of its own stage or an
 * earlier one; the shared leaves (paths, errors, limits, printable text) are below every stage.
 * Anything not listed (grade.ts, cli.ts, context.ts, watch.ts, batch/, the instructor's mutants
 * and random cases, wherever they live) drives a grading and sits on top.
 */
const STAGES: readonly [stage: string, matches: (m: Module) => boolean][] = [
  [
    "shared",
    (m) =>
      [
        "grader/kit.ts",
        "grader/errors.ts",
        "grader/limits.ts",
        "grader/printable.ts",
        "grader/patterns.ts",
        "grader/safe-write.ts",
        "grader/format-names.ts",
        "grader/totals.ts",
      ].includes(m),
  ],
  ["options", (m) => m === "grader/options.ts"],
  ["cases", (m) => m.startsWith("grader/cases/")],
  ["build and run", (m) => m.startsWith("grader/run/")],
  ["verdict", (m) => m.startsWith("grader/verdict/")],
  ["diagnosis", (m) => m.startsWith("grader/diagnose/")],
  ["results", (m) => m === "grader/results.ts"],
  ["explanation", (m) => m.startsWith("grader/explain/")],
  ["report", (m) => m.startsWith("grader/report/")],
];
const TOP = STAGES.length;

function stageOf(m: Module): number {
  const i = STAGES.findIndex(([, matches]) => matches(m));
  return i === -1 ? TOP : i;
}
const stageName = (i: number) => STAGES[i]?.[0] ?? "top (drives a grading)";

const graph = importGraph();
const edges = [...graph].flatMap(([from, list]) => list.map((e) => ({ from, ...e })));

/** The report formats: the modules the format registry imports from report/, but the interface. */
const REPORTERS = (graph.get("grader/report/formats.ts") ?? [])
  .map((e) => e.to)
  .filter((m) => m.startsWith("grader/report/") && m !== "grader/report/reporter.ts");

describe("the grader's import graph", () => {
  it("is read from every file, and every relative import names a file that exists", () => {
    expect(graph.size).toBeGreaterThan(40);
    expect(edges.length).toBeGreaterThan(100);
    // Outside grader/, only the instructor's part reaches the reference (the handout has neither).
    const allowedOutside = (e: (typeof edges)[number]) =>
      e.from.startsWith("grader/instructor/") &&
      e.to.startsWith("solution/src/") &&
      existsSync(join(ROOT, e.to));
    const missing = edges
      .filter((e) => !graph.has(e.to) && !allowedOutside(e))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(missing).toEqual([]);
  });

  it("has no cycle, type imports and dynamic imports included", () => {
    const shown = cycles(graph).map((component) => component.join(" <-> "));
    expect(shown).toEqual([]);
  });

  it("flows one way: options, cases, build and run, verdict, diagnosis, results, explanation, report", () => {
    const backwards = edges
      .filter((e) => stageOf(e.to) > stageOf(e.from))
      .map(
        (e) =>
          `${e.from} (${stageName(stageOf(e.from))}) imports ${e.to} (${stageName(stageOf(e.to))})`,
      );
    expect(backwards).toEqual([]);
  });

  it("the shared leaves import nothing but each other", () => {
    const shared = [...graph.keys()].filter((m) => stageOf(m) === 0);
    expect(shared.length).toBeGreaterThanOrEqual(4);
    for (const m of shared) {
      const outside = (graph.get(m) ?? []).filter((e) => stageOf(e.to) !== 0).map((e) => e.to);
      expect(outside, m).toEqual([]);
    }
  });
});

describe("reporters", () => {
  it("are the seven formats", () => {
    expect(REPORTERS.sort()).toEqual(
      ["classroom", "exercism", "github", "gradescope", "json", "junit", "text"].map(
        (name) => `grader/report/${name}.ts`,
      ),
    );
  });

  it("reach no other reporter, directly or through a shared module", () => {
    for (const reporter of REPORTERS) {
      const others = [...reachable(graph, reporter)].filter((m) => REPORTERS.includes(m));
      expect(others, reporter).toEqual([]);
    }
  });

  it("format finished records: nothing under report/ reaches options.ts or the private-case check", () => {
    // Type imports are followed too: a reporter may not even know the shape of a Case.
    const report = [...graph.keys()].filter((m) => m.startsWith("grader/report/"));
    expect(report.length).toBeGreaterThanOrEqual(10);
    const reached = report.flatMap((m) =>
      [...valueReach(m)]
        .filter((to) => to === "grader/options.ts" || to === "grader/cases/load.ts")
        .map((to) => `${m} -> ${to}`),
    );
    expect(reached).toEqual([]);
    const direct = edges
      .filter((e) => e.from.startsWith("grader/report/"))
      .filter((e) => e.to === "grader/options.ts" || e.to === "grader/cases/load.ts")
      .map((e) => `${e.from} -> ${e.to}`);
    expect(direct).toEqual([]);
  });

  it("do no analysis: nothing under report/ imports diagnose/ or explain/, and verdict/ only for types", () => {
    const analysis = edges
      .filter((e) => e.from.startsWith("grader/report/"))
      .filter(
        (e) =>
          e.to.startsWith("grader/diagnose/") ||
          e.to.startsWith("grader/explain/") ||
          (e.to.startsWith("grader/verdict/") && !e.typeOnly),
      )
      .map((e) => `${e.from} -> ${e.to}`);
    expect(analysis).toEqual([]);
  });
});

describe("case records", () => {
  it("are built in one place: only record.ts imports explain/", () => {
    const importers = new Set(
      edges
        .filter((e) => e.to.startsWith("grader/explain/") && !e.from.startsWith("grader/explain/"))
        .map((e) => e.from),
    );
    expect([...importers]).toEqual(["grader/record.ts"]);
  });
});
