// Which folders of a --batch DIR are submissions (grader/batch/shard.ts): at the top of each
// folder or one folder down, as GitHub Classroom's and Gradescope's downloads hold them, and what
// the batch says about the rest. The batch itself runs in test/e2e/batch.test.ts.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listBatch, listingNotes } from "../../grader/batch/shard.ts";

const dir = mkdtempSync(join(tmpdir(), "kit-batch-listing-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes DIR/<path>/src/main.ts. */
function submission(path: string): void {
  mkdirSync(join(dir, path, "src"), { recursive: true });
  writeFileSync(join(dir, path, "src", "main.ts"), "export {};\n");
}

submission("alice");
submission("bob/kafka-lesson-bob"); // a repository's zip, unpacked
mkdirSync(join(dir, "bob", ".git"));
submission("carol/one");
submission("carol/two");
submission("dave/.hidden-copy");
submission("dave/node_modules");
mkdirSync(join(dir, "erin", "notes"), { recursive: true });
writeFileSync(join(dir, "erin", "main.ts"), "export {};\n");
submission("frank/a/b"); // two folders down: not looked for
submission(".git");
writeFileSync(join(dir, "submission_metadata.yml"), "{}\n");
symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));

describe("listBatch", () => {
  const listing = listBatch(dir);

  it("a submission at a folder's top or in the one folder inside it that holds one", () => {
    expect(listing.entries.map((e) => [e.name, e.path, e.isSubmission, e.inner])).toEqual([
      ["alice", join(dir, "alice"), true, null],
      ["bob", join(dir, "bob", "kafka-lesson-bob"), true, "kafka-lesson-bob"],
      ["carol", join(dir, "carol"), false, null],
      ["dave", join(dir, "dave"), false, null],
      ["erin", join(dir, "erin"), false, null],
      ["frank", join(dir, "frank"), false, null],
    ]);
  });

  it("says why a folder holds no submission", () => {
    const why = new Map(listing.entries.map((e) => [e.name, e.problem]));
    expect(why.get("carol")).toEqual({
      why: "has no src/main.ts, and 2 folders inside it have one (one, two): keep one submission per folder",
      short: "2 submissions inside it",
    });
    const none = {
      why: "has no src/main.ts, nor has any folder inside it (each folder of the batch must hold one submission, at its top or one folder down)",
      short: "no src/main.ts",
    };
    // Hidden folders and node_modules inside a folder are not looked in.
    expect([why.get("dave"), why.get("erin"), why.get("frank")]).toEqual([none, none, none]);
    expect([why.get("alice"), why.get("bob")]).toEqual([null, null]);
  });

  it("leaves out hidden folders and files, and says so before grading", () => {
    expect(listing.skipped).toEqual([
      { name: ".git", why: "a hidden folder" },
      { name: "dangling", why: "not a folder" },
      { name: "submission_metadata.yml", why: "not a folder" },
    ]);
    expect(listingNotes(listing)).toEqual([
      "skipped .git: a hidden folder",
      "skipped dangling: not a folder",
      "skipped submission_metadata.yml: not a folder",
      "graded one folder down: bob/kafka-lesson-bob/",
      "not a submission, every case error: carol: 2 submissions inside it",
      "not a submission, every case error: dave: no src/main.ts",
      "not a submission, every case error: erin: no src/main.ts",
      "not a submission, every case error: frank: no src/main.ts",
    ]);
  });
});
