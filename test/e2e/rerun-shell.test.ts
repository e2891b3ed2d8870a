// The rerun command every report prints, read back by a POSIX shell (sh, not a parser of our own):
// only a shell shows that the quoting holds. The command as data is test/unit/options.test.ts's.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { rerunCommand } from "../../grader/options.ts";

/** The words a POSIX shell reads from `text`. */
function shellWords(text: string): string[] {
  const run = spawnSync("sh", ["-c", `printf '%s\\0' ${text}`], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split("\0").slice(0, -1);
}

describe("the rerun command (rerunCommand)", () => {
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
