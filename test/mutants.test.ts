// Replacing named declarations (grader/instructor/mutants/replace.ts): the mechanism finds
// declarations by name with TypeScript's parser and refuses anything but one declaration of the
// same name and kind.
import { describe, expect, it } from "vitest";
import { applyReplacements, type Replacement } from "../grader/instructor/mutants/replace.ts";

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
