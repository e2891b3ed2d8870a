// LiveOutcomes without `keep` runs the mutant even when the kit's cache holds an outcome for the
// same case, mutants and limits: only a build and a run show it (a process). That `keep` reads the
// cache is test/unit/outcome-cache.test.ts's.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { LiveOutcomes, MUTANT_LIMITS } from "../../grader/instructor/mutants/live.ts";
import { OutcomeCache } from "../../grader/instructor/mutants/outcome-cache.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import type { Outcome } from "../../grader/verdict/outcome.ts";

const schemas = new FixtureSchemas();
const lesson = loadCases(BUILT_IN_CASES_DIR, [], schemas).find(
  (c) => c.id === "01-lesson-7-partitions-3-members",
);
/** The cache file this test wrote, removed afterwards (gradings may share the folder). */
let written: string | undefined;

afterAll(() => {
  if (written !== undefined) rmSync(written, { force: true });
});

describe("LiveOutcomes without keep", () => {
  it("runs the mutant, whatever the cache holds", async () => {
    if (lesson === undefined) throw new Error("no case 01");
    // global-assignment prints an answer on case 01; the cache says "timeout".
    const ids = ["global-assignment"];
    const cache = new OutcomeCache();
    written = cache.file(lesson, ids, MUTANT_LIMITS);
    cache.keep(
      lesson,
      ids,
      MUTANT_LIMITS,
      new Map<string, Outcome>([[ids[0] ?? "", { kind: "timeout" }]]),
    );
    const fresh = new LiveOutcomes(schemas, ids);
    try {
      expect((await fresh.outcomes(lesson)).get("global-assignment")?.kind).toBe("output");
    } finally {
      fresh.dispose();
    }
  });
});
