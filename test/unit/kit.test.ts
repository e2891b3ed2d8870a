// The kit's shape: starter/ mirrors solution/, the starter's exercise functions are stubs that
// throw NotImplementedError, and the generated input validator needs no package (that it is
// current is test/e2e/generated.test.ts's check).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeSubscription } from "../../solution/src/subscription.ts";
import { EXERCISE, NotImplementedError } from "../../solution/src/not-implemented.ts";
import { encodeAssignment } from "../../solution/src/assignment.ts";
import { encodeAssignment as starterEncodeAssignment } from "../../starter/src/assignment.ts";
import { assignRange as starterAssignRange } from "../../starter/src/range-assignor.ts";
import { decodeSubscription as starterDecode } from "../../starter/src/subscription.ts";
import { NotImplementedError as StarterNotImplementedError } from "../../starter/src/not-implemented.ts";
import { ROOT } from "../helpers/program.ts";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const EXERCISE_FILES = ["subscription.ts", "range-assignor.ts", "assignment.ts"];

/** Doc comments and export lines: what must be the same on both sides. */
function publicSurface(source: string): string[] {
  const docs = source.match(/\/\*\*[\s\S]*?\*\//g) ?? [];
  const exports = source.split("\n").filter((line) => line.startsWith("export "));
  return [...docs, ...exports];
}

describe("starter/ and solution/", () => {
  it("have the same files", () => {
    expect(readdirSync(join(ROOT, "starter/src")).sort()).toEqual(
      readdirSync(join(ROOT, "solution/src")).sort(),
    );
  });

  it("share every complete helper byte for byte", () => {
    for (const file of readdirSync(join(ROOT, "solution/src"))) {
      if (EXERCISE_FILES.includes(file)) continue;
      expect(read(`starter/src/${file}`), file).toBe(read(`solution/src/${file}`));
    }
  });

  it.each(EXERCISE_FILES)("%s: same exports and doc comments", (file) => {
    const starter = publicSurface(read(`starter/src/${file}`));
    const solution = publicSurface(read(`solution/src/${file}`));
    // The solution may have private helpers with doc comments of their own; the starter may not
    // have any the solution lacks, and every exported declaration is the same.
    expect(solution).toEqual(expect.arrayContaining(starter));
    expect(starter.filter((l) => l.startsWith("export "))).toEqual(
      solution.filter((l) => l.startsWith("export ")),
    );
  });

  it.each([
    ["decodeSubscription", "subscription.ts"],
    ["assignRange", "range-assignor.ts"],
    ["encodeAssignment", "assignment.ts"],
  ] as const)("the %s stub is a TODO naming the lesson, then one statement", (name, file) => {
    // The TODO is text a student reads (no behaviour shows it); what the stub does is below.
    const anchor = EXERCISE[name].lessonAnchor;
    const source = read(`starter/src/${file}`);
    const body = source.slice(source.indexOf(`export function ${name}(`));
    const lines = body
      .slice(body.indexOf("{\n") + 2, body.lastIndexOf("}"))
      .trim()
      .split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\s*// TODO: .*\\(LESSON\\.md#${anchor}\\)\\.$`));
  });

  it("the starter's stubs decode and assign nothing: each throws NotImplementedError, naming itself and the lesson", () => {
    // Valid bytes (version 0, topic "a", null user data: worked by hand from the schema) and a
    // group that has an answer, so that a stub that reads bytes or assigns anything shows.
    const bytes = new Uint8Array(Buffer.from("000000000001000161ffffffff", "hex"));
    const stubs = [
      ["decodeSubscription", () => starterDecode(bytes)],
      [
        "assignRange",
        () =>
          starterAssignRange(
            new Map([["a", 1]]),
            new Map([["m", { topics: ["a"], groupInstanceId: null, rackId: null }]]),
          ),
      ],
      ["encodeAssignment", () => starterEncodeAssignment(new Map([["a", [0]]]), null)],
    ] as const;
    for (const [name, call] of stubs) {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, name).toBeInstanceOf(StarterNotImplementedError);
      expect(thrown).toMatchObject({
        functionName: name,
        message: `not implemented yet: ${name} (${EXERCISE[name].file}), see LESSON.md#${EXERCISE[name].lessonAnchor}`,
      });
    }
    // The starter's error class is its own copy of the solution's (same file, byte for byte).
    expect(StarterNotImplementedError).not.toBe(NotImplementedError);
  });

  it("the solution's reader honours byteOffset: bytes inside a larger buffer decode as themselves", () => {
    // Version 0, one topic "a", null user data, behind 5 bytes and before 3 bytes of 0xff, which
    // read as a version of -1 (an error) by a reader that starts at the buffer's start.
    const buffer = new Uint8Array(Buffer.from("ffffffffff000000000001000161ffffffffffffff", "hex"));
    const view = buffer.subarray(5, buffer.length - 3);
    expect(decodeSubscription(view)).toEqual({
      version: 0,
      topics: ["a"],
      userData: null,
      ownedPartitions: [],
      generationId: -1,
      rackId: null,
    });
  });
});

describe("the solution's encoder", () => {
  it("writes user data from the view: bytes inside a larger buffer are written as themselves", () => {
    // User data 0x0102 behind 3 bytes and before 2 bytes of 0xee. Expected, by hand: version 3
    // (0003), no topics (00000000), length 2 (00000002), then 01 02.
    const buffer = new Uint8Array(Buffer.from("eeeeee0102eeee", "hex"));
    const bytes = encodeAssignment(new Map(), buffer.subarray(3, 5));
    expect(Buffer.from(bytes).toString("hex")).toBe("0003" + "00000000" + "00000002" + "0102");
  });

  it("gives a member that owns nothing its ten bytes: version 3, no topics, null user data", () => {
    expect(Buffer.from(encodeAssignment(new Map([["t", []]]), null)).toString("hex")).toBe(
      "0003" + "00000000" + "ffffffff",
    );
  });
});

describe("the generated input validator", () => {
  it("needs no package at run time: it loads where nothing can be imported, and validates", async () => {
    // A data: URL resolves no package and no relative path, so any import fails the load.
    const text = read("solution/src/input-validator.js");
    const url = `data:text/javascript;base64,${Buffer.from(text).toString("base64")}`;
    const { validate } = (await import(/* @vite-ignore */ url)) as {
      validate: (data: unknown) => boolean;
    };
    const member = { memberId: "m", groupInstanceId: null, metadata: "00 00" };
    expect(
      validate({ topics: { a: 1 }, partitionRacks: { a: [["r", null]] }, members: [member] }),
    ).toBe(true);
    // Each keyword the schema uses, failing: required, additionalProperties, type, minimum,
    // maximum, pattern.
    for (const bad of [
      { topics: {} },
      { topics: {}, members: [], extra: 1 },
      { topics: { a: 1.5 }, members: [] },
      { topics: { a: -1 }, members: [] },
      { topics: { a: 2 ** 31 }, members: [] },
      { topics: {}, partitionRacks: { a: [[1]] }, members: [] },
      { topics: {}, members: [{ ...member, metadata: "0g" }] },
      { topics: {}, members: [{ ...member, groupInstanceId: 1 }] },
    ])
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    // The check can fail: the same text behind an import of a package does not load.
    const importing = `import "ajv";\n${text}`;
    await expect(
      import(
        /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(importing).toString("base64")}`
      ),
    ).rejects.toThrow();
  });
});
