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
    expect(usage.stderr).toContain("usage: main [--decode | --sync] [FILE]");
  });

  it("--sync: member id to the hex of the bytes the leader sends it, user data from the input", () => {
    const input = JSON.parse(example) as { members: Record<string, unknown>[] };
    (input.members[1] as Record<string, unknown>).assignmentUserData = "ab cd";
    const result = run(["--sync"], JSON.stringify(input));
    expect(result).toMatchObject({ exitCode: EXIT.ok, stderr: "" });
    // Worked by hand from the assignment above: version 3 (0003), the topic count, per topic an
    // int16 UTF-8 length, the name, an int32 count and int32 partitions, then user data (-1: null).
    const orders = "0006" + Buffer.from("orders").toString("hex");
    const payments = "0008" + Buffer.from("payments").toString("hex");
    const ints = (...ns: number[]) => ns.map((n) => n.toString(16).padStart(8, "0")).join("");
    expect(JSON.parse(result.stdout)).toEqual({
      "consumer-10": `0003${ints(2)}${orders}${ints(4, 0, 1, 2, 3)}${payments}${ints(2, 0, 1)}${ints(2)}abcd`,
      "consumer-2": `0003${ints(2)}${orders}${ints(3, 4, 5, 6)}${payments}${ints(1, 2)}ffffffff`,
      "idle-1": "000300000000ffffffff",
    });
  });

  it("exits 2 for --decode with --sync, and for assignment user data that is not hex, saying where", () => {
    const both = run(["--decode", "--sync"], example);
    expect(both).toMatchObject({ exitCode: EXIT.badInput, stdout: "" });
    expect(both.stderr).toMatch(/^error: --decode and --sync cannot be given together\n/);
    const input = JSON.parse(example) as { members: Record<string, unknown>[] };
    (input.members[2] as Record<string, unknown>).assignmentUserData = "abc";
    const odd = run(["--sync"], JSON.stringify(input));
    expect(odd).toMatchObject({ exitCode: EXIT.badInput, stdout: "" });
    expect(odd.stderr).toBe(
      'error: member "idle-1" (/members/2/assignmentUserData): odd number of hex digits (3)\n',
    );
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
