// scripts/upgrade-handout.ts in process, on two small hand-made handouts (OLD, NEW) and student
// repositories made from OLD: what is written, what is left alone, what is a conflict, the exit
// code, and a second run. Every expected list below is worked out from the files written here.
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { globSync } from "tinyglobby";
import { afterAll, describe, expect, it } from "vitest";
import {
  describe as describeResult,
  exitCode,
  readHandout,
  upgradeRepository,
} from "../../scripts/upgrade-handout.ts";
import { SetupError } from "../../grader/errors.ts";

const work = mkdtempSync(join(tmpdir(), "kit-upgrade-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const stamp = (version: string, fixtures: string, commit: string) =>
  `${JSON.stringify({ kit: { version, fixtures }, cases: 2, builtFrom: { commit, uncommittedChanges: false } }, null, 2)}\n`;

const OLD: Record<string, string> = {
  "kit-stamp.json": stamp("1.1.0", "aaaaaaaaaaaaaaaa", "c1"),
  "README.md": "readme 1.1\n",
  "grader/a.ts": "a 1.1\n",
  "grader/gone/old.ts": "dropped in 1.2\n",
  "grader/same.ts": "the same in both\n",
  "src/main.ts": "main 1.1\n",
  "src/subscription.ts": "stub s\n",
  "src/range-assignor.ts": "stub r 1.1\n",
};
const NEW: Record<string, string> = {
  "kit-stamp.json": stamp("1.2.0", "bbbbbbbbbbbbbbbb", "c2"),
  "README.md": "readme 1.2\n",
  "grader/a.ts": "a 1.2\n",
  "grader/same.ts": "the same in both\n",
  "grader/new/b.ts": "added in 1.2\n",
  "fixtures/cases/__proto__/case.json": "{}\n",
  "src/main.ts": "main 1.2\n",
  "src/subscription.ts": "stub s\n",
  "src/range-assignor.ts": "stub r 1.2\n",
};
/** The student's work in every repository below. */
const WORK: Record<string, string> = {
  "src/subscription.ts": "the student's decoder\n",
  "src/range-assignor.ts": "the student's assignor\n",
  "NOTES.md": "the student's notes\n",
};

function writeTree(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Every file (and link) under `dir`, with its text ("-> target" for a link). */
function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const path of globSync("**", { cwd: dir, dot: true, followSymbolicLinks: false })) {
    out[path] = readFileSync(join(dir, path), "utf8");
  }
  return out;
}

const oldDir = writeTree(join(work, "old"), OLD);
const newDir = writeTree(join(work, "new"), NEW);
// A handout that was installed and tried: none of what that wrote is the kit's.
writeTree(newDir, {
  "node_modules/x/index.js": "installed\n",
  ".grader/cli.mjs": "the compiled grader\n",
  "results.json": "{}\n",
  "npm-debug.log": "log\n",
});
const from = readHandout(oldDir, "--from");
const to = readHandout(newDir, "--to");

/** A repository made from OLD with the student's work in it. */
const repoFromOld = (name: string, extra: Record<string, string> = {}) =>
  writeTree(writeTree(join(work, name), OLD), { ...WORK, ...extra });

describe("a stage's new student file", () => {
  // OLD lacks src/assignment.ts (the stub a new stage adds); NEW has it.
  const stage = (name: string, files: Record<string, string>) =>
    readHandout(writeTree(join(work, name), files), "--to");
  const newWithStub = stage("new-with-stub", { ...NEW, "src/assignment.ts": "stub e\n" });

  it("is added where the repository has none, and the student's other files are kept", () => {
    const repo = repoFromOld("stage-added");
    const result = upgradeRepository(repo, from, newWithStub);
    expect(result).toMatchObject({ status: "upgraded", conflicts: [] });
    expect(result.added).toContain("src/assignment.ts");
    expect(result.starterChanged).not.toContain("src/assignment.ts");
    expect(readFileSync(join(repo, "src/assignment.ts"), "utf8")).toBe("stub e\n");
    expect(readFileSync(join(repo, "src/subscription.ts"), "utf8")).toBe("the student's decoder\n");
  });

  it("is a conflict, left exactly as it is, where the repository already has its own", () => {
    const repo = repoFromOld("stage-own", { "src/assignment.ts": "the student's own encoder\n" });
    const result = upgradeRepository(repo, from, newWithStub);
    expect(result.status).toBe("conflicts");
    expect(result.conflicts).toEqual([
      {
        path: "src/assignment.ts",
        reason: "the repository has its own file where 1.2.0 adds one",
      },
    ]);
    expect(readFileSync(join(repo, "src/assignment.ts"), "utf8")).toBe(
      "the student's own encoder\n",
    );
  });

  it("once OLD has it, is the student's: never read or written again", () => {
    const oldWithStub = readHandout(
      writeTree(join(work, "old-with-stub"), { ...OLD, "src/assignment.ts": "stub e 1.1\n" }),
      "--from",
    );
    const repo = repoFromOld("stage-kept", { "src/assignment.ts": "the student's encoder\n" });
    const result = upgradeRepository(repo, oldWithStub, newWithStub);
    expect(result.conflicts).toEqual([]);
    expect(result.starterChanged).toContain("src/assignment.ts");
    expect(readFileSync(join(repo, "src/assignment.ts"), "utf8")).toBe("the student's encoder\n");
  });
});

describe("readHandout", () => {
  it("reads the stamp and every file but what installing and grading wrote", () => {
    expect(from.stamp).toEqual({ version: "1.1.0", fixtures: "aaaaaaaaaaaaaaaa" });
    expect([...to.files.keys()].sort()).toEqual(Object.keys(NEW).sort());
  });

  it("refuses a folder without kit-stamp.json, naming it", () => {
    const dir = writeTree(join(work, "not-a-handout"), { "README.md": "x\n" });
    expect(() => readHandout(dir, "--to")).toThrow(SetupError);
    expect(() => readHandout(dir, "--to")).toThrow(`--to ${dir}: no kit-stamp.json`);
  });
});

describe("upgradeRepository", () => {
  it("brings every kit file the student did not change to NEW, and keeps the student's files", () => {
    const repo = repoFromOld("clean");
    const result = upgradeRepository(repo, from, to);
    expect(result).toMatchObject({
      status: "upgraded",
      from: { version: "1.1.0", fixtures: "aaaaaaaaaaaaaaaa" },
      added: ["fixtures/cases/__proto__/case.json", "grader/new/b.ts"],
      updated: ["README.md", "grader/a.ts", "src/main.ts", "kit-stamp.json"],
      removed: ["grader/gone/old.ts"],
      conflicts: [],
      starterChanged: ["src/range-assignor.ts"],
    });
    // NEW's files, the student's two files and notes, nothing of OLD's; the emptied folder gone.
    expect(treeOf(repo)).toEqual({ ...NEW, ...WORK });
    expect(existsSync(join(repo, "grader", "gone"))).toBe(false);
    expect(exitCode([result])).toBe(0);
  });

  it("a second run finds nothing to do", () => {
    const repo = join(work, "clean");
    const result = upgradeRepository(repo, from, to);
    expect(result).toMatchObject({ status: "current", added: [], updated: [], removed: [] });
    expect(result.message).toBe("already at 1.2.0");
    expect(treeOf(repo)).toEqual({ ...NEW, ...WORK });
  });

  it("leaves every file the kit and the student both changed as it is, and reports it", () => {
    const outside = writeTree(join(work, "outside"), { "target.ts": "not the repository's\n" });
    const repo = repoFromOld("conflicted", {
      "README.md": "readme 1.1\nthe student's line\n", // edited; 1.2 changes it
      "grader/gone/old.ts": "edited\n", // edited; 1.2 deletes it
      "grader/same.ts": "the student's edit\n", // edited; 1.2 leaves it: no conflict
      "grader/new/b.ts": "the student's own b\n", // where 1.2 adds a file
    });
    unlinkSync(join(repo, "src", "main.ts")); // deleted; 1.2 changes it
    unlinkSync(join(repo, "grader", "a.ts"));
    symlinkSync(join(outside, "target.ts"), join(repo, "grader", "a.ts")); // a link: never followed
    const before = treeOf(repo);

    const result = upgradeRepository(repo, from, to);
    expect(result.status).toBe("conflicts");
    expect(result.conflicts).toEqual([
      { path: "README.md", reason: "changed in the repository, and 1.2.0 changes it" },
      { path: "grader/a.ts", reason: "grader/a.ts is a symbolic link" },
      { path: "grader/gone/old.ts", reason: "changed in the repository, and 1.2.0 deletes it" },
      {
        path: "grader/new/b.ts",
        reason: "the repository has its own file where 1.2.0 adds one",
      },
      { path: "src/main.ts", reason: "deleted in the repository, and 1.2.0 changes it" },
    ]);
    expect(result).toMatchObject({
      added: ["fixtures/cases/__proto__/case.json"],
      updated: [],
      removed: [],
    });
    // Only the one clean addition was written; the stamp still says 1.1.0.
    expect(treeOf(repo)).toEqual({
      ...before,
      "fixtures/cases/__proto__/case.json": "{}\n",
    });
    expect(readFileSync(join(outside, "target.ts"), "utf8")).toBe("not the repository's\n");
    expect(result.message).toBe(
      "5 conflicts: kit-stamp.json left at 1.1.0 until they are resolved",
    );
    expect(exitCode([result])).toBe(1);
    expect(describeResult(result, "conflicted").split("\n")).toEqual([
      "conflicted: 5 conflicts: kit-stamp.json left at 1.1.0 until they are resolved",
      "  conflict README.md: changed in the repository, and 1.2.0 changes it",
      "  conflict grader/a.ts: grader/a.ts is a symbolic link",
      "  conflict grader/gone/old.ts: changed in the repository, and 1.2.0 deletes it",
      "  conflict grader/new/b.ts: the repository has its own file where 1.2.0 adds one",
      "  conflict src/main.ts: deleted in the repository, and 1.2.0 changes it",
      "  note src/range-assignor.ts: the starter's version changed; the student's is kept",
    ]);
  });

  it("finishes once the conflicts are resolved (--keep for a file the student owns now)", () => {
    const repo = join(work, "conflicted");
    unlinkSync(join(repo, "grader", "a.ts"));
    writeTree(repo, { "grader/a.ts": "a 1.1\n", "src/main.ts": "main 1.1\n" }); // restored
    rmSync(join(repo, "grader", "gone"), { recursive: true }); // taken as 1.2 has it
    writeTree(repo, { "grader/new/b.ts": "added in 1.2\n" });
    const result = upgradeRepository(repo, from, to, { keep: ["README.md"] });
    expect(result).toMatchObject({
      status: "upgraded",
      conflicts: [],
      added: [],
      updated: ["grader/a.ts", "src/main.ts", "kit-stamp.json"],
      removed: [],
    });
    expect(treeOf(repo)).toEqual({
      ...NEW,
      ...WORK,
      "README.md": "readme 1.1\nthe student's line\n",
      "grader/same.ts": "the student's edit\n",
    });
  });

  it("--dry-run reports the same and writes nothing", () => {
    const repo = repoFromOld("dry");
    const before = treeOf(repo);
    const result = upgradeRepository(repo, from, to, { dryRun: true });
    expect(result.status).toBe("upgraded");
    expect(result.updated).toEqual(["README.md", "grader/a.ts", "src/main.ts", "kit-stamp.json"]);
    expect(result.removed).toEqual(["grader/gone/old.ts"]);
    expect(result.message).toBe("would upgrade 1.1.0 -> 1.2.0: 4 updated, 2 added, 1 removed");
    expect(treeOf(repo)).toEqual(before);
  });

  it("refuses, untouched, a repository from another kit, without a stamp, or missing", () => {
    const other = writeTree(join(work, "other-kit"), {
      ...OLD,
      "kit-stamp.json": stamp("1.0.0", "cccccccccccccccc", "c0"),
    });
    const before = treeOf(other);
    const result = upgradeRepository(other, from, to);
    expect(result.status).toBe("refused");
    expect(result.message).toBe(
      "kit-stamp.json says kit 1.0.0, fixtures cccccccccccccccc: neither --from (kit 1.1.0, fixtures aaaaaaaaaaaaaaaa) nor --to (kit 1.2.0, fixtures bbbbbbbbbbbbbbbb)",
    );
    expect(treeOf(other)).toEqual(before);

    const unstamped = writeTree(join(work, "unstamped"), { "src/main.ts": "main 1.1\n" });
    expect(upgradeRepository(unstamped, from, to)).toMatchObject({ status: "refused", from: null });
    expect(treeOf(unstamped)).toEqual({ "src/main.ts": "main 1.1\n" });

    symlinkSync(join(work, "clean"), join(work, "link-to-clean"));
    expect(upgradeRepository(join(work, "link-to-clean"), from, to)).toMatchObject({
      status: "refused",
      message: "a symbolic link, not a folder",
    });

    const missing = upgradeRepository(join(work, "no-such-repo"), from, to);
    expect(missing).toMatchObject({ status: "refused", message: "no such folder" });
    // One refusal among upgrades makes the run's exit 2.
    expect(exitCode([missing, upgradeRepository(join(work, "clean"), from, to)])).toBe(2);
  });
});

describe("upgradeRepository and hard links", () => {
  it("replaces a kit file that is a hard link to a file outside the repository, leaving that file as it was", () => {
    const repo = repoFromOld("hard-linked");
    const outside = join(work, "outside-a.ts");
    writeFileSync(outside, OLD["grader/a.ts"] ?? "");
    unlinkSync(join(repo, "grader/a.ts"));
    linkSync(outside, join(repo, "grader/a.ts"));
    const result = upgradeRepository(repo, from, to);
    expect(result.updated).toContain("grader/a.ts");
    expect(readFileSync(join(repo, "grader/a.ts"), "utf8")).toBe("a 1.2\n");
    expect(readFileSync(outside, "utf8")).toBe("a 1.1\n");
  });
});
