// Shared runs (grader/run/shared-run.ts, grade.ts), in process: which main.ts may run shared, the
// harness's signed report lines read back (signed here with node:crypto, from the format the
// harness documents), which reports the grader keeps, and the grading loop with fake runners: a
// clean pass is recorded as run shared, every other case runs again alone and its verdict is the
// one reported, the private group's shared run starts only once the visible phase is over, and
// --isolate runs no shared run at all. What only processes can show is in e2e/shared-runs.test.ts.
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FixtureSchemas, type Case } from "../../grader/cases/load.ts";
import { FileOutcomes } from "../../grader/diagnose/diagnose.ts";
import { gradeSubmission, MIN_SHARED_CASES, type GradeOptions } from "../../grader/grade.ts";
import { KIT_ROOT } from "../../grader/kit.ts";
import { entryDigest } from "../../grader/run/build.ts";
import type { PreparedProgram } from "../../grader/run/prepare.ts";
import type { RawRun } from "../../grader/run/run-process.ts";
import {
  KIT_ENTRY_DIGESTS,
  ReportReader,
  sharedEntry,
  sharedRawRun,
  sharedRunLimits,
  type SharedReport,
  type runSharedGroup,
} from "../../grader/run/shared-run.ts";
import { builtInCase, privateCase, rawRun, rightRun } from "../helpers/results.ts";

const schemas = new FixtureSchemas();
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("which main.ts runs shared", () => {
  it("the kit's own main.ts, the starter's and the reference's, whatever its line ends", () => {
    for (const side of ["starter", "solution"]) {
      const text = readFileSync(join(KIT_ROOT, side, "src", "main.ts"), "utf8");
      expect(KIT_ENTRY_DIGESTS.has(sha256(text)), side).toBe(true);
      expect(sharedEntry(entryDigest(Buffer.from(text.replaceAll("\n", "\r\n"))))).toBe(true);
    }
  });

  it("not a main.ts changed by a byte, nor one of no build", () => {
    const text = readFileSync(join(KIT_ROOT, "solution", "src", "main.ts"), "utf8");
    expect(sharedEntry(entryDigest(Buffer.from(`${text} `)))).toBe(false);
    expect(sharedEntry(entryDigest(Buffer.from(text.replace("exitCode", "exitcode"))))).toBe(false);
    expect(sharedEntry(undefined)).toBe(false);
  });
});

const KEY = Buffer.alloc(32, 7);
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** A report line as the harness writes it: `<payload>.<hex HMAC of "<sequence>:<payload>">`. */
function line(sequence: number, payload: string, key = KEY): string {
  const mac = createHmac("sha256", key).update(`${sequence}:${payload}`).digest("hex");
  return `${payload}.${mac}\n`;
}

