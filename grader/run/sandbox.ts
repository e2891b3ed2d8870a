/**
 * The sandbox that submitted code runs in: each case's program, and (as the build worker) the
 * bundler and tsc that read submitted source. What each part does and does not stop, per mode, is
 * in docs/sandbox.md; in short:
 *
 * - `root` (the grader runs as root on Linux, as CI and Gradescope run it): every run gets its own
 *   PID, network and mount namespace (`unshare`) and a root of its own built from an allow-list
 *   alone (rootTables: the system folders read-only, private /tmp, /var/tmp and /dev/shm, a few
 *   devices, what the run is given; then pivot_root), so nothing of the kit, the submissions or
 *   the reports exists for it; it runs as a run identity no other grader on the machine holds
 *   (identities.ts) and dies with the grader (parent-death signal; the namespace's init takes
 *   everything with it).
 * - `user-namespace` (not root, but the kernel allows unprivileged user namespaces): the same
 *   namespaces and root through a user namespace; the program runs with the grader's own uid but
 *   without capabilities.
 * - `none` (neither): only Node's permission model, the limits and a minimal environment. `--batch`
 *   and `--cmd` then refuse to run unless `--allow-unisolated` is given.
 *
 * In every mode the kernel decides the limits, not the clock: CPU seconds (`ulimit -t`), data
 * memory (`ulimit -d`, which Node honours for Buffers too) and file size (`ulimit -f`: standard
 * output and error are files), with the wall clock only a backstop for programs that use almost no
 * CPU. A shell between the sandbox and the program reports the program's exit status, its start
 * and end and the CPU time it used (`times`) on a file descriptor the program does not inherit.
 */
import { spawn, spawnSync, type StdioOptions } from "node:child_process";
import {
  closeSync,
  existsSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { release as osRelease } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { SetupError } from "../errors.ts";
import { IDENTITY_BASE } from "./identities.ts";
import { runFileStem, runsFolder } from "./run-files.ts";
import type { ProcessSpec, RunLimits } from "./run-process.ts";

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
  /**
   * Root mode: each program runs, as its run identity, in a user namespace of its own (the
   * kernel lets unprivileged users make one), so that nothing it leaves in the kernel keyed by
   * its uid (its user keyring) outlives the run, and it can make no user namespace of its own.
   */
  ownUserNamespace: boolean;
  /**
   * The process limit (256) counts the run's own processes: as a run identity (root mode), or in
   * the run's user namespace on Linux 5.14 and later, which counts processes per namespace.
   */
  processLimit: boolean;
}

/**
 * True on Linux 5.14 and later, which counts a user's processes per user namespace for the
 * process limit (RLIMIT_NPROC); before, one count per uid machine-wide.
 *
 * @param release os.release(), e.g. `6.1.0-18-amd64`
 */
export function countsProcessesPerNamespace(release: string = osRelease()): boolean {
  const [major = 0, minor = 0] = release.split(".").map((part) => Number.parseInt(part, 10));
  return major > 5 || (major === 5 && minor >= 14);
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

/**
 * How long a probe may take, ms: a backstop for a chain that hangs, never a verdict on speed. A
 * start takes a fraction of a second, but seconds on a machine loaded with a dozen busy loops, and
 * a probe cut short would give a weaker mode (or no permission model) for the whole grading.
 */
const PROBE_TIMEOUT_MS = 120_000;

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
  /** The command reports on fd 3 (the sandbox's wrapper): given /dev/null there. */
  reportFd?: boolean;
  /** Called once the probe has ended. */
  cleanup?: (() => void) | undefined;
}

/** The probe's standard streams: fd 3 on /dev/null where it reports there. */
function probeStdio(p: Probe): { stdio: StdioOptions; close: () => void } {
  if (p.reportFd !== true) return { stdio: ["ignore", "pipe", "pipe"], close: () => {} };
  const fd = openSync("/dev/null", "w");
  return { stdio: ["ignore", "pipe", "pipe", fd], close: () => closeSync(fd) };
}

