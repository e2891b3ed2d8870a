// What a sandboxed program sees of the machine: its root is built from an allow-list alone
// (grader/run/sandbox.ts rootTables), so the whole file tree outside the system folders, and the
// whole mount table, hold the listed entries and nothing else. A canary file is planted in folders
// a program must not see (the kit's root, its history and compiled grader, a private-case folder,
// a batch and a report folder, the grader's own folder of run files, the machine's /tmp, /var/tmp
// and /dev/shm), and programs of both kinds (a --cmd program; the root a TypeScript program gets, seen
// by a shell run in it) list the tree and read the mount table. Runs in the mode the machine gives
// this user: root, or user namespaces (.ci/run runs it again as an unprivileged user).
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case } from "../../grader/cases/load.ts";
import { KIT_ROOT } from "../../grader/kit.ts";
import { runIdentities } from "../../grader/run/identities.ts";
import { OUTPUT_CAP_BYTES } from "../../grader/limits.ts";
import { PROGRAM_DIR, programRun } from "../../grader/run/program.ts";
import { runsFolder } from "../../grader/run/run-files.ts";
import { runProcess, type RawRun } from "../../grader/run/run-process.ts";
import {
  confinedSpec,
  nodeFolderToBind,
  sandboxFeatures,
  SYSTEM_FOLDERS,
  type ConfinedRun,
} from "../../grader/run/sandbox.ts";

const CANARY = `.kit-canary-${randomUUID()}`;
const isRoot = process.getuid?.() === 0;

/**
 * The probe: the tree outside the system folders and /proc (each listed itself, not its
 * contents), then a line `--mountinfo--` and the mount table. Exit 0.
 */
const PROBE = [
  `find / \\( ${["/proc", ...SYSTEM_FOLDERS].map((d) => `-path ${d}`).join(" -o ")} \\) -print -prune -o -print 2>&1`,
  "echo --mountinfo--",
  "cat /proc/self/mountinfo",
].join("; ");

/** Where canaries were planted (removed after). */
const planted: string[] = [];
function plant(dir: string): void {
  const file = join(dir, CANARY);
  try {
    writeFileSync(file, "a canary: no program may see this\n", { flag: "wx" });
    planted.push(file);
  } catch {
    // A folder this user cannot write (a read-only system's /var/tmp): nothing to plant there.
  }
}

const temp = (name: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `kit-view-${name}-`)));
  chmodSync(dir, 0o755);
  return dir;
};
const folders = {
  privateCases: temp("fixtures"),
  batch: temp("batch"),
  reports: temp("reports"),
  program: temp("cmd"),
  build: temp("build"),
};

/** A case whose input is a line of text (the probe ignores it). */
const CASE = { mode: "assign", inputText: "{}\n" } as unknown as Case;
const LIMITS = { timeoutMs: 10_000, memoryMiB: 256, outputCapBytes: OUTPUT_CAP_BYTES };

/** Runs the probe in `run`'s sandbox, as the shell instead of the run's own command. */
async function probe(run: ConfinedRun): Promise<RawRun> {
  const spec = confinedSpec({ ...run, command: "/bin/sh", args: ["-c", PROBE] });
  return runProcess(spec, { timeoutMs: 60_000, outputCapBytes: OUTPUT_CAP_BYTES });
}

/** The probe's tree (one path a line) and the mount points of its mount table. */
function view(run: RawRun): { tree: string[]; mounts: string[]; table: string } {
  const [tree = "", table = ""] = run.stdout.split("--mountinfo--\n");
  // mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT ... (octal escapes for spaces and the like).
  const mounts = table
    .trim()
    .split("\n")
    .map((line) =>
      (line.split(" ")[4] ?? "").replace(/\\(\d{3})/g, (_, o: string) =>
        String.fromCharCode(parseInt(o, 8)),
      ),
    );
  return { tree: tree.trim().split("\n"), mounts, table };
}

/** `path` and every folder above it. */
const withParents = (path: string): string[] => {
  const all: string[] = [];
  for (let at = path; at !== "/"; at = dirname(at)) all.push(at);
  return all;
};

/** What the allow-list puts in every run's tree, besides the extra entries each kind adds. */
function allowed(extra: readonly string[]): Set<string> {
  const node = nodeFolderToBind();
  const nodeEntries =
    node === undefined
      ? []
      : [...withParents(node), ...readdirSync(node).map((n) => join(node, n))];
  return new Set([
    "/",
    "/proc",
    ...SYSTEM_FOLDERS.filter((d) => existsSync(d)),
    "/tmp",
    "/var",
    "/var/tmp",
    "/dev",
    "/dev/shm",
    ...["null", "zero", "random", "urandom"].map((d) => `/dev/${d}`),
    ...nodeEntries,
    ...extra,
  ]);
}

