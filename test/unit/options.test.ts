// The grader's command line as data (options.ts), in process: what parseGradeArgs refuses and
// with which words, and the rerun command every report prints. That the grader exits 2 with those
// words on standard error is test/e2e/grader.test.ts's; that a POSIX shell reads the rerun command
// back word for word is test/e2e/rerun-shell.test.ts's (it needs sh, a process).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SetupError } from "../../grader/errors.ts";
import { KIT_ROOT } from "../../grader/kit.ts";
import { rerunFor } from "../../grader/record.ts";
import {
  parseGradeArgs,
  rerunCommand,
  resolveSubmission,
  usage,
  withoutFixtures,
} from "../../grader/options.ts";

describe("parseGradeArgs refuses what it cannot run, saying what to fix", () => {
  it.each([
    [["--frobnicate"], /Unknown option '--frobnicate'[^]*npm run grade -- --help/],
    [["solution", "--timeout", "soon"], /--timeout takes a whole number of milliseconds/],
    [["solution", "--format", "yaml"], /unknown format "yaml": use one of text, json/],
    [["solution", "--format", "text", "--format", "json"], /two formats on standard output/],
    [
      ["solution", "--format", "github", "--format", "classroom=c.txt"],
      /--format classroom writes everything --format github does/,
    ],
    [["solution", "solution"], /at most one submission PATH, got 2: solution solution/],
    [["--cmd", "python3 main.py", "--types"], /--types type-checks a TypeScript submission/],
    [["--batch", "class", "solution"], /--batch grades every folder in its DIR: give no PATH/],
    [["solution", "--shard", "1/3"], /--shard does not go with grading one submission/],
    [["--batch", "class", "--format", "json"], /--format does not go with --batch/],
    [["solution", "--report-dir", "out"], /--report-dir does not go with grading one submission/],
    [
      ["--batch", "class", "--report-dir", "out", "--time-budget", "5"],
      /--time-budget does not go/,
    ],
    [["solution", "--time-budget", "0.5"], /--time-budget takes a whole number of seconds/],
  ])("%j", (args, message) => {
    expect(() => parseGradeArgs(args)).toThrow(SetupError);
    expect(() => parseGradeArgs(args)).toThrow(message);
  });
});

describe("--cmd COMMAND [DIR]: the program's folder, never the kit or a private case", () => {
  const saved = process.env.INIT_CWD;
  const typedIn = (dir: string, args: string[]) => {
    process.env.INIT_CWD = dir;
    try {
      return parseGradeArgs(args);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  };
  const kit = realpathSync(KIT_ROOT);
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "kit-cmd-dir-")));
  mkdirSync(join(outside, "private"));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  it("runs in DIR, resolved from where the command was typed; by default that folder", () => {
    expect(typedIn(outside, ["--cmd", "python3 main.py"]).submission).toEqual({
      kind: "command",
      command: "python3 main.py",
      cwd: outside,
      name: "python3 main.py",
    });
    expect(typedIn(kit, ["--cmd", "python3 main.py", "examples/python"]).submission).toMatchObject({
      cwd: join(kit, "examples", "python"),
    });
    // The rerun command keeps DIR as typed.
    expect(typedIn(kit, ["--cmd", "python3 main.py", "examples/python"]).rerunArgs).toEqual([
      "--cmd",
      "python3 main.py",
      "examples/python",
    ]);
  });

  it.each([
    ["the kit itself (the default DIR, typed in the kit)", [], /which is the kit/],
    ["a folder holding the kit", ["/"], /which holds the kit/],
    ["no folder", ["no-such-folder-xyz"], /is not a folder/],
  ])("refuses %s", (_what, dir, message) => {
    expect(() => typedIn(kit, ["--cmd", "python3 main.py", ...dir])).toThrow(message);
  });

  it("refuses a DIR that is, holds or lies in a --fixtures folder", () => {
    const withFixtures = (dir: string, fixtures: string) =>
      typedIn(outside, ["--cmd", "x", dir, "--fixtures", fixtures]);
    expect(() => withFixtures(outside, "private")).toThrow(
      /which holds the --fixtures folder \S+private \(private cases would be in the program's sight\)/,
    );
    expect(() => withFixtures("private", "private")).toThrow(/which is inside the --fixtures/);
    expect(() => withFixtures("private", outside)).toThrow(/which is inside the --fixtures/);
  });
});

