// Live mutant outcomes kept between grading runs (grader/instructor/mutants/outcome-cache.ts): a
// case is found again by its content, never by another case's, and LiveOutcomes with `keep` reads
// what is kept instead of running the mutants.
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { CACHE_ROOT } from "../../grader/instructor/mutants/bundle-cache.ts";
import { LiveOutcomes, MUTANT_LIMITS } from "../../grader/instructor/mutants/live.ts";
import { OutcomeCache } from "../../grader/instructor/mutants/outcome-cache.ts";
import type { Outcome } from "../../grader/verdict/outcome.ts";

const schemas = new FixtureSchemas();
const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
const byId = (id: string): Case => {
  const c = cases.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
};
const lesson = byId("01-lesson-7-partitions-3-members");
const skew = byId("03-per-topic-skew");
// Ids no real grading asks for together, so nothing here is ever read by a grading.
const IDS = ["test-only-a", "test-only-b"];
const LIMITS = { test: "outcome-cache.test.ts" };
const OUTCOMES = new Map<string, Outcome>([
  ["test-only-a", { kind: "timeout" }],
  ["test-only-b", { kind: "error", member: "__proto__", offset: 7 }],
]);
const written: string[] = [];
const before = new Set(existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : []);

afterAll(() => {
  // Only the files this test wrote: the folder may hold a grading's outcomes too.
  for (const name of existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : []) {
    if (!name.startsWith("outcomes-")) continue;
    for (const file of readdirSync(join(CACHE_ROOT, name))) {
      if (written.includes(file)) rmSync(join(CACHE_ROOT, name, file), { force: true });
    }
    if (!before.has(name) && readdirSync(join(CACHE_ROOT, name)).length === 0)
      rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
  }
});

/** The file names in the cache's outcome folders now. */
const files = () =>
  (existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : [])
    .filter((n) => n.startsWith("outcomes-"))
    .flatMap((n) => readdirSync(join(CACHE_ROOT, n)));

describe("OutcomeCache", () => {
  it("gives back what it kept for the same case, mutants and limits, and nothing for others", () => {
    const cache = new OutcomeCache();
    const had = new Set(files());
    cache.keep(lesson, IDS, LIMITS, OUTCOMES);
    written.push(...files().filter((f) => !had.has(f)));
    expect(written).toHaveLength(1);
    expect(cache.read(lesson, IDS, LIMITS)).toEqual(OUTCOMES);
    // A fresh instance (another grading run) reads the same file.
    expect(new OutcomeCache().read(lesson, IDS, LIMITS)).toEqual(OUTCOMES);
    expect(cache.read(skew, IDS, LIMITS)).toBeUndefined();
    expect(cache.read(lesson, [...IDS].reverse(), LIMITS)).toBeUndefined();
    expect(cache.read(lesson, IDS, { ...LIMITS, timeoutMs: 1 })).toBeUndefined();
    // The same content under another id is the same case.
    expect(cache.read({ ...lesson, id: "private/renamed" }, IDS, LIMITS)).toEqual(OUTCOMES);
  });

  it("reads a file that is not what it writes as nothing kept", () => {
    const cache = new OutcomeCache();
    cache.keep(skew, IDS, LIMITS, OUTCOMES);
    const [file] = files().filter((f) => !written.includes(f) && f.endsWith(".json"));
    const folder = readdirSync(CACHE_ROOT).find(
      (n) =>
        n.startsWith("outcomes-") && file !== undefined && existsSync(join(CACHE_ROOT, n, file)),
    );
    expect(file).toBeDefined();
    expect(folder).toBeDefined();
    written.push(file ?? "");
    writeFileSync(join(CACHE_ROOT, folder ?? "", file ?? ""), '[["test-only-a", null]]');
    expect(cache.read(skew, IDS, LIMITS)).toBeUndefined();
  });
});

describe("LiveOutcomes with keep", () => {
  it("returns the kept outcome instead of running the mutant", async () => {
    // global-assignment prints an answer on case 01; a kept "timeout" can only come from the cache.
    const ids = ["global-assignment"];
    const had = new Set(files());
    new OutcomeCache().keep(
      lesson,
      ids,
      MUTANT_LIMITS,
      new Map([["global-assignment", { kind: "timeout" }]]),
    );
    written.push(...files().filter((f) => !had.has(f)));
    const live = new LiveOutcomes(schemas, ids, { keep: true });
    try {
      expect(await live.outcomes(lesson)).toEqual(
        new Map([["global-assignment", { kind: "timeout" }]]),
      );
    } finally {
      live.dispose();
    }
    // Without keep, the mutant runs and prints its answer.
    const fresh = new LiveOutcomes(schemas, ids);
    try {
      expect((await fresh.outcomes(lesson)).get("global-assignment")?.kind).toBe("output");
    } finally {
      fresh.dispose();
    }
  }, 60_000);
});
