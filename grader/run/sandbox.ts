/**
 * The sandbox that submitted code runs in: each case's program, and (as the build worker) the
 * bundler and tsc that read submitted source. What each part does and does not stop, per mode, is
 * in docs/sandbox.md; in short:
 *
 * - `root` (the grader runs as root on Linux, as CI and Gradescope run it): every run gets its own
 *   PID, network and mount namespace (`unshare`), runs as a run identity no other grader on the
 *   machine holds (identities.ts), sees fresh private /tmp, /var/tmp and /dev/shm, sees none of the
 *   folders holding answers, submissions or reports (each covered by an empty read-only tmpfs), and
 *   dies with the grader (parent-death signal; the namespace's init takes everything with it).
 * - `user-namespace` (not root, but the kernel allows unprivileged user namespaces): the same
 *   namespaces and hidden folders through a user namespace; the program runs with the grader's own
 *   uid but without capabilities, so it can write where your user can, outside the hidden folders.
 * - `none` (neither): only Node's permission model, the limits and a minimal environment. `--batch`
 *   and `--cmd` then refuse to run unless `--allow-unisolated` is given.
 *
 * In every mode the kernel decides the limits, not the clock: CPU seconds (`ulimit -t`) and data
 * memory (`ulimit -d`, which Node honours for Buffers too), with the wall clock only a generous
 * backstop for programs that sleep. A shell between the sandbox and the program reports the
 * program's exit status and the CPU time it used (`times`) on a file descriptor the program does
 * not inherit.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { SetupError } from "../errors.ts";
import { KIT_ROOT } from "../kit.ts";
import { IDENTITY_BASE } from "./identities.ts";
import type { ProcessSpec } from "./run-process.ts";

export type IsolationMode = "root" | "user-namespace" | "none";

/** What this machine's sandbox can do, detected once per grader process. */
export interface SandboxFeatures {
  mode: IsolationMode;
  /** The flag that turns on Node's permission model in this Node (permissionModelFlag). */
  permissionFlag: string;
  /** Process groups can be killed (not on Windows). */
  processGroups: boolean;
  /** A POSIX shell for the reporting wrapper (absent on Windows). */
  shell: string | undefined;
  /** `setpriv` (util-linux), for the parent-death signal and dropping privileges. */
  setpriv: string | undefined;
  /** Why a stronger mode is not available, for the warning line; undefined in root mode. */
  weaker: string | undefined;
}

let detected: SandboxFeatures | undefined;

/** The first of `names` found on PATH or in the usual system folders. */
function which(name: string): string | undefined {
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** What a probe printed and how it ended, as spawnSync reports it. */
interface ProbeResult {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error | undefined;
}

/** A probe's command line and its time limit, ms. */
interface Probe {
  command: string;
  args: string[];
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/** Runs a probe and waits for it (the grader's first start; tests). */
function probeSync(p: Probe): ProbeResult {
  const r = spawnSync(p.command, p.args, {
    encoding: "utf8",
    timeout: p.timeoutMs,
    ...(p.env === undefined ? {} : { env: p.env }),
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", error: r.error };
}

/** Runs a probe without blocking, so that probes run beside each other and the grader's setup. */
function probeAsync(p: Probe): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      p.command,
      p.args,
      { encoding: "utf8", timeout: p.timeoutMs, ...(p.env === undefined ? {} : { env: p.env }) },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({
          status: error === null ? 0 : typeof code === "number" ? code : null,
          stdout,
          stderr,
          // A non-zero exit is a status, not a failure to run.
          error: error !== null && typeof code !== "number" ? error : undefined,
        });
      },
    );
  });
}

/** The flags that turn on Node's permission model: `--permission` from Node 22.13 and 23.5 (and
 * the only one from 26), `--experimental-permission` from 20.0 until then. */
export const PERMISSION_FLAGS = ["--permission", "--experimental-permission"] as const;

