// The program's contract beyond the golden cases, through main.ts's run() (what the program
// prints and its exit code, in process): the first bad member in input order, exit 2 on each kind
// of bad input with its message, partitionRacks' checks, and --decode's output. That the bundled
// program prints and exits as run() says is test/e2e/programs.test.ts's.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run as runMain } from "../../solution/src/main.ts";

const work = mkdtempSync(join(tmpdir(), "kit-program-contract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** run() on `text` as standard input, its result as a process's (status for the exit code). */
function runText(text: string, args: string[] = []) {
  const { exitCode, stdout, stderr } = runMain(args, text);
  return { status: exitCode, stdout, stderr };
}

describe("the program's contract beyond the cases", () => {
  const member = (memberId: string, metadata: string, extra: object = {}) => ({
    memberId,
    metadata,
    ...extra,
  });
  const run = (input: unknown, args: string[] = []) => runText(JSON.stringify(input), args);
  /** run() with `input` in a FILE; standard input is never read. */
  const runFile = (input: unknown) => {
    const file = join(work, "input.json");
    writeFileSync(file, JSON.stringify(input));
    const { exitCode, stdout, stderr } = runMain([file], () => {
      throw new Error("standard input read although a FILE was given");
    });
    return { status: exitCode, stdout, stderr };
  };

  it("reads FILE when given and stops at the first bad member in input order", () => {
    const result = runFile({
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
    const result = runText(text);
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
    const result = runText(text);
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
});