const mode = sandboxFeatures().mode;

describe(`what a program sees (sandbox mode ${mode})`, () => {
  let command: RawRun;
  let typescript: RawRun;

  beforeAll(async () => {
    // The kit's root, its history and its compiled grader, and every folder kept from programs.
    // (Not the kit's other folders: test files running beside this one list and hash them. The
    // tree below shows no path of the kit at all, so nothing in any of its folders either.)
    for (const name of ["", ".git", ".grader"]) {
      const path = join(KIT_ROOT, name);
      if (existsSync(path) && statSync(path).isDirectory()) plant(path);
    }
    // Not in the --cmd program's own folder: that one is its to see.
    const kept = [folders.privateCases, folders.batch, folders.reports, folders.build];
    for (const dir of [...kept, runsFolder(), "/tmp", "/var/tmp", "/dev/shm"])
      if (existsSync(dir)) plant(dir);
    writeFileSync(join(folders.program, "main.sh"), "echo {}\n", { mode: 0o644 });
    mkdirSync(join(folders.program, "lib"), { mode: 0o755 });
    writeFileSync(join(folders.build, "main.mjs"), "", { mode: 0o644 });
    // As root, a run identity of the pool's, held as a grading holds one.
    const uid = isRoot ? await runIdentities.acquire() : undefined;
    try {
      command = await probe(
        programRun(
          { kind: "command", command: "sh main.sh", cwd: folders.program },
          CASE,
          LIMITS,
          uid,
        ),
      );
      typescript = await probe(
        programRun({ kind: "bundle", path: join(folders.build, "main.mjs") }, CASE, LIMITS, uid),
      );
    } finally {
      if (uid !== undefined) runIdentities.release(uid);
    }
  }, 120_000);

  afterAll(() => {
    for (const file of planted) rmSync(file, { force: true });
    for (const dir of Object.values(folders)) rmSync(dir, { recursive: true, force: true });
  });

  it("the machine gives this user namespaces (root, or user namespaces without root)", () => {
    expect(mode).toBe(isRoot ? "root" : "user-namespace");
  });

  it("a --cmd program: the tree holds the allow-list and its own folder, nothing else", () => {
    expect(command.exitCode, command.stderr).toBe(0);
    const { tree } = view(command);
    const own = [
      ...withParents(folders.program),
      join(folders.program, "main.sh"),
      join(folders.program, "lib"),
    ];
    expect(tree.filter((path) => !allowed(own).has(path))).toEqual([]);
    expect(tree).toContain(join(folders.program, "main.sh"));
    expect(command.stdout).not.toContain(CANARY);
  });

  it("a TypeScript program's root: the allow-list and its bundle's copy, nothing else", () => {
    expect(typescript.exitCode, typescript.stderr).toBe(0);
    const { tree } = view(typescript);
    const own = [PROGRAM_DIR, `${PROGRAM_DIR}/main.mjs`];
    expect(tree.filter((path) => !allowed(own).has(path))).toEqual([]);
    expect(tree).toContain(`${PROGRAM_DIR}/main.mjs`);
    expect(typescript.stdout).not.toContain(CANARY);
  });

  it("the mount table lists the allow-list's mounts alone, and names no folder of the kit's or the grader's", () => {
    const node = nodeFolderToBind();
    const base = [
      "/",
      ...SYSTEM_FOLDERS.filter((d) => existsSync(d)),
      "/tmp",
      "/var/tmp",
      "/dev/shm",
      ...["null", "zero", "random", "urandom"].map((d) => `/dev/${d}`),
      ...(node === undefined ? [] : [node]),
      "/proc",
    ];
    const commandView = view(command);
    expect(commandView.mounts).toEqual([...base.slice(0, -1), folders.program, "/proc"]);
    const typescriptView = view(typescript);
    expect(typescriptView.mounts).toEqual([...base.slice(0, -1), PROGRAM_DIR, "/proc"]);
    for (const { table } of [commandView, typescriptView]) {
      for (const secret of [
        KIT_ROOT.replace(/\/$/, ""),
        runsFolder(),
        folders.build,
        folders.batch,
      ])
        expect(table.includes(secret), secret).toBe(false);
    }
  });
});