/** Two folders the probe allows, one it does not: the grader passes one `--allow-fs-read` per folder. */
const PROBE_ALLOWED = ["/kit-permission-probe-a", "/kit-permission-probe-b"];
/** What the probe prints when the model is on and behaves as the grader relies on. */
const PROBE_ON = "permission model on";
/**
 * Run with `node FLAG --allow-fs-read=A --allow-fs-read=B -e`: the model is on, both folders are
 * readable (several flags add up, as on Node 20.x after nodejs/node#49047), nothing else is, no
 * writes, no child processes, no workers, and a real read outside is denied.
 */
const PROBE_SCRIPT = `
const p = process.permission;
let denied = false;
try { require("node:fs").readdirSync("/"); } catch (e) { denied = e.code === "ERR_ACCESS_DENIED"; }
const on = p !== undefined && denied && p.has("fs.read", "${PROBE_ALLOWED[0]}") &&
  p.has("fs.read", "${PROBE_ALLOWED[1]}") && !p.has("fs.read", "/kit-permission-probe-c") &&
  !p.has("fs.write") && !p.has("child") && !p.has("worker");
process.stdout.write(on ? "${PROBE_ON}" : "permission model off");
`;

/**
 * The flag that turns on Node's permission model in the Node that runs programs, found by running
 * that Node with each flag (PERMISSION_FLAGS) and checking that the model is on and denies what the
 * grader relies on, never by its version. Node 20.x and 22.0-22.12 accept only
 * `--experimental-permission`, 22.13+ both, 26 only `--permission` (Node's changelogs).
 *
 * @param node the Node binary to probe (the grader's own, which runs programs)
 * @param known the flags Node says it accepts in NODE_OPTIONS: only the order tried depends on
 *   them, to spare a start on Node 20 and 22.0-22.12
 * @returns the flag, e.g. `--permission`
 * @throws SetupError when no flag turns the model on: programs are never run without it
 */
export function permissionModelFlag(
  node: string = process.execPath,
  known: ReadonlySet<string> = process.allowedNodeEnvironmentFlags,
): string {
  const said: string[] = [];
  for (const flag of permissionFlagOrder(known)) {
    const probe = probeSync(permissionProbe(node, flag));
    if (permissionProbeOn(probe)) return flag;
    said.push(permissionProbeSaid(flag, probe));
  }
  throw permissionModelMissing(node, said);
}

/** permissionModelFlag without blocking the grader while the probes run. */
async function permissionModelFlagAsync(node: string, known: ReadonlySet<string>): Promise<string> {
  const said: string[] = [];
  for (const flag of permissionFlagOrder(known)) {
    const probe = await probeAsync(permissionProbe(node, flag));
    if (permissionProbeOn(probe)) return flag;
    said.push(permissionProbeSaid(flag, probe));
  }
  throw permissionModelMissing(node, said);
}

/** The flags in the order to try them: those Node lists as known first. */
function permissionFlagOrder(known: ReadonlySet<string>): string[] {
  return [...PERMISSION_FLAGS].sort((a, b) => Number(known.has(b)) - Number(known.has(a)));
}

/** The probe of one flag: Node with the model on, two folders allowed, PROBE_SCRIPT. */
function permissionProbe(node: string, flag: string): Probe {
  return {
    command: node,
    args: [
      flag,
      "--no-warnings",
      ...PROBE_ALLOWED.map((d) => `--allow-fs-read=${d}`),
      "-e",
      PROBE_SCRIPT,
    ],
    timeoutMs: 10_000,
    env: { PATH: "/usr/bin:/bin" },
  };
}

const permissionProbeOn = (probe: ProbeResult) => probe.status === 0 && probe.stdout === PROBE_ON;

/** What a failed probe said, for the setup error. */
function permissionProbeSaid(flag: string, probe: ProbeResult): string {
  const output = `${probe.stdout}${probe.stderr}`.trim().split("\n")[0] ?? "";
  return `${flag}: ${probe.error?.message ?? (output === "" ? `exit ${String(probe.status)}` : output)}`;
}

function permissionModelMissing(node: string, said: string[]): SetupError {
  return new SetupError(
    `the Node that runs programs (${node}) has no permission model the grader can use, and the grader never runs programs without one (${said.join("; ")}). Use Node.js 20.19 or later 20.x, 22.12 or later, 24 or 26.`,
  );
}

