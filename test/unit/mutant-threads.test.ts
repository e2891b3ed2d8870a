// A mutant's run in a worker thread (in-process.ts) is kept only when it ended the way a finished
// program ends; every other run comes back undefined, for live.ts to run as a sandboxed process.
// The bundles here are small hand-written modules exporting `run` as main.ts does. That the kept
// runs give the processes' outcomes is shown by `npm run generate -- --check` (CI) on every mutant
// and built-in case, and by the spot checks in test/e2e/generated.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Case } from "../../grader/cases/load.ts";
import { MutantThreads } from "../../grader/instructor/mutants/in-process.ts";

const dir = mkdtempSync(join(tmpdir(), "mutant-threads-"));
// A time limit no finished run comes near, however busy the machine: only the loop below meets one.
const threads = new MutantThreads({ memoryMiB: 64, timeoutMs: 60_000, outputCapBytes: 1024 });
afterAll(async () => {
  await threads.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bundle whose `run(argv, stdin)` has this body. */
function bundle(name: string, body: string): string {
  const path = join(dir, `${name}.mjs`);
  writeFileSync(path, `export function run(argv, stdin) {\n${body}\n}\n`);
  return path;
}

const assignCase = { mode: "assign", inputText: '{"members":[]}' } as Case;
const decodeCase = { mode: "decode", inputText: "{}" } as Case;

describe("MutantThreads.run", () => {
  it("keeps a finished run: its exit code and outputs, with the case's arguments and input", async () => {
    const echo = bundle(
      "echo",
      'return { exitCode: 0, stdout: JSON.stringify({ argv, stdin }) + "\\n", stderr: "" };',
    );
    const assigned = await threads.run(echo, assignCase);
    expect(assigned).toMatchObject({
      exitCode: 0,
      signal: null,
      stdout: '{"argv":[],"stdin":"{\\"members\\":[]}"}\n',
      stderr: "",
      timedOut: false,
      outputCapped: null,
      cpuMs: null,
    });
    const decoded = await threads.run(echo, decodeCase);
    expect(decoded?.stdout).toBe('{"argv":["--decode"],"stdin":"{}"}\n');
  });

  it.each([1, 2, 3])("keeps exit %i with its standard error", async (code) => {
    const path = bundle(
      `exit-${code}`,
      `return { exitCode: ${code}, stdout: "", stderr: "error: x\\n" };`,
    );
    expect(await threads.run(path, assignCase)).toMatchObject({
      exitCode: code,
      stderr: "error: x\n",
    });
  });

  it("passes text through UTF-8 as a pipe does: a lone surrogate becomes U+FFFD", async () => {
    const path = bundle("surrogate", 'return { exitCode: 0, stdout: "a\\ud800b", stderr: "" };');
    expect((await threads.run(path, assignCase))?.stdout).toBe("a\ufffdb");
  });

  it.each([
    ["a bug's exit 70", "bug", 'return { exitCode: 70, stdout: "", stderr: "internal error" };'],
    ["a throw out of run", "throws", 'throw new Error("boom");'],
    [
      "console.log around run",
      "logs",
      'console.log("hi"); return { exitCode: 0, stdout: "{}", stderr: "" };',
    ],
    [
      "process.stdout.write around run",
      "writes",
      'process.stdout.write("hi"); return { exitCode: 0, stdout: "{}", stderr: "" };',
    ],
    [
      "standard output over the cap",
      "flood",
      'return { exitCode: 0, stdout: "x".repeat(1025), stderr: "" };',
    ],
    [
      "a thread out of memory",
      "hoards",
      "const kept = []; for (;;) kept.push(new Array(1e5).fill(kept.length));",
    ],
  ])("gives up on %s (undefined: the case runs as a process)", async (_, name, body) => {
    expect(await threads.run(bundle(name, body), assignCase)).toBeUndefined();
  });

  it("gives up on a run past the time limit, measured on the wall clock", async () => {
    const quick = new MutantThreads({ memoryMiB: 64, timeoutMs: 300, outputCapBytes: 1024 });
    try {
      expect(await quick.run(bundle("loops", "for (;;) {}"), assignCase)).toBeUndefined();
    } finally {
      await quick.close();
    }
  });

  it("throws, naming the bundle, when a bundle exports no run function (the kit's fault)", async () => {
    const path = join(dir, "no-run.mjs");
    writeFileSync(path, "export const main = 1;\n");
    await expect(threads.run(path, assignCase)).rejects.toThrow(
      `a mutant's thread failed on ${path}: Error: ${path} exports no run function`,
    );
  });

  it("still runs cases after a thread was lost to a limit", async () => {
    const path = bundle("after", 'return { exitCode: 0, stdout: "{}\\n", stderr: "" };');
    expect((await threads.run(path, assignCase))?.stdout).toBe("{}\n");
  });
});
