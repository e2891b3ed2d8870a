// The grader's command line as data (options.ts), in process: what parseGradeArgs refuses and
// with which words, and the rerun command every report prints. That the grader exits 2 with those
// words on standard error is test/e2e/grader.test.ts's.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SetupError } from "../../grader/errors.ts";
import { parseGradeArgs, rerunCommand } from "../../grader/options.ts";

describe("parseGradeArgs refuses what it cannot run, saying what to fix", () => {
  it.each([
    [["--frobnicate"], /Unknown option '--frobnicate'[^]*npm run grade -- --help/],
    [["solution", "--timeout", "soon"], /--timeout takes a whole number of milliseconds/],
    [["solution", "--format", "yaml"], /unknown format "yaml": use one of text, json/],
    [["solution", "--format", "text", "--format", "json"], /two formats on standard output/],
    [["solution", "solution"], /at most one submission PATH, got 2: solution solution/],
    [["solution", "--cmd", "python3 main.py"], /either a submission PATH or --cmd, not both/],
    [["--cmd", "python3 main.py", "--types"], /--types type-checks a TypeScript submission/],
    [["--batch", "class", "solution"], /--batch grades every folder in its DIR: give no PATH/],
    [["solution", "--shard", "1/3"], /--shard does not go with grading one submission/],
    [["--batch", "class", "--format", "json"], /--format does not go with --batch/],
    [["solution", "--report-dir", "out"], /--report-dir does not go with grading one submission/],
  ])("%j", (args, message) => {
    expect(() => parseGradeArgs(args)).toThrow(SetupError);
    expect(() => parseGradeArgs(args)).toThrow(message);
  });
});

describe("the rerun command (rerunCommand)", () => {
  /** The words a POSIX shell reads from `text` (sh, not a parser of our own). */
  function shellWords(text: string): string[] {
    const run = spawnSync("sh", ["-c", `printf '%s\\0' ${text}`], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout.split("\0").slice(0, -1);
  }

  it("is `npm run grade -- ARGS --only ID`, plain words left as they are", () => {
    expect(rerunCommand(["solution"], "03-per-topic-skew")).toBe(
      "npm run grade -- solution --only 03-per-topic-skew",
    );
    expect(rerunCommand([], "secret/03-per-topic-skew")).toBe(
      "npm run grade -- --only secret/03-per-topic-skew",
    );
  });

  it("quotes every word so that a shell reads back exactly the words", () => {
    const args = [
      "../my folder",
      "--fixtures",
      "odd%,:cases",
      "--cmd",
      `python3 -c 'print("$HOME")' && echo \`id\` | cat; it's!`,
      "tab\there",
      "new\nline",
      "",
      "ünï 😀",
    ];
    const id = "odd%,:cases/01-a,b:c%d$(touch x)";
    const command = rerunCommand(args, id);
    const prefix = "npm run grade -- ";
    expect(command.startsWith(prefix)).toBe(true);
    expect(shellWords(command.slice(prefix.length))).toEqual([...args, "--only", id]);
  });
});
