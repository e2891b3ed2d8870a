// main.ts as a function (run), in this process: importing it runs nothing, run returns what the
// program would print and its exit code, and the hex reader takes digits and white space only.
import { describe, expect, it } from "vitest";
import { EXIT, hexToBytes, run } from "../../solution/src/main.ts";

const BOTH = "0000 00000002 0006 6f7264657273 0008 7061796d656e7473 ffffffff";
const example = JSON.stringify({
  topics: { orders: 7, payments: 3 },
  members: [
    { memberId: "consumer-2", metadata: BOTH },
    { memberId: "consumer-10", groupInstanceId: "billing-1", metadata: BOTH },
    { memberId: "idle-1", metadata: "0000 00000001 0005 6175646974 ffffffff" },
  ],
});

describe("run", () => {
  it("answers DESIGN.md's example without touching the process", () => {
    const result = run([], example);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.stderr).toBe("");
    expect(result.stdout.endsWith("}\n")).toBe(true);
    expect(JSON.parse(result.stdout)).toEqual({
      "consumer-10": { orders: [0, 1, 2, 3], payments: [0, 1] },
      "consumer-2": { orders: [4, 5, 6], payments: [2] },
      "idle-1": {},
    });
    expect(process.exitCode ?? 0).toBe(0);
  });

  it("reads standard input through the function only when there is no FILE", () => {
    let reads = 0;
    const stdin = () => {
      reads++;
      return example;
    };
    expect(run(["--decode"], stdin).exitCode).toBe(EXIT.ok);
    expect(reads).toBe(1);
    const missing = run(["/nonexistent/input.json"], stdin);
    expect(reads).toBe(1);
    expect(missing.exitCode).toBe(EXIT.badInput);
    expect(missing.stderr).toMatch(/^error: cannot read \/nonexistent\/input\.json: /);
  });

  it("exits 1 naming the first bad member, 2 on bad options, with nothing on standard output", () => {
    const bad = run(
      [],
      JSON.stringify({ topics: {}, members: [{ memberId: "c-3", metadata: "0000 00000001" }] }),
    );
    expect(bad).toEqual({
      exitCode: EXIT.badSubscription,
      stdout: "",
      stderr:
        'error: member "c-3": topics: 1 elements need at least 2 bytes at offset 2, only 0 remain\n',
    });
    const usage = run(["--frobnicate"], "{}");
    expect(usage.exitCode).toBe(EXIT.badInput);
    expect(usage.stdout).toBe("");
    expect(usage.stderr).toContain("usage: main [--decode] [FILE]");
  });

  it("exits 2 for metadata with a character that is not hex, saying which", () => {
    const result = run(
      [],
      JSON.stringify({ topics: {}, members: [{ memberId: "a", metadata: "00 0g" }] }),
    );
    expect(result.exitCode).toBe(EXIT.badInput);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain("/members/0/metadata");
  });
});

describe("hexToBytes", () => {
  it("reads pairs of digits in either case, white space anywhere ignored", () => {
    expect([...hexToBytes("00 0a\tFF\n7f", "/m")]).toEqual([0x00, 0x0a, 0xff, 0x7f]);
    expect([...hexToBytes("0 0", "/m")]).toEqual([0x00]);
    expect([...hexToBytes("", "/m")]).toEqual([]);
  });

  it("hands over a view at byte offset 8 of a buffer filled with 0xAA", () => {
    const bytes = hexToBytes("0102", "/m");
    expect(bytes.byteOffset).toBe(8);
    expect([...new Uint8Array(bytes.buffer)]).toEqual([
      ...new Array<number>(8).fill(0xaa),
      0x01,
      0x02,
      ...new Array<number>(8).fill(0xaa),
    ]);
  });

  it.each([
    ["0g", '/m: "g" at character 1 is not a hex digit'],
    ["00 0x01", '/m: "x" at character 4 is not a hex digit'],
    ["ab-cd", '/m: "-" at character 2 is not a hex digit'],
    ["000", "/m: odd number of hex digits (3)"],
  ])("rejects %j: %s", (hex, message) => {
    expect(() => hexToBytes(hex, "/m")).toThrow(message);
  });
});
