// The root every namespaced run gets (grader/run/sandbox.ts rootTables), checked line by line: it
// is built from an allow-list alone, so nothing of the machine is in it unless listed; and the
// checks that keep the kit out of the system folders a run sees, and let run identities in.
// (Finding the permission-model flag runs Node: test/e2e/permission-flag.test.ts.)
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  commandFolderClosed,
  countsProcessesPerNamespace,
  exposedFolders,
  fstabPath,
  nodeFolderToBind,
  nodeUnreachable,
  rootTables,
} from "../../grader/run/sandbox.ts";
import { fakeNode as writeFakeNode } from "../helpers/fixture-files.ts";

/** Each line of a table as `<type> <source> -> <target>` (bind) or `<type> <target>`. */
const lines = (table: string) =>
  table
    .trim()
    .split("\n")
    .map((line) => {
      const [source, target, type] = line.split(" ");
      return type === "none" ? `bind ${source ?? ""} -> ${target ?? ""}` : `${type} ${target}`;
    });

/** The system folders this machine has, as each run sees them. */
const system = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"].filter(
  (d) => existsSync(d),
);

describe("rootTables", () => {
  const R = "/run-root";

  it("a TypeScript program: system folders, private /tmp, /var/tmp, /dev/shm, four devices, its copy's tmpfs, /proc", () => {
    const [first, second] = rootTables(
      {
        binds: [],
        copy: { source: "/srv/build/abc/main.mjs", target: "/dev/shm/program/main.mjs" },
      },
      R,
      undefined,
    );
    expect(lines(first)).toEqual([
      `tmpfs ${R}`,
      ...system.map((d) => `bind ${d} -> ${R}${d}`),
      `tmpfs ${R}/tmp`,
      `tmpfs ${R}/var/tmp`,
      // /dev is a folder of the root, read-only once the device files are bound onto it.
      `tmpfs ${R}/dev/shm`,
    ]);
    expect(lines(second)).toEqual([
      `bind /dev/null -> ${R}/dev/null`,
      `bind /dev/zero -> ${R}/dev/zero`,
      `bind /dev/random -> ${R}/dev/random`,
      `bind /dev/urandom -> ${R}/dev/urandom`,
      // The bundle is copied in, never bound: no mount names the build folder.
      `tmpfs ${R}/dev/shm/program`,
      `proc ${R}/proc`,
    ]);
    expect(second).not.toContain("/srv/build");
    // Every system folder read-only; the root, the private folders and /proc as the kernel makes them.
    for (const line of first.split("\n").filter((l) => l.includes(" none ")))
      expect(line).toContain("bind,ro,");
    expect(second).toContain("hidepid=2");
  });

  it("a --cmd program: its folder read-only at its own path, after the private /tmp that may hold it", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "kit-root-test-")));
    try {
      const [, second] = rootTables({ binds: [], visibleInPlace: dir }, R, "/opt/node/bin");
      expect(lines(second).slice(4)).toEqual([
        `bind /opt/node/bin -> ${R}/opt/node/bin`,
        `bind ${dir} -> ${R}${dir}`,
        `proc ${R}/proc`,
      ]);
      expect(second).toContain(`${dir} ${R}${dir} none bind,ro,nosuid,nodev,X-mount.mkdir 0 0`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a tool: its binds at their targets, writable only where said", () => {
    const [, second] = rootTables(
      {
        binds: [
          { source: "/stage/src", target: "/dev/shm/src" },
          { source: "/stage/out", target: "/dev/shm/out", writable: true },
        ],
      },
      R,
      undefined,
    );
    expect(second).toContain(`/stage/src ${R}/dev/shm/src none bind,ro,`);
    expect(second).toContain(`/stage/out ${R}/dev/shm/out none bind,rw,`);
  });

  it("escapes spaces, tabs, newlines and backslashes in paths", () => {
    expect(fstabPath("/a b\tc\nd\\e")).toBe("/a\\040b\\011c\\012d\\134e");
    const [first] = rootTables({ binds: [] }, "/x y", undefined);
    expect(first.split("\n")[0]).toBe("kit /x\\040y tmpfs rw,nosuid,nodev,size=1m,mode=755 0 0");
  });
});

