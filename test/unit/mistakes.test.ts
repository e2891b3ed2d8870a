// The kit proves its mistake catalogue from grader/diagnose/diagnosis.json: every mutant is caught
// by the fixtures and told apart by at least one case, every case's `mistakes` are ones it tells
// apart, recorded field boundaries agree with the reference decoder, and matchMistakes names what
// it should. That the file is what the mutants do today is test/e2e/generated.test.ts's (it runs
// them); that the grader names hand-made mistakes is test/e2e/mistakes.test.ts's.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, type Mistake } from "../../grader/diagnose/catalogue.ts";
import { loadDiagnosisData, outcomeHash, type CaseDiagnosis } from "../../grader/diagnose/data.ts";
import { FileOutcomes, matchMistakes } from "../../grader/diagnose/diagnose.ts";
import { FixtureSchemas, loadCaseFolder, loadCases, type Case } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { fieldSpans } from "../../grader/instructor/mutants/field-spans.ts";
import { MUTANTS } from "../../grader/instructor/mutants/mutants.ts";
import { decodeSubscription } from "../../solution/src/subscription.ts";
import { SubscriptionDecodeError } from "../../solution/src/decode-error.ts";
import { lessonAnchors } from "../helpers/lesson.ts";
import { ROOT } from "../helpers/program.ts";

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
