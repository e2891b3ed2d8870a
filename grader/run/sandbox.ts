/**
 * The sandbox a submission's program runs in, one process per case. What each part does and does
 * not stop is in the README ("The sandbox"):
 *
 * - Node's permission model (Node 20: --experimental-permission, later: --permission): the bundle
 *   may read its own file and nothing else; no writes, no child processes, no worker threads.
 * - A minimal environment (PATH, LANG=C.UTF-8, TZ=UTC): nothing of the grader's own, no secrets.
 * - An empty temporary working directory; the input on standard input only.
 * - A heap cap (--max-old-space-size) and, where prlimit exists, a CPU-time limit (and for
 *   --cmd programs an address-space limit), besides the wall-clock limit of run-process.ts.
 * - When the grader runs as root, each parallel slot runs as its own unprivileged uid, so a
 *   program cannot signal the grader, another slot's program, or anything else it did not start.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { ProcessSpec } from "./run-process.ts";

/** uids (and gids) of the slots: SLOT_UID_BASE + slot. Unused by any account on a normal system. */
export const SLOT_UID_BASE = 64_000;

export interface SandboxLimits {
  timeoutMs: number;
  memoryMiB: number;
}

/** What this machine's sandbox can do (the grader prints a warning for what it cannot). */
export interface SandboxFeatures {
  /** Node's permission model, with its flag for this Node version. */
  permissionFlag: string;
  /** prlimit, for the CPU-time (and --cmd address-space) limits. */
  prlimit: string | undefined;
  /** Running as root: each slot gets its own uid. */
  separateUids: boolean;
  /** Process groups can be killed (not on Windows). */
  processGroups: boolean;
}

let features: SandboxFeatures | undefined;

/** Detects the sandbox's parts once. */
export function sandboxFeatures(): SandboxFeatures {
  if (features !== undefined) return features;
  const major = Number(process.versions.node.split(".")[0]);
  let prlimit: string | undefined;
  if (process.platform === "linux") {
    for (const candidate of ["/usr/bin/prlimit", "/bin/prlimit"]) {
      if (existsSync(candidate)) prlimit = candidate;
    }
    if (prlimit === undefined) {
      try {
        prlimit =
          execFileSync("sh", ["-c", "command -v prlimit"], { encoding: "utf8" }).trim() ||
          undefined;
      } catch {
        prlimit = undefined;
      }
    }
  }
  features = {
    permissionFlag: major >= 22 ? "--permission" : "--experimental-permission",
    prlimit,
    separateUids:
      process.platform !== "win32" &&
      typeof process.getuid === "function" &&
      process.getuid() === 0,
    processGroups: process.platform !== "win32",
  };
  return features;
}

/** One line per sandbox part that is off on this machine (empty when everything is on). */
export function sandboxWarnings(f: SandboxFeatures = sandboxFeatures()): string[] {
  const warnings: string[] = [];
  if (process.platform === "win32") {
    warnings.push(
      "Windows: the sandbox is off (no process groups, no CPU limit, no separate users): grade untrusted code on Linux or macOS.",
    );
    return warnings;
  }
  if (f.prlimit === undefined)
    warnings.push("no prlimit here: no CPU-time limit beyond the wall clock");
  return warnings;
}

const freeSlots: number[] = [];
let nextSlot = 0;

/** A slot number no running case holds; give it back with releaseSlot. */
export function acquireSlot(): number {
  return freeSlots.pop() ?? nextSlot++;
}

/** Gives back a slot from acquireSlot, for the next case to run in. */
export function releaseSlot(slot: number): void {
  freeSlots.push(slot);
}

/** The environment every program gets: nothing of the grader's own. */
export function programEnv(): NodeJS.ProcessEnv {
  // The grader's PATH (so --cmd programs find their interpreter), without npm's additions.
  const path = (process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin")
    .split(":")
    .filter((dir) => dir !== "" && !dir.includes("node_modules"))
    .join(":");
  return {
    PATH: path,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
  };
}

/** CPU seconds allowed: the wall-clock limit rounded up, plus one. */
function cpuSeconds(limits: SandboxLimits): number {
  return Math.ceil(limits.timeoutMs / 1000) + 1;
}

function withLimits(
  f: SandboxFeatures,
  limits: SandboxLimits,
  command: string,
  args: string[],
  addressSpace: boolean,
) {
  if (f.prlimit === undefined) return { command, args };
  const cpu = cpuSeconds(limits);
  const as = addressSpace ? [`--as=${limits.memoryMiB * 4 * 1024 * 1024}`] : [];
  return { command: f.prlimit, args: [`--cpu=${cpu}:${cpu + 1}`, ...as, "--", command, ...args] };
}

function identity(f: SandboxFeatures, slot: number): Pick<ProcessSpec, "uid" | "gid"> {
  return f.separateUids ? { uid: SLOT_UID_BASE + slot, gid: SLOT_UID_BASE + slot } : {};
}

/**
 * How to run a built TypeScript submission (an esbuild bundle) on one case.
 *
 * @param bundle the bundle's path; its folder must be readable by the slot's uid
 * @param decode true for a `decode` case (`main --decode`)
 * @param workDir an empty folder the program starts in
 * @param sourceMaps map stack traces back to src/*.ts (slower to start)
 */
export function nodeProgram(
  bundle: string,
  decode: boolean,
  input: string,
  workDir: string,
  limits: SandboxLimits,
  slot: number,
  sourceMaps = false,
  f: SandboxFeatures = sandboxFeatures(),
): ProcessSpec {
  const nodeArgs = [
    f.permissionFlag,
    `--allow-fs-read=${bundle}`,
    "--no-warnings",
    `--max-old-space-size=${limits.memoryMiB}`,
    // Source maps cost every start a little; crashes are rerun with them for a readable stack.
    ...(sourceMaps ? ["--enable-source-maps"] : []),
    bundle,
    ...(decode ? ["--decode"] : []),
  ];
  return {
    ...withLimits(f, limits, process.execPath, nodeArgs, false),
    ...identity(f, slot),
    cwd: workDir,
    env: programEnv(),
    stdin: input,
  };
}

/**
 * How to run any program (--cmd) on one case: `sh -c COMMAND [--decode]` in the folder the user
 * typed the command in. Node's permission model does not apply (the program may not be Node):
 * the limits, the minimal environment and (as root) the separate uid do.
 */
export function commandProgram(
  command: string,
  cwd: string,
  decode: boolean,
  input: string,
  limits: SandboxLimits,
  slot: number,
  f: SandboxFeatures = sandboxFeatures(),
): ProcessSpec {
  const shellCommand = decode ? `${command} --decode` : command;
  return {
    ...withLimits(f, limits, "/bin/sh", ["-c", shellCommand], true),
    ...identity(f, slot),
    cwd,
    env: programEnv(),
    stdin: input,
  };
}
