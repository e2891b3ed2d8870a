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
 * sudo as GitHub's Ubuntu runners configure it (passwordless; sudoers' env_reset and
 * secure_path): the command runs as it is (the tests already run as root), PATH is always
 * secure_path, and without -E the environment is reset to a few variables, so a step that needs
 * the job's GITHUB_STEP_SUMMARY or its Node.js fails here as it would on a runner.
 */
const SUDO_STAND_IN = `#!/bin/sh
secure=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin
case "$1" in
  -E) shift; exec env "PATH=$secure" "$@" ;;
  -*) echo "sudo stand-in: $1 is not supported" >&2; exit 1 ;;
esac
exec env -i "PATH=$secure" "HOME=$HOME" USER=root LOGNAME=root SHELL=/bin/sh \${TERM:+"TERM=$TERM"} "$@"
`;

/**
 * A PATH whose `sudo` is SUDO_STAND_IN, for running the GitHub templates' `sudo -E env
 * "PATH=$PATH" npm run ...` steps as written. Only where the tests already run as root (CI and
 * this kit's machines), so the step runs with exactly the privileges it has on a runner; without
 * root the real sudo (if any) comes first on PATH.
 */
export function pathWithSudo(): string {
  const path = process.env.PATH ?? "/usr/bin:/bin";
  if (process.getuid?.() !== 0) return path;
  const dir = mkdtempSync(join(tmpdir(), "kit-sudo-"));
  writeFileSync(join(dir, "sudo"), SUDO_STAND_IN, { mode: 0o755 });
  return `${dir}:${path}`;
}
