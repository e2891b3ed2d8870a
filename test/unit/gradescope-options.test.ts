// What `npm run gradescope-bundle -- --types` bakes into the bundle's setup.sh and run_autograder
// (scripts/gradescope-options.ts), on the templates as they ship. That the baked run_autograder
// passes --types to the grader is test/e2e/templates.test.ts's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bakeOptions } from "../../scripts/gradescope-options.ts";
import { ROOT } from "../helpers/program.ts";

const template = (file: string) =>
  readFileSync(join(ROOT, "templates", "gradescope", file), "utf8");

describe("bakeOptions", () => {
  it.each(["run_autograder", "setup.sh"])(
    "%s: --types turns its one GRADE_TYPES=0 line into GRADE_TYPES=1, nothing else",
    (file) => {
      const text = template(file);
      const baked = bakeOptions(text, file, { types: true }).split("\n");
      const lines = text.split("\n");
      expect(baked).toHaveLength(lines.length);
      const changed = lines.flatMap((line, i) => (line === baked[i] ? [] : [[line, baked[i]]]));
      expect(changed).toEqual([["GRADE_TYPES=0", "GRADE_TYPES=1"]]);
      expect(bakeOptions(text, file, { types: false })).toBe(text);
    },
  );

  it("refuses a script without that line, or with two", () => {
    expect(() =>
      bakeOptions("#!/bin/sh\nGRADE_TYPES=1\n", "run_autograder", { types: true }),
    ).toThrow(
      'templates/gradescope/run_autograder has 0 lines "GRADE_TYPES=0", not one: gradescope-bundle cannot bake --types into it',
    );
    expect(() =>
      bakeOptions("GRADE_TYPES=0\nGRADE_TYPES=0\n", "setup.sh", { types: false }),
    ).toThrow('templates/gradescope/setup.sh has 2 lines "GRADE_TYPES=0", not one');
  });
});