describe("ReportReader", () => {
  it("reads signed lines in order: exit code, texts, times and flags", () => {
    const reader = new ReportReader(KEY, 3, 1 << 20);
    reader.feed(
      Buffer.from(
        line(0, `0 0 3 4 - ${b64('{"a":{"t":[0]}}\n')} -`) +
          line(1, `1 1 2 2 stderr,pending - ${b64('error: member "m": é\n')}`),
      ),
    );
    // The third line comes in two pieces.
    const third = line(2, "2 null 9 10 threw - -");
    reader.feed(Buffer.from(third.slice(0, 20)));
    expect(reader.reports).toHaveLength(2);
    reader.feed(Buffer.from(third.slice(20)));
    expect(reader.reports).toEqual([
      {
        exitCode: 0,
        stdout: '{"a":{"t":[0]}}\n',
        stderr: "",
        cpuMs: 3,
        wallMs: 4,
        flags: [],
        cpuBoundMs: Number.POSITIVE_INFINITY,
      },
      {
        exitCode: 1,
        stdout: "",
        stderr: 'error: member "m": é\n',
        cpuMs: 2,
        wallMs: 2,
        flags: ["stderr", "pending"],
        cpuBoundMs: Number.POSITIVE_INFINITY,
      },
      {
        exitCode: null,
        stdout: "",
        stderr: "",
        cpuMs: 9,
        wallMs: 10,
        flags: ["threw"],
        cpuBoundMs: Number.POSITIVE_INFINITY,
      },
    ]);
    expect(reader.open).toBe(false);
  });

  it("stops at a line signed with another key, out of sequence, or not a report, and reads nothing after", () => {
    const forged = [
      line(0, `0 0 1 1 - ${b64("{}\n")} -`, Buffer.alloc(32, 8)),
      line(1, `1 0 1 1 - ${b64("{}\n")} -`),
      line(0, `1 0 1 1 - ${b64("{}\n")} -`),
      line(0, `0 0 1 1 -`),
      line(0, `0 00 1 1 - - -`),
      "not a report\n",
    ];
    for (const bad of forged) {
      const reader = new ReportReader(KEY, 5, 1 << 20);
      reader.feed(Buffer.from(bad + line(0, "0 0 1 1 - - -")));
      expect(reader.reports, bad).toEqual([]);
      expect(reader.open).toBe(false);
    }
    // A good line, then foreign bytes before the next: the first stands, nothing after.
    const reader = new ReportReader(KEY, 5, 1 << 20);
    reader.feed(Buffer.from(`${line(0, "0 0 1 1 - - -")}junk${line(1, "1 0 1 1 - - -")}`));
    expect(reader.reports).toHaveLength(1);
  });

  it("takes no more reports than cases, and no line longer than the longest report", () => {
    const reader = new ReportReader(KEY, 1, 1 << 20);
    reader.feed(Buffer.from(line(0, "0 0 1 1 - - -") + line(1, "1 0 1 1 - - -")));
    expect(reader.reports).toHaveLength(1);
    const short = new ReportReader(KEY, 2, 64);
    short.feed(Buffer.alloc(65, 0x41));
    expect(short.open).toBe(false);
  });
});

/** A clean report of a case's right answer. */
function cleanReport(c: Case, fields: Partial<SharedReport> = {}): SharedReport {
  const run = rightRun(c);
  return {
    exitCode: run.exitCode,
    stdout: run.stdout,
    stderr: run.stderr,
    cpuMs: 2,
    wallMs: 3,
    flags: [],
    cpuBoundMs: 40,
    ...fields,
  };
}

describe("sharedRawRun: the reports the grader may judge", () => {
  const lesson = builtInCase("01-lesson-7-partitions-3-members");
  it("a clean report becomes the run it describes", () => {
    const run = sharedRawRun(cleanReport(lesson), 10_000);
    expect(run).toEqual(
      rawRun({ stdout: rightRun(lesson).stdout, cpuMs: 2, durationMs: 3, exitCode: 0 }),
    );
  });

  it("none with a flag, without an exit code, near the CPU limit, or naming the harness", () => {
    const refused: Partial<SharedReport>[] = [
      { flags: ["pending"] },
      { flags: ["globals"] },
      { exitCode: null },
      // A 10 s limit: the kernel's 10 whole seconds, less a second for a process start.
      { cpuMs: 9001 },
      { cpuBoundMs: 9001 },
      { stderr: "at file:///dev/shm/program/main.mjs?kit-case=3:1:2\n" },
      { stdout: "/dev/shm/program/kit-shared-harness\n" },
      { stderr: "x".repeat(64 * 1024 + 1) },
    ];
    for (const fields of refused)
      expect(
        sharedRawRun(cleanReport(lesson, fields), 10_000),
        JSON.stringify(fields).slice(0, 80),
      ).toBeUndefined();
    expect(
      sharedRawRun(cleanReport(lesson, { cpuMs: 9000, cpuBoundMs: 9000 }), 10_000),
    ).toBeDefined();
    // A 1 s limit: half of it.
    expect(sharedRawRun(cleanReport(lesson, { cpuBoundMs: 501 }), 1000)).toBeUndefined();
    expect(sharedRawRun(cleanReport(lesson, { cpuBoundMs: 500 }), 1000)).toBeDefined();
  });
});

