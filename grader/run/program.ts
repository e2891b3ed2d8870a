/**
 * What one case's program is, as a confined run (sandbox.ts): a bundled TypeScript submission run
 * with Node under its permission model, or any command (--cmd) run with `sh -c`.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { KIT_ROOT } from "../kit.ts";
import { modeArgs, type Case } from "../cases/load.ts";
import {
  programEnv,
  SANDBOX_DIR,
  sandboxFeatures,
  type ConfinedRun,
  type KernelLimits,
} from "./sandbox.ts";

/**
 * Files a program may hold open at once: Node needs about 20 of its own. Each memory file or
 * socket is one, so this bounds the kernel memory a program can hold outside its data limit.
 */
export const PROGRAM_OPEN_FILES = 64;

/** Data memory beyond the JS heap limit: Buffers, code and Node's own needs. */
export const DATA_BEYOND_HEAP_MIB = 256;

/** The CPU seconds the kernel allows for a per-case limit in milliseconds (at least 1). */
export function cpuSecondsFor(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/** The limits a program runs with: the per-case CPU time (ms), heap (MiB) and output cap (bytes). */
export interface ProgramLimits {
  timeoutMs: number;
  memoryMiB: number;
  outputCapBytes: number;
}

/**
 * The kernel limits for a case: CPU from the time limit, data memory from the heap limit, and
 * files (standard output and error are files) one 512-byte block above the output cap, so that
 * an output of exactly the cap is whole and a longer one is seen to be longer.
 */
export function kernelLimits(limits: ProgramLimits): KernelLimits {
  return {
    cpuSeconds: cpuSecondsFor(limits.timeoutMs),
    dataMiB: limits.memoryMiB + DATA_BEYOND_HEAP_MIB,
    fileBytes: limits.outputCapBytes + 512,
    openFiles: PROGRAM_OPEN_FILES,
  };
}

/** Where a bundle is copied inside the sandbox (a tmpfs of the run's own). */
export const PROGRAM_DIR = `${SANDBOX_DIR}/program`;

/**
 * A built TypeScript submission (its bundle file) or a command line run in its folder (`--cmd
 * COMMAND DIR`: DIR is all of the machine's files it sees besides the system's).
 */
export type ProgramTarget =
  { kind: "bundle"; path: string } | { kind: "command"; command: string; cwd: string };

/** A case's arguments to the program: `--decode` or `--sync` for those modes, none to assign. */
function caseArgs(c: Case): string[] {
  return modeArgs(c.mode);
}

/**
 * Where a bundle's run finds the bundle and starts: in the namespaced modes a copy in the run's own
 * tmpfs (a copy rather than a bind: a bind would name the build folder in the mount table), with
 * /tmp as its folder; with no namespaces the bundle itself, in `workDir` (default its folder).
 */
function bundlePlace(
  bundlePath: string,
  workDir: string | undefined,
): { bundle: string; copy: { source: string; target: string }; cwd: string } {
  const namespaced = sandboxFeatures().mode !== "none";
  const bundle = namespaced ? `${PROGRAM_DIR}/${basename(bundlePath)}` : bundlePath;
  return {
    bundle,
    copy: { source: bundlePath, target: bundle },
    cwd: namespaced ? "/tmp" : (workDir ?? dirname(bundlePath)),
  };
}

/**
 * Node's flags for a bundle's run: the permission model reading the bundle alone, no warnings
 * (they would be standard error the program did not write), and the heap limit (MiB).
 */
function nodeFlags(bundle: string, memoryMiB: number): string[] {
  return [
    sandboxFeatures().permissionFlag,
    `--allow-fs-read=${bundle}`,
    "--no-warnings",
    `--max-old-space-size=${memoryMiB}`,
  ];
}

/**
 * One case's confined run.
 *
 * @param target the bundle or the command
 * @param c the case: its mode (`--decode`) and input (standard input)
 * @param limits the per-case CPU limit (ms), heap limit (MiB) and output cap (bytes)
 * @param uid the run identity (root mode)
 * @param workDir an empty real folder to start in when the sandbox has no namespaces
 */
export function programRun(
  target: ProgramTarget,
  c: Case,
  limits: ProgramLimits,
  uid: number | undefined,
  workDir?: string,
): ConfinedRun {
  const decode = caseArgs(c);
  // A bundle starts no other program: a PATH of the system's folders says nothing of the grader.
  const common = {
    limits: kernelLimits(limits),
    stdin: c.inputText,
    env: { ...programEnv(), PATH: "/usr/bin:/bin" },
    uid,
    binds: [],
  };
  if (target.kind === "command") {
    return {
      ...common,
      // A --cmd program may need its interpreter from the grader's PATH.
      env: programEnv(),
      command: "/bin/sh",
      args: ["-c", [target.command, ...decode].join(" ")],
      cwd: target.cwd,
      visibleInPlace: target.cwd,
    };
  }
  const { bundle, copy, cwd } = bundlePlace(target.path, workDir);
  return {
    ...common,
    command: process.execPath,
    args: [...nodeFlags(bundle, limits.memoryMiB), bundle, ...decode],
    copy,
    cwd,
  };
}

/** The shared-run harness's text (shared-harness.mjs), given to Node with `-e`: no file to see. */
let harnessText: string | undefined;
function sharedHarness(): string {
  harnessText ??= readFileSync(join(KIT_ROOT, "grader", "run", "shared-harness.mjs"), "utf8");
  return harnessText;
}

/**
 * Bytes one case's report may take on the harness's standard output: both streams, each at most
 * the output cap and a byte, in base64, and room for the rest of the line.
 */
export function sharedReportBytes(outputCapBytes: number): number {
  return Math.ceil((outputCapBytes + 1) / 3) * 4 * 2 + 4096;
}

/**
 * One shared run: several cases of a bundled submission in one confined process, run by the
 * grader's harness (shared-harness.mjs), with the same sandbox, identity, permission model, heap
 * and data limits as one case's run. The CPU limit is every case's own together (the grader also
 * stops a case that goes past its own, shared-run.ts), the file limit every case's report.
 *
 * @param bundlePath the built bundle
 * @param cases the cases, in the order the harness runs them
 * @param key the hex key that signs the harness's reports (the program never sees it)
 */
export function sharedProgramRun(
  bundlePath: string,
  cases: readonly Case[],
  limits: ProgramLimits,
  uid: number | undefined,
  key: string,
  workDir?: string,
): ConfinedRun {
  const { bundle, copy, cwd } = bundlePlace(bundlePath, workDir);
  const one = kernelLimits(limits);
  const job = {
    bundle,
    outputCapBytes: limits.outputCapBytes,
    cases: cases.map((c) => ({ args: caseArgs(c), input: c.inputText })),
  };
  return {
    limits: {
      ...one,
      cpuSeconds: one.cpuSeconds * cases.length + 1,
      fileBytes: sharedReportBytes(limits.outputCapBytes) * cases.length,
    },
    stdin: JSON.stringify(job),
    env: { ...programEnv(), PATH: "/usr/bin:/bin", KIT_SHARED_KEY: key },
    uid,
    binds: [],
    command: process.execPath,
    args: [...nodeFlags(bundle, limits.memoryMiB), "--input-type=module", "-e", sharedHarness()],
    copy,
    cwd,
  };
}
