// The kit proves its mistake catalogue: every mutant is caught by the fixtures and told apart by at
// least one case, every case's `mistakes` are ones it tells apart, the recorded diagnosis data is
// what running the mutants gives (the file path and the live path agree), and hand-made mistakes
// are named.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, type Mistake } from "../grader/diagnose/catalogue.ts";
import {
  DIAGNOSIS_FILE,
  loadDiagnosisData,
  outcomeHash,
  type CaseDiagnosis,
} from "../grader/diagnose/data.ts";
import { FileOutcomes, matchMistakes } from "../grader/diagnose/diagnose.ts";
import { FixtureSchemas, loadCaseFolder, loadCases, type Case } from "../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../grader/kit.ts";
import { buildDiagnosisText } from "../grader/instructor/mutants/diagnosis-json.ts";
import { fieldSpans } from "../grader/instructor/mutants/field-spans.ts";
import { LiveOutcomes } from "../grader/instructor/mutants/live.ts";
import {
  MUTANTS,
  writeMutant,
  writeVariant,
  type Replacement,
} from "../grader/instructor/mutants/mutants.ts";
import { decodeSubscription } from "../solution/src/subscription.ts";
import { SubscriptionDecodeError } from "../solution/src/decode-error.ts";
import { grade, gradeJson } from "./helpers/grader.ts";
import { lessonAnchors } from "./helpers/lesson.ts";
import { ROOT } from "./helpers/program.ts";

const schemas = new FixtureSchemas();
const cases = loadCases(BUILT_IN_CASES_DIR, [], schemas);
const data = loadDiagnosisData();
const ids = [...CATALOGUE.keys()];

/** The hash of the right answer's outcome on a case. */
function expectedHash(c: Case): string {
  return outcomeHash(
    "error" in c.expected
      ? { kind: "error", member: c.expected.error.member }
      : { kind: "output", mode: c.mode, output: c.expected.output },
  );
}

function recorded(c: Case): CaseDiagnosis {
  const d = new FileOutcomes(data).caseData(c);
  if (d === undefined)
    throw new Error(`${c.id}: not in grader/diagnose/diagnosis.json (npm run build:diagnosis)`);
  return d;
}

/** The mutants that fail a case, grouped by identical outcome. */
function failingGroups(c: Case): string[][] {
  const right = expectedHash(c);
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const hash = recorded(c).outcomes.get(id) ?? "";
    if (hash === right) continue;
    groups.set(hash, [...(groups.get(hash) ?? []), id]);
  }
  return [...groups.values()];
}

/** True when the case tells `id` apart: it fails, and no other mutant does the same thing. */
const tellsApart = (c: Case, id: string) =>
  failingGroups(c).some((g) => g.length === 1 && g[0] === id);

describe("the mistake catalogue", () => {
  it("has every id DESIGN.md lists, each with a mutant, a lesson section and a bullet in LESSON.md", () => {
    expect(ids).toEqual(
      expect.arrayContaining([
        "global-assignment",
        "numeric-order",
        "arrival-order",
        "locale-order",
        "idle-members-dropped",
        "unsubscribed-topics-assigned",
        "unknown-topic-crash",
        "extra-to-last",
        "start-without-min",
        "ceil-chunks",
        "round-robin",
        "little-endian",
        "char-length-names",
        "unsigned-user-data-length",
        "newer-versions-rejected",
        "trailing-fields-misread",
        "dataview-byteoffset",
        "static-members-not-first",
      ]),
    );
    expect([...MUTANTS.keys()].sort()).toEqual([...ids].sort());
    const anchors = lessonAnchors();
    const lesson = readFileSync(join(ROOT, "LESSON.md"), "utf8");
    const commonMistakes = lesson.slice(
      lesson.indexOf("## Common mistakes"),
      lesson.indexOf("## The exercise"),
    );
    for (const m of CATALOGUE.values()) {
      expect(anchors, `${m.id}: LESSON.md#${m.lesson}`).toContain(m.lesson);
      expect(commonMistakes, `LESSON.md#common-mistakes names ${m.id}`).toContain(`\`${m.id}\``);
      for (const other of m.moreSpecificThan) expect(ids).toContain(other);
    }
  });

  it("is what case.schema.json accepts in `mistakes`, and nothing else", () => {
    const schema = JSON.parse(
      readFileSync(join(ROOT, "fixtures/schema/case.schema.json"), "utf8"),
    ) as {
      properties: { mistakes: { items: { enum: string[] } }; lesson: { enum: string[] } };
    };
    expect([...schema.properties.mistakes.items.enum].sort()).toEqual([...ids].sort());
    expect([...schema.properties.lesson.enum].sort()).toEqual(
      [...lessonAnchors()].filter((a) => schema.properties.lesson.enum.includes(a)).sort(),
    );
    for (const anchor of schema.properties.lesson.enum) expect(lessonAnchors()).toContain(anchor);
  });

  it("rejects a case that names an unknown mistake or a lesson section that does not exist", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "kit-integrity-")), "private");
    const write = (name: string, meta: object) => {
      mkdirSync(join(dir, name), { recursive: true });
      const source = join(BUILT_IN_CASES_DIR, "01-lesson-7-partitions-3-members");
      const good = JSON.parse(readFileSync(join(source, "case.json"), "utf8")) as object;
      writeFileSync(join(dir, name, "case.json"), JSON.stringify({ ...good, ...meta }));
      for (const file of ["input.json", "expected.json"])
        writeFileSync(join(dir, name, file), readFileSync(join(source, file)));
    };
    write("01-unknown-mistake", { mistakes: ["off-by-one"] });
    write("02-unknown-lesson", { lesson: "no-such-section" });
    expect(() => loadCaseFolder(dir, "private", schemas)).toThrow(
      /\/mistakes\/0: must be equal to one of the allowed values[\s\S]*\/lesson: must be equal/,
    );
  });
});

