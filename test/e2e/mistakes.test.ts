// Grading names the mistake, end to end: hand-made versions of catalogued mistakes (written
// differently from their mutants, as a student might), built and run in the sandbox, are named
// by the grading the command line runs (in process: the grader's start adds nothing to naming),
// and the command line's text reports of a few mutants match their recorded files. That every mutant is caught
// and told apart is test/unit/mistakes.test.ts's, from grader/diagnose/diagnosis.json; that the
// file is what the mutants do today is test/e2e/generated.test.ts's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  writeMutant,
  writeVariant,
  type Replacement,
} from "../../grader/instructor/mutants/mutants.ts";
import { prepareGrading } from "../../grader/context.ts";
import { gradeSubmission } from "../../grader/grade.ts";
import { parseGradeArgs } from "../../grader/options.ts";
import type { CaseResult } from "../../grader/results.ts";
import { grade } from "../helpers/grader.ts";
import { graded } from "../helpers/graded.ts";
import { readCases, ROOT } from "../helpers/program.ts";

/**
 * Grades as `npm run grade -- ...args` does (options.ts, context.ts prepareGrading, grade.ts), in
 * this process: the programs still run in the sandbox, and the grader's start is saved. The
 * command line's own reports are checked below, against recorded files.
 */
async function gradeCases(args: string[]): Promise<CaseResult[]> {
  const command = parseGradeArgs(args);
  const context = await prepareGrading(command);
  try {
    return (await gradeSubmission(context.gradeOptions(command.submission, []))).cases;
  } finally {
    context.dispose();
  }
}

