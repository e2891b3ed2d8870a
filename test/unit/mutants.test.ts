// The mutants are replacements of named declarations of solution/src (grader/instructor/mutants/):
// the mechanism finds declarations by name with TypeScript's parser and refuses anything but one
// declaration of the same name and kind; every mutant applies to the reference and type-checks;
// an edit of the reference that keeps the replaced names (comments, order, formatting) keeps every
// mutant applying.
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, mistakeOf } from "../../grader/diagnose/catalogue.ts";
import { MUTANTS, writeMutant } from "../../grader/instructor/mutants/mutants.ts";
import { applyReplacements, type Replacement } from "../../grader/instructor/mutants/replace.ts";
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

describe("the mutants", () => {
  const files = ["subscription.ts", "range-assignor.ts"] as const;
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

  it.each([...MUTANTS])("%s changes only the declarations it names", (_, replacements) => {
    for (const file of files) {
      const mine = replacements.filter((r) => r.file === file);
      const out = applyReplacements(file, reference.get(file) ?? "", replacements);
      if (mine.length === 0) expect(out).toBe(reference.get(file));
      for (const r of mine) {
        for (const line of r.with.split("\n")) expect(out).toContain(line.trim());
      }
    }
  });

  it("still apply to a reference edited for readability: comments gone, declarations reordered, reprinted", () => {
    const printer = ts.createPrinter({ removeComments: true });
    for (const file of files) {
      const parsed = ts.createSourceFile(file, reference.get(file) ?? "", ts.ScriptTarget.Latest);
      const statements = [...parsed.statements];
      // Imports first, then everything else backwards: functions are hoisted, so order is style.
      const imports = statements.filter((s) => ts.isImportDeclaration(s));
      const rest = statements.filter((s) => !ts.isImportDeclaration(s)).reverse();
      const edited = printer.printFile(ts.factory.updateSourceFile(parsed, [...imports, ...rest]));
      expect(edited).not.toBe(reference.get(file));
      for (const [id, replacements] of MUTANTS) {
        expect(() => applyReplacements(file, edited, replacements), id).not.toThrow();
      }
    }
  });

  describe("type-check as the reference does (strict, one program over all of them)", () => {
    const dirs: string[] = [];
    beforeAll(() => {
      for (const id of MUTANTS.keys()) dirs.push(writeMutant(id));
    });
    afterAll(() => {
      for (const dir of dirs) rmSync(dirname(dir), { recursive: true, force: true });
    });

    it("without an error", () => {
      const config = ts.getParsedCommandLineOfConfigFile(
        join(ROOT, "tsconfig.json"),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
      );
      expect(config).toBeDefined();
      const program = ts.createProgram(
        dirs.map((dir) => join(dir, "src", "main.ts")),
        // ES modules as in the kit (a mutant's folder has no package.json saying so).
        {
          ...config?.options,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          noEmit: true,
        },
      );
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map(
          (d) =>
            `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
        );
      expect(errors).toEqual([]);
    }, 120_000);
  });
});
