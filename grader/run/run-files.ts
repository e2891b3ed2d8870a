/**
 * The grader's private folder for what a run needs outside its sandbox: its mount tables, the
 * empty folder its root is mounted on, and its input, output and report files. Made once per
 * grader process (mode 0700, in the system's temporary folder) and removed when the grader exits.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let runsDir: string | undefined;

/** The folder (created on first use). */
export function runsFolder(): string {
  if (runsDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "kit-grade-runs-"));
    // Where each namespaced run mounts its own root (in its own mount namespace: they never meet).
    mkdirSync(join(dir, "root"));
    runsDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return runsDir;
}

/** A fresh path prefix in runsFolder() for one run's files (`<stem>.out`, `<stem>.first`...). */
export function runFileStem(): string {
  // Random, so that a program reading its own file descriptors' paths learns no count of runs.
  return join(runsFolder(), `run-${randomUUID()}`);
}