describe("grading names the mistake", () => {
  it("names nothing for the reference", () => {
    const { results } = graded("reference");
    expect(
      results.cases.every(
        (c) => c.status === "pass" && c.mistake === null && c.mistakes.length === 0,
      ),
    ).toBe(true);
  });

  // Each written differently from its mutant, as a student might: the same behaviour is named.
  it.each<[string, string, Replacement[]]>([
    [
      "numeric-order",
      "04-string-order-not-numeric",
      [
        {
          file: "range-assignor.ts",
          replaceFunction: "compareCodeUnits",
          with: `function compareCodeUnits(a: string, b: string): number {
  const [, pa = a, na] = /^(.*?)(\\d+)$/.exec(a) ?? [];
  const [, pb = b, nb] = /^(.*?)(\\d+)$/.exec(b) ?? [];
  if (pa === pb && na !== undefined && nb !== undefined) return Number(na) - Number(nb);
  return a < b ? -1 : a > b ? 1 : 0;
}`,
        },
      ],
    ],
    [
      "ceil-chunks",
      "01-lesson-7-partitions-3-members",
      [
        {
          file: "range-assignor.ts",
          replaceFunction: "rangeForConsumer",
          with: `function rangeForConsumer(i: number, m: number, n: number): number[] {
  const size = Math.ceil(n / m);
  const partitions: number[] = [];
  for (let p = size * i; p < Math.min(n, size * (i + 1)); p++) partitions.push(p);
  return partitions;
}`,
        },
      ],
    ],
    [
      "little-endian",
      "42-decode-which-member-fails-first",
      [
        {
          file: "subscription.ts",
          replaceFunction: "ByteReader.int32",
          with: `int32(field: string, index?: number): number {
  this.need(4, "int32", field, index);
  const b = this.bytes;
  const o = this.offset;
  this.offset += 4;
  return (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8) | ((b[o + 2] ?? 0) << 16) | ((b[o + 3] ?? 0) << 24);
}`,
        },
      ],
    ],
    [
      "unsigned-user-data-length",
      "01-lesson-7-partitions-3-members",
      [
        {
          file: "subscription.ts",
          replaceFunction: "ByteReader.nullableBytes",
          with: `nullableBytes(field: string): Uint8Array | null {
  const at = this.offset;
  const b = this.bytes;
  this.need(4, "int32", field);
  const length = (((b[at] ?? 0) << 24) >>> 0) + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
  this.offset += 4;
  if (length < 0) return null;
  return this.take(length, "bytes", field).slice();
}`,
        },
      ],
    ],
    [
      "truthy-instance-id",
      "32-static-empty-instance-id",
      [
        {
          file: "range-assignor.ts",
          replaceFunction: "compareMembers",
          with: `function compareMembers(a: MemberInfo, b: MemberInfo): number {
  const ka = a.groupInstanceId ? "0" + a.groupInstanceId : "1" + a.memberId;
  const kb = b.groupInstanceId ? "0" + b.groupInstanceId : "1" + b.memberId;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}`,
        },
      ],
    ],
    [
      "assignment-little-endian",
      "66-sync-lesson-7-partitions",
      [
        {
          file: "assignment.ts",
          replaceFunction: "encodeAssignment",
          with: `export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  const parts: Buffer[] = [];
  const int16 = (n: number) => { const b = Buffer.alloc(2); b.writeInt16LE(n); parts.push(b); };
  const int32 = (n: number) => { const b = Buffer.alloc(4); b.writeInt32LE(n); parts.push(b); };
  int16(3);
  const topics = [...partitions].filter(([, ps]) => ps.length > 0);
  int32(topics.length);
  for (const [topic, ps] of topics) {
    const name = Buffer.from(topic, "utf8");
    int16(name.length);
    parts.push(name);
    int32(ps.length);
    ps.forEach(int32);
  }
  int32(userData === null ? -1 : userData.byteLength);
  if (userData !== null) parts.push(Buffer.from(userData));
  return new Uint8Array(Buffer.concat(parts));
}`,
        },
      ],
    ],
    [
      "assignment-compact-encoding",
      "66-sync-lesson-7-partitions",
      [
        {
          file: "assignment.ts",
          replaceFunction: "encodeAssignment",
          with: `export function encodeAssignment(
  partitions: ReadonlyMap<string, readonly number[]>,
  userData: Uint8Array | null,
): Uint8Array {
  // Flexible versions: lengths as unsigned varints of length + 1, tagged fields after each struct.
  const out: number[] = [0, 3];
  const varint = (n: number) => {
    while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n >>>= 7; }
    out.push(n);
  };
  const topics = [...partitions].filter(([, ps]) => ps.length > 0);
  varint(topics.length + 1);
  for (const [topic, ps] of topics) {
    const name = new TextEncoder().encode(topic);
    varint(name.length + 1);
    out.push(...name);
    varint(ps.length + 1);
    for (const p of ps) out.push((p >>> 24) & 0xff, (p >>> 16) & 0xff, (p >>> 8) & 0xff, p & 0xff);
    out.push(0);
  }
  varint(userData === null ? 0 : userData.byteLength + 1);
  if (userData !== null) out.push(...userData);
  out.push(0);
  return Uint8Array.from(out);
}`,
        },
      ],
    ],
  ])("a hand-made %s is named on %s", async (id, caseId, replacements) => {
    const dir = writeVariant(`hand-made-${id}`, replacements);
    const result = (await gradeCases([dir, "--only", caseId]))[0];
    expect(result?.status).not.toBe("pass");
    expect(result?.mistakes).toEqual([id]);
    expect(result?.mistake).toBe(id);
  });

  it("names both mistakes a behaviour fits: only -1 as null, other negative lengths rejected", async () => {
    const dir = writeVariant("hand-made-minus-one", [
      {
        file: "subscription.ts",
        replaceFunction: "ByteReader.nullableBytes",
        with: `nullableBytes(field: string): Uint8Array | null {
  const length = this.int32(field);
  if (length === -1) return null;
  if (length < 0) {
    throw new SubscriptionDecodeError({
      field,
      offset: this.offset - 4,
      expected: "a length >= -1",
      found: \`found \${length}\`,
    });
  }
  return this.take(length, "bytes", field).slice();
}`,
      },
    ]);
    const cases = await gradeCases([dir, "--only", "24-decode-negative-user-data-length"]);
    expect(cases[0]?.mistakes).toEqual([
      "unsigned-user-data-length",
      "user-data-only-minus-one-null",
    ]);
  });

  it("names the kind of outcome when no mutant explains it: a decoder that answers for every byte string", async () => {
    // Any error becomes an empty subscription: every bad member is accepted.
    const dir = writeVariant("hand-made-accepts-all", [
      {
        file: "subscription.ts",
        replaceFunction: "decodeSubscription",
        with: `export function decodeSubscription(bytes: Uint8Array): Subscription {
  try {
    const reader = new ByteReader(bytes);
    const version = readVersion(reader);
    const topics = reader.array("topics", 2, (i) => reader.string("topics", i));
    const userData = reader.nullableBytes("userData");
    return { version, topics, userData, ownedPartitions: [], generationId: -1, rackId: null };
  } catch {
    return { version: 0, topics: [], userData: null, ownedPartitions: [], generationId: -1, rackId: null };
  }
}`,
      },
    ]);
    const cases = await gradeCases([dir, "--only", "26-error-negative-topic-string-length"]);
    expect(cases[0]?.status).toBe("fail");
    expect(cases[0]?.mistakes).toEqual(["bad-bytes-accepted"]);
  });

  it("names a crash's mistake only when every crash of the program is explained", async () => {
    // assignRange throws on every topic: the crash on the unknown topic is no evidence.
    const dir = writeVariant("hand-made-always-crashes", [
      {
        file: "range-assignor.ts",
        replaceFunction: "rangeForConsumer",
        with: `function rangeForConsumer(i: number, numConsumers: number, numPartitionsForTopic: number): number[] {
  throw new Error(\`no range for \${i} of \${numConsumers} (\${numPartitionsForTopic})\`);
}`,
      },
    ]);
    const unknownTopic = "08-subscribed-topic-missing-from-metadata";
    const alone = await gradeCases([dir, "--only", unknownTopic]);
    expect(alone.map((c) => c.mistakes)).toEqual([["unknown-topic-crash"]]);
    const both = await gradeCases([
      dir,
      "--only",
      "01-lesson-7-partitions-3-members",
      "--only",
      unknownTopic,
    ]);
    expect(both.map((c) => [c.status, c.mistakes])).toEqual([
      ["error", []],
      ["error", []],
    ]);
    // The crash is reported with its message and the student's line, not a bundle path.
    expect(both[0]?.message).toMatch(
      /^the program exited with code 70: an uncaught exception: "Error: no range for 0 of 3 \(7\)" \(at src\/range-assignor\.ts:\d+\)$/,
    );
  });
});

