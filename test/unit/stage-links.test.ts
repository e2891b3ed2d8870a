// Staging follows no link out of a batch's submission folder (grader/run/stage.ts `within`): a
// folder of the batch that is a link, or a link one folder down, fails staging by name even if
// the listing (shard.ts) were bypassed; a PATH the instructor gives on the command line may itself
// be a link, but nothing inside it may. Staging is the grader's own file copy: in process here.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { STAGE_LIMITS, StageError, stageSubmission } from "../../grader/run/stage.ts";

const root = mkdtempSync(join(tmpdir(), "kit-stage-links-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, "class");
mkdirSync(join(dir, "alice", "src"), { recursive: true });
writeFileSync(join(dir, "alice", "src", "main.ts"), "export const who = 'alice';\n");
symlinkSync("alice", join(dir, "copycat"));
mkdirSync(join(dir, "oscar"));
symlinkSync("../alice", join(dir, "oscar", "work"));
mkdirSync(join(dir, "peggy"));
symlinkSync("../alice/src", join(dir, "peggy", "src"));
// The instructor's own link to the batch folder.
symlinkSync(dir, join(root, "class-link"));

/** The staged files, or the problems staging refused with. */
function stage(path: string, within?: string): string[] {
  try {
    const staged = stageSubmission(path, STAGE_LIMITS, within);
    staged.cleanup();
    return staged.files;
  } catch (error) {
    if (!(error instanceof StageError)) throw error;
    return error.problems;
  }
}

const NEVER = "a batch grades real folders only, never what a link points to";

describe("stageSubmission within a batch folder", () => {
  it("stages a real folder", () => {
    expect(stage(join(dir, "alice"), dir)).toEqual(["src/main.ts"]);
  });

  it("refuses a folder of the batch that is a link, naming it", () => {
    expect(stage(join(dir, "copycat"), dir)).toEqual([`copycat is a symbolic link: ${NEVER}`]);
  });

  it("refuses a link one folder down (a classmate's folder)", () => {
    expect(stage(join(dir, "oscar", "work"), dir)).toEqual([
      `oscar/work is a symbolic link: ${NEVER}`,
    ]);
  });

  it("takes the batch folder itself through the instructor's link", () => {
    expect(stage(join(root, "class-link", "alice"), join(root, "class-link"))).toEqual([
      "src/main.ts",
    ]);
  });
});

describe("stageSubmission of a PATH given on the command line", () => {
  it("follows PATH itself when it is a link (the instructor chose it)", () => {
    expect(stage(join(dir, "copycat"))).toEqual(["src/main.ts"]);
  });

  it("never follows src/ when it is a link", () => {
    expect(stage(join(dir, "peggy"))).toEqual(["src is a symbolic link: it must be a folder"]);
    expect(stage(join(dir, "peggy"), dir)).toEqual(["src is a symbolic link: it must be a folder"]);
  });
});
