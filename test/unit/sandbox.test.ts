// The mount table every namespaced run starts with (grader/run/sandbox.ts), checked line by line:
// what is covered, in which order, and what stays visible.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  fstabPath,
  mountTable,
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

describe("permissionModelFlag", () => {
  it("asks Node which flag it knows, whatever its version", () => {
    expect(permissionModelFlag(new Set(["--permission", "--experimental-permission"]))).toBe(
      "--permission",
    );
    // Node 20 and 22.0-22.12 know only the experimental flag.
    expect(permissionModelFlag(new Set(["--experimental-permission"]))).toBe(
      "--experimental-permission",
    );
    expect(() => permissionModelFlag(new Set(["--max-old-space-size"]))).toThrow(
      /no permission model/,
    );
  });
});
