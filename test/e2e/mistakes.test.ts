// Grading names the mistake, end to end: hand-made versions of catalogued mistakes (written
// differently from their mutants, as a student might) are named by the grader's command line,
// and the text reports of a few mutants match their recorded files. That every mutant is caught
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
import { grade, gradeJson } from "../helpers/grader.ts";
import { graded } from "../helpers/graded.ts";
import { ROOT } from "../helpers/program.ts";

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
      "24-decode-negative-user-data-length",
      [
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
      ],
    ],
  ])("a hand-made %s is named on %s", (id, caseId, replacements) => {
    const dir = writeVariant(`hand-made-${id}`, replacements);
    const { results } = gradeJson([dir, "--only", caseId]);
    const result = results.cases[0];
    expect(result?.status).not.toBe("pass");
    expect(result?.mistakes).toEqual([id]);
    expect(result?.mistake).toBe(id);
  });
});

describe("reports for a few mutants match their recorded files (UPDATE_REPORTS=1 re-records)", () => {
  const RECORDED = join(ROOT, "test", "reports");
  const cases = {
    "global-assignment": ["03-per-topic-skew", "11-different-subscriptions"],
    "dataview-byteoffset": [
      "42-decode-which-member-fails-first",
      "25-error-truncated-topic-string",
    ],
    "char-length-names": ["22-decode-version-3"],
    "idle-members-dropped": ["07-idle-members"],
  } as const;
  const dirs = new Map<string, string>();
  beforeAll(() => {
    for (const id of Object.keys(cases)) dirs.set(id, writeMutant(id));
  });

  it.each(Object.entries(cases))("%s", (id, only) => {
    const dir = dirs.get(id) ?? "";
    const run = grade([dir, ...only.flatMap((c) => ["--only", c])]);
    expect(run.status).toBe(1);
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
