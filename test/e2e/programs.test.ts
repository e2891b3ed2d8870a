// The program as a process (solution/, bundled and run directly): DESIGN.md's example on standard
// output with exit 0, exit 2 and the usage on standard error for an unknown option, and a 3 MiB
// answer written whole to a reader that pauses. The rest of the contract (the first bad member,
// exit 2 on each kind of bad input, partitionRacks, --decode) is run()'s, in process
// (test/unit/program-contract.test.ts). That solution/ answers every golden case and starter/
// stops at its stubs is test/e2e/grader.test.ts's, from the shared gradings (helpers/graded.ts).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleProgram, ROOT, runProgram } from "../helpers/program.ts";

describe("the program's contract beyond the cases", () => {
  let bundle: string;
  beforeAll(() => {
    bundle = bundleProgram("solution");
  });
  const member = (memberId: string, metadata: string, extra: object = {}) => ({
    memberId,
    metadata,
    ...extra,
  });
  const run = (input: unknown, args: string[] = []) =>
    runProgram(bundle, JSON.stringify(input), args);

  it("prints DESIGN.md's example answer", () => {
    const both = "0000 00000002 0006 6f7264657273 0008 7061796d656e7473 ffffffff";
    const result = run({
      topics: { orders: 7, payments: 3 },
      members: [
        member("consumer-2", both),
        member("consumer-10", both, { groupInstanceId: "billing-1" }),
        member("idle-1", "0000 00000001 0005 6175646974 ffffffff"),
      ],
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      "consumer-10": { orders: [0, 1, 2, 3], payments: [0, 1] },
      "consumer-2": { orders: [4, 5, 6], payments: [2] },
      "idle-1": {},
    });
  });

  it("exits 2 on an unknown option, with usage", () => {
    const result = runProgram(bundle, "{}", ["--frobnicate"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("usage: main [--decode | --sync] [FILE]");
  });

  it("writes a 3 MiB answer whole to a reader that pauses, after a console.log in a stub", async () => {
    // A console.log makes a pipe on standard output non-blocking; a plain fs.writeSync of the
    // answer then fails with EAGAIN as soon as the pipe is full and the reader is slow.
    const dir = mkdtempSync(join(tmpdir(), "kit-console-log-"));
    let outfile: string | undefined;
    try {
      cpSync(join(ROOT, "solution", "src"), join(dir, "src"), { recursive: true });
      const file = join(dir, "src", "subscription.ts");
      const source = readFileSync(file, "utf8");
      const entry = "export function decodeSubscription(bytes: Uint8Array): Subscription {\n";
      expect(source).toContain(entry);
      writeFileSync(file, source.replace(entry, `${entry}  console.log("decoding");\n`));
      outfile = bundleProgram(dir);
      // One member subscribed to "t" (0x74), which has 500,000 partitions: all of them its own.
      const partitions = 500_000;
      const input = JSON.stringify({
        topics: { t: partitions },
        members: [{ memberId: "m", metadata: "0000 00000001 0001 74 ffffffff" }],
      });
      const child = spawn(process.execPath, [outfile], { stdio: ["pipe", "pipe", "pipe"] });
      child.stdin.end(input);
      const chunks: Buffer[] = [];
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      // Read a chunk, then nothing for 20 ms: the pipe fills while the program is still writing.
      child.stdout.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 20);
      });
      const code = await new Promise<number | null>((done) => child.on("close", done));
      const stdout = Buffer.concat(chunks).toString("utf8");
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout.length).toBeGreaterThan(3 * 1024 * 1024);
      const [first, answer, ...rest] = stdout.split("\n");
      expect(first).toBe("decoding");
      expect(rest).toEqual([""]);
      const all = Array.from({ length: partitions }, (_, p) => p);
      expect(JSON.parse(answer ?? "")).toEqual({ m: { t: all } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      if (outfile !== undefined) rmSync(dirname(outfile), { recursive: true, force: true });
    }
  });
});
