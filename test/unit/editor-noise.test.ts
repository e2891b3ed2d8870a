// Which writes in src/ --watch takes for saves (grader/watch.ts isEditorNoise): editors' swap,
// backup and safe-write files are not; the program's own files are, wherever the folder sits.
import { describe, expect, it } from "vitest";
import { isEditorNoise } from "../../grader/watch.ts";

describe("isEditorNoise", () => {
  it.each([
    ".range-assignor.ts.swp",
    "range-assignor.ts~",
    "4913",
    ".#subscription.ts",
    "#subscription.ts#",
    "range-assignor.ts.tmp",
    "range-assignor.ts___jb_tmp___",
    "range-assignor.ts___jb_old___",
    "node_modules/x/index.js",
  ])("%s is noise", (file) => {
    expect(isEditorNoise(file)).toBe(true);
  });

  it.each(["range-assignor.ts", "subscription.ts", "lib/reader.ts", "tmp.ts"])(
    "%s is a save",
    (file) => {
      expect(isEditorNoise(file)).toBe(false);
    },
  );
});
