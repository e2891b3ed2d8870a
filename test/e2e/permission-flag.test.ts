// permissionModelFlag (grader/run/sandbox.ts) finds Node's permission-model flag by running Node
// with it: this Node, and shell scripts standing in for Nodes that answer otherwise (processes,
// so e2e). The sandbox's tables as data are test/unit/sandbox.test.ts's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { permissionModelFlag } from "../../grader/run/sandbox.ts";
import { fakeNode as writeFakeNode } from "../helpers/fixture-files.ts";

const dir = mkdtempSync(join(tmpdir(), "kit-sandbox-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for `node` that answers each flag as `script` (sh, $1 = the flag) says. */
const fakeNode = (script: string) => writeFakeNode(dir, script);
const ON = 'printf "permission model on"';
const BAD = 'echo "$0: bad option: $1" >&2; exit 9';

describe("permissionModelFlag", () => {
  it("finds the flag this Node accepts by running it, as Node's changelogs date them", () => {
    // --permission from 22.13.0 and 23.5.0 (the only flag from 26); before, 20.x and 22.0-22.12
    // know --experimental-permission only.
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    const stable = major >= 24 || (major === 22 && minor >= 13) || (major === 23 && minor >= 5);
    expect(permissionModelFlag()).toBe(stable ? "--permission" : "--experimental-permission");
  });

  it("falls back to the other flag when the first is a bad option, whatever Node claims to know", () => {
    const node = fakeNode(`case "$1" in --experimental-permission) ${ON};; *) ${BAD};; esac`);
    expect(permissionModelFlag(node, new Set(["--permission"]))).toBe("--experimental-permission");
    const newer = fakeNode(`case "$1" in --permission) ${ON};; *) ${BAD};; esac`);
    expect(permissionModelFlag(newer, new Set(["--experimental-permission"]))).toBe("--permission");
  });

  it("refuses a Node with no permission model, naming what Node said", () => {
    expect(() => permissionModelFlag(fakeNode(BAD), new Set())).toThrow(
      /no permission model .*--permission: \S+: bad option: --permission; --experimental-permission: \S+: bad option: --experimental-permission/,
    );
  });

  it("refuses a flag that is accepted but leaves reads allowed", () => {
    expect(() => permissionModelFlag(fakeNode('printf "permission model off"'), new Set())).toThrow(
      /no permission model .*--permission: permission model off/,
    );
  });
});