/** The unshare arguments every namespaced run starts with (user namespace only without root). */
function unshareArgs(mode: "root" | "user-namespace"): string[] {
  return [
    ...(mode === "user-namespace" ? ["--user", "--map-root-user"] : []),
    "--net",
    "--ipc",
    "--pid",
    "--mount",
    "--fork",
    "--kill-child",
    "--propagation",
    "private",
    "--",
  ];
}

/** The parts found on this machine, and the probe of the strongest mode they may allow. */
interface IsolationPlan {
  shell: string | undefined;
  setpriv: string | undefined;
  /** The namespaced mode to try, its probe, and why it is not available when the probe fails. */
  attempt?: { mode: IsolationMode; probe: Probe; works: string | undefined; fails: string };
  /** Why no namespaced mode is tried. */
  weaker?: string;
}

/** What to probe: the real chain (namespaces, a tmpfs mount and, as root, a run identity). */
function isolationPlan(): IsolationPlan {
  const windows = process.platform === "win32";
  const shell = windows ? undefined : existsSync("/bin/sh") ? "/bin/sh" : undefined;
  const setpriv = process.platform === "linux" ? which("setpriv") : undefined;
  const unshare = process.platform === "linux" ? which("unshare") : undefined;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (process.platform !== "linux")
    return { shell, setpriv, weaker: `${process.platform}: no Linux namespaces` };
  if (shell === undefined || setpriv === undefined || unshare === undefined)
    return { shell, setpriv, weaker: "util-linux's unshare and setpriv are missing" };
  const mode: IsolationMode = isRoot ? "root" : "user-namespace";
  const mounts = "mount -t tmpfs kit /dev/shm && mount -t proc proc /proc";
  const script = isRoot
    ? `${mounts} && exec setpriv --reuid=${IDENTITY_BASE} --regid=${IDENTITY_BASE} --clear-groups --no-new-privs -- /bin/sh -c 'exit 0'`
    : mounts;
  return {
    shell,
    setpriv,
    attempt: {
      mode,
      probe: {
        command: unshare,
        args: [...unshareArgs(mode), shell, "-c", script],
        timeoutMs: 5000,
      },
      works: isRoot
        ? undefined
        : "not root: programs run as your own user (in namespaces, without capabilities)",
      fails: isRoot
        ? "running as root, but this kernel refused new namespaces or mounts"
        : "not root, and this kernel does not allow unprivileged user namespaces",
    },
  };
}

/** The features from the plan, the probe's outcome (true: exit 0) and the permission flag. */
function featuresFrom(
  plan: IsolationPlan,
  probed: boolean,
  permissionFlag: string,
): SandboxFeatures {
  const { attempt } = plan;
  const mode = attempt !== undefined && probed ? attempt.mode : "none";
  const weaker = attempt === undefined ? plan.weaker : probed ? attempt.works : attempt.fails;
  return {
    mode,
    permissionFlag,
    processGroups: process.platform !== "win32",
    shell: plan.shell,
    setpriv: plan.setpriv,
    weaker,
  };
}

/**
 * Detects the sandbox's parts once: which isolation mode this machine allows (probing the real
 * chain: namespaces, a tmpfs mount and, as root, switching to a run identity) and Node's
 * permission flag (permissionModelFlag). Waits for the probes; detectSandbox runs them without
 * blocking.
 *
 * @throws SetupError when Node has no permission model the grader can use
 */
export function sandboxFeatures(): SandboxFeatures {
  if (detected !== undefined) return detected;
  const permissionFlag = permissionModelFlag();
  const plan = isolationPlan();
  const probed = plan.attempt !== undefined && probeSync(plan.attempt.probe).status === 0;
  detected = featuresFrom(plan, probed, permissionFlag);
  return detected;
}

/**
 * sandboxFeatures, with both probes running at once and beside whatever the caller does until it
 * awaits them (a grading loads its cases meanwhile); later sandboxFeatures() calls return the same.
 *
 * @throws SetupError as sandboxFeatures
 */
