/**
 * Run identities: the uids (and gids) that submitted code runs as when the grader is root.
 *
 * Each is unique on the machine while a grader holds it, not merely within one grader process:
 * two graders (two shards, two courses on one CI runner) must never share one, or one student's
 * program could signal another grader's programs. The lock is an abstract Unix socket named after
 * the uid, bound for as long as this process holds the uid: the kernel frees the name when the
 * process dies, however it dies, so a killed grader never leaves a stale lock. Before a uid is
 * first used, every process still running as it is killed.
 *
 * The range sits above every range Linux distributions and systemd hand out (system users, regular
 * users, systemd's dynamic users, container uid ranges up to 0x6FFFFFFF), below 2^31.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";

/** The first run identity; the pool is IDENTITY_BASE .. IDENTITY_BASE + IDENTITY_COUNT - 1. */
export const IDENTITY_BASE = 0x7e00_0000;
/** How many identities the pool may hand out on one machine at once. */
export const IDENTITY_COUNT = 0x1_0000;

/** The abstract socket name that locks `uid` machine-wide (Linux's abstract namespace). */
export function lockName(uid: number): string {
  return `\0kafka-range-kit-grader/uid/${uid}`;
}

/** Binds the abstract socket for `uid`; resolves to the server, or undefined when it is taken. */
function tryLock(uid: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen({ path: lockName(uid), exclusive: true }, () => {
      // The lock must not keep the grader alive once its work is done.
      server.unref();
      resolve(server);
    });
  });
}

/**
 * The pids of every process whose real or effective uid is `uid`, read from /proc.
 *
 * @returns pids (empty when /proc cannot be read)
 */
export function processesOf(uid: number): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const line = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
      if (line !== null && (Number(line[1]) === uid || Number(line[2]) === uid))
        pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Sends SIGKILL to every process running as `uid` (root only; errors ignored). */
export function killAllOf(uid: number): void {
  for (const pid of processesOf(uid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/**
 * A pool of run identities for one grader process. `acquire` takes an identity no other grader on
 * the machine holds (locking it for this process's lifetime) or one this process released;
 * `release` gives it back to this process's pool only, so the machine-wide lock is held until the
 * grader exits.
 */
export class IdentityPool {
  private readonly free: number[] = [];
  private readonly locks: Server[] = [];
  private readonly lockedUids: number[] = [];
  private next: number;

  /** @param start where to start looking (tests and parallel graders may pass different starts) */
  constructor(start = 0) {
    this.next = start % IDENTITY_COUNT;
  }

  /**
   * An identity for one run.
   *
   * @param cleanBeforeUse kill whatever runs as the identity first (true when runs are not in
   *   their own PID namespace, whose end kills everything in it)
   * @throws Error when all IDENTITY_COUNT identities are locked by other graders
   */
  async acquire(cleanBeforeUse = false): Promise<number> {
    const reused = this.free.pop();
    if (reused !== undefined) {
      if (cleanBeforeUse) killAllOf(reused);
      return reused;
    }
    for (let tried = 0; tried < IDENTITY_COUNT; tried++) {
      const uid = IDENTITY_BASE + this.next;
      this.next = (this.next + 1) % IDENTITY_COUNT;
      const lock = await tryLock(uid);
      if (lock === undefined) continue;
      this.locks.push(lock);
      this.lockedUids.push(uid);
      // A grader that held it before may have died and left programs behind.
      killAllOf(uid);
      return uid;
    }
    throw new Error(`all ${IDENTITY_COUNT} run identities are in use by other graders`);
  }

  /** Gives an identity back to this pool for the next run. */
  release(uid: number): void {
    this.free.push(uid);
  }

  /** Every identity this pool has locked, in the order it locked them. */
  held(): number[] {
    return [...this.lockedUids];
  }
}

/** The grader process's pool; graders start at different places so they rarely collide. */
export const runIdentities = new IdentityPool(process.pid * 16);