/** Runs a probe and waits for it (the grader's first start; tests). */
function probeSync(p: Probe): ProbeResult {
  const { stdio, close } = probeStdio(p);
  try {
    const r = spawnSync(p.command, p.args, {
      encoding: "utf8",
      timeout: p.timeoutMs,
      stdio,
      ...(p.env === undefined ? {} : { env: p.env }),
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", error: r.error };
  } finally {
    close();
    p.cleanup?.();
  }
}

/** Runs a probe without blocking, so that probes run beside each other and the grader's setup. */
function probeAsync(p: Probe): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const { stdio, close } = probeStdio(p);
    const child = spawn(p.command, p.args, {
      stdio,
      timeout: p.timeoutMs,
      ...(p.env === undefined ? {} : { env: p.env }),
    });
    close();
    const out = { stdout: "", stderr: "" };
    child.stdout?.setEncoding("utf8").on("data", (t: string) => (out.stdout += t));
    child.stderr?.setEncoding("utf8").on("data", (t: string) => (out.stderr += t));
    let error: Error | undefined;
    child.on("error", (e) => {
      error = e;
    });
    child.on("close", (status) => {
      p.cleanup?.();
      resolve({ status, ...out, error });
    });
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
    timeoutMs: PROBE_TIMEOUT_MS,
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

/** One namespaced configuration to try: its features, and its probe (made when it is tried). */
interface Attempt {
  features: SandboxFeatures;
  probe: () => Probe;
}

/** The parts found on this machine, and the probes of the modes they may allow, strongest first. */
interface IsolationPlan {
  shell: string | undefined;
  setpriv: string | undefined;
  /** Tried in order: the first that works is the sandbox. */
  attempts: Attempt[];
  /** Why no mode of the attempts is available: when none is tried, or all fail. */
  weaker: string;
}

/** What to probe: the real chain (namespaces, a root of its own, as root a run identity). */
function isolationPlan(): IsolationPlan {
  const windows = process.platform === "win32";
  const shell = windows ? undefined : existsSync("/bin/sh") ? "/bin/sh" : undefined;
  const setpriv = process.platform === "linux" ? which("setpriv") : undefined;
  const unshare = process.platform === "linux" ? which("unshare") : undefined;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (process.platform !== "linux")
    return { shell, setpriv, attempts: [], weaker: `${process.platform}: no Linux namespaces` };
  if (shell === undefined || setpriv === undefined || unshare === undefined)
    return {
      shell,
      setpriv,
      attempts: [],
      weaker: "util-linux's unshare and setpriv are missing",
    };
  const base = { permissionFlag: "", processGroups: true, shell, setpriv };
  const attempt = (features: SandboxFeatures): Attempt => ({
    features,
    probe: () => {
      const spec = confinedSpec(
        {
          command: "/bin/sh",
          args: ["-c", "exit 0"],
          binds: [],
          cwd: "/",
          limits: { cpuSeconds: 5, dataMiB: 1024, fileBytes: 1024 * 1024, openFiles: 64 },
          stdin: "",
          env: { PATH: "/usr/bin:/bin" },
          uid: features.mode === "root" ? IDENTITY_BASE : undefined,
        },
        features,
      );
      return {
        command: spec.command,
        args: spec.args,
        timeoutMs: PROBE_TIMEOUT_MS,
        env: spec.env,
        reportFd: true,
        cleanup: spec.cleanup,
      };
    },
  });
  if (isRoot) {
    return {
      shell,
      setpriv,
      attempts: [
        attempt({
          ...base,
          mode: "root",
          weaker: undefined,
          ownUserNamespace: true,
          processLimit: true,
        }),
        // Where the run identities may not make user namespaces (unprivileged ones are off).
        attempt({
          ...base,
          mode: "root",
          weaker:
            "the run identities cannot have user namespaces of their own (this kernel allows none to unprivileged users): a program's user keyring outlives its run",
          ownUserNamespace: false,
          processLimit: true,
        }),
      ],
      weaker: "running as root, but this kernel refused new namespaces or mounts",
    };
  }
  return {
    shell,
    setpriv,
    attempts: [
      attempt({
        ...base,
        mode: "user-namespace",
        weaker: "not root: programs run as your own user (in namespaces, without capabilities)",
        ownUserNamespace: false,
        processLimit: countsProcessesPerNamespace(),
      }),
    ],
    weaker: "not root, and this kernel does not allow unprivileged user namespaces",
  };
}

/** The features of the first attempt that worked (its index, or -1), with the permission flag. */
function featuresFrom(
  plan: IsolationPlan,
  worked: number,
  permissionFlag: string,
): SandboxFeatures {
  const found = plan.attempts[worked];
  if (found !== undefined) return { ...found.features, permissionFlag };
  return {
    mode: "none",
    permissionFlag,
    processGroups: process.platform !== "win32",
    shell: plan.shell,
    setpriv: plan.setpriv,
    weaker: plan.weaker,
    ownUserNamespace: false,
    processLimit: false,
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
  const worked = plan.attempts.findIndex((a) => probeSync(a.probe()).status === 0);
  detected = featuresFrom(plan, worked, permissionFlag);
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
  const firstWorking = async () => {
    for (const [i, a] of plan.attempts.entries())
      if ((await probeAsync(a.probe())).status === 0) return i;
    return -1;
  };
  const [permissionFlag, worked] = await Promise.all([
    permissionModelFlagAsync(process.execPath, process.allowedNodeEnvironmentFlags),
    firstWorking(),
  ]);
  detected ??= featuresFrom(plan, worked, permissionFlag);
  return detected;
}

/** One line per sandbox part that is off on this machine (empty in root mode). */
export function sandboxWarnings(f: SandboxFeatures = sandboxFeatures()): string[] {
  if (process.platform === "win32") {
    return [
      "Windows: the sandbox is off (no process groups, no CPU limit, no separate users): grade untrusted code on Linux.",
    ];
  }
  if (f.mode === "root") return f.weaker === undefined ? [] : [`sandbox: ${f.weaker}`];
  if (f.mode === "user-namespace")
    return [
      `sandbox: ${f.weaker ?? "user namespaces"}; enough for your own code; to grade other people's code, run the grader as root (sudo): each program then gets an identity of its own`,
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
  /**
   * The largest file the run may write, bytes (RLIMIT_FSIZE, in whole 512-byte blocks rounded
   * up: SIGXFSZ past it). Standard output and standard error are files, so this caps them too.
   */
  fileBytes: number;
  /**
   * Open files at once (RLIMIT_NOFILE, hard): each memory file and socket is one, so this bounds
   * what a program can hold in kernel memory outside its data limit (memory files of at most
   * fileBytes each, socket buffers).
   */
  openFiles: number;
}

/**
 * When the wall clock may stop a run whose CPU limit is `cpuSeconds`: only a run that uses almost
 * no CPU, never a busy one however slowly a loaded machine lets it go.
 *
 * - `idle`: over a window (twice the CPU limit, at least 5 s) it used less than 1% of that
 *   window's length in CPU (it sleeps or waits; a busy program gets far more, even with a dozen
 *   others on two cores);
 * - `capMs`: 50 times the CPU limit. A run still going then has used less than 2% of a CPU on
 *   average, or the kernel would have stopped it at its CPU limit already.
 */
export function wallBackstops(cpuSeconds: number): {
  capMs: number;
  idle: { windowMs: number; minCpuFraction: number };
} {
  return {
    capMs: cpuSeconds * 50_000,
    idle: { windowMs: Math.max(5000, cpuSeconds * 2000), minCpuFraction: 0.01 },
  };
}

/**
 * The limits runProcess holds a confined run to besides its kernel limits: the wall-clock
 * backstops (wallBackstops), the grading's time budget, and the same CPU and memory limits for the
 * run's processes together (a --cmd program may fork), a little above the kernel's per-process
 * ones, so that a single process meets the kernel's first.
 *
 * @param limits the run's kernel limits
 * @param deadline when the grading must end, as a performance.now() time in ms (--time-budget)
 */
export function confinedRunLimits(
  limits: KernelLimits,
  deadline: number | undefined,
): Pick<RunLimits, "timeoutMs" | "idle" | "budgetMs" | "tree"> {
  const backstops = wallBackstops(limits.cpuSeconds);
  return {
    timeoutMs: backstops.capMs,
    idle: backstops.idle,
    ...(deadline === undefined ? {} : { budgetMs: Math.max(1, deadline - performance.now()) }),
    tree: { cpuMs: limits.cpuSeconds * 1000 + 500, rssBytes: (limits.dataMiB + 128) * 1024 * 1024 },
  };
}

/** A folder made visible inside the sandbox at a fixed path (a tool's copy, its packages). */
export interface Bind {
  source: string;
  /** Where it appears, under SANDBOX_DIR. */
  target: string;
  writable?: boolean;
}

/** Private and writable in every namespaced run: its binds and copies appear under it. */
export const SANDBOX_DIR = "/dev/shm";

/** One confined run: what to execute, what it may see, as whom, within which limits. */
export interface ConfinedRun {
  command: string;
  args: string[];
  /** Folders made visible at their targets (namespaced modes); ignored in mode none. */
  binds: Bind[];
  /**
   * A file copied into the run's own tmpfs at `target` (under SANDBOX_DIR) before it starts, so
   * that no mount names where it came from (a bundle in the kit's build folder); namespaced modes.
   */
  copy?: { source: string; target: string };
  /** Where the run starts (a path valid inside the sandbox; in mode none, a real folder). */
  cwd: string;
  /** A folder also made visible, read-only, at its own path: a --cmd program's folder. */
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

/**
 * The system folders every namespaced run sees, read-only: programs and their libraries, and the
 * configuration they read (time zones, the dynamic linker's cache). A folder that is a link on
 * this machine (`/bin -> usr/bin`) is shown as the folder it names.
 */
export const SYSTEM_FOLDERS = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
] as const;

/** The device files every namespaced run gets (bound from the machine's /dev). */
export const DEVICES = ["null", "zero", "random", "urandom"] as const;

/** Folders every namespaced run gets fresh, empty and writable (64 MiB of memory each). */
export const PRIVATE_FOLDERS = ["/tmp", "/var/tmp", SANDBOX_DIR] as const;

/** `path` with every link on its way followed, as far as it exists (the rest kept as written). */
function realOf(path: string): string {
  const absolute = resolve(path);
  for (let at = absolute; ; at = dirname(at)) {
    if (existsSync(at)) return join(realpathSync(at), absolute.slice(at.length));
    if (dirname(at) === at) return absolute;
  }
}

/**
 * Which of `paths` lies inside a folder every run sees (SYSTEM_FOLDERS, links followed on both
 * sides), each with the first such folder: a kit, a private case or a report kept there would be
 * in sight of every program.
 *
 * @param paths folders no program may see
 * @returns one `[path, system folder]` pair per exposed path, in the order given
 */
export function exposedFolders(paths: readonly string[]): [string, string][] {
  const system = SYSTEM_FOLDERS.filter((d) => existsSync(d)).map((d) => [d, realOf(d)] as const);
  const exposed: [string, string][] = [];
  for (const path of paths) {
    const real = realOf(path);
    const folder = system.find(([, d]) => isInside(real, d));
    if (folder !== undefined) exposed.push([path, folder[0]]);
  }
  return exposed;
}

/**
 * The folder of the Node binary that runs programs, when it must be bound into each run (it is
 * not inside a system folder every run sees anyway); undefined otherwise.
 */
export function nodeFolderToBind(node: string = process.execPath): string | undefined {
  const real = realpathSync(node);
  return exposedFolders([real]).length > 0 ? undefined : dirname(real);
}

/**
 * Why runs in this sandbox mode could not start `node` (the grader's own binary: it runs every
 * TypeScript program, the bundler and tsc), or undefined when they can. As root a run is a run
 * identity with no groups, which only the "other" permission bits let through: the binary, and
 * the folders on its way that the run sees as they are (inside a system folder: all of them; else
 * its own folder, bound at its own path).
 *
 * @param mode the sandbox's mode
 * @param node the Node binary, e.g. process.execPath (symbolic links are followed)
 * @returns the message for the instructor, or undefined
 */
export function nodeUnreachable(
  mode: IsolationMode,
  node: string = process.execPath,
): string | undefined {
  if (mode !== "root") return undefined;
  const real = realpathSync(node);
  const bound = nodeFolderToBind(real);
  const closed = closedToOthers(real, bound);
  if (closed.length === 0) return undefined;
  return `Node.js is at ${real}, which the sandbox's run identities cannot execute (no execute permission for others on ${closed.join(", ")}): install Node.js where every user can read it (e.g. under /usr/local or /opt)`;
}

/**
 * `real` and each folder above it, up to `top` (included) or the root, that others cannot
 * execute or search (no `o+x` bit).
 */
function closedToOthers(real: string, top?: string): string[] {
  const closed: string[] = [];
  if ((statSync(real).mode & 0o001) === 0) closed.push(real);
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) closed.push(dir);
    if (dir === top || dir === dirname(dir)) break;
  }
  return closed;
}

/**
 * Why a `--cmd` program's folder cannot be read by the program, or undefined when it can. As root
 * it runs as a run identity with no groups, which only the "other" permission bits let through.
 * The folder is bound at its own path in a root of its own, so the folders above it do not
 * matter: only the folder itself must let others in.
 *
 * @param mode the sandbox's mode
 * @param dir the program's folder (symbolic links are followed)
 * @returns a warning for the instructor, or undefined
 */
export function commandFolderClosed(mode: IsolationMode, dir: string): string | undefined {
  if (mode !== "root") return undefined;
  const real = realpathSync(dir);
  if ((statSync(real).mode & 0o005) === 0o005) return undefined;
  return `--cmd runs the program as a separate user, who cannot read its folder ${real} (no read and execute permission for others): its cases will crash on "Permission denied". Let others in (chmod o+rx ${real}) or copy the program to a folder every user can read (docs/sandbox.md)`;
}

/**
 * The two mount tables of a namespaced run's root, built from an allow-list alone (nothing of the
 * machine is visible unless listed here), mounted under `root` (a folder of the grader's own)
 * before the run switches to it with pivot_root:
 *
 * 1. a small tmpfs as the root (read-only once built, /dev a folder of it); SYSTEM_FOLDERS
 *    read-only; private /tmp, /var/tmp and /dev/shm;
 * 2. the device files (DEVICES, bound onto files the wrapper makes in /dev between the two
 *    tables), the Node binary's folder when it is not in a system folder, the run's binds, its
 *    copy's folder (a tmpfs of its own, read-only once the copy is in), the --cmd folder
 *    read-only at its own path, and a /proc of the run's own PID namespace that shows only its
 *    own processes.
 *
 * @param run the run (binds, copy, visible folder)
 * @param root where the new root is mounted, outside the run's view
 * @param nodeFolder the Node binary's folder to bind (nodeFolderToBind), if any
 */
export function rootTables(
  run: Pick<ConfinedRun, "binds" | "copy" | "visibleInPlace">,
  root: string,
  nodeFolder: string | undefined = nodeFolderToBind(),
): [string, string] {
  const at = (path: string) => fstabPath(`${root}${path}`);
  const tmpfs = (target: string, options: string) =>
    `kit ${at(target)} tmpfs ${options},X-mount.mkdir 0 0`;
  const bind = (source: string, target: string, writable: boolean) =>
    `${fstabPath(source)} ${at(target)} none bind,${writable ? "rw" : "ro"},nosuid,nodev,X-mount.mkdir 0 0`;
  const first = [`kit ${fstabPath(root)} tmpfs rw,nosuid,nodev,size=1m,mode=755 0 0`];
  for (const dir of SYSTEM_FOLDERS) if (existsSync(dir)) first.push(bind(dir, dir, false));
  for (const dir of PRIVATE_FOLDERS.slice(0, 2))
    first.push(tmpfs(dir, "rw,nosuid,nodev,size=64m,mode=1777"));
  // /dev is a folder of the root (read-only once built): its device files are bound onto files
  // made there between the two tables.
  first.push(tmpfs(SANDBOX_DIR, "rw,nosuid,nodev,size=64m,mode=1777"));

  const second = DEVICES.map((d) => `/dev/${d} ${at(`/dev/${d}`)} none bind,nosuid,noexec 0 0`);
  if (nodeFolder !== undefined) second.push(bind(nodeFolder, nodeFolder, false));
  for (const b of run.binds) second.push(bind(b.source, b.target, b.writable === true));
  if (run.copy !== undefined)
    second.push(tmpfs(dirname(run.copy.target), "rw,nosuid,nodev,size=64m,mode=755"));
  if (run.visibleInPlace !== undefined) {
    const dir = realpathSync(run.visibleInPlace);
    second.push(bind(dir, dir, false));
  }
  second.push(`kitproc ${at("/proc")} proc rw,nosuid,nodev,noexec,hidepid=2,X-mount.mkdir 0 0`);
  return [`${first.join("\n")}\n`, `${second.join("\n")}\n`];
}

/**
 * The wrapper shell's script. Positional parameters: $1 and $2 the two mount tables ("" for mode
 * none), $3 the new root's folder, $4 a file to copy into the run and $5 where (a path inside
 * the run), $6 CPU seconds, $7 data KiB, $8 file size in 512-byte blocks, $9 open files, ${10}
 * the working folder, ${11} the process limit ("" for none), ${12} the run identity ("" to keep
 * the uid), ${13} how the program is started: `own` (as the run identity, in a user namespace of
 * its own), `identity` (as the run identity), `drop` (in the wrapper's own user namespace, every
 * capability dropped) or "" (as it is); then the command. It reports on fd 3, which the program
 * does not inherit: `start` and `end` (seconds since boot, /proc/uptime), `status N`, and the
 * output of `times` (its last line is the children's user and system CPU time).
 */
const WRAPPER = [
  "first=$1 second=$2 root=$3 copy=$4 copyto=$5 cpu=$6 data=$7 fsize=$8 nofile=$9",
  "dir=${10} nproc=${11} uid=${12} how=${13}; shift 13",
  // The wrapper's own tools (mount, pivot_root) are the system's; the program gets its own PATH.
  "path=$PATH; PATH=/usr/sbin:/usr/bin:/sbin:/bin",
  // The wrapper is the namespace's first process: a signal from the program must not end it (a
  // trap with a command is a handler, and handlers are reset to the default in the program).
  "trap : HUP INT QUIT TERM USR1 USR2 ALRM PIPE",
  'fail() { echo "sandbox $1 failed" >&3; exit 125; }',
  'if [ -n "$first" ]; then',
  '  mount -a -T "$first" || fail mount',
  // The device files' mount points, in the root (/dev is a folder of it, read-only later).
  `  for d in ${DEVICES.join(" ")}; do : > "$root/dev/$d" || fail mount; done`,
  '  mount -a -T "$second" || fail mount',
  // The copy's folder is a tmpfs of its own: read-only once the copy is in.
  '  if [ -n "$copy" ]; then cp "$copy" "$root$copyto" && mount -o remount,bind,ro "$root${copyto%/*}" || fail copy; fi',
  // The new root replaces the machine's; the old one goes at once (put aside on /tmp, whose
  // private tmpfs shows again when it is gone), with every mount under it. The root (/dev and the
  // folders made in it for mounts) is then read-only: only the private folders are writable.
  '  cd "$root" && pivot_root . tmp && cd / && umount -l /tmp && mount -o remount,bind,ro / || fail pivot',
  "fi",
  'cd "$dir" || fail cd',
  // cd sets OLDPWD to the grader's own folder: the program learns nothing of it.
  "unset OLDPWD",
  // SIGXCPU at the soft limit, SIGKILL a second later at the hard one; files (standard output and
  // error among them) of at most $fsize blocks, SIGXFSZ past it; at most $nofile open files.
  'ulimit -S -t "$cpu" && ulimit -H -t "$((cpu + 1))" && ulimit -d "$data" && ulimit -f "$fsize" && ulimit -n "$nofile" || fail ulimit',
  // At most 256 processes: no fork bomb. -u in bash, -p in dash.
  '[ -z "$nproc" ] || ulimit -u "$nproc" 2>/dev/null || ulimit -p "$nproc" || fail ulimit',
  'up() { [ -r /proc/uptime ] && read -r t _ < /proc/uptime && echo "$1 $t" >&3; }',
  // A user namespace of the run's own makes none inside it (no tmpfs beyond the sandbox's caps).
  "no_userns() { echo 0 > /proc/sys/user/max_user_namespaces; }",
  '[ "$how" != drop ] || no_userns || fail userns',
  "PATH=$path; export PATH",
  "up start",
  "case $how in",
  "own)",
  // Its user namespace made by the run identity itself (so it maps to that uid alone), closed
  // to further ones while its first process still holds the capability to, then every
  // capability dropped.
  '  setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs -- unshare --user --map-root-user -- /bin/sh -c \'echo 0 > /proc/sys/user/max_user_namespaces || exit 125; exec setpriv --inh-caps=-all --bounding-set=-all --pdeathsig=KILL -- "$@"\' kit-run "$@" 3>&- ;;',
  "identity)",
  '  setpriv --reuid="$uid" --regid="$uid" --clear-groups --no-new-privs --pdeathsig=KILL -- "$@" 3>&- ;;',
  "drop)",
  '  setpriv --no-new-privs --inh-caps=-all --bounding-set=-all --pdeathsig=KILL -- "$@" 3>&- ;;',
  "*)",
  '  if command -v setpriv >/dev/null 2>&1; then setpriv --pdeathsig=KILL -- "$@" 3>&-; else "$@" 3>&-; fi ;;',
  "esac",
  "s=$?",
  'echo "status $s" >&3',
  "up end",
  "times >&3",
  "exit $s",
].join("\n");

/** The most processes a run may have at once (RLIMIT_NPROC): no fork bomb. */
export const PROCESS_LIMIT = 256;

/** Blocks of 512 bytes for `ulimit -f`: `bytes`, rounded up. */
const blocks = (bytes: number) => String(Math.ceil(bytes / 512));

/**
 * How to start one confined run as a process. The process reports on fd 3 (see run-process.ts).
 * In the namespaced modes its root is built from an allow-list alone (rootTables): no folder of
 * the kit, the grader, the submissions or the reports exists in it, so none needs hiding.
 *
 * @param run what to run and how it is confined
 * @throws Error when the sandbox needs a POSIX shell and there is none (Windows)
 */
export function confinedSpec(
  run: ConfinedRun,
  f: SandboxFeatures = sandboxFeatures(),
): ProcessSpec {
  const limits = [
    String(run.limits.cpuSeconds),
    String(run.limits.dataMiB * 1024),
    blocks(run.limits.fileBytes),
    String(run.limits.openFiles),
  ];
  if (f.shell === undefined) {
    // Windows: no wrapper, no limits but the wall clock (the warning says so).
    return { command: run.command, args: run.args, cwd: run.cwd, env: run.env, stdin: run.stdin };
  }
  if (f.mode === "none") {
    // No process limit: it would count every process of your user's, the grader's among them.
    const args = ["-c", WRAPPER, "kit-sandbox", "", "", "", "", "", ...limits, run.cwd, "", "", ""];
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
  const stem = runFileStem();
  const root = join(runsFolder(), "root");
  const [first, second] = rootTables(run, root);
  writeFileSync(`${stem}.first`, first, { mode: 0o600 });
  writeFileSync(`${stem}.second`, second, { mode: 0o600 });
  const uid = f.mode === "root" && run.uid !== undefined ? String(run.uid) : "";
  const how =
    f.mode === "user-namespace"
      ? "drop"
      : uid === ""
        ? ""
        : f.ownUserNamespace
          ? "own"
          : "identity";
  const copy = run.copy === undefined ? ["", ""] : [run.copy.source, run.copy.target];
  const inner = [
    f.shell,
    "-c",
    WRAPPER,
    "kit-sandbox",
    `${stem}.first`,
    `${stem}.second`,
    root,
    ...copy,
    ...limits,
    run.cwd,
    f.processLimit ? String(PROCESS_LIMIT) : "",
    uid,
    how,
  ];
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
    cleanup: () => {
      rmSync(`${stem}.first`, { force: true });
      rmSync(`${stem}.second`, { force: true });
    },
  };
}