export async function detectSandbox(): Promise<SandboxFeatures> {
  if (detected !== undefined) return detected;
  const plan = isolationPlan();
  const [permissionFlag, probed] = await Promise.all([
    permissionModelFlagAsync(process.execPath, process.allowedNodeEnvironmentFlags),
    plan.attempt === undefined ? false : probeAsync(plan.attempt.probe).then((r) => r.status === 0),
  ]);
  detected ??= featuresFrom(plan, probed, permissionFlag);
  return detected;
}

/** One line per sandbox part that is off on this machine (empty in root mode). */
export function sandboxWarnings(f: SandboxFeatures = sandboxFeatures()): string[] {
  if (process.platform === "win32") {
    return [
      "Windows: the sandbox is off (no process groups, no CPU limit, no separate users): grade untrusted code on Linux.",
    ];
  }
  if (f.mode === "root") return [];
  if (f.mode === "user-namespace")
    return [
      `sandbox: ${f.weaker ?? "user namespaces"}; run the grader as root (sudo) for separate identities`,
    ];
  return [
    `sandbox: ${f.weaker ?? "no isolation"}; only Node's permission model and the limits apply (see docs/sandbox.md)`,
  ];
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

/** The limits the kernel holds a run to. */
export interface KernelLimits {
  /** CPU time, whole seconds (RLIMIT_CPU: SIGXCPU, then SIGKILL). */
  cpuSeconds: number;
  /** Data memory, MiB (RLIMIT_DATA: heap, Buffers and every other private writable mapping). */
  dataMiB: number;
}

/**
 * The wall-clock backstops for a run whose CPU limit is `cpuSeconds`: a program is stopped when,
 * over a whole `idle` window (twice the CPU limit, at least 5 s), it used less than 1% of that
 * window in CPU (it sleeps or waits: a busy program gets far more even with a dozen others on two
 * cores), and in any case at `capMs` (5 x the CPU limit + 5 s).
 */
export function wallBackstops(cpuSeconds: number): {
  capMs: number;
  idle: { windowMs: number; minCpuMs: number };
} {
  const windowMs = Math.max(5000, cpuSeconds * 2000);
  return {
    capMs: cpuSeconds * 5000 + 5000,
    idle: { windowMs, minCpuMs: windowMs / 100 },
  };
}

/** A file or folder made visible inside the sandbox at a fixed path. */
export interface Bind {
  source: string;
  /** Where it appears, under SANDBOX_DIR. */
  target: string;
  writable?: boolean;
}

/** Where binds appear inside the sandbox: a private tmpfs mounted over /dev/shm for each run. */
export const SANDBOX_DIR = "/dev/shm";

/** One confined run: what to execute, what it may see, as whom, within which limits. */
export interface ConfinedRun {
  command: string;
  args: string[];
  /** Made visible at their targets (namespaced modes); ignored in mode none. */
  binds: Bind[];
  /** Where the run starts (a path valid inside the sandbox; in mode none, a real folder). */
  cwd: string;
  /** A folder also kept visible (read-only) at its own path, e.g. a --cmd program's folder. */
  visibleInPlace?: string;
  limits: KernelLimits;
  stdin: string;
  env: NodeJS.ProcessEnv;
  /** The run identity (root mode), or undefined to keep the grader's own uid. */
  uid: number | undefined;
}

/** A path escaped for an fstab field (spaces, tabs, newlines and backslashes as octal). */
export function fstabPath(path: string): string {
  return path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

const isInside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);

/** Folders every namespaced run gets fresh and empty, so nothing under them needs hiding. */
const PRIVATE_DIRS = ["/tmp", "/var/tmp", SANDBOX_DIR];
/**
 * Why runs in this sandbox mode could not start `node` (the grader's own binary: it runs every
 * TypeScript program, the bundler and tsc), or undefined when they can. In the namespaced modes a
 * run gets empty /tmp, /var/tmp and /dev/shm, so a Node installed under them is gone; as root a run
 * is a run identity with no groups, which only the "other" permission bits let through.
 *
 * @param mode the sandbox's mode
 * @param node the Node binary, e.g. process.execPath (symbolic links are followed)
 * @param privateDirs the folders every run gets empty
 * @returns the message for the instructor, or undefined
 */
export function nodeUnreachable(
  mode: IsolationMode,
  node: string = process.execPath,
  privateDirs: readonly string[] = PRIVATE_DIRS,
): string | undefined {
  if (mode === "none") return undefined;
  const real = realpathSync(node);
  const fix = "install Node.js where every user can read it (e.g. under /usr/local or /opt)";
  for (const dir of privateDirs) {
    if (existsSync(dir) && isInside(real, realpathSync(dir))) {
      return `Node.js is at ${real}, under ${dir}, which every sandboxed run gets empty: ${fix}`;
    }
  }
  if (mode !== "root") return undefined;
  // The file must be executable by others, and every folder above it searchable by others.
  const closed = closedToOthers(real);
  if (closed.length === 0) return undefined;
  return `Node.js is at ${real}, which the sandbox's run identities cannot execute (no execute permission for others on ${closed.join(", ")}): ${fix}`;
}

/** `real` and each folder above it that others cannot execute or search (no `o+x` bit). */
function closedToOthers(real: string): string[] {
  const closed: string[] = [];
  if ((statSync(real).mode & 0o001) === 0) closed.push(real);
  for (let dir = real.slice(0, real.lastIndexOf(sep)); dir !== "";) {
    if ((statSync(dir).mode & 0o001) === 0) closed.push(dir);
    dir = dir.slice(0, dir.lastIndexOf(sep));
  }
  return closed;
}

/**
 * Why a `--cmd` program typed in folder `cwd` cannot read its own folder, or undefined when it can.
 * As root it runs as a run identity with no groups, which only the "other" permission bits let
 * through: the folder and every folder above it must be searchable by others (a clone under a
 * 0700 home or `mktemp -d` folder is not), or every case crashes on "Permission denied".
 *
 * @param mode the sandbox's mode
 * @param cwd the folder the command runs in (symbolic links are followed)
 * @returns a warning for the instructor, or undefined
 */
export function commandFolderClosed(mode: IsolationMode, cwd: string): string | undefined {
  if (mode !== "root") return undefined;
  const real = realpathSync(cwd);
  const closed = closedToOthers(real);
  if (closed.length === 0) return undefined;
  return `--cmd runs the program as a separate user, who cannot enter ${real} (no execute permission for others on ${closed.join(", ")}): its cases will crash on "Permission denied". Let others in (chmod o+x on those folders) or copy the program to a folder every user can read (docs/sandbox.md)`;
}

/** World-writable folders besides /tmp, /var/tmp and /dev/shm on common Linux systems. */
const OTHER_WRITABLE_DIRS = ["/run/lock", "/var/lock", "/var/crash"];
/** Where the folder kept visible is parked while /tmp and the hidden folders are covered. */
const PARKED = `${SANDBOX_DIR}/.visible`;

/**
 * The mount table a namespaced run starts with, in order: a private tmpfs over /dev/shm with the
 * binds inside it (made before anything else is covered, so sources anywhere stay reachable), the
 * folder kept visible parked there too; then private /tmp and /var/tmp, an empty read-only tmpfs
 * over every hidden folder, the visible folder back at its own path (read-only), and a /proc of
 * the run's own PID namespace that shows only its own processes.
 */
export function mountTable(
  run: ConfinedRun,
  hidden: readonly string[],
  readOnly: readonly string[] = [],
): string {
  const tmpfs = (target: string, options: string) =>
    `kit ${fstabPath(target)} tmpfs ${options} 0 0`;
  const bind = (source: string, target: string, writable: boolean) =>
    `${fstabPath(source)} ${fstabPath(target)} none bind,${writable ? "rw" : "ro"},nosuid,nodev,X-mount.mkdir 0 0`;
  const lines = [tmpfs(SANDBOX_DIR, "rw,nosuid,nodev,size=64m,mode=1777")];
  for (const b of run.binds) lines.push(bind(b.source, b.target, b.writable === true));
  const keep = run.visibleInPlace === undefined ? undefined : resolve(run.visibleInPlace);
  if (keep !== undefined) lines.push(bind(keep, PARKED, false));
  for (const dir of PRIVATE_DIRS.slice(0, 2)) {
    if (existsSync(dir)) lines.push(tmpfs(dir, "rw,nosuid,nodev,size=64m,mode=1777"));
  }
  // The other folders anyone may write to: empty and private too.
  const others = new Set(
    OTHER_WRITABLE_DIRS.filter((d) => existsSync(d)).map((d) => realpathSync(d)),
  );
  for (const dir of others) lines.push(tmpfs(dir, "rw,nosuid,nodev,noexec,size=1m,mode=1777"));
  // Folders the run's user could write to otherwise (user-namespace mode: the kit, whose grader
  // code and packages the next grading runs): read-only in place, before anything inside is covered.
  for (const dir of readOnly) {
    if (!PRIVATE_DIRS.some((p) => isInside(dir, p)) && existsSync(dir))
      lines.push(`${fstabPath(dir)} ${fstabPath(dir)} none bind,ro 0 0`);
  }
  // A folder is covered by an empty tmpfs; a file (a worktree's `.git`) by /dev/null.
  const hide = (dir: string) =>
    lines.push(
      statSync(dir).isDirectory()
        ? tmpfs(dir, "ro,nosuid,nodev,noexec,size=4k,mode=000")
        : `/dev/null ${fstabPath(dir)} none bind,ro 0 0`,
    );
  const outermost = [...new Set(hidden)].sort((a, b) => a.length - b.length);
  const covered: string[] = [...PRIVATE_DIRS];
  for (const dir of outermost) {
    // Under a covered folder it is gone already; a folder holding the visible one stays; one
    // inside the visible folder is covered after that folder is back (below).
    if (covered.some((c) => isInside(dir, c))) continue;
    if (keep !== undefined && (isInside(keep, dir) || isInside(dir, keep))) continue;
    if (!existsSync(dir)) continue;
    hide(dir);
    covered.push(dir);
  }
  if (keep !== undefined) {
    lines.push(bind(PARKED, keep, false));
    const inside: string[] = [];
    for (const dir of outermost) {
      if (dir === keep || !isInside(dir, keep) || inside.some((c) => isInside(dir, c))) continue;
      if (!existsSync(dir)) continue;
      hide(dir);
      inside.push(dir);
    }
  }
  lines.push("kitproc /proc proc rw,nosuid,nodev,noexec,hidepid=2 0 0");
  return `${lines.join("\n")}\n`;
}

/**
 * The wrapper shell's script. Positional parameters: $1 the mount table ("" for none), $2 CPU
 * seconds, $3 data KiB, $4 the working folder, $5 the run identity ("" to keep the uid), $6 "drop"
 * to drop every capability (user namespace), then the command. It reports on fd 3, which the
 * program does not inherit: `status N` and the output of `times` (the last line is the children's
 * user and system CPU time).
 */
const WRAPPER = [
  "table=$1 cpu=$2 data=$3 dir=$4 uid=$5 drop=$6; shift 6",
  // The wrapper is the namespace's first process: a signal from the program must not end it (a
  // trap with a command is a handler, and handlers are reset to the default in the program).
  "trap : HUP INT QUIT TERM USR1 USR2 ALRM PIPE",
  'if [ -n "$table" ]; then mount -a -T "$table" || { echo "sandbox mount failed" >&3; exit 125; }; fi',
  'cd "$dir" || { echo "sandbox cd failed" >&3; exit 125; }',
  // cd sets OLDPWD to the grader's own folder: the program learns nothing of it.
  "unset OLDPWD",
  // SIGXCPU at the soft limit, SIGKILL a second later at the hard one.
  // Files of at most 64 MiB, at most 256 processes (per run identity, as root): no fork bomb.
  'ulimit -S -t "$cpu" && ulimit -H -t "$((cpu + 1))" && ulimit -d "$data" && ulimit -f 131072 || { echo "sandbox ulimit failed" >&3; exit 125; }',
  // The process count is -u in bash, -p in dash.
  '[ -z "$uid" ] || ulimit -u 256 2>/dev/null || ulimit -p 256 || { echo "sandbox ulimit failed" >&3; exit 125; }',
  'if [ -n "$uid" ]; then',
  '  setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs --pdeathsig=KILL -- "$@" 3>&-',
  'elif [ -n "$drop" ]; then',
  '  setpriv --no-new-privs --inh-caps=-all --bounding-set=-all --pdeathsig=KILL -- "$@" 3>&-',
  "elif command -v setpriv >/dev/null 2>&1; then",
  '  setpriv --pdeathsig=KILL -- "$@" 3>&-',
  "else",
  '  "$@" 3>&-',
  "fi",
  "s=$?",
  'echo "status $s" >&3',
  "times >&3",
  "exit $s",
].join("\n");

/**
 * Where the grader keeps the mount tables it writes: a private folder, removed on exit.
 */
let tablesDir: string | undefined;
let tableCount = 0;
function tablesFolder(): string {
  if (tablesDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "kit-grade-mounts-"));
    tablesDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return tablesDir;
}

