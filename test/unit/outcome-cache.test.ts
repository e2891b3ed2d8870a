// Live mutant outcomes kept between grading runs (grader/instructor/mutants/outcome-cache.ts): a
// case is found again by its content, never by another case's, and LiveOutcomes with `keep` reads
// what is kept instead of running the mutants (that without keep it runs them is
// test/e2e/outcome-cache-live.test.ts's: a build and a run).
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { loadDiagnosisData, outcomeHash } from "../../grader/diagnose/data.ts";
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
// Ids and limits no real grading asks for, so nothing written here is ever read by a grading.
const IDS = ["test-only-a", "test-only-b"];
const LIMITS = { test: "outcome-cache.test.ts" };
const OUTCOMES = new Map<string, Outcome>([
  ["test-only-a", { kind: "timeout" }],
  ["test-only-b", { kind: "error", member: "__proto__", offset: 7 }],
]);
/** The files this test wrote, removed afterwards (other tests' gradings may share the folder). */
const written: string[] = [];

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe("OutcomeCache", () => {
  it("gives back what it kept for the same case, mutants and limits, and nothing for others", () => {
    const cache = new OutcomeCache();
    written.push(cache.file(lesson, IDS, LIMITS));
    cache.keep(lesson, IDS, LIMITS, OUTCOMES);
    expect(existsSync(cache.file(lesson, IDS, LIMITS))).toBe(true);
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
    const file = cache.file(skew, IDS, LIMITS);
    written.push(file);
    cache.keep(skew, IDS, LIMITS, OUTCOMES);
    expect(cache.read(skew, IDS, LIMITS)).toEqual(OUTCOMES);
    writeFileSync(file, '[["test-only-a", null], ["test-only-b", {"kind": "timeout"}]]');
    expect(cache.read(skew, IDS, LIMITS)).toBeUndefined();
    writeFileSync(file, "not JSON");
    expect(cache.read(skew, IDS, LIMITS)).toBeUndefined();
  });
});

describe("LiveOutcomes with keep", () => {
  it("returns the kept outcome instead of running the mutant", async () => {
    // global-assignment prints an answer on case 01; a kept "timeout" can only come from the cache.
    const ids = ["global-assignment"];
    const cache = new OutcomeCache();
    written.push(cache.file(lesson, ids, MUTANT_LIMITS));
    const kept = new Map<string, Outcome>([["global-assignment", { kind: "timeout" }]]);
    cache.keep(lesson, ids, MUTANT_LIMITS, kept);
    const live = new LiveOutcomes(schemas, ids, { keep: true });
    try {
      expect(await live.outcomes(lesson)).toEqual(kept);
    } finally {
      live.dispose();
    }
    // Without keep, the mutant's outcome is not a time-out: diagnosis.json records what it does
    // on case 01 (test/e2e/generated.test.ts checks the record against live runs).
    const recorded = loadDiagnosisData().get(lesson.id)?.outcomes.get("global-assignment");
    expect(recorded).toMatch(/^[0-9a-f]{16}$/);
    expect(recorded).not.toBe(outcomeHash({ kind: "timeout" }));
  });
});
