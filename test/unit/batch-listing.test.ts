// Which folders of a --batch DIR are submissions (grader/batch/shard.ts): at the top of each
// folder or one folder down, as GitHub Classroom's and Gradescope's downloads hold them, never
// through a link, each by its exact bytes, and what the batch says about the rest. The batch
// itself runs in test/e2e/batch.test.ts.
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
      // A link is listed (the gradebook shows it), never followed, wherever it points.
      ["dangling", join(dir, "dangling"), false, null],
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
      { name: "submission_metadata.yml", why: "not a folder" },
    ]);
    expect(listingNotes(listing)).toEqual([
      "skipped .git: a hidden folder",
      "skipped submission_metadata.yml: not a folder",
      "graded one folder down: bob/kafka-lesson-bob/",
      "not a submission, every case error: carol: 2 submissions inside it",
      "not a submission, every case error: dangling: a symbolic link",
      "not a submission, every case error: dave: no src/main.ts",
      "not a submission, every case error: erin: no src/main.ts",
      "not a submission, every case error: frank: no src/main.ts",
    ]);
  });
});

describe("listBatch never follows a link, and keeps every name's bytes", () => {
  const attacks = mkdtempSync(join(tmpdir(), "kit-batch-attacks-"));
  afterAll(() => rmSync(attacks, { recursive: true, force: true }));
  const at = (path: string) => join(attacks, path);
  const program = (path: string) => {
    mkdirSync(join(path, "src"), { recursive: true });
    writeFileSync(join(path, "src", "main.ts"), "export {};\n");
  };
  program(at("alice"));
  // The reference, as the grader's working folder (the kit) holds it: never followed.
  mkdirSync(at("mallory"));
  symlinkSync("/proc/self/cwd/solution", at("mallory/work"));
  // A classmate's folder, one folder down and in DIR itself.
  mkdirSync(at("oscar"));
  symlinkSync("../alice", at("oscar/work"));
  symlinkSync("alice", at("copycat"));
  // A link where the grader looks for the program: src/, src/main.ts, and one folder down.
  mkdirSync(at("peggy"));
  symlinkSync("../alice/src", at("peggy/src"));
  mkdirSync(at("victor/src"), { recursive: true });
  symlinkSync("../../alice/src/main.ts", at("victor/src/main.ts"));
  mkdirSync(at("walter/walter-main"), { recursive: true });
  symlinkSync("../../alice/src", at("walter/walter-main/src"));
  // A real submission one folder down beside a link: the real one is graded, the link ignored.
  program(at("trent/trent-main"));
  symlinkSync("../alice", at("trent/other"));
  symlinkSync("alice", at(".cache"));
  // Names: not UTF-8 (Latin-1 é), UTF-8 é, case only, Bob's old results-file slug, __proto__.
  const latin1 = Buffer.concat([Buffer.from(attacks), Buffer.from([0x2f, 0x4a, 0x6f, 0x73, 0xe9])]);
  mkdirSync(latin1);
  mkdirSync(Buffer.concat([latin1, Buffer.from("/src")]));
  writeFileSync(Buffer.concat([latin1, Buffer.from("/src/main.ts")]), "export {};\n");
  // One folder down, a submission in a folder whose name is the single byte 0xFF.
  const inner = Buffer.concat([Buffer.from(at("ursula")), Buffer.from([0x2f, 0xff])]);
  mkdirSync(Buffer.concat([inner, Buffer.from("/src")]), { recursive: true });
  writeFileSync(Buffer.concat([inner, Buffer.from("/src/main.ts")]), "export {};\n");
  program(at("José"));
  program(at("Bob"));
  program(at("bob"));
  program(at("bob-cd9fb1e148"));
  program(at("__proto__"));
  const listing = listBatch(attacks);
  const entry = (name: string) => listing.entries.find((e) => e.name === name);

  it("lists every folder and link by name, in code-unit order", () => {
    expect(listing.entries.map((e) => [e.name, e.isSubmission, e.inner])).toEqual([
      ["Bob", true, null],
      // é is U+00E9; the byte 0xE9 that is not UTF-8 is kept as U+DCE9.
      ["José", true, null],
      ["Jos\udce9", false, null],
      ["__proto__", true, null],
      ["alice", true, null],
      ["bob", true, null],
      ["bob-cd9fb1e148", true, null],
      ["copycat", false, null],
      ["mallory", false, null],
      ["oscar", false, null],
      ["peggy", false, null],
      ["trent", true, "trent-main"],
      ["ursula", false, null],
      ["victor", false, null],
      ["walter", false, null],
    ]);
    expect(listing.skipped).toEqual([{ name: ".cache", why: "a hidden symbolic link" }]);
    expect(listing.entries.every((e) => e.dir === attacks)).toBe(true);
  });

  it("a link to the reference or to a classmate is not a submission, and says why", () => {
    const never = "a batch grades real folders only, never what a link points to";
    expect(entry("copycat")?.problem).toEqual({
      why: `is a symbolic link: ${never}`,
      short: "a symbolic link",
    });
    expect(entry("mallory")?.problem).toEqual({
      why: `has no src/main.ts, nor has any real folder inside it; symbolic links inside it (work) are not followed: ${never}`,
      short: "only symbolic links inside it (work)",
    });
    expect(entry("oscar")?.problem?.short).toBe("only symbolic links inside it (work)");
    expect(entry("peggy")?.problem).toEqual({
      why: `holds src as a symbolic link: ${never}`,
      short: "src is a symbolic link",
    });
    expect(entry("victor")?.problem).toEqual({
      why: `holds src/main.ts as a symbolic link: ${never}`,
      short: "src/main.ts is a symbolic link",
    });
    expect(entry("walter")?.problem?.short).toBe("only symbolic links inside it (walter-main/src)");
    expect(entry("trent")?.path).toBe(join(attacks, "trent", "trent-main"));
  });

  it("a name that is not UTF-8 is listed, shown with \\xNN, and not graded", () => {
    expect(entry("Jos\udce9")?.problem).toEqual({
      why: "has a name that is not valid UTF-8 (shown as Jos\\xe9, each byte that is not UTF-8 as \\xNN): rename the folder to grade it",
      short: "name not UTF-8",
    });
    expect(entry("José")?.path).toBe(join(attacks, "José"));
    expect(entry("ursula")?.problem?.why).toBe(
      "has its submission in a folder whose name is not valid UTF-8 (shown as \\xff): rename that folder to grade it",
    );
  });

  it("names that differ only in case are both graded, each into its own file, and reported", () => {
    expect(listing.lookAlike).toEqual([["Bob", "bob"]]);
    expect(listingNotes(listing)).toEqual([
      "skipped .cache: a hidden symbolic link",
      "not a submission, every case error: Jos\\xe9: name not UTF-8",
      "not a submission, every case error: copycat: a symbolic link",
      "not a submission, every case error: mallory: only symbolic links inside it (work)",
      "not a submission, every case error: oscar: only symbolic links inside it (work)",
      "not a submission, every case error: peggy: src is a symbolic link",
      "graded one folder down: trent/trent-main/",
      "not a submission, every case error: ursula: inner name not UTF-8",
      "not a submission, every case error: victor: src/main.ts is a symbolic link",
      "not a submission, every case error: walter: only symbolic links inside it (walter-main/src)",
      "names that look alike, each graded into its own results file: Bob (results/%42ob.json), bob (results/bob.json)",
    ]);
  });
});