describe("sharedRunLimits: a shared process's wall-clock stops", () => {
  it("the idle check is one case's, the CPU and memory of the tree every case's together", () => {
    // 56 cases of 2 s each: the kernel's CPU limit is 56 x 2 + 1 s; a case that sleeps must stop
    // the process after a window of 2 x 2 s, at least 5 s, not after 2 x 113 s.
    const kernel = { cpuSeconds: 113, dataMiB: 768, fileBytes: 1 << 30, openFiles: 64 };
    const limits = sharedRunLimits(kernel, { timeoutMs: 2000, deadline: undefined });
    expect(limits.idle).toEqual({ windowMs: 5000, minCpuFraction: 0.01 });
    expect(limits.tree).toEqual({ cpuMs: 113_500, rssBytes: (768 + 128) * 1024 * 1024 });
    expect(limits.timeoutMs).toBe(113 * 50_000);
    expect(limits.budgetMs).toBeUndefined();
    // A 10 s limit: a window of 20 s.
    expect(sharedRunLimits(kernel, { timeoutMs: 10_000, deadline: undefined }).idle?.windowMs).toBe(
      20_000,
    );
  });
});

// The grading loop with a fake shared runner and a fake runner of single cases.
const LESSON = "01-lesson-7-partitions-3-members";
const SKEW = "03-per-topic-skew";
const IDLE = "07-idle-members";
const DECODE_V0 = "19-decode-version-0";
const TRUNCATED = "25-error-truncated-topic-string";

const sharedProgram: PreparedProgram = {
  program: {
    run: () => {
      throw new Error("the fake runner runs the cases");
    },
    shared: () => {
      throw new Error("the fake shared runner runs the groups");
    },
    mapStderr: (text) => text,
  },
  errors: [],
  cleanup: () => {},
};

interface Log {
  events: string[];
  alone: string[];
  groups: string[][];
}

/** A grading whose shared runs give `report(c)` (undefined: none) and whose single runs are right. */
function fakeGrading(
  cases: readonly Case[],
  report: (c: Case) => SharedReport | undefined,
  log: Log,
  extra: Partial<GradeOptions> = {},
): GradeOptions {
  const runShared: typeof runSharedGroup = async (_start, group, _limits, onReport) => {
    log.groups.push(group.map((c) => c.id));
    log.events.push(`shared ${group.map((c) => c.id).join(",")}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const reports = group.map(report);
    reports.forEach((r, k) => {
      if (r !== undefined) onReport?.(k, r);
    });
    return reports;
  };
  return {
    submission: { kind: "folder", path: "/nowhere/alice", name: "alice" },
    cases,
    schemas,
    timeoutMs: 10_000,
    outputCapBytes: 4 * 1024 * 1024,
    memoryMiB: 512,
    concurrency: 2,
    kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
    visibleFixtures: "fedcba9876543210",
    reporters: [],
    rerun: { args: ["alice"] },
    diagnosis: new FileOutcomes(),
    prepared: Promise.resolve(sharedProgram),
    runShared,
    runCase: async (_program, c): Promise<RawRun> => {
      log.alone.push(c.id);
      log.events.push(`alone ${c.id}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
      // Alone, the stateful program of these tests is right.
      return rightRun(c);
    },
    ...extra,
  };
}

