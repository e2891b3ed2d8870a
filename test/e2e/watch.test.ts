// The student's loop, end to end: the grader is started with --watch on a copy of the reference
// with a bug; it grades and shows the failing case; the bug is fixed and saved, and the new score
// appears; saves the way vim and JetBrains make them (a temporary file renamed over the file)
// bring the bug back and fix it again, each one regraded; then a save makes the program hang, and
// Ctrl-C (SIGINT, sent to the grader this test started) while that case runs makes the grader exit
// 0, leaving no process behind: not the hanging case, not esbuild. Linux only (the descendants are
// found in /proc).
import { spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeMutant } from "../../grader/instructor/mutants/mutants.ts";
import { ROOT } from "../helpers/program.ts";

const ONLY = ["01-lesson-7-partitions-3-members", "04-string-order-not-numeric", "18-large-group"];

/** Parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      map.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

/** Every process descended from pid (children, their children, ...). */
function descendants(pid: number): number[] {
  const all = parents();
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...all].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Saves as an editor's safe write does: a temporary file in the folder, renamed over the file. */
function renameSave(file: string, text: string): void {
  const temporary = `${file}.tmp`; // a name the grader ignores, as editors' temporary files are
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

describe("npm run grade -- --watch", () => {
  let submission: string;
  let grader: ChildProcess;
  let output = "";
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let buggy: string; // the assignor with the bug, as the grader first saw it

  /** The output from `before` on once it holds a whole report. */
  const nextReport = (what: string, before: number) =>
    until(
      what,
      () => {
        const fresh = output.slice(before);
        return fresh.includes("Ctrl-C to stop") ? fresh : undefined;
      },
      60_000,
    );

  beforeAll(() => {
    submission = writeMutant("numeric-order");
    buggy = readFileSync(join(submission, "src", "range-assignor.ts"), "utf8");
    grader = spawn(
      process.execPath,
      [
        // As `npm run grade` starts it: the grader's bundle, not its sources compiled at start.
        join(ROOT, "grader", "launch.mjs"),
        submission,
        "--watch",
        "--timeout",
        "60000",
        ...ONLY.flatMap((id) => ["--only", id]),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, INIT_CWD: ROOT, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    grader.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    grader.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    exited = new Promise((resolve) =>
      grader.on("exit", (code, signal) => resolve({ code, signal })),
    );
  });

  afterAll(() => {
    // Only if a check failed before Ctrl-C: stop the grader this test started.
    if (grader.exitCode === null && grader.signalCode === null) grader.kill("SIGKILL");
    rmSync(dirname(submission), { recursive: true, force: true });
  });

  it("grades at once and shows the first failing case in full, and what it watches", async () => {
    const report = await until(
      "the first report",
      () => (output.includes("Ctrl-C to stop") ? output : undefined),
      60_000,
    );
    expect(report).toMatch(/^\nGrading .*submission \.\.\.\n/);
    expect(report).toMatch(/\nRequired: {2}\d+\/\d+ points, 1 of 3 cases passed\n/);
    expect(report).toContain("✗ 04-string-order-not-numeric 0/");
    expect(report).toContain("who owns which partition");
    expect(report).toContain("members sorted by the numbers in their ids"); // the diagnosis
    // The rerun command names the submission's folder, as typed.
    expect(report).toContain(
      `rerun: npm run grade -- ${submission} --only 04-string-order-not-numeric\n`,
    );
    expect(report).toMatch(/1 more case did not pass: 18-large-group\n/);
    expect(report).toMatch(/watching .*submission\/src\/ — Ctrl-C to stop\n$/);
    expect(report).not.toContain("\x1b[");
  });

  it("grades again after a save: the fix shows its new score", async () => {
    const before = output.length;
    copyFileSync(
      join(ROOT, "solution", "src", "range-assignor.ts"),
      join(submission, "src", "range-assignor.ts"),
    );
    const report = await nextReport("the report after the fix", before);
    expect(report).toMatch(/\nRequired: {2}(\d+)\/\1 points, 3 of 3 cases passed\n/);
    expect(report).toContain("Every case passes.");
    // One save, one grading (the debounce joins the events of one write).
    expect(report.match(/Grading /g)).toHaveLength(1);
  });

  it("grades again after each of two saves by rename, as vim and JetBrains save", async () => {
    const assignor = join(submission, "src", "range-assignor.ts");
    const fixed = readFileSync(assignor, "utf8");
    expect(fixed).not.toBe(buggy);
    // The first rename replaces the file the watcher knew; the second must be seen as well.
    let before = output.length;
    renameSave(assignor, buggy);
    const broken = await nextReport("the report after the first rename-save", before);
    expect(broken).toMatch(/\nRequired: {2}\d+\/\d+ points, 1 of 3 cases passed\n/);
    expect(broken).toContain("✗ 04-string-order-not-numeric 0/");
    expect(broken.match(/Grading /g)).toHaveLength(1);

    before = output.length;
    renameSave(assignor, fixed);
    const mended = await nextReport("the report after the second rename-save", before);
    expect(mended).toMatch(/\nRequired: {2}(\d+)\/\1 points, 3 of 3 cases passed\n/);
    expect(mended).toContain("Every case passes.");
    expect(mended.match(/Grading /g)).toHaveLength(1);
  });

  it("on Ctrl-C, kills the running case and exits 0, leaving no process behind", async () => {
    const before = output.length;
    const main = join(submission, "src", "main.ts");
    writeFileSync(main, `${readFileSync(main, "utf8")}\nfor (;;) {\n  // hangs\n}\n`);
    const pid = grader.pid ?? 0;
    // Wait until a case of the hanging program runs (a node process with the sandbox's flags).
    const running = await until(
      "a running case",
      () => {
        const cases = descendants(pid).filter((p) =>
          commandLine(p).includes("--max-old-space-size"),
        );
        return cases.length > 0 ? cases : undefined;
      },
      60_000,
    );
    expect(output.slice(before)).toContain("Grading ");
    const family = descendants(pid);
    expect(family).toEqual(expect.arrayContaining(running));
    process.kill(pid, "SIGINT");
    const { code, signal } = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("the grader did not exit after SIGINT")), 10_000),
      ),
    ]);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/\nstopped watching .*submission\/src\/\n$/);
    await until("its processes to end", () => (family.some(alive) ? undefined : true), 5_000);
    expect(family.filter(alive)).toEqual([]);
  });
});
