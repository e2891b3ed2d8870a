// The mutants are edits of a few lines inside named declarations of solution/src
// (grader/instructor/mutants/): the mechanism finds declarations by name with TypeScript's parser,
// then the edit's lines inside it, exactly once, and refuses anything else; each mutant differs
// from the reference in one to three lines and still applies when the reference's declarations
// move. Tests' own variants replace whole declarations (applyReplacements). That every mutant
// type-checks and lints is scripts/check-mutants.ts's, run by `npm run typecheck` and `lint`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { diffLines } from "diff";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CATALOGUE, mistakeOf } from "../../grader/diagnose/catalogue.ts";
import { MUTANTS, variantSources } from "../../grader/instructor/mutants/mutants.ts";
import {
  applyEdits,
  applyReplacements,
  MAX_EDIT_LINES,
  parseEdits,
  type Edit,
  type Replacement,
} from "../../grader/instructor/mutants/replace.ts";
import { ROOT } from "../helpers/program.ts";

const SOURCE = `import { helper } from "./helper.ts";

/** Doubles. */
export function twice(x: number): number {
  return helper(x) * 2;
}

function thrice(x: number): number {
  return x * 3;
}

class Box {
  value = 0;

  /** Adds. */
  add(n: number): void {
    this.value += n;
  }

  get size(): number {
    return this.value;
  }
}
`;

const edit = (replaceFunction: string, text: string): Replacement => ({
  file: "range-assignor.ts",
  replaceFunction,
  with: text,
});
const apply = (...replacements: Replacement[]) =>
  applyReplacements("range-assignor.ts", SOURCE, replacements);

describe("applyReplacements", () => {
  it("replaces a function by name, its doc comment included, and nothing else", () => {
    const out = apply(
      edit("thrice", "function thrice(x: number): number {\n  return x + x + x;\n}"),
    );
    expect(out).toBe(SOURCE.replace("return x * 3;", "return x + x + x;"));
    const exported = apply(
      edit("twice", "// Mutant.\nexport function twice(x: number): number {\n  return x;\n}"),
    );
    expect(exported).not.toContain("/** Doubles. */");
    expect(exported).toContain(
      "// Mutant.\nexport function twice(x: number): number {\n  return x;\n}",
    );
    expect(exported).toContain("function thrice(x: number): number {\n  return x * 3;\n}");
  });

  it("replaces a class member, indented as the original, and leaves other files alone", () => {
    const out = apply(edit("Box.add", "add(n: number): void {\n  this.value -= n;\n}"));
    expect(out).toContain("  add(n: number): void {\n    this.value -= n;\n  }\n\n  get size()");
    expect(out).not.toContain("/** Adds. */");
    expect(apply(edit("Box.size", "get size(): number {\n  return 0;\n}"))).toContain(
      "  get size(): number {\n    return 0;\n  }",
    );
    expect(
      applyReplacements("subscription.ts", SOURCE, [edit("thrice", "function thrice() {}")]),
    ).toBe(SOURCE);
  });

  it.each([
    ["an unknown name", edit("fourfold", "function fourfold() {}"), /names 0 declarations/],
    ["a different name", edit("thrice", "function other() {}"), /exactly one declaration/],
    [
      "two declarations",
      edit("thrice", "function thrice() {}\nfunction extra() {}"),
      /exactly one declaration/,
    ],
    ["an export the original lacks", edit("thrice", "export function thrice() {}"), /exported/],
    ["an export dropped", edit("twice", "function twice() {}"), /exported/],
    ["another kind of member", edit("Box.add", "get add(): number {\n  return 1;\n}"), /Accessor/],
    ["text that does not parse", edit("thrice", "function thrice( {"), /./],
  ])("refuses %s", (_, replacement, message) => {
    expect(() => apply(replacement)).toThrow(message);
  });

  it("refuses two replacements of the same declaration", () => {
    const a = edit("thrice", "function thrice(): number {\n  return 1;\n}");
    expect(() => apply(a, a)).toThrow(/replaced twice/);
  });
});

