// The program's contract beyond the golden cases (solution/, run directly): DESIGN.md's example,
// the first bad member in input order, exit 2 on bad input or options, and --decode's output.
// That solution/ answers every golden case and starter/ stops at its stubs is
// test/e2e/grader.test.ts's, from the shared gradings (helpers/graded.ts).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
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

  it("reads FILE when given and stops at the first bad member in input order", () => {
    const result = run({
      topics: {},
      members: [
        member("ok", "0000 00000000 ffffffff"),
        member("c-3", "0000 00000002 0001 61 0004 6162"),
        member("also-bad", "00"),
      ],
    });
    expect(result.status).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      'error: member "c-3": topics[1]: string needs 4 bytes at offset 11, only 2 remain',
    );
  });

  it.each([
    ["not JSON", "{"],
    ["a missing field", JSON.stringify({ topics: {} })],
    ["a negative partition count", JSON.stringify({ topics: { t: -1 }, members: [] })],
    [
      "non-hex metadata",
      JSON.stringify({ topics: {}, members: [{ memberId: "a", metadata: "zz" }] }),
    ],
    [
      "an odd number of hex digits",
      JSON.stringify({ topics: {}, members: [{ memberId: "a", metadata: "000" }] }),
    ],
    [
      "duplicate member ids",
      JSON.stringify({
        topics: {},
        members: [member("a", "0000 00000000 ffffffff"), member("a", "0000 00000000 ffffffff")],
      }),
    ],
    [
      "duplicate group instance ids",
      JSON.stringify({
        topics: {},
        members: [
          member("a", "0000 00000000 ffffffff", { groupInstanceId: "i" }),
          member("b", "0000 00000000 ffffffff", { groupInstanceId: "i" }),
        ],
      }),
    ],
  ])("exits 2 on input with %s", (_, text) => {
    const result = runProgram(bundle, text);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: /);
  });

  // partitionRacks (the rack stage): the schema's checks and main.ts's own, with their messages.
  const racked = (partitionRacks: unknown, topics: object = { t: 2 }) =>
    JSON.stringify({ topics, partitionRacks, members: [] });
  it.each([
    [
      "a topic that topics lacks",
      racked({ t: [["a"], ["b"]], gone: [["a"]] }),
      'error: /partitionRacks/gone: topic "gone" is not in topics',
    ],
    [
      "fewer rack lists than partitions",
      racked({ t: [["a"]] }),
      "error: /partitionRacks/t: 1 rack lists for 2 partitions (one list per partition)",
    ],
    [
      "more rack lists than partitions",
      racked({ t: [["a"], [], [null]] }),
      "error: /partitionRacks/t: 3 rack lists for 2 partitions (one list per partition)",
    ],
    [
      "a topic name that needs escaping in the pointer",
      racked({ "a/b~c": [] }, { "a/b~c": 1 }),
      "error: /partitionRacks/a~1b~0c: 0 rack lists for 1 partitions (one list per partition)",
    ],
    ["a rack that is a number", racked({ t: [["a"], [7]] }), "  /partitionRacks/t/1/0: must be"],
    ["a partition that is not a list", racked({ t: ["a", []] }), "  /partitionRacks/t/0: must be"],
    ["partitionRacks that is a list", racked([]), "  /partitionRacks: must be"],
  ])("exits 2 on partitionRacks with %s", (_, text, message) => {
    const result = runProgram(bundle, text);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toContainEqual(expect.stringContaining(message));
  });

  it('accepts partitionRacks with repeated racks, "" racks, null and empty replica lists', () => {
    const result = run({
      topics: { t: 3 },
      partitionRacks: { t: [["a", "a"], ["", null], []] },
      members: [member("m", "0000 00000001 0001 74 ffffffff")],
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ m: { t: [0, 1, 2] } });
  });

  it("exits 2 on an unknown option, with usage", () => {
    const result = runProgram(bundle, "{}", ["--frobnicate"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("usage: main [--decode] [FILE]");
  });

  it("prints the version as written in --decode mode, user data as lowercase hex", () => {
    const result = run(
      { topics: {}, members: [member("m", "0007 00000000 00000002 BEEF 00000000 00000001 ffff")] },
      ["--decode"],
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      m: { version: 7, topics: [], userData: "beef", rackId: null },
    });
  });

  it("writes a 3 MiB answer whole to a reader that pauses, after a console.log in a stub", async () => {
    // A console.log makes a pipe on standard output non-blocking; a plain fs.writeSync of the
    // answer then fails with EAGAIN as soon as the pipe is full and the reader is slow.
    const dir = mkdtempSync(join(tmpdir(), "kit-console-log-"));
    try {
      cpSync(join(ROOT, "solution", "src"), join(dir, "src"), { recursive: true });
      const file = join(dir, "src", "subscription.ts");
      const source = readFileSync(file, "utf8");
      const entry = "export function decodeSubscription(bytes: Uint8Array): Subscription {\n";
      expect(source).toContain(entry);
      writeFileSync(file, source.replace(entry, `${entry}  console.log("decoding");\n`));
      const outfile = join(dir, "main.mjs");
      buildSync({
        entryPoints: [join(dir, "src", "main.ts")],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        outfile,
        logLevel: "silent",
      });
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
    }
  });
});
