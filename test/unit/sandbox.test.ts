// The mount table every namespaced run starts with (grader/run/sandbox.ts), checked line by line:
// what is covered, in which order, and what stays visible.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  fstabPath,
  mountTable,
  commandFolderClosed,
  nodeUnreachable,
  permissionModelFlag,
  type ConfinedRun,
} from "../../grader/run/sandbox.ts";
import { ROOT } from "../helpers/program.ts";

const run = (extra: Partial<ConfinedRun> = {}): ConfinedRun => ({
  command: "/bin/true",
  args: [],
  binds: [{ source: "/srv/build/abc", target: "/dev/shm/program" }],
  cwd: "/tmp",
  limits: { cpuSeconds: 1, dataMiB: 768 },
  stdin: "",
  env: {},
  uid: undefined,
  ...extra,
});

/** Mount targets in order, each with its kind: tmpfs, bind or proc (the lock folder left out). */
const targets = (table: string) =>
  table
    .trim()
    .split("\n")
    .filter((line) => !line.includes(" /run/lock ") && !line.includes(" /var/crash "))
    .map((line) => {
      const [source, target, type] = line.split(" ");
      return `${type === "none" ? `bind ${source ?? ""} ->` : type} ${target ?? ""}`;
    });

describe("mountTable", () => {
  // Outside /tmp, /var/tmp and /dev/shm (a folder there is gone in their private copies
  // anyway): the kit's own .tmp/, or, for a kit cloned under /tmp, the home folder's .cache/.
  const isPrivate = (dir: string) =>
    ["/tmp", "/var/tmp", "/dev/shm"].some((p) => dir === p || dir.startsWith(`${p}/`));
  const base = [join(ROOT, ".tmp"), join(homedir(), ".cache")].find((d) => !isPrivate(d));
  if (base === undefined)
    throw new Error("no folder outside /tmp, /var/tmp and /dev/shm to test in");
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, "kit-mount-test-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const kit = join(root, "kit");
  for (const d of ["fixtures", "solution", "private", "cmd/private"])
    mkdirSync(join(kit, d), { recursive: true });

  it("binds first, then private /tmp and /var/tmp, then covers each hidden folder once", () => {
    const table = mountTable(run(), [
      join(kit, "fixtures"),
      join(kit, "solution"),
      join(kit, "fixtures", "cases"),
      "/tmp/anything",
      join(kit, "missing"),
    ]);
    expect(targets(table)).toEqual([
      "tmpfs /dev/shm",
      "bind /srv/build/abc -> /dev/shm/program",
      "tmpfs /tmp",
      "tmpfs /var/tmp",
      `tmpfs ${join(kit, "fixtures")}`,
      `tmpfs ${join(kit, "solution")}`,
      "proc /proc",
    ]);
    expect(table).toContain("ro,nosuid,nodev,noexec,size=4k,mode=000");
    // Every other world-writable folder is private and empty too.
    if (existsSync("/run/lock")) expect(table).toContain("kit /run/lock tmpfs rw,");
  });

  it("keeps a --cmd folder visible read-only, and covers the hidden folders inside it after", () => {
    const cmd = join(kit, "cmd");
    const table = mountTable(run({ binds: [], visibleInPlace: cmd, cwd: cmd }), [
      kit,
      join(cmd, "private"),
      join(kit, "solution"),
    ]);
    expect(targets(table)).toEqual([
      "tmpfs /dev/shm",
      `bind ${cmd} -> /dev/shm/.visible`,
      "tmpfs /tmp",
      "tmpfs /var/tmp",
      // kit holds the visible folder: not covered; its solution/ is.
      `tmpfs ${join(kit, "solution")}`,
      `bind /dev/shm/.visible -> ${cmd}`,
      `tmpfs ${join(cmd, "private")}`,
      "proc /proc",
    ]);
  });

  it("a visible folder under /tmp comes back inside the private /tmp, its private cases covered", () => {
    const dir = mkdtempSync(join(tmpdir(), "kit-mount-test-"));
    mkdirSync(join(dir, "cases"));
    const table = mountTable(run({ binds: [], visibleInPlace: dir, cwd: dir }), [
      join(dir, "cases"),
    ]);
    expect(targets(table).slice(-3)).toEqual([
      `bind /dev/shm/.visible -> ${dir}`,
      `tmpfs ${join(dir, "cases")}`,
      "proc /proc",
    ]);
  });

  it("escapes spaces, tabs, newlines and backslashes in paths", () => {
    expect(fstabPath("/a b\tc\nd\\e")).toBe("/a\\040b\\011c\\012d\\134e");
  });
});

const dir = mkdtempSync(join(tmpdir(), "kit-sandbox-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for `node`: a shell script that answers each flag as `script` (sh, $1 = the flag) says. */
function fakeNode(script: string): string {
  const path = join(dir, `node-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path;
}
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

describe("commandFolderClosed", () => {
  it("names the folders a --cmd program's run identity cannot enter, as root only", () => {
    const closed = join(dir, "home");
    const project = join(closed, "project");
    mkdirSync(project, { recursive: true });
    chmodSync(closed, 0o700);
    chmodSync(dir, 0o755);
    expect(commandFolderClosed("root", project)).toBe(
      `--cmd runs the program as a separate user, who cannot enter ${realpathSync(project)} (no execute permission for others on ${realpathSync(closed)}): its cases will crash on "Permission denied". Let others in (chmod o+x on those folders) or copy the program to a folder every user can read (docs/sandbox.md)`,
    );
    expect(commandFolderClosed("user-namespace", project)).toBeUndefined();
    chmodSync(closed, 0o755);
    expect(commandFolderClosed("root", project)).toBeUndefined();
  });
});

describe("nodeUnreachable", () => {
  it("is silent without namespaces, and for a Node every user can run", () => {
    const node = fakeNode("exit 0");
    expect(nodeUnreachable("none", node)).toBeUndefined();
    // The fake lives under a temporary folder: no folder is private here, and it is 0755.
    chmodSync(dir, 0o755);
    expect(nodeUnreachable("root", node, [])).toBeUndefined();
  });

  it("names a Node under a folder every run gets empty", () => {
    const node = fakeNode("exit 0");
    expect(nodeUnreachable("user-namespace", node, [dir])).toBe(
      `Node.js is at ${realpathSync(node)}, under ${dir}, which every sandboxed run gets empty: install Node.js where every user can read it (e.g. under /usr/local or /opt)`,
    );
  });

  it("names the folders a run identity cannot pass, as root only", () => {
    const closed = join(dir, "closed");
    mkdirSync(closed, { mode: 0o700 });
    const node = join(closed, "node");
    writeFileSync(node, "", { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(nodeUnreachable("root", node, [])).toMatch(
      new RegExp(`no execute permission for others on ${realpathSync(closed)}\\)`),
    );
    expect(nodeUnreachable("user-namespace", node, [])).toBeUndefined();
  });
});
