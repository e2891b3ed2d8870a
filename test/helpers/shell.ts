// Running a command as a user would from their shell: their environment without the variables
// vitest, npm or a GitHub runner would leak into it.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The environment a user's shell would have, plus `extra`; colour off. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.create(null) as NodeJS.ProcessEnv;
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|INIT_CWD$|VITEST|NODE_ENV$|TEST$|GITHUB_)/.test(key)) env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs `command args` in `cwd` with userEnv(env); never throws, up to 4 minutes. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    env: userEnv(env),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
}

/**
 * A PATH whose `sudo` runs its arguments as they are, for running the GitHub templates' `sudo env
 * "PATH=$PATH" npm run ...` steps as written. Only where the tests already run as root (CI and
 * this kit's machines), so the step runs with exactly the privileges it has on a runner; without
 * root the real sudo (if any) comes first on PATH.
 */
export function pathWithSudo(): string {
  const path = process.env.PATH ?? "/usr/bin:/bin";
  if (process.getuid?.() !== 0) return path;
  const dir = mkdtempSync(join(tmpdir(), "kit-sudo-"));
  writeFileSync(join(dir, "sudo"), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
  return `${dir}:${path}`;
}