describe("gradeSubmission with shared runs", () => {
  const cases = [
    builtInCase(LESSON),
    builtInCase(SKEW),
    builtInCase(IDLE),
    builtInCase(DECODE_V0),
    builtInCase(TRUNCATED),
    privateCase(IDLE, "secret", "01-idle"),
    privateCase(LESSON, "secret", "02-lesson"),
    privateCase(SKEW, "secret", "03-skew"),
    privateCase(DECODE_V0, "secret", "04-decode"),
  ];

  it("keeps a clean pass as run shared, and runs every other case again alone, its verdict the one reported", async () => {
    const log: Log = { events: [], alone: [], groups: [] };
    const report = (c: Case): SharedReport | undefined => {
      if (c.id === SKEW) return cleanReport(c, { stdout: '{"wrong":{}}\n' }); // a wrong answer
      if (c.id === IDLE) return undefined; // the process died on it
      if (c.id === DECODE_V0) return cleanReport(c, { flags: ["globals"] });
      if (c.id === "secret/02-lesson") return cleanReport(c, { exitCode: 70, stdout: "" });
      return cleanReport(c);
    };
    const results = await gradeSubmission(fakeGrading(cases, report, log));
    expect(log.groups).toEqual([
      [LESSON, SKEW, IDLE, DECODE_V0, TRUNCATED],
      ["secret/01-idle", "secret/02-lesson", "secret/03-skew", "secret/04-decode"],
    ]);
    expect(log.alone.sort()).toEqual([DECODE_V0, IDLE, SKEW, "secret/02-lesson"].sort());
    expect(results.cases.map((r) => [r.id, r.status, r.ran])).toEqual([
      [LESSON, "pass", "shared"],
      [SKEW, "pass", "isolated"],
      [IDLE, "pass", "isolated"],
      [DECODE_V0, "pass", "isolated"],
      [TRUNCATED, "pass", "shared"],
      ["secret/01-idle", "pass", "shared"],
      ["secret/02-lesson", "pass", "isolated"],
      ["secret/03-skew", "pass", "shared"],
      ["secret/04-decode", "pass", "shared"],
    ]);
    // The private group's shared run starts once every visible case, re-runs too, is done.
    const privateStart = log.events.findIndex((e) => e.startsWith("shared secret/"));
    const lastVisible = Math.max(
      ...log.events.map((e, i) => (e.startsWith("alone") && !e.includes("secret/") ? i : -1)),
    );
    expect(privateStart).toBeGreaterThan(lastVisible);
  });

  it("with --isolate, no shared run: every case alone, recorded as isolated", async () => {
    const log: Log = { events: [], alone: [], groups: [] };
    const results = await gradeSubmission(
      fakeGrading(cases, (c) => cleanReport(c), log, { isolate: true }),
    );
    expect(log.groups).toEqual([]);
    expect(log.alone).toHaveLength(cases.length);
    expect(results.cases.every((r) => r.ran === "isolated" && r.status === "pass")).toBe(true);
    expect(results.cases.map((r) => r.id)).toEqual(cases.map((c) => c.id));
  });

  it("a group of fewer than MIN_SHARED_CASES cases runs alone: a shared process would cost more", async () => {
    const log: Log = { events: [], alone: [], groups: [] };
    const few = [...cases.slice(0, 4), ...cases.slice(5, 8)];
    const results = await gradeSubmission(fakeGrading(few, (c) => cleanReport(c), log));
    expect(MIN_SHARED_CASES).toBe(4);
    expect(log.groups).toEqual([[LESSON, SKEW, IDLE, DECODE_V0]]);
    expect(log.alone).toEqual(["secret/01-idle", "secret/02-lesson", "secret/03-skew"]);
    expect(results.cases.map((r) => r.ran)).toEqual([
      ...Array<string>(4).fill("shared"),
      ...Array<string>(3).fill("isolated"),
    ]);
  });

  it("a program that cannot run shared (a --cmd program, a main.ts not the kit's) runs every case alone", async () => {
    const log: Log = { events: [], alone: [], groups: [] };
    const own: PreparedProgram = {
      ...sharedProgram,
      program: { run: sharedProgram.program!.run, mapStderr: (t) => t },
    };
    const results = await gradeSubmission(
      fakeGrading(cases, (c) => cleanReport(c), log, { prepared: Promise.resolve(own) }),
    );
    expect(log.groups).toEqual([]);
    expect(results.cases.map((r) => r.ran)).toEqual(cases.map(() => "isolated"));
  });
});
