// The pre-filter of the computed-import check (run/literal-imports.ts), in process: a file that
// cannot hold an import() or require() call skips the parse; anything that might, however
// spaced, commented or escaped, is parsed. The check itself, on real builds, is
// test/e2e/build-isolation.test.ts's.
import { describe, expect, it } from "vitest";
import { mayCallImportOrRequire } from "../../grader/run/literal-imports.ts";

describe("the pre-filter that skips parsing files without import() or require()", () => {
  it.each([
    ['import { x } from "./y.ts";\nexport type T = typeof x;', false],
    ["// nothing to import\nconst a = 1;", false],
    ['const m = await import("./y.ts");', true],
    ["const m = await import (`./${x}`);", true],
    ["const m = await import\n/* why */ (x);", true],
    ["const m = import // line\n(x);", true],
    ["const r = require;", true],
    ["const r = \\u0072equire(x);", true],
    ["const r = requ\\u{69}re(x);", true],
    ["const r = requ\\u{0000069}re(x);", true],
    ["const r = $require(x);", true],
    // Another identifier, or a word in data: no call to require.
    ['const schema = {"required":["topics"]};', false],
    ["const requirement = 1, _require = 2, re1require = 3;", false],
    ["const r = require\\u0064;", false],
    ['const s = "\\uFFFD";', false],
    ['import type { X } from "./x.ts"; // mentions require in a comment', true],
  ] as const)("%j -> %s", (text, expected) => {
    expect(mayCallImportOrRequire(text)).toBe(expected);
  });
});
