// Sharding a class and merging the shards, in process: which folders shard I/N grades
// (grader/batch/shard.ts shareOf, round-robin over the code-unit order), and --merge
// (grader/batch/merge.ts) over report folders written as a --batch --shard run writes them
// (output.ts), from hand-made results: the merged gradebook worked by hand, the merged folder the
// bytes an unsharded run writes, what merge refuses (a partial class among it: a shard of the
// plan missing or incomplete) and what --allow-partial writes with a warning. One e2e run of the
// instructor's workflow (test/e2e/batch.test.ts) grades real shards and merges them.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { CaseInfo, SubmissionResults } from "../../grader/batch/gradebook.ts";
import { readShards, runMerge } from "../../grader/batch/merge.ts";
import {
  prepareReportDir,
  writeClassReport,
  writeSubmissionResults,
} from "../../grader/batch/output.ts";
import { listBatch, shareOf } from "../../grader/batch/shard.ts";
import { runBatch } from "../../grader/batch/batch.ts";
import type { GradingContext } from "../../grader/context.ts";
import { SetupError } from "../../grader/errors.ts";
import { parseGradeArgs } from "../../grader/options.ts";

const root = mkdtempSync(join(tmpdir(), "kit-shards-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

describe("shareOf: shard I of N takes every N-th name from the I-th", () => {
  const seven = ["a", "b", "c", "d", "e", "f", "g"];

  it("splits seven names 3/2/2 into three shards", () => {
    expect(shareOf(seven, { index: 1, count: 3 })).toEqual(["a", "d", "g"]);
    expect(shareOf(seven, { index: 2, count: 3 })).toEqual(["b", "e"]);
    expect(shareOf(seven, { index: 3, count: 3 })).toEqual(["c", "f"]);
  });

  it("gives a shard nothing when there are fewer names than shards", () => {
    expect(shareOf(["a", "b", "c"], { index: 3, count: 4 })).toEqual(["c"]);
    expect(shareOf(["a", "b", "c"], { index: 4, count: 4 })).toEqual([]);
    expect(shareOf([], { index: 1, count: 2 })).toEqual([]);
  });

  it("is the whole list, as a copy, without a shard, and for 1/1", () => {
    const whole = shareOf(seven, undefined);
    expect(whole).toEqual(seven);
    expect(whole).not.toBe(seven);
    expect(shareOf(seven, { index: 1, count: 1 })).toEqual(seven);
  });

  it("shards of one list are disjoint, cover it in order, and differ in size by at most one", () => {
    for (let length = 0; length <= 12; length++) {
      const names = Array.from({ length }, (_, i) => `n${String(i).padStart(2, "0")}`);
      for (let count = 1; count <= 5; count++) {
        const shares = Array.from({ length: count }, (_, i) =>
          shareOf(names, { index: i + 1, count }),
        );
        expect(shares.flat().sort()).toEqual(names);
        const sizes = shares.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });
});

const KIT = { version: "1.2.0", fixtures: "0123456789abcdef" };
const CASES: CaseInfo[] = [
  { id: "01-one", title: "one", required: true, maxPoints: 2 },
  { id: "02-two", title: "two", required: false, maxPoints: 1 },
];

type Outcome = "pass" | "not-implemented" | readonly string[];

/** A case's result: a pass, a stub, or a wrong answer naming `mistakes`. */
function caseResult(info: CaseInfo, outcome: Outcome): SubmissionResults["cases"][number] {
  const base = {
    id: info.id,
    title: info.title,
    required: info.required,
    maxPoints: info.maxPoints,
  };
  if (outcome === "pass") {
    return {
      ...base,
      status: "pass",
      reason: null,
      points: info.maxPoints,
      mistake: null,
      mistakes: [],
      message: "",
      ran: "shared",
    };
  }
  if (outcome === "not-implemented") {
    return {
      ...base,
      status: "error",
      reason: "not-implemented",
      points: 0,
      mistake: null,
      mistakes: [],
      message: "not implemented yet: assignRange (src/range-assignor.ts)",
      ran: "isolated",
    };
  }
  return {
    ...base,
    status: "fail",
    reason: "wrong-output",
    points: 0,
    mistake: outcome[0] ?? null,
    mistakes: [...outcome],
    message: "wrong output",
    ran: "isolated",
  };
}

/**
 * A submission's results on CASES, the scores summed from its cases; the total under the default
 * policy, `bonus`: the extension point counts only when the required case passed.
 */
function submission(name: string, one: Outcome, two: Outcome): SubmissionResults {
  const cases = [caseResult(CASES[0] as CaseInfo, one), caseResult(CASES[1] as CaseInfo, two)];
  const sum = (required: boolean) =>
    cases.filter((c) => c.required === required).reduce((total, c) => total + c.points, 0);
  return {
    kit: KIT,
    submission: name,
    notGraded: null,
    score: sum(true),
    maxScore: 2,
    extensionScore: sum(false),
    extensionMaxScore: 1,
    total: sum(true) === 2 ? 2 + sum(false) : sum(true),
    maxTotal: 2,
    extensionPolicy: "bonus",
    cases,
  };
}

/** The class, in code-unit order of name ("=" is 0x3D, before the letters). */
const CLASS = [
  submission("=eve", "pass", "pass"),
  submission("alice", "pass", "pass"),
  submission("bob", "not-implemented", "not-implemented"),
  submission("carol", ["locale-order"], "pass"),
  // Case 01 cannot tell two mistakes apart (1/2 each); case 02 names one alone (1).
  submission("dave", ["locale-order", "code-point-order"], ["code-point-order"]),
];

/** The gradebook of CLASS, worked by hand from the columns gradebook.ts documents. */
const GRADEBOOK = [
  "submission,score,max,extension_score,extension_max,total,total_max,extension_policy,01-one,02-two,main_mistake,mistakes,not_graded",
  "'=eve,2,2,1,1,3,2,bonus,pass,pass,,,",
  "alice,2,2,1,1,3,2,bonus,pass,pass,,,",
  "bob,0,2,0,1,0,2,bonus,error,error,,,",
  // Carol's extension point does not make up for the required case she failed.
  "carol,0,2,1,1,0,2,bonus,fail,pass,locale-order,locale-order,",
  "dave,0,2,0,1,0,2,bonus,fail,fail,code-point-order,code-point-order locale-order,",
  "",
].join("\n");

/**
 * Writes a report folder as `--batch DIR --shard I/N` does (batch.ts runBatch), or a whole run,
 * DIR holding the folders of `listed` (by default the class); `keep` narrows the share written.
 */
function writeRun(
  name: string,
  shard: { index: number; count: number } | undefined,
  kit = KIT,
  cases = CASES,
  listed: readonly SubmissionResults[] = CLASS,
  keep: (r: SubmissionResults) => boolean = () => true,
): string {
  const out = join(root, name);
  prepareReportDir(out);
  const mine = shareOf(listed, shard)
    .filter(keep)
    .map((r) => ({ ...r, kit }));
  for (const r of mine) writeSubmissionResults(out, r);
  writeClassReport(
    out,
    { kit, shard: shard ?? null, cases, listed: listed.map((r) => r.submission) },
    mine,
  );
  return out;
}

/** Runs `--merge DIRS --report-dir OUT [...flags]` in process; its standard output and error. */
async function merge(
  dirs: string[],
  out: string,
  flags: string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const status = await runMerge(
    parseGradeArgs(["--merge", ...dirs, "--report-dir", out, ...flags]),
  );
  vi.restoreAllMocks();
  expect(status).toBe(0);
  return { stdout, stderr };
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

describe("--merge of the shards of a class", () => {
  const whole = writeRun("whole", undefined);
  const shards = [1, 2, 3].map((index) => writeRun(`shard-${index}`, { index, count: 3 }));

  it("each shard holds its round-robin share of the class", () => {
    const names = (dir: string) =>
      (JSON.parse(read(dir, "shard.json")) as { submissions: { name: string }[] }).submissions.map(
        (s) => s.name,
      );
    expect(shards.map(names)).toEqual([["=eve", "carol"], ["alice", "dave"], ["bob"]]);
  });

  it("writes the gradebook worked by hand, and the bytes of the unsharded run", async () => {
    const out = join(root, "merged");
    const { stdout, stderr } = await merge(shards, out);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^Merged 3 shards: 5 submissions, 2 passed every required case\.\n/);
    expect(read(out, "gradebook.csv")).toBe(GRADEBOOK);
    expect(read(whole, "gradebook.csv")).toBe(GRADEBOOK);
    for (const file of ["shard.json", "report.html", "results/%3deve.json", "results/dave.json"]) {
      expect(read(out, file), file).toBe(read(whole, file));
    }
    const manifest = JSON.parse(read(out, "shard.json")) as {
      shard: unknown;
      submissions: { name: string; file: string }[];
    };
    expect(manifest.shard).toBeNull();
    expect(manifest.submissions).toEqual([
      { name: "=eve", file: "results/%3deve.json" },
      { name: "alice", file: "results/alice.json" },
      { name: "bob", file: "results/bob.json" },
      { name: "carol", file: "results/carol.json" },
      { name: "dave", file: "results/dave.json" },
    ]);
  });

  // CLASS in code-unit order is =eve, alice, bob, carol, dave: shard 1/3 takes =eve and carol,
  // 2/3 alice and dave, 3/3 bob.
  const PARTIAL = `Merge every shard of the plan (grade a missing or incomplete shard again), or add --allow-partial to write the partial report anyway.`;

  it("refuses a class with shards of the plan missing, naming them and their folders", () => {
    const out = join(root, "merged-missing");
    expect(() =>
      runMerge(parseGradeArgs(["--merge", shards[0] as string, "--report-dir", out])),
    ).toThrow(
      new SetupError(
        [
          "the merge would publish a partial class (nothing was written):",
          '  shards 2/3, 3/3 of the plan missing: 3 folders ("alice", "dave", "bob") not in the report',
          PARTIAL,
        ].join("\n"),
      ),
    );
    expect(existsSync(out)).toBe(false);
  });

  it("--allow-partial writes the partial class, warning of it; merging that again is refused", async () => {
    const out = join(root, "merged-partial");
    const { stdout, stderr } = await merge([shards[0] as string], out, ["--allow-partial"]);
    expect(stderr).toBe(
      'grade: warning: shards 2/3, 3/3 of the plan missing: 3 folders ("alice", "dave", "bob") not in the report\n',
    );
    expect(stdout).toMatch(
      /^Merged 1 shard: 2 submissions of 5 \(a partial class: --allow-partial\), 1 passed every required case\.\n/,
    );
    expect(read(out, "gradebook.csv").split("\n").slice(1, -1)).toEqual([
      "'=eve,2,2,1,1,3,2,bonus,pass,pass,,,",
      "carol,0,2,1,1,0,2,bonus,fail,pass,locale-order,locale-order,",
    ]);
    // The class report says at its top that it is partial, naming who is missing.
    expect(read(out, "report.html")).toContain(
      '<p class="partial"><b>A partial class:</b> 3 of its 5 folders are not in this report (merged with --allow-partial): <code>alice</code>, <code>bob</code>, <code>dave</code>.</p>',
    );
    expect(read(join(root, "merged"), "report.html")).not.toContain('class="partial"');
    // The partial report still lists the whole class, so it cannot pass for one.
    expect(readShards([out]).gaps).toEqual([
      `${out} is a partial class: it lacks 3 of its 5 folders ("alice", "bob", "dave")`,
    ]);
  });

  it("refuses a shard that lacks part of its share, naming the shard and the folders", () => {
    const two = writeRun(
      "shard-2-short",
      { index: 2, count: 3 },
      KIT,
      CASES,
      CLASS,
      (r) => r.submission !== "dave",
    );
    expect(readShards([shards[0] as string, two, shards[2] as string]).gaps).toEqual([
      `shard 2/3 (${two}) is incomplete: it lacks 1 of its share's folders ("dave")`,
    ]);
    expect(() =>
      runMerge(
        parseGradeArgs([
          "--merge",
          shards[0] as string,
          two,
          shards[2] as string,
          "--report-dir",
          join(root, "merged-short"),
        ]),
      ),
    ).toThrow(/^the merge would publish a partial class \(nothing was written\):\n {2}shard 2\/3 /);
  });

  it("refuses shards cut from different listings of the class (a folder missing on one machine)", () => {
    // Shard 2/3 graded a DIR without bob: =eve, alice, carol, dave; its share is alice alone.
    const withoutBob = CLASS.filter((r) => r.submission !== "bob");
    const two = writeRun("shard-2-no-bob", { index: 2, count: 3 }, KIT, CASES, withoutBob);
    expect(readShards([shards[0] as string, two, shards[2] as string]).gaps).toEqual([
      "shards 1/3 and 2/3 were cut from different listings of the class (5 and 4 folders): grade every shard from the same DIR",
    ]);
  });

  it("refuses a shard whose batch did not finish (results/ and no shard.json)", () => {
    const stopped = writeRun("shard-3-stopped", { index: 3, count: 3 });
    rmSync(join(stopped, "shard.json"));
    expect(() => readShards([shards[0] as string, shards[1] as string, stopped])).toThrow(
      new SetupError(
        `${stopped} is an incomplete report: it has results/ but no shard.json, so the batch that writes it did not finish (it failed or was stopped); grade that shard again`,
      ),
    );
  });

  it("refuses forged shard folders with a message: a shard count no batch writes, a case without mistakes", () => {
    const huge = join(root, "forged-count");
    cpSync(shards[0] as string, huge, { recursive: true });
    const manifest = JSON.parse(read(huge, "shard.json")) as { shard: { count: number } };
    manifest.shard.count = 4294967296;
    writeFileSync(join(huge, "shard.json"), JSON.stringify(manifest));
    expect(() => readShards([huge])).toThrow(
      `${join(huge, "shard.json")} is not a manifest this grader wrote`,
    );
    const bare = join(root, "forged-mistakes");
    cpSync(shards[0] as string, bare, { recursive: true });
    const file = join(bare, "results", "carol.json");
    const results = JSON.parse(readFileSync(file, "utf8")) as { cases: { mistakes?: unknown }[] };
    for (const c of results.cases) delete c.mistakes;
    writeFileSync(file, JSON.stringify(results));
    expect(() => readShards([bare])).toThrow(
      /carol\.json does not match grader\/results\.schema\.json: .*must have required property 'mistakes'/,
    );
  });

  it("--allow-partial goes with --merge only", () => {
    expect(() =>
      parseGradeArgs(["--batch", root, "--report-dir", join(root, "x"), "--allow-partial"]),
    ).toThrow(new SetupError("--allow-partial does not go with --batch"));
  });

  it("a class split in different ways has no plan to check: a gap, each submission counted once", () => {
    const half = writeRun("half-2", { index: 2, count: 2 }); // alice, carol
    const third = writeRun("third-3", { index: 3, count: 3 }); // bob
    const merged = readShards([half, third]);
    expect(merged.gaps).toEqual([
      "the shards split the class in different ways (/2, /3), so no shard plan says which folders make the class; grade every shard with the same N",
    ]);
    expect(merged.results.map((r) => r.submission)).toEqual(["alice", "carol", "bob"]);
  });

  it("refuses the same shard twice", () => {
    expect(() => readShards([shards[0] as string, shards[0] as string])).toThrow(
      new SetupError(`shard 1/3 is given twice: ${shards[0]} and ${shards[0]}`),
    );
  });

  it("refuses a submission in two shards", () => {
    const whole2 = writeRun("whole-again", undefined);
    expect(() => readShards([shards[1] as string, whole2])).toThrow(
      /^submission "alice" is in two shards: .*shard-2 and .*whole-again; the shards of one class never overlap$/,
    );
  });

  it("refuses shards graded with another kit, or on other cases", () => {
    const otherKit = writeRun(
      "other-kit",
      { index: 2, count: 3 },
      { ...KIT, fixtures: "fedcba9876543210" },
    );
    expect(() => readShards([shards[0] as string, otherKit])).toThrow(
      /^the shards were graded with different kits: .*shard-1 with kit 1\.2\.0 \(fixtures 0123456789abcdef\), .*other-kit with kit 1\.2\.0 \(fixtures fedcba9876543210\)/,
    );
    const otherCases = writeRun("other-cases", { index: 2, count: 3 }, KIT, [CASES[0] as CaseInfo]);
    expect(() => readShards([shards[0] as string, otherCases])).toThrow(
      /^the shards were graded on different cases: .*shard-1 \(2 cases\) and .*other-cases \(1\)/,
    );
  });

  it("refuses shards graded with different extension policies: one gradebook, one total", () => {
    const out = join(root, "counted");
    prepareReportDir(out);
    // Shard 2/3 (alice, dave) graded with --extension count: the extension point added.
    const mine = shareOf(CLASS, { index: 2, count: 3 }).map((r) => ({
      ...r,
      total: r.score + r.extensionScore,
      maxTotal: 3,
      extensionPolicy: "count",
    }));
    for (const r of mine) writeSubmissionResults(out, r);
    writeClassReport(out, { kit: KIT, shard: { index: 2, count: 3 }, cases: CASES }, mine);
    expect(() => readShards([shards[0] as string, out])).toThrow(
      /^the shards were graded with different extension policies: --extension bonus in .*shard-1, --extension count in .*counted; grade every shard with the same --extension$/,
    );
  });

  it("refuses an OUT that is one of the shards, and leaves that shard alone", () => {
    const before = read(shards[2] as string, "shard.json");
    expect(() =>
      runMerge(parseGradeArgs(["--merge", ...shards, "--report-dir", shards[2] as string])),
    ).toThrow(/is one of the shards being merged: give a new folder$/);
    expect(read(shards[2] as string, "shard.json")).toBe(before);
  });
});

describe("--batch refuses what it cannot grade into", () => {
  it("a DIR with no folders, an OUT inside DIR, an OUT with other files", async () => {
    const empty = mkdtempSync(join(root, "empty-"));
    expect(() => listBatch(empty)).toThrow(SetupError);
    expect(() => listBatch(empty)).toThrow(/has no subfolders; it should hold one folder per/);
    const busy = mkdtempSync(join(root, "busy-"));
    writeFileSync(join(busy, "notes.txt"), "mine\n");
    expect(() => prepareReportDir(busy)).toThrow(/is not empty and holds no earlier report/);
    expect(read(busy, "notes.txt")).toBe("mine\n");
    // Refused before anything is listed or graded: no grading context is needed.
    const inside = parseGradeArgs(["--batch", empty, "--report-dir", join(empty, "out")]);
    await expect(runBatch(inside, undefined as unknown as GradingContext)).rejects.toThrow(
      /is inside the --batch folder .*: it would be graded as a submission next time/,
    );
  });
});
