// The grader stops with whatever started it: SIGTERM ends it and its programs at once, also while
// it judges 4 MiB of hostile output, and when its parent process dies it exits by itself. Only a
// process can show this, so these spawn the CLI (one submission each; nothing is asserted about
// time, only that it ends, bounded by a number of polls).
import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IDENTITY_BASE, IDENTITY_COUNT } from "../../grader/run/identities.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import { userEnv } from "../helpers/shell.ts";

const ONE = "01-lesson-7-partitions-3-members";
const HANG = join("test", "submissions", "idle-timer");
/**
 * Every built-in case: many programs, each printing 4 MiB, judged while others run, so that the
 * grader is still grading when the signal comes (with a few cases, a fast grader could finish them
 * all between the first case's line and the signal, and exit 1 instead).
 */
const EVERY_CASE = readdirSync(CASES_DIR).sort();

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Programs of run identities, or bundles running from the sandbox, whose ancestor is `pid`. */
function programsUnder(pid: number): number[] {
  const rows = spawnSync("ps", ["-eo", "pid=,ppid=,uid=,args="], { encoding: "utf8" })
    .stdout.split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), uid: Number(m[3]), args: m[4] ?? "" }));
  const parent = new Map(rows.map((r) => [r.pid, r.ppid]));
  const descends = (p: number) => {
    for (let cur = parent.get(p), hops = 0; cur !== undefined && hops < 64; hops++) {
      if (cur === pid) return true;
      cur = parent.get(cur);
    }
    return false;
  };
  return rows
    .filter(
      (r) =>
        descends(r.pid) &&
        ((r.uid >= IDENTITY_BASE && r.uid < IDENTITY_BASE + IDENTITY_COUNT) ||
          r.args.includes("/dev/shm/program/")),
    )
    .map((r) => r.pid);
}

/** Polls `done` every 100 ms, at most `polls` times. */
async function until(done: () => boolean, polls = 300): Promise<boolean> {
  for (let i = 0; i < polls; i++) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done();
}

describe("the grader and signals", () => {
  it("SIGTERM ends the grader and every program it started", async () => {
    const grader = spawn(process.execPath, [join("grader", "launch.mjs"), HANG, "--only", ONE], {
      cwd: ROOT,
      env: userEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = grader.pid ?? 0;
    const ended = new Promise<NodeJS.Signals | number | null>((resolve) =>
      grader.on("exit", (code, signal) => resolve(signal ?? code)),
    );
    // Wait until its program runs, so the signal arrives mid-case.
    expect(await until(() => programsUnder(pid).length > 0)).toBe(true);
    process.kill(pid, "SIGTERM");
    expect(await ended).toBe(143);
    expect(await until(() => programsUnder(pid).length === 0)).toBe(true);
  });

  it.each([
    // One line of 4 MB of `FATAL ERROR: ` on standard error, then exit 134 (a crash).
    "fatal-error-line",
    // A wrong answer of 150,000 members, about 3 MB.
    "huge-answer",
  ])(
    "SIGTERM ends the grader while it judges %s's output, and its programs",
    async (name) => {
      const grader = spawn(
        process.execPath,
        [
          join("grader", "launch.mjs"),
          join("test", "submissions", name),
          ...EVERY_CASE.flatMap((id) => ["--only", id]),
        ],
        { cwd: ROOT, env: userEnv(), stdio: ["ignore", "pipe", "ignore"] },
      );
      const pid = grader.pid ?? 0;
      let report = "";
      grader.stdout.on("data", (chunk: Buffer) => {
        if (report.length < 1_000_000) report += chunk.toString("utf8");
      });
      let exit: NodeJS.Signals | number | null | undefined;
      grader.on("exit", (code, signal) => (exit = signal ?? code));
      try {
        // Every program seen under the grader. Once one has ended, its output is judged: the
        // signal goes when the first case's line is out, or after 30 polls more (a grader whose
        // judging blocks it, as the quadratic patterns did for hours, is still judging then).
        const seen = new Set<number>();
        const oneEnded = () => {
          for (const p of programsUnder(pid)) seen.add(p);
          return [...seen].some((p) => !alive(p));
        };
        expect(await until(oneEnded, 1200), "no program of the grader ran and ended").toBe(true);
        await until(() => {
          for (const p of programsUnder(pid)) seen.add(p);
          return /^✗ /m.test(report);
        }, 30);
        process.kill(pid, "SIGTERM");
        // A generous guard, not a measure: a grader still busy after 600 polls fails the test.
        expect(
          await until(() => exit !== undefined, 600),
          "the grader did not act on SIGTERM",
        ).toBe(true);
        expect(exit).toBe(143);
        for (const p of programsUnder(pid)) seen.add(p);
        expect(await until(() => [...seen].every((p) => !alive(p)))).toBe(true);
      } finally {
        // The safety net: a grader that did not end is killed (the test has failed by then).
        if (exit === undefined) grader.kill("SIGKILL");
      }
    },
    300_000,
  );

  it("the grader exits by itself when the process that started it dies", async () => {
    // sh starts the grader in the background and prints its pid; then sh is killed.
    const sh = spawn(
      "/bin/sh",
      [
        "-c",
        `"${process.execPath}" grader/launch.mjs ${HANG} --only ${ONE} >/dev/null 2>&1 & echo $!; wait`,
      ],
      { cwd: ROOT, env: userEnv(), stdio: ["ignore", "pipe", "ignore"] },
    );
    const graderPid = await new Promise<number>((resolve) =>
      sh.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(await until(() => programsUnder(graderPid).length > 0)).toBe(true);
    const programs = programsUnder(graderPid);
    sh.kill("SIGKILL");
    expect(await until(() => !alive(graderPid))).toBe(true);
    // Its programs went with it (the sandbox's parent-death signal).
    expect(await until(() => programs.every((p) => !alive(p)))).toBe(true);
  });
});
