// A batch's report folder holds one results file per submission (grader/batch/output.ts), named
// from the folder name's exact bytes, and --merge joins shards by their manifests' name -> file
// maps with the same rules (grader/batch/merge.ts readShards). In process: the files are written
// by the batch's own writers from hand-made results, no grading.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SubmissionResults } from "../../grader/batch/gradebook.ts";
import { readShards } from "../../grader/batch/merge.ts";
import {
  prepareReportDir,
  writeClassReport,
  writeSubmissionResults,
} from "../../grader/batch/output.ts";
import { SetupError } from "../../grader/errors.ts";

const root = mkdtempSync(join(tmpdir(), "kit-results-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const KIT = { version: "1.2.0", fixtures: "0123456789abcdef" };
const CASE = { id: "01-one", title: "one case", required: true, maxPoints: 2 };

/** A submission's results: `points` of 2 on the one case. */
function results(submission: string, points: number): SubmissionResults {
  return {
    kit: KIT,
    submission,
    notGraded: null,
    score: points,
    maxScore: 2,
    extensionScore: 0,
    extensionMaxScore: 0,
    total: points,
    maxTotal: 2,
    extensionPolicy: "bonus",
    cases: [
      {
        id: CASE.id,
        title: CASE.title,
        required: true,
        status: points === 2 ? "pass" : "fail",
        reason: points === 2 ? null : "wrong-output",
        points,
        maxPoints: 2,
        mistake: null,
        mistakes: [],
        message: "",
        ran: points === 2 ? "shared" : "isolated",
      },
    ],
  };
}

/**
 * Writes a report folder as a batch (or a shard of one) does, cut from a DIR holding the folders
 * `listed` (by default the shard's own).
 */
function shard(
  name: string,
  all: SubmissionResults[],
  index: number,
  count: number,
  listed = all.map((r) => r.submission),
): string {
  const out = join(root, name);
  prepareReportDir(out);
  for (const r of all) writeSubmissionResults(out, r);
  writeClassReport(out, { kit: KIT, shard: { index, count }, cases: [CASE], listed }, all);
  return out;
}

describe("a report folder: one results file per submission", () => {
  // Bob (full marks) beside a folder named like Bob's results file once was, and a folder whose
  // name is not UTF-8 (Latin-1 é) beside one spelled with its \xNN escape.
  const class1 = [
    results("Bob", 2),
    results("bob-cd9fb1e148", 0),
    results("bob", 0),
    results("Jos\udce9", 0),
    results("Jos\\xe9", 2),
    results("__proto__", 2),
  ];
  const out = shard("whole", class1, 1, 1);

  it("writes each submission into its own file, named from its bytes", () => {
    expect(readdirSync(join(out, "results")).sort()).toEqual([
      "%42ob.json",
      "%4aos%5cxe9.json",
      "%4aos%e9.json",
      "__proto__.json",
      "bob-cd9fb1e148.json",
      "bob.json",
    ]);
    const bob = JSON.parse(readFileSync(join(out, "results", "%42ob.json"), "utf8")) as {
      submission: string;
      score: number;
    };
    expect([bob.submission, bob.score]).toEqual(["Bob", 2]);
    // The exact name, a lone surrogate for the byte 0xE9, as a JSON escape.
    expect(readFileSync(join(out, "results", "%4aos%e9.json"), "utf8")).toContain(
      '"submission": "Jos\\udce9"',
    );
  });

  it("shows a byte that is not UTF-8 as \\xNN in the gradebook", () => {
    const rows = readFileSync(join(out, "gradebook.csv"), "utf8").split("\n");
    // Code-unit order of the names: B < J < \\ (0x5C) < _ < b; "Jos\\xe9" (backslash, 0x5C)
    // before "Jos\udce9" (0xDCE9).
    expect(rows.map((r) => r.split(",")[0])).toEqual([
      "submission",
      "Bob",
      "Jos\\xe9",
      "Jos\\xe9",
      "__proto__",
      "bob",
      "bob-cd9fb1e148",
      "",
    ]);
    expect(rows[2]).toBe("Jos\\xe9,2,2,0,0,2,2,bonus,pass,,,");
    expect(rows[3]).toBe("Jos\\xe9,0,2,0,0,0,2,bonus,fail,,,");
  });

  it("never writes over a results file", () => {
    expect(() => writeSubmissionResults(out, results("Bob", 0))).toThrow(SetupError);
    expect(() => writeSubmissionResults(out, results("Bob", 0))).toThrow(/exists already/);
    const bob = JSON.parse(readFileSync(join(out, "results", "%42ob.json"), "utf8")) as {
      score: number;
    };
    expect(bob.score).toBe(2);
  });
});

describe("--merge of shards holding those names", () => {
  it("joins them, each submission once, with its own score", () => {
    // The class in code-unit order: Bob, Jos\\xe9, Jos\udce9, bob-cd9fb1e148 ("\\" is 0x5C).
    const listed = ["Bob", "Jos\udce9", "bob-cd9fb1e148", "Jos\\xe9"];
    const one = shard("shard-1", [results("Bob", 2), results("Jos\udce9", 0)], 1, 2, listed);
    const two = shard(
      "shard-2",
      [results("bob-cd9fb1e148", 0), results("Jos\\xe9", 2)],
      2,
      2,
      listed,
    );
    const merged = readShards([one, two]);
    expect(merged.gaps).toEqual([]);
    expect(merged.results.map((r) => [r.submission, r.score])).toEqual([
      ["Bob", 2],
      ["Jos\udce9", 0],
      // Each shard's manifest in code-unit order: J before b.
      ["Jos\\xe9", 2],
      ["bob-cd9fb1e148", 0],
    ]);
  });

  it("refuses a manifest whose name no folder has, or that lists a name twice", () => {
    const out = shard("tampered", [results("Bob", 2)], 1, 1);
    const path = join(out, "shard.json");
    const manifest = readFileSync(path, "utf8");
    writeFileSync(path, manifest.replace('"name": "Bob"', '"name": "B\\ud800"'));
    expect(() => readShards([out])).toThrow(/submission "B\\ud800" is not a folder name/);
    const twice = JSON.parse(manifest) as { submissions: unknown[] };
    twice.submissions.push(twice.submissions[0]);
    writeFileSync(path, JSON.stringify(twice));
    expect(() => readShards([out])).toThrow(/lists submission "Bob" twice/);
  });

  it("refuses a manifest that maps a name to another's file", () => {
    const out = shard("other-file", [results("Bob", 2), results("bob", 0)], 1, 1);
    const path = join(out, "shard.json");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(
        '"file": "results/bob.json"',
        '"file": "results/%42ob.json"',
      ),
    );
    expect(() => readShards([out])).toThrow(
      /submission "bob" has an unexpected file "results\/%42ob\.json"/,
    );
  });
});
