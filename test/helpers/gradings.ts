// Graders started as processes by the suites that grade hostile programs (test/e2e/hostile.test.ts)
// and that grade under load (test/load/load.test.ts): what runs on the machine, who holds which run
// identity, and one grading's exit, reports and results, read once it ends.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { IDENTITY_BASE, IDENTITY_COUNT, lockName } from "../../grader/run/identities.ts";
import type { ResultsJson } from "./grader.ts";
import { ROOT } from "./program.ts";
import { userEnv } from "./shell.ts";

/** One process as `ps` lists it. */
export interface Proc {
  uid: number;
  pid: number;
  ppid: number;
  args: string;
}

/** Parses `ps -eo uid=,pid=,ppid=,args=`. */
export function parsePs(text: string): Proc[] {
  const procs: Proc[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s(.*)$/.exec(line);
    if (match === null) continue;
    procs.push({
      uid: Number(match[1]),
      pid: Number(match[2]),
      ppid: Number(match[3]),
      args: match[4] ?? "",
    });
  }
  return procs;
}

const PS_ARGS = ["-eo", "uid=,pid=,ppid=,args="];
/** Every process on the machine, now. */
export const processesNow = (): Proc[] =>
  parsePs(execFileSync("ps", PS_ARGS, { encoding: "utf8" }));
const execFileAsync = promisify(execFile);
/** Every process on the machine, without blocking the graders' pipes while ps runs. */
export async function processes(): Promise<Proc[]> {
  const { stdout } = await execFileAsync("ps", PS_ARGS, { encoding: "utf8" });
  return parsePs(stdout);
}

/** A submission's program as the sandbox starts it: Node under its permission model, its bundle at /dev/shm/program. */
export const PROGRAM = /^\S*node\S*\s.*--(?:experimental-)?permission\b.*\/dev\/shm\/program\//;
export const isIdentity = (uid: number) =>
  uid >= IDENTITY_BASE && uid < IDENTITY_BASE + IDENTITY_COUNT;

/** The pids from `p` up to the first process (at most 64: pid chains are short). */
export function ancestry(p: Proc, byPid: Map<number, Proc>): number[] {
  const chain: number[] = [];
  let current: Proc | undefined = p;
  for (let depth = 0; current !== undefined && depth < 64; depth++) {
    chain.push(current.pid);
    current = current.ppid === current.pid ? undefined : byPid.get(current.ppid);
  }
  return chain;
}

/** The submissions' programs running under the process `ancestor` (a grader this test started). */
export function programsUnder(procs: Proc[], ancestor: number): Proc[] {
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  return procs.filter((p) => PROGRAM.test(p.args) && ancestry(p, byPid).includes(ancestor));
}

/**
 * Run identities some live grader holds: the abstract sockets that lock them (identities.ts),
 * which the kernel frees when the grader dies.
 */
export function lockedIdentities(): Set<number> {
  const prefix = lockName(IDENTITY_BASE).slice(1, -String(IDENTITY_BASE).length);
  const locked = new Set<number>();
  for (const line of readFileSync("/proc/net/unix", "utf8").split("\n")) {
    const at = line.indexOf(`@${prefix}`);
    // libuv binds the abstract name padded with NULs to the full address, shown as `@`s after it.
    const uid = /^\d+/.exec(line.slice(at + 1 + prefix.length))?.[0];
    if (at >= 0 && uid !== undefined) locked.add(Number(uid));
  }
  return locked;
}

/**
 * Processes a grader left behind: a program running as a run identity that no live grader holds
 * (other engineers' graders on this machine hold theirs while their programs run), a program at
 * /dev/shm/program outside any sandbox (no `unshare` above it), or the sleep that detached-child
 * would have started.
 */
export function leftovers(): string[] {
  // The locks read before and after the process list: a live grader holds an identity's lock
  // from before its program starts to after it ends, so a program in the list is locked in one
  // of the two reads however its grader's timing falls (unless it lived less than `ps` takes).
  const before = lockedIdentities();
  const procs = processesNow();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const locked = new Set([...before, ...lockedIdentities()]);
  const sandboxed = (p: Proc) =>
    ancestry(p, byPid).some((pid) => byPid.get(pid)?.args.startsWith("unshare ") === true);
  return procs
    .filter(
      (p) =>
        (isIdentity(p.uid) && !locked.has(p.uid)) ||
        / sleep 1234$/.test(p.args) ||
        (PROGRAM.test(p.args) && !sandboxed(p)),
    )
    .map((p) => `${p.uid} ${p.pid} ${p.args}${whence(p, byPid)}`);
}

/**
 * Where a leftover comes from, for the failure message: its state and age (`ps`), and the
 * processes above it, each cut short.
 */
function whence(p: Proc, byPid: Map<number, Proc>): string {
  let state: string;
  try {
    state = execFileSync("ps", ["-o", "stat=,etimes=", "-p", String(p.pid)], {
      encoding: "utf8",
    }).trim();
  } catch {
    state = "gone";
  }
  const above = ancestry(p, byPid)
    .slice(1)
    .map((pid) => `${pid} ${(byPid.get(pid)?.args ?? "").slice(0, 60)}`);
  return ` [state, seconds: ${state}; locked now: ${[...lockedIdentities()].join(",")}] <- ${above.join(" <- ")}`;
}

/** leftovers(), asked again (at most 20 times, 250 ms apart) while processes may still be dying. */
export async function settledLeftovers(): Promise<string[]> {
  let left = leftovers();
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await sleep(250);
    left = leftovers();
  }
  return left;
}

