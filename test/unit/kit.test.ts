// The kit's shape: starter/ mirrors solution/, the starter holds no decoding code, and the
// generated input validator needs no package (that it is current is test/e2e/generated.test.ts's
// check).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXERCISE } from "../../solution/src/not-implemented.ts";
import { ROOT } from "../helpers/program.ts";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const EXERCISE_FILES = ["subscription.ts", "range-assignor.ts"];

/** Doc comments and export lines: what must be the same on both sides. */
function publicSurface(source: string): string[] {
  const docs = source.match(/\/\*\*[\s\S]*?\*\//g) ?? [];
  const exports = source.split("\n").filter((line) => line.startsWith("export "));
  return [...docs, ...exports];
}

describe("starter/ and solution/", () => {
  it("have the same files", () => {
    expect(readdirSync(join(ROOT, "starter/src")).sort()).toEqual(
      readdirSync(join(ROOT, "solution/src")).sort(),
    );
  });

  it("share every complete helper byte for byte", () => {
    for (const file of readdirSync(join(ROOT, "solution/src"))) {
      if (EXERCISE_FILES.includes(file)) continue;
      expect(read(`starter/src/${file}`), file).toBe(read(`solution/src/${file}`));
    }
  });

  it.each(EXERCISE_FILES)("%s: same exports and doc comments", (file) => {
    const starter = publicSurface(read(`starter/src/${file}`));
    const solution = publicSurface(read(`solution/src/${file}`));
    // The solution may have private helpers with doc comments of their own; the starter may not
    // have any the solution lacks, and every exported declaration is the same.
    expect(solution).toEqual(expect.arrayContaining(starter));
    expect(starter.filter((l) => l.startsWith("export "))).toEqual(
      solution.filter((l) => l.startsWith("export ")),
    );
  });

  it.each([
    ["decodeSubscription", "subscription.ts"],
    ["assignRange", "range-assignor.ts"],
  ] as const)("the %s stub is a TODO naming the lesson, then one throw", (name, file) => {
    const anchor = EXERCISE[name].lessonAnchor;
    const source = read(`starter/src/${file}`);
    const body = source.slice(source.indexOf(`export function ${name}(`));
    const lines = body
      .slice(body.indexOf("{\n") + 2, body.lastIndexOf("}"))
      .trim()
      .split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\s*// TODO: .*\\(LESSON\\.md#${anchor}\\)\\.$`));
    expect(lines[1]).toBe(`  throw new NotImplementedError("${name}");`);
  });

  it("starter ships nothing that reads bytes (reading bytes is the exercise)", () => {
    for (const file of EXERCISE_FILES) {
      expect(read(`starter/src/${file}`)).not.toMatch(
        /DataView|getInt(8|16|32)|TextDecoder|readInt|byteOffset\s*[+]/,
      );
    }
  });

  it("the solution's reader honours byteOffset (a DataView over bytes.buffer alone is a bug)", () => {
    expect(read("solution/src/subscription.ts")).toContain(
      "new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)",
    );
  });
});

describe("the generated input validator", () => {
  it("needs no package at run time", () => {
    expect(read("solution/src/input-validator.js")).not.toMatch(/\brequire\(|\bfrom\s+["']/);
  });
});
