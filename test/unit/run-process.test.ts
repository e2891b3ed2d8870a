// runProcess (grader/run/run-process.ts) reads a program's output to its end: what is still in a
// pipe when the program exits is part of its answer, however long the grader takes to read it.
// (It used to give up on the pipes 250 ms after the exit, which turned a big answer into invalid
// JSON on a busy machine: the diagnosis of a 2,000-member case changed under load.) Only where a
// process outside the run might hold a pipe open for ever does it give up, once the pipes are
// quiet. setsid below plays that process: it leaves the run's process group, as an escaped
// writer would.
import { describe, expect, it } from "vitest";
import { runProcess } from "../../grader/run/run-process.ts";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/**
 * A shell script that starts `escaped` in a session of its own and waits until it is there (a
 * FIFO says so), then prints "early" and exits; `escaped` keeps standard output.
 */
const withEscapedWriter = (escaped: string) =>
  `f=$(mktemp -u); mkfifo "$f"; setsid sh -c 'echo > "$1"; ${escaped}' escaped "$f" & read _ < "$f"; rm "$f"; printf early`;
const limits = { timeoutMs: 60_000, outputCapBytes: 1_000_000 };

describe("runProcess", () => {
  it("with pipes that close with the run, reads them to their end, however late it comes", async () => {
    const run = await runProcess(
      {
        command: "sh",
        args: ["-c", withEscapedWriter("sleep 1; printf late")],
        env,
        stdin: "",
        pipesCloseOnExit: true,
      },
      limits,
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("earlylate");
  });

  it("without that promise, gives up on a pipe held open for ever once it is quiet", async () => {
    const run = await runProcess(
      {
        command: "sh",
        args: ["-c", withEscapedWriter("exec sleep 5")],
        env,
        stdin: "",
      },
      limits,
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("early");
    expect(run.timedOut).toBe(false);
  });
});