describe("countsProcessesPerNamespace", () => {
  it("from Linux 5.14 on, as the release says it", () => {
    expect(countsProcessesPerNamespace("6.1.0-18-amd64")).toBe(true);
    expect(countsProcessesPerNamespace("5.14.0-362.el9.x86_64")).toBe(true);
    expect(countsProcessesPerNamespace("5.15.0-91-generic")).toBe(true);
    expect(countsProcessesPerNamespace("5.13.19")).toBe(false);
    expect(countsProcessesPerNamespace("5.10.0-28-amd64")).toBe(false);
    expect(countsProcessesPerNamespace("4.19.0")).toBe(false);
    expect(countsProcessesPerNamespace("not a release")).toBe(false);
  });
});

describe("exposedFolders", () => {
  it("names what lies in a system folder every run sees, and nothing else", () => {
    expect(
      exposedFolders(["/usr/local/kit", "/etc/kit/private", "/srv/kit", "/home/me/course"]),
    ).toEqual([
      ["/usr/local/kit", "/usr"],
      ["/etc/kit/private", "/etc"],
    ]);
  });

  it("follows links: /bin/x is /usr/bin/x where /bin is a link to usr/bin", () => {
    const binIsLink = realpathSync("/bin") !== "/bin";
    expect(exposedFolders(["/bin/kit"])).toEqual([["/bin/kit", binIsLink ? "/usr" : "/bin"]]);
  });
});

const dir = mkdtempSync(join(tmpdir(), "kit-sandbox-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for `node` (never run here; its permissions are what is read). */
const fakeNode = (script: string) => writeFakeNode(dir, script);

describe("commandFolderClosed", () => {
  it("as root, names a --cmd folder its run identity cannot read; the folders above do not matter", () => {
    const closed = join(dir, "home");
    const project = join(closed, "project");
    mkdirSync(project, { recursive: true });
    chmodSync(closed, 0o700);
    chmodSync(project, 0o750);
    const real = realpathSync(project);
    expect(commandFolderClosed("root", project)).toBe(
      `--cmd runs the program as a separate user, who cannot read its folder ${real} (no read and execute permission for others): its cases will crash on "Permission denied". Let others in (chmod o+rx ${real}) or copy the program to a folder every user can read (docs/sandbox.md)`,
    );
    expect(commandFolderClosed("user-namespace", project)).toBeUndefined();
    chmodSync(project, 0o755);
    // Its parent is still 0700: the folder is bound at its own path in a root of its own.
    expect(commandFolderClosed("root", project)).toBeUndefined();
  });
});

describe("nodeUnreachable", () => {
  it("is silent without root, and for a Node every user can run", () => {
    const node = fakeNode("exit 0");
    expect(nodeUnreachable("none", node)).toBeUndefined();
    expect(nodeUnreachable("user-namespace", node)).toBeUndefined();
    chmodSync(dir, 0o755);
    expect(nodeUnreachable("root", node)).toBeUndefined();
  });

  it("outside the system folders, only the binary and its own folder matter (the folder is bound)", () => {
    const closed = join(dir, "closed");
    mkdirSync(join(closed, "bin"), { recursive: true, mode: 0o755 });
    chmodSync(closed, 0o700);
    const node = join(closed, "bin", "node");
    writeFileSync(node, "", { mode: 0o755 });
    expect(nodeFolderToBind(node)).toBe(realpathSync(join(closed, "bin")));
    expect(nodeUnreachable("root", node)).toBeUndefined();
    chmodSync(join(closed, "bin"), 0o700);
    expect(nodeUnreachable("root", node)).toBe(
      `Node.js is at ${realpathSync(node)}, which the sandbox's run identities cannot execute (no execute permission for others on ${realpathSync(join(closed, "bin"))}): install Node.js where every user can read it (e.g. under /usr/local or /opt)`,
    );
    chmodSync(join(closed, "bin"), 0o755);
  });

  it("the Node running these tests is bound only where it is outside the system folders", () => {
    const real = realpathSync(process.execPath);
    const inSystem = exposedFolders([real]).length > 0;
    expect(nodeFolderToBind()).toBe(inSystem ? undefined : dirname(real));
  });
});