describe("reports for a few mutants match their recorded files (UPDATE_REPORTS=1 re-records)", () => {
  const RECORDED = join(ROOT, "test", "reports");
  const SYNC_CASES = new Set(
    readCases()
      .filter((c) => c.meta.mode === "sync")
      .map((c) => c.id),
  );
  const cases = {
    "global-assignment": ["03-per-topic-skew", "11-different-subscriptions"],
    "dataview-byteoffset": [
      "42-decode-which-member-fails-first",
      "25-error-truncated-topic-string",
    ],
    "char-length-names": ["22-decode-version-3"],
    "idle-members-dropped": ["07-idle-members"],
    "assignment-char-length-names": ["69-sync-many-topics-utf8"],
  } as const;
  const dirs = new Map<string, string>();
  beforeAll(() => {
    for (const id of Object.keys(cases)) dirs.set(id, writeMutant(id));
  });

  it.each(Object.entries(cases))("%s", (id, only) => {
    const dir = dirs.get(id) ?? "";
    const run = grade([dir, ...only.flatMap((c) => ["--only", c])]);
    // Exit 1 when a required case failed; the sync stage's cases are all extension cases.
    expect(run.status).toBe(only.every((c) => SYNC_CASES.has(c)) ? 0 : 1);
    const report = run.stdout.split(dir).join("<mutant>");
    const file = join(RECORDED, `${id}.txt`);
    if (process.env.UPDATE_REPORTS === "1" || !existsSync(file)) {
      mkdirSync(RECORDED, { recursive: true });
      writeFileSync(file, report);
      if (process.env.UPDATE_REPORTS !== "1")
        throw new Error(`recorded ${file} for the first time: check it and commit it`);
    }
    expect(report).toBe(readFileSync(file, "utf8"));
  });
});