/**
 * How to start one confined run as a process. The process reports on fd 3 (see run-process.ts).
 *
 * @param run what to run and how it is confined
 * @param hidden folders the run must not see (answers, submissions, reports); namespaced modes
 * @throws Error when the sandbox needs a POSIX shell and there is none (Windows)
 */
export function confinedSpec(
  run: ConfinedRun,
  hidden: readonly string[],
  f: SandboxFeatures = sandboxFeatures(),
): ProcessSpec {
  const dataKiB = String(run.limits.dataMiB * 1024);
  const cpu = String(run.limits.cpuSeconds);
  if (f.shell === undefined) {
    // Windows: no wrapper, no limits but the wall clock (the warning says so).
    return { command: run.command, args: run.args, cwd: run.cwd, env: run.env, stdin: run.stdin };
  }
  if (f.mode === "none") {
    const args = ["-c", WRAPPER, "kit-sandbox", "", cpu, dataKiB, run.cwd, "", ""];
    // The wrapper too dies with the grader where setpriv exists (its program dies with it).
    const wrapper =
      f.setpriv === undefined ? [f.shell] : [f.setpriv, "--pdeathsig=KILL", "--", f.shell];
    return {
      command: wrapper[0] ?? f.shell,
      args: [...wrapper.slice(1), ...args, run.command, ...run.args],
      env: run.env,
      stdin: run.stdin,
      reportFd: true,
    };
  }
  const table = join(tablesFolder(), `table-${process.pid}-${tableCount++}`);
  // As root the run identity owns nothing; in a user namespace the program is your user, so the
  // kit (the grader's code, its packages, its .grader/ build) is made read-only for it.
  const readOnly = f.mode === "user-namespace" ? [KIT_ROOT.replace(/\/$/, "")] : [];
  writeFileSync(
    table,
    mountTable(
      run,
      hidden.map((d) => resolve(d)),
      readOnly,
    ),
    { mode: 0o600 },
  );
  const uid = f.mode === "root" && run.uid !== undefined ? String(run.uid) : "";
  const drop = f.mode === "user-namespace" ? "drop" : "";
  const inner = [f.shell, "-c", WRAPPER, "kit-sandbox", table, cpu, dataKiB, run.cwd, uid, drop];
  return {
    // setpriv first: the whole chain gets SIGKILL when the grader dies, however it dies.
    command: f.setpriv ?? "setpriv",
    args: [
      "--pdeathsig=KILL",
      "--",
      "unshare",
      ...unshareArgs(f.mode),
      ...inner,
      run.command,
      ...run.args,
    ],
    env: run.env,
    stdin: run.stdin,
    reportFd: true,
    // unshare --pid --fork --kill-child: every process of the run dies with it.
    pipesCloseOnExit: true,
    cleanup: () => rmSync(table, { force: true }),
  };
}
