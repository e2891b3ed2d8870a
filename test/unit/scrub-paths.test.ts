// What a build or type-check message may show (run/confined-tool.ts scrubPaths), in process:
// paths in the copy become src/-relative, and any other path, absolute, a file: URL or climbing
// out of src/, is replaced by OUTSIDE. That real esbuild and tsc messages go through it is
// test/e2e/build-isolation.test.ts's.
import { describe, expect, it } from "vitest";
import { OUTSIDE, scrubPaths } from "../../grader/run/confined-tool.ts";

describe("messages name no path outside the copy", () => {
  const roots = ["/dev/shm", "/tmp/kit-stage-abc"];
  it.each([
    ["/dev/shm/src/lib/a.ts:3:4: boom", "src/lib/a.ts:3:4: boom"],
    ["/tmp/kit-stage-abc/src/main.ts: x", "src/main.ts: x"],
    ['Could not read "/work/kit/fixtures/cases/01/expected.json".', `Could not read "${OUTSIDE}".`],
    ["see file:///work/kit/x.json:1:2 here", `see ${OUTSIDE} here`],
    [
      "src/main.ts(4,29): error TS2307: Cannot find module '../../../x.json'",
      `src/main.ts(4,29): error TS2307: Cannot find module '${OUTSIDE}'`,
    ],
    ['src/a/b.ts:1:1: import of "../c.ts" is fine', 'src/a/b.ts:1:1: import of "../c.ts" is fine'],
    ['src/a.ts:1:1: import of "./../../c.ts"', `src/a.ts:1:1: import of "${OUTSIDE}"`],
    ["expected ... got a/b and 1 / 2", "expected ... got a/b and 1 / 2"],
  ])("%s", (message, shown) => {
    expect(scrubPaths(message, roots)).toBe(shown);
  });
});
