// Each failure judged on its own (grader/diagnose/diagnose.ts confirmNames), through a whole
// grading of the built-in cases in process: a fake runner stands for a program, the names come
// from grader/diagnose/diagnosis.json as a student's grading gets them. The programs are the ones
// the naming corpora showed: a crash on a topic the metadata lacks, which also crashes at the same
// place on the Java-strings extension case (its decoder, without Java's rule, makes a name the
// metadata lacks); the same crash on every case; and a decoder whose unsigned user-data length
// rejects valid members, at offsets of its own on some cases.
import { describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases, type Case } from "../../grader/cases/load.ts";
import { FileOutcomes } from "../../grader/diagnose/diagnose.ts";
import { gradeSubmission, type GradeOptions } from "../../grader/grade.ts";
import { outcomeHash } from "../../grader/diagnose/data.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import type { RawRun } from "../../grader/run/run-process.ts";
import { noProgram, rawRun, rightRun } from "../helpers/results.ts";

const schemas = new FixtureSchemas();
const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);

const recorded = new FileOutcomes();
const CRASH = outcomeHash({ kind: "crash", exitCode: 70, signal: null });
/**
 * The cases the unknown-topic-crash mutant crashes on (diagnosis.json): a program with that
 * mistake crashes on each of them, and passing one would contradict the name.
 */
const UNKNOWN_TOPIC_CASES = cases
  .filter((c) => recorded.caseData(c)?.outcomes.get("unknown-topic-crash") === CRASH)
  .map((c) => c.id);
const JAVA_NAMES = "44-java-malformed-names";

/** A crash as main.ts reports one (exit 70, its stack mapped to src/), thrown at `where`. */
function crashAt(where: string): RawRun {
  return rawRun({
    exitCode: 70,
    stderr: `internal error (a bug, not bad input):\nTypeError: Cannot read properties of undefined (reading 'length')\n    at assignRange (${where}:7)\n    at run (src/main.ts:90:5)\n`,
  });
}

/** Grades every built-in case with `behave` as the program; case id to its confirmed names. */
async function namesOf(behave: (c: Case) => RawRun): Promise<Map<string, string[]>> {
  const options: GradeOptions = {
    submission: { kind: "folder", path: "/nowhere/student", name: "student" },
    cases,
    schemas,
    timeoutMs: 2000,
    outputCapBytes: 4 * 1024 * 1024,
    memoryMiB: 512,
    concurrency: 4,
    kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
    visibleFixtures: "fedcba9876543210",
    reporters: [],
    rerun: { args: ["student"] },
    diagnosis: recorded,
    prepared: Promise.resolve(noProgram),
    runCase: (_program, c) => Promise.resolve(behave(c)),
  };
  const results = await gradeSubmission(options);
  return new Map(results.cases.map((r) => [r.id, [...(r.mistakes ?? [])]]));
}

describe("names judged each on its own, over a whole grading", () => {
  it("the cases this file relies on are built-in and say which mistake they show", () => {
    expect(UNKNOWN_TOPIC_CASES).toContain("08-subscribed-topic-missing-from-metadata");
    expect(UNKNOWN_TOPIC_CASES).not.toContain(JAVA_NAMES);
    expect(cases.find((c) => c.id === JAVA_NAMES)?.required).toBe(false);
  });

  it("a crash on an unknown topic stays named when the same crash shows on a stage not started", async () => {
    const place = "src/range-assignor.ts:41";
    const names = await namesOf((c) =>
      UNKNOWN_TOPIC_CASES.includes(c.id) || c.id === JAVA_NAMES ? crashAt(place) : rightRun(c),
    );
    for (const id of UNKNOWN_TOPIC_CASES)
      expect(names.get(id), id).toEqual(["unknown-topic-crash"]);
    // The extension case's crash is its own: nothing explains it, nothing is named on it.
    expect(names.get(JAVA_NAMES)).toEqual([]);
  });

  it("a crash at another place on a required case leaves the name too (a second mistake)", async () => {
    const names = await namesOf((c) =>
      UNKNOWN_TOPIC_CASES.includes(c.id)
        ? crashAt("src/range-assignor.ts:41")
        : c.id === "01-lesson-7-partitions-3-members"
          ? crashAt("src/range-assignor.ts:99")
          : rightRun(c),
    );
    for (const id of UNKNOWN_TOPIC_CASES)
      expect(names.get(id), id).toEqual(["unknown-topic-crash"]);
  });

  it("the same crash on every case is no mistake's: nothing is named anywhere", async () => {
    const names = await namesOf(() => crashAt("src/range-assignor.ts:41"));
    expect([...names.values()].flat()).toEqual([]);
  });
});
