/**
 * What one case's program is, as a confined run (sandbox.ts): a bundled TypeScript submission run
 * with Node under its permission model, or any command (--cmd) run with `sh -c`.
 */
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Case } from "../cases/load.ts";
import { KIT_ROOT } from "../kit.ts";
import {
  programEnv,
  SANDBOX_DIR,
  sandboxFeatures,
  type ConfinedRun,
  type KernelLimits,
} from "./sandbox.ts";

/** Data memory beyond the JS heap limit: Buffers, code and Node's own needs. */
export const DATA_BEYOND_HEAP_MIB = 256;

/** The CPU seconds the kernel allows for a per-case limit in milliseconds (at least 1). */
export function cpuSecondsFor(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/** The kernel limits for a case: CPU from the time limit, data memory from the heap limit. */
export function kernelLimits(limits: { timeoutMs: number; memoryMiB: number }): KernelLimits {
  return {
    cpuSeconds: cpuSecondsFor(limits.timeoutMs),
    dataMiB: limits.memoryMiB + DATA_BEYOND_HEAP_MIB,
  };
}

/**
 * The kit's folders no program may see: the golden cases, the reference, the tests (vectors and
 * recorded answers) and the grader (its diagnosis data). Those a handout lacks simply do not exist.
 */
export function kitHiddenFolders(): string[] {
  // .git holds every answer in its history; .grader the compiled grader (with the mutants).
  return [
    ...["fixtures", "solution", "test", "grader", "scripts", ".grader"].map((d) =>
      join(KIT_ROOT, d),
    ),
    ...gitFolders(KIT_ROOT),
  ];
}

/**
 * The kit's git folders: `.git`, and when `.git` is a file (a worktree: `gitdir: PATH`) the
 * folder it names and the repository's common folder too, where the history is.
 */
function gitFolders(root: string): string[] {
  const dotGit = join(root, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return [dotGit];
    const named = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (named === undefined) return [dotGit];
    const gitDir = resolve(root, named);
    let common = gitDir;
    try {
      common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
    } catch {
      // No commondir: the folder named is the whole repository.
    }
    return [...new Set([dotGit, gitDir, common])];
  } catch {
    return [dotGit];
  }
}

/** Where a bundle's folder appears inside the sandbox. */
export const PROGRAM_DIR = `${SANDBOX_DIR}/program`;

/** A built TypeScript submission (its bundle file) or a command line. */
export type ProgramTarget =
  { kind: "bundle"; path: string } | { kind: "command"; command: string; cwd: string };

/**
 * One case's confined run.
 *
 * @param target the bundle or the command
 * @param c the case: its mode (`--decode`) and input (standard input)
 * @param limits the per-case CPU limit (ms) and heap limit (MiB)
 * @param uid the run identity (root mode)
 * @param workDir an empty real folder to start in when the sandbox has no namespaces
 */
export function programRun(
  target: ProgramTarget,
  c: Case,
  limits: { timeoutMs: number; memoryMiB: number },
  uid: number | undefined,
  workDir?: string,
): ConfinedRun {
  const f = sandboxFeatures();
  const namespaced = f.mode !== "none";
  const decode = c.mode === "decode" ? ["--decode"] : [];
  // A bundle starts no other program: a PATH of the system's folders says nothing of the grader.
  const common = {
    limits: kernelLimits(limits),
    stdin: c.inputText,
    env: { ...programEnv(), PATH: "/usr/bin:/bin" },
    uid,
  };
  if (target.kind === "command") {
    return {
      ...common,
      // A --cmd program may need its interpreter from the grader's PATH.
      env: programEnv(),
      command: "/bin/sh",
      args: ["-c", [target.command, ...decode].join(" ")],
      binds: [],
      cwd: target.cwd,
      visibleInPlace: target.cwd,
    };
  }
  const dir = target.path.slice(0, target.path.lastIndexOf("/"));
  const name = target.path.slice(dir.length + 1);
  const bundle = namespaced ? `${PROGRAM_DIR}/${name}` : target.path;
  return {
    ...common,
    command: process.execPath,
    args: [
      f.permissionFlag,
      `--allow-fs-read=${bundle}`,
      "--no-warnings",
      `--max-old-space-size=${limits.memoryMiB}`,
      bundle,
      ...decode,
    ],
    binds: [{ source: dir, target: PROGRAM_DIR }],
    cwd: namespaced ? "/tmp" : (workDir ?? dir),
  };
}