describe("applyEdits", () => {
  const line = (inside: string, find: string, replace: string): Edit => ({
    file: "range-assignor.ts",
    in: inside,
    find,
    replace,
  });
  const edit = (...edits: Edit[]) => applyEdits("range-assignor.ts", SOURCE, edits);

  it("replaces whole lines inside the named declaration, indented as they were", () => {
    expect(edit(line("Box.add", "this.value += n;", "this.value -= n;\nthis.value -= n;"))).toBe(
      SOURCE.replace("    this.value += n;", "    this.value -= n;\n    this.value -= n;"),
    );
    expect(edit(line("thrice", "return x * 3;", ""))).toBe(SOURCE.replace("  return x * 3;\n", ""));
    // A declaration's lines start at its doc comment; every line written is indented as the
    // first line found.
    expect(
      edit(
        line(
          "twice",
          "/** Doubles. */\nexport function twice(x: number): number {",
          "function twice(x: number): number {",
        ),
      ),
    ).toContain("\nfunction twice(x: number): number {\n  return helper(x) * 2;");
    expect(
      edit(
        line(
          "Box.add",
          "add(n: number): void {\nthis.value += n;",
          "add(n: number): void {\nthis.value = n;",
        ),
      ),
    ).toContain("  add(n: number): void {\n  this.value = n;\n  }");
    // Other files' edits are left out.
    expect(applyEdits("subscription.ts", SOURCE, [line("thrice", "return x * 3;", "")])).toBe(
      SOURCE,
    );
  });

  it.each([
    ["an unknown declaration", line("fourfold", "return x * 3;", ""), /names 0 declarations/],
    ["lines the declaration lacks", line("twice", "return x * 3;", ""), /found 0 times/],
    ["a partial line", line("thrice", "x * 3;", ""), /found 0 times/],
    [
      "more than three lines written",
      line("thrice", "return x * 3;", "a;\nb;\nc;\nd;"),
      /at most 3 lines/,
    ],
    ["text that does not parse", line("thrice", "return x * 3;", "return (;"), /./],
  ])("refuses %s", (_, e, message) => {
    expect(() => edit(e)).toThrow(message);
  });

  it("refuses two edits of the same lines", () => {
    const a = line("thrice", "return x * 3;", "return 1;");
    expect(() => edit(a, a)).toThrow(/overlaps/);
  });
});

