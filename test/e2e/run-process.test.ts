// runProcess (grader/run/run-process.ts): a program's input and output are files, and what it did
// is decided from what was measured for it, never from when the grader got round to looking. A
// grader whose event loop is blocked (here: the test blocks it on purpose) makes a run's result
// come later, never different: a program that ended before the grader's timers fired is judged by
// its own end, not stopped as a time-out. Reading the wrapper's report alone is
// test/unit/run-process.test.ts's.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProcess } from "../../grader/run/run-process.ts";
import { runsFolder } from "../../grader/run/run-files.ts";
import { confinedSpec, type SandboxFeatures } from "../../grader/run/sandbox.ts";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** The sandbox's wrapper without namespaces: limits and the report on fd 3, as in mode none. */
const NONE: SandboxFeatures = {
  mode: "none",
  permissionFlag: "--permission",
  processGroups: true,
  shell: "/bin/sh",
  setpriv: undefined,
  weaker: "test",
  ownUserNamespace: false,
  processLimit: false,
};

/** `sh -c script` through the wrapper, with `stdin` as its input and files of at most `fileBytes`. */
const wrapped = (script: string, stdin = "", fileBytes = 1024 * 1024) =>
  confinedSpec(
    {
      command: "/bin/sh",
      args: ["-c", script],
      binds: [],
      cwd: "/",
      limits: { cpuSeconds: 5, dataMiB: 1024, fileBytes, openFiles: 64 },
      stdin,
      env,
      uid: undefined,
    },
    NONE,
  );

/** Blocks this thread (the grader's event loop) without using the CPU, for `ms`. */
const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** True once some run's report in the runs folder says its program ended. */
const someReportEnded = () =>
  readdirSync(runsFolder())
    .filter((name) => name.endsWith(".report"))
    .some((name) => {
      try {
        return readFileSync(join(runsFolder(), name), "utf8").includes("status ");
      } catch {
        return false;
      }
    });

describe("runProcess", () => {
  it("a blocked grader: a program that ended before the overdue timers fire is judged by its end", async () => {
    const started = performance.now();
    const pending = runProcess(wrapped("cat; echo ' read'", "the input"), {
      timeoutMs: 100,
      idle: { windowMs: 50, minCpuFraction: 0.5 },
      outputCapBytes: 1024,
    });
    // Blocked until the program has ended and every timer is long overdue (no clock asserted:
    // each wait is a count of 10 ms sleeps, bounded).
    for (let i = 0; i < 6000 && !(someReportEnded() && performance.now() - started > 500); i++)
      blockFor(10);
    const run = await pending;
    expect(run.timedOut).toBe(false);
    expect(run.idle).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("the input read\n");
  });

  it("a program still running when a stop comes is stopped: the cap, and the idle check", async () => {
    const capped = await runProcess(wrapped("exec sleep 30"), {
      timeoutMs: 300,
      outputCapBytes: 1024,
    });
    expect(capped).toMatchObject({ timedOut: true, idle: false, exitCode: null });
    const idle = await runProcess(wrapped("exec sleep 30"), {
      timeoutMs: 60_000,
      idle: { windowMs: 300, minCpuFraction: 0.01 },
      outputCapBytes: 1024,
    });
    expect(idle).toMatchObject({ timedOut: true, idle: true });
  });

  it("output past the cap: the kernel stops the program (SIGXFSZ), the grader keeps the cap", async () => {
    const run = await runProcess(wrapped("head -c 5000 /dev/zero | tr '\\0' x", "", 1024 + 512), {
      timeoutMs: 60_000,
      outputCapBytes: 1024,
    });
    expect(run.outputCapped).toBe("stdout");
    expect(run.stdout).toBe(
      `${"x".repeat(1024)}\n[… stdout truncated by the grader at 1024 bytes]`,
    );
    expect(run.timedOut).toBe(false);
  });

  it("standard error: its start as kept, and its end when the start did not hold it all", async () => {
    const run = await runProcess(
      wrapped("for i in $(seq 1 2000); do echo line-$i; done >&2; echo LAST-WORDS >&2"),
      { timeoutMs: 60_000, outputCapBytes: 1024 * 1024, stderrKeepBytes: 14, stderrTailBytes: 21 },
    );
    expect(run.stderr).toBe("line-1\nline-2\n");
    expect(run.stderrTail).toBe("line-2000\nLAST-WORDS\n");
    const short = await runProcess(wrapped("echo only >&2"), {
      timeoutMs: 60_000,
      outputCapBytes: 1024,
      stderrKeepBytes: 14,
      stderrTailBytes: 22,
    });
    expect([short.stderr, short.stderrTail]).toEqual(["only\n", ""]);
  });

  it("a writer that escaped the process group neither holds the grader nor adds to the output", async () => {
    const run = await runProcess(
      {
        command: "sh",
        args: ["-c", "setsid sh -c 'sleep 1; printf late' & printf early"],
        env,
        stdin: "",
      },
      { timeoutMs: 60_000, outputCapBytes: 1024 },
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("early");
  });
});