/** One grading this test runs. */
export interface GradingSpec {
  /** Unique: the report folder's name and the key results are shared under. */
  label: string;
  /** The submission folder, relative to the kit or absolute. */
  submission: string;
  ids: readonly string[];
  extra?: readonly string[];
  /** The grader's own heap (MiB), where a submission may make it grow without bound. */
  graderHeapMiB?: number;
  /** The grader is killed after this long (ms): the test's bound, not a verdict. */
  killAfterMs?: number;
  /**
   * The signal sent at that bound (default SIGKILL). SIGTERM lets the grader remove what it built
   * and stop its programs, so that a bound reached leaves nothing behind for the tests after it;
   * SIGKILL follows a minute later if it is still running.
   */
  killSignal?: NodeJS.Signals;
}

/** One case of a results file. */
export type CaseJson = ResultsJson["cases"][number];

/** What one grading produced: its exit, its text report (stdout) and its report files. */
export interface Graded {
  label: string;
  exitCode: number | null;
  /** The test killed the grader at its bound. */
  killed: boolean;
  text: string;
  stderr: string;
  /** The report files' contents, undefined when not written. */
  json: string | undefined;
  junit: string | undefined;
  results: ResultsJson | undefined;
  byId: Map<string, CaseJson>;
}

/** A file's text, or undefined when it does not exist. */
const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

/** Output kept per stream of a grader: generous, but bounded. */
const KEEP_BYTES = 64 * 1024 * 1024;

/** A started grader: its pid, whether it still runs, and what it produced once done. */
export interface Running {
  pid: number;
  running: () => boolean;
  done: Promise<Graded>;
}

/** Where a test's gradings write and what their environment holds. */
export interface GradingPlace {
  /** One report folder per grading is made under it. */
  reports: string;
  /** The graders' TMPDIR (what they build), so that what they leave there shows. */
  buildTmp: string;
  /** A variable's value no report may show (KIT_SECRET_TOKEN in the grader's environment). */
  secret: string;
}

/**
 * Starts `npm run grade` (its launcher, as npm runs it) on one submission with every report
 * format: JSON and JUnit to files in the grading's report folder, text on standard output.
 */
export function startGrading(spec: GradingSpec, place: GradingPlace): Running {
  const dir = join(place.reports, spec.label);
  mkdirSync(dir, { recursive: true });
  const files = { json: join(dir, "results.json"), junit: join(dir, "junit.xml") };
  const node =
    spec.graderHeapMiB === undefined ? [] : [`--max-old-space-size=${spec.graderHeapMiB}`];
  const child = spawn(
    process.execPath,
    [
      ...node,
      join(ROOT, "grader", "launch.mjs"),
      spec.submission,
      ...spec.ids.flatMap((id) => ["--only", id]),
      ...(spec.extra ?? []),
      "--format",
      `json=${files.json}`,
      "--format",
      `junit=${files.junit}`,
      "--format",
      "text",
    ],
    {
      cwd: ROOT,
      env: userEnv({ INIT_CWD: ROOT, KIT_SECRET_TOKEN: place.secret, TMPDIR: place.buildTmp }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  const sizes = { stdout: 0, stderr: 0 };
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream].on("data", (chunk: Buffer) => {
      if (sizes[stream] < KEEP_BYTES) out[stream].push(chunk);
      sizes[stream] += chunk.length;
    });
  }
  let finished = false;
  let killed = false;
  let lastResort: NodeJS.Timeout | undefined;
  const bound = setTimeout(() => {
    killed = true;
    child.kill(spec.killSignal ?? "SIGKILL");
    if (spec.killSignal !== undefined && spec.killSignal !== "SIGKILL")
      lastResort = setTimeout(() => child.kill("SIGKILL"), 60_000);
  }, spec.killAfterMs ?? 240_000);
  const done = new Promise<Graded>((resolve) => {
    child.on("close", (code) => {
      finished = true;
      clearTimeout(bound);
      clearTimeout(lastResort);
      const json = readIfThere(files.json);
      let results: ResultsJson | undefined;
      try {
        results = json === undefined ? undefined : (JSON.parse(json) as ResultsJson);
      } catch {
        results = undefined;
      }
      resolve({
        label: spec.label,
        exitCode: code,
        killed,
        text: Buffer.concat(out.stdout).toString("utf8"),
        stderr: Buffer.concat(out.stderr).toString("utf8"),
        json,
        junit: readIfThere(files.junit),
        results,
        byId: new Map((results?.cases ?? []).map((c) => [c.id, c])),
      });
    });
  });
  return { pid: child.pid ?? -1, running: () => !finished, done };
}

/** The sandbox mode the grader said it used (its warning line; none in root mode). */
export function sandboxMode(stderr: string): string {
  if (
    /grade: warning: sandbox: not root: programs run as your own user \(in namespaces/.test(stderr)
  )
    return "user-namespace";
  if (/grade: warning: (sandbox|Windows)/.test(stderr)) return "none";
  return "root";
}

/** The results without anything measured in time, as one string to compare byte for byte. */
export function verdictsOnly(g: Graded): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !/(duration|time|cpu)(Ms)?$/i.test(key))
        .map(([key, v]) => [key, strip(v)]),
    );
  };
  return JSON.stringify({ exitCode: g.exitCode, results: strip(g.results) });
}