describe("the mutants", () => {
  const files = ["subscription.ts", "range-assignor.ts", "assignment.ts"] as const;
  const reference = new Map(
    files.map((f) => [f, readFileSync(join(ROOT, "solution", "src", f), "utf8")]),
  );

  it("stand for catalogued mistakes: each mutant mistake has one named by its id, forms after it", () => {
    const names = [...MUTANTS.keys()];
    const mutantMistakes = [...CATALOGUE.values()].filter((m) => m.evidence === "mutant");
    expect([...new Set(names.map(mistakeOf))]).toEqual(mutantMistakes.map((m) => m.id));
    for (const m of mutantMistakes) expect(names).toContain(m.id);
    for (const name of names) expect(name).toMatch(/^[a-z0-9-]+(?::[a-z0-9-]+)?$/);
    // Outcome mistakes are named from what the program did, never from a mutant.
    const outcomeMistakes = [...CATALOGUE.values()].filter((m) => m.evidence === "outcome");
    expect(outcomeMistakes.map((m) => m.id)).toEqual([
      "crash-on-bad-bytes",
      "bad-bytes-accepted",
      "valid-bytes-rejected",
    ]);
    for (const m of outcomeMistakes) expect(names.map(mistakeOf)).not.toContain(m.id);
  });

  // Each mutant a few lines: a heading, a sentence or two, its one to three edits, and the file's
  // own code around them.
  it("are defined in at most 9 lines each, with 60 lines for the rest of the file", () => {
    const source = readFileSync(
      join(ROOT, "grader", "instructor", "mutants", "mutants.ts"),
      "utf8",
    );
    expect(source.split("\n").length).toBeLessThanOrEqual(9 * MUTANTS.size + 60);
  });

  it.each([...MUTANTS])("%s differs from the reference in one to three lines", (_, edits) => {
    const sources = variantSources(edits);
    let added = 0;
    let removed = 0;
    for (const file of files) {
      for (const part of diffLines(reference.get(file) ?? "", sources.get(file) ?? "")) {
        if (part.added) added += part.count;
        if (part.removed) removed += part.count;
      }
    }
    expect(added + removed).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(MAX_EDIT_LINES);
    expect(removed).toBeLessThanOrEqual(MAX_EDIT_LINES);
  });

  it("still apply to the reference with its declarations in another order", () => {
    for (const file of files) {
      const text = reference.get(file) ?? "";
      const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      // Imports first, then everything else backwards: functions are hoisted, so order is style.
      const pieces = parsed.statements.map((s) => text.slice(s.getFullStart(), s.getEnd()));
      const imports = parsed.statements.filter((s) => ts.isImportDeclaration(s)).length;
      const reordered = [...pieces.slice(0, imports), ...pieces.slice(imports).reverse()].join(
        "\n",
      );
      expect(reordered).not.toBe(text);
      // An edit is found by its declaration's name, then by lines inside that declaration, so
      // order can only matter per declaration: one mutant for each declaration any mutant edits.
      const byDeclaration = new Map<string, string>();
      for (const [id, edits] of MUTANTS)
        for (const e of edits)
          if (e.file === file && !byDeclaration.has(e.in)) byDeclaration.set(e.in, id);
      expect(byDeclaration.size).toBeGreaterThan(3);
      for (const id of new Set(byDeclaration.values())) {
        const edits = MUTANTS.get(id) ?? [];
        expect(() => applyEdits(file, reordered, edits), id).not.toThrow();
      }
    }
  });

  it("stop, naming the lines, when the reference no longer has them", () => {
    const text = reference.get("range-assignor.ts") ?? "";
    const changed = text.replace(
      "const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);",
      "const start = i * numPartitionsPerConsumer + Math.min(i, consumersWithExtraPartition);",
    );
    expect(changed).not.toBe(text);
    const edits = MUTANTS.get("start-without-min") ?? [];
    expect(() => applyEdits("range-assignor.ts", changed, edits)).toThrow(
      /range-assignor\.ts: rangeForConsumer: "const start = .*": found 0 times in rangeForConsumer/,
    );
  });
});

describe("parseEdits", () => {
  it("reads named blocks of edits: lines to find, lines to write, removals", () => {
    const edits = parseEdits(
      "## one\nWhat it is.\n@ range-assignor.ts f\n- a;\n- b;\n+ c;\n@ subscription.ts C.m\n- d;\n\n## two\n@ subscription.ts g\n- e;\n+ f;\n",
      "test",
    );
    expect([...edits]).toEqual([
      [
        "one",
        [
          { file: "range-assignor.ts", in: "f", find: "a;\nb;", replace: "c;" },
          { file: "subscription.ts", in: "C.m", find: "d;", replace: "" },
        ],
      ],
      ["two", [{ file: "subscription.ts", in: "g", find: "e;", replace: "f;" }]],
    ]);
  });

  it.each([
    [
      "text before the first block",
      "stray\n## a\n@ subscription.ts f\n- x;",
      /line 1: text before/,
    ],
    ["a file edits may not name", "## a\n@ main.ts f\n- x;", /line 2: expected @ FILE DECLARATION/],
    [
      "a line to find after lines to write",
      "## a\n@ subscription.ts f\n+ y;\n- x;",
      /line 4: out of place/,
    ],
    ["a block without edits", "## a\nnothing", /test: a needs edits/],
    ["the same name twice", "## a\n@ subscription.ts f\n- x;\n## a", /line 4: a second mutant/],
  ])("refuses %s", (_, text, message) => {
    expect(() => parseEdits(text, "test")).toThrow(message);
  });
});