describe("the fixtures catch and tell apart every mutant (from grader/diagnose/diagnosis.json)", () => {
  it("covers every built-in case, unchanged since it was recorded", () => {
    for (const c of cases) recorded(c);
    expect([...data.keys()]).toEqual(cases.map((c) => c.id));
  });

  it.each(ids)(
    "%s fails at least one required case (extension mistakes: an extension case)",
    (id) => {
      const extension = CATALOGUE.get(id)?.extension === true;
      const failed = cases.filter(
        (c) => c.required !== extension && recorded(c).outcomes.get(id) !== expectedHash(c),
      );
      expect(
        failed.length,
        `${id} fails no ${extension ? "extension" : "required"} case`,
      ).toBeGreaterThan(0);
    },
  );

  it.each(ids)("%s is told apart by at least one case", (id) => {
    const apart = cases.filter((c) => tellsApart(c, id)).map((c) => c.id);
    expect(apart.length, `no case tells ${id} apart from every other mutant`).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s lists only mistakes it tells apart", (_, c) => {
    for (const id of c.mistakes) expect(tellsApart(c, id), `${c.id} claims ${id}`).toBe(true);
  });

  it("every mistake is claimed by some case", () => {
    const claimed = new Set(cases.flatMap((c) => c.mistakes));
    for (const id of ids) expect(claimed, id).toContain(id);
  });
});

describe("recorded field boundaries agree with the reference decoder", () => {
  it.each(cases.filter((c) => c.input.members.length <= 50).map((c) => [c.id, c] as const))(
    "%s",
    (_, c) => {
      for (const m of c.input.members) {
        const bytes = new Uint8Array(Buffer.from(m.metadata.replace(/\s+/g, ""), "hex"));
        const layout = fieldSpans(bytes);
        expect(recorded(c).members.get(m.memberId)).toEqual(layout);
        let error: SubscriptionDecodeError | undefined;
        try {
          const decoded = decodeSubscription(bytes);
          const topicValues = layout.spans
            .filter((s) => /^topics\[\d+\]$/.test(s.field))
            .map((s) => JSON.parse(s.value) as string);
          expect(topicValues).toEqual(decoded.topics);
        } catch (e) {
          if (!(e instanceof SubscriptionDecodeError)) throw e;
          error = e;
        }
        expect(
          layout.error === null,
          `${m.memberId}: walker and decoder agree on error or not`,
        ).toBe(error === undefined);
        if (error !== undefined) {
          expect(layout.error?.offset).toBe(error.offset);
          expect(layout.error?.field.replace(/ (length|count)$/, "")).toBe(error.field);
        }
      }
    },
  );
});

describe("the recorded diagnosis data is what running the mutants live gives", () => {
  const live = new LiveOutcomes(schemas);
  afterAll(() => live.dispose());

  it("for every mutant on every built-in case, and the file is what npm run build:diagnosis writes", async () => {
    for (const c of cases) {
      expect(await live.outcomesFor(c), c.id).toEqual(recorded(c).outcomes);
      expect(await live.offsetsFor(c), `${c.id}: offsets`).toEqual(recorded(c).offsets);
    }
    // The same runner and the same code as npm run generate (the outcomes are kept per case).
    expect(await buildDiagnosisText(cases, live)).toBe(readFileSync(DIAGNOSIS_FILE, "utf8"));
  }, 300_000);
});

describe("grading names the mistake", () => {
  it("names nothing for the reference", () => {
    const { results } = gradeJson(["solution"]);
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

describe("matchMistakes", () => {
  const outcome = { kind: "error", member: "m" } as const;
  const same = new Map([
    ["little-endian", outcomeHash(outcome)],
    ["dataview-byteoffset", outcomeHash(outcome)],
  ]);

  it("names every mistake whose outcome matches, in catalogue order", () => {
    expect(matchMistakes(outcome, same)).toEqual(["little-endian", "dataview-byteoffset"]);
    expect(matchMistakes({ kind: "error", member: "other" }, same)).toEqual([]);
  });

  it("names one alone when the catalogue declares it more specific than the others", () => {
    const catalogue = new Map<string, Mistake>(
      [...CATALOGUE].map(([id, m]) => [
        id,
        id === "dataview-byteoffset" ? { ...m, moreSpecificThan: ["little-endian"] } : m,
      ]),
    );
    expect(matchMistakes(outcome, same, catalogue)).toEqual(["dataview-byteoffset"]);
  });

  it("tells apart mistakes that reject the same member by the offset the program reported", () => {
    const offsets = new Map([
      ["little-endian", 2],
      ["dataview-byteoffset", 0],
    ]);
    const at = (offset: number | undefined) => ({ kind: "error", member: "m", offset }) as const;
    expect(matchMistakes(at(2), same, CATALOGUE, offsets)).toEqual(["little-endian"]);
    expect(matchMistakes(at(0), same, CATALOGUE, offsets)).toEqual(["dataview-byteoffset"]);
    // An offset no mutant reported, or none at all, keeps both.
    expect(matchMistakes(at(9), same, CATALOGUE, offsets)).toEqual([
      "little-endian",
      "dataview-byteoffset",
    ]);
    expect(matchMistakes(at(undefined), same, CATALOGUE, offsets)).toEqual([
      "little-endian",
      "dataview-byteoffset",
    ]);
  });

  it("never names the starter's stubs, timeouts or limits", () => {
    for (const kind of [
      "not-implemented",
      "timeout",
      "memory",
      "output-cap",
      "build-error",
    ] as const) {
      expect(matchMistakes({ kind }, new Map([["little-endian", outcomeHash({ kind })]]))).toEqual(
        [],
      );
    }
  });
});
