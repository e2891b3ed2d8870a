// grader/launch.mjs runs the grader from an esbuild bundle in .grader/cli-HASH/, one per set of
// grader sources and Node version, and loads its chunks as it needs them. Two graders on different
// Node versions (CI's smokes run two at a time), or one started before an edit and one after, each
// use their own bundle: a start must never remove a bundle another grader may still be loading
// from. Only one that no grader has started from for a day goes. Only a start of the launcher
// shows this, so one spawn.
import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { grade } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";

const CACHE = join(ROOT, ".grader");
const RECENT = join(CACHE, `cli-planted-recent-${process.pid}`);
const OLD = join(CACHE, `cli-planted-old-${process.pid}`);
afterAll(() => {
  for (const dir of [RECENT, OLD]) rmSync(dir, { recursive: true, force: true });
});

describe("the grader's bundles in .grader/", () => {
  for (const dir of [RECENT, OLD]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "cli.mjs"), "// planted by test/e2e/launch-cache.test.ts\n");
  }
  // One started from an hour ago (another Node version's grader, still grading), one two days ago.
  const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
  utimesSync(RECENT, hourAgo, hourAgo);
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  utimesSync(OLD, twoDaysAgo, twoDaysAgo);
  const run = grade(["--help"]);

  it("a start keeps another bundle a grader started from an hour ago", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(statSync(join(RECENT, "cli.mjs")).isFile()).toBe(true);
  });

  it("and removes one no grader has started from for two days", () => {
    expect(() => statSync(OLD)).toThrow(/ENOENT/);
  });
});