describe("the rerun command (rerunCommand)", () => {
  it("is `npm run grade -- ARGS --only ID`, plain words left as they are", () => {
    expect(rerunCommand(["solution"], "03-per-topic-skew")).toBe(
      "npm run grade -- solution --only 03-per-topic-skew",
    );
    expect(rerunCommand([], "secret/03-per-topic-skew")).toBe(
      "npm run grade -- --only secret/03-per-topic-skew",
    );
  });

  it("quotes a word with a space in single quotes and escapes a `$` (worked by hand)", () => {
    expect(rerunCommand(["../my folder"], "a$b")).toBe(
      "npm run grade -- '../my folder' --only a\\$b",
    );
  });
});

describe("the rerun command of a visible case (withoutFixtures, record.ts rerunFor)", () => {
  const args = ["../alice", "--fixtures", "../private-cases", "--random", "3", "--seed", "7"];

  it("leaves out every --fixtures folder and keeps the rest, a --cmd value whatever it says", () => {
    expect(withoutFixtures(args)).toEqual(["../alice", "--random", "3", "--seed", "7"]);
    expect(
      withoutFixtures(["--cmd", "--fixtures", "--fixtures", "a", "--fixtures", "--cmd"]),
    ).toEqual(["--cmd", "--fixtures"]);
    expect(withoutFixtures([])).toEqual([]);
  });

  it("names the --fixtures folders for a private case only", () => {
    const rerun = (c: Parameters<typeof rerunFor>[0]) => rerunFor(c, { args });
    expect(rerun({ id: "07-idle-members", source: { kind: "built-in" } })).toBe(
      "npm run grade -- ../alice --random 3 --seed 7 --only 07-idle-members",
    );
    expect(rerun({ id: "random/002", source: { kind: "random" } })).toBe(
      "npm run grade -- ../alice --random 3 --seed 7 --only random/002",
    );
    expect(
      rerun({ id: "private-cases/01-x", source: { kind: "private", folder: "private-cases" } }),
    ).toBe(
      "npm run grade -- ../alice --fixtures ../private-cases --random 3 --seed 7 --only private-cases/01-x",
    );
  });
});

describe("the help (usage)", () => {
  it("in a handout, names only what a handout has", () => {
    const text = usage(false);
    for (const absent of [
      "solution",
      "starter/",
      "examples/python",
      "--random",
      "--batch",
      "Instructors:",
    ])
      expect(text, absent).not.toContain(absent);
    expect(text).toContain("npm run grade                          grade your src/");
    expect(text).toContain("Exit codes:");
  });

  it("in the instructor kit, every option and the kit's examples", () => {
    const text = usage(true);
    for (const present of [
      "npm run grade -- solution",
      '--cmd "python3 main.py" examples/python',
      "--random N",
      "--batch DIR",
    ])
      expect(text, present).toContain(present);
  });
});

describe("resolveSubmission", () => {
  it("says each place it looked once", () => {
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = "/";
    try {
      expect(() => resolveSubmission("no-such-folder-xyz")).toThrow(
        /^no such submission folder: no-such-folder-xyz \(looked in \/no-such-folder-xyz and \S+no-such-folder-xyz\)$/,
      );
      // Typed in the kit's own folder: both places are one, said once.
      process.env.INIT_CWD = KIT_ROOT;
      expect(() => resolveSubmission("no-such-folder-xyz")).toThrow(
        /\(looked in \S+\/no-such-folder-xyz\)$/,
      );
      expect(() => resolveSubmission("/no-such-folder-xyz")).toThrow(
        /^no such submission folder: \/no-such-folder-xyz \(looked in \/no-such-folder-xyz\)$/,
      );
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });
});
