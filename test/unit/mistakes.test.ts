// The kit proves its mistake catalogue from grader/diagnose/diagnosis.json: every mutant is caught
// by the fixtures and told apart by at least one case, every case's `mistakes` are ones it tells
// apart, recorded field boundaries agree with the reference decoder, and matchMistakes names what
// it should. That the file is what the mutants do today is test/e2e/generated.test.ts's (it runs
// them); that the grader names hand-made mistakes is test/e2e/mistakes.test.ts's.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, mistakeOf, type Mistake } from "../../grader/diagnose/catalogue.ts";
import { loadDiagnosisData, outcomeHash, type CaseDiagnosis } from "../../grader/diagnose/data.ts";
import {
  confirmNames,
  crashSignature,
  fieldAt,
  FileOutcomes,
  matchMistakes,
} from "../../grader/diagnose/diagnose.ts";
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
/** The mistakes named from mutants (the others are named from the kind of outcome). */
const mutantIds = [...CATALOGUE.values()].filter((m) => m.evidence === "mutant").map((m) => m.id);
const mutantNames = [...MUTANTS.keys()];

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

/**
 * The mutants that fail a case, grouped by what the grader can tell apart (mutant names, forms
 * included): the outcome, and for a rejected member the field of its bytes where the mutant
 * stopped (matchMistakes names a mutant only when the program stopped in that field).
 */
function failingGroups(c: Case): string[][] {
  const right = expectedHash(c);
  const data = recorded(c);
  const rejected = new Map(
    c.input.members.map((m) => [outcomeHash({ kind: "error", member: m.memberId }), m.memberId]),
  );
  const groups = new Map<string, string[]>();
  for (const name of mutantNames) {
    const hash = data.outcomes.get(name) ?? "";
    if (hash === right) continue;
    const offset = data.offsets.get(name);
    const layout = data.members.get(rejected.get(hash) ?? "");
    const where =
      offset === undefined ? "" : layout === undefined ? `@${offset}` : fieldAt(layout, offset);
    const key = `${hash} ${where}`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return [...groups.values()];
}

/**
 * True when the case tells mistake `id` apart: one of its mutants fails it, and no mutant of
 * another mistake does the same thing, except mistakes `id` is declared more specific than
 * (matchMistakes then names `id` alone).
 */
const tellsApart = (c: Case, id: string) => {
  const within = CATALOGUE.get(id)?.moreSpecificThan ?? [];
  return failingGroups(c).some(
    (g) =>
      g.some((name) => mistakeOf(name) === id) &&
      g.every((name) => mistakeOf(name) === id || within.includes(mistakeOf(name))),
  );
};

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
        "code-point-order",
        "float-range-boundaries",
        "user-data-only-minus-one-null",
        "null-user-data-as-empty",
        "negative-count-as-empty",
        "negative-version-accepted",
        "truncated-tolerated",
        "truthy-instance-id",
        "later-fields-not-read",
        "crash-on-bad-bytes",
        "bad-bytes-accepted",
        "valid-bytes-rejected",
        "racks-ignored",
        "racks-always-matched",
        "co-partitioning-lost",
        "rack-partition-assigned-twice",
        "rackless-members-skipped",
        "empty-rack-is-a-rack",
        "rack-share-exceeded",
      ]),
    );
    expect([...new Set(mutantNames.map(mistakeOf))].sort()).toEqual([...mutantIds].sort());
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

  it.each(mutantIds)(
    "%s fails at least one required case (extension mistakes: an extension case)",
    (id) => {
      const extension = CATALOGUE.get(id)?.extension === true;
      const failed = cases.filter(
        (c) =>
          c.required !== extension &&
          mutantNames.some(
            (name) => mistakeOf(name) === id && recorded(c).outcomes.get(name) !== expectedHash(c),
          ),
      );
      expect(
        failed.length,
        `${id} fails no ${extension ? "extension" : "required"} case`,
      ).toBeGreaterThan(0);
    },
  );

  it.each(mutantIds)("%s is told apart by at least one case", (id) => {
    const apart = cases.filter((c) => tellsApart(c, id)).map((c) => c.id);
    expect(apart.length, `no case tells ${id} apart from every other mutant`).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s lists only mistakes it tells apart", (_, c) => {
    for (const id of c.mistakes) expect(tellsApart(c, id), `${c.id} claims ${id}`).toBe(true);
  });

  it("every mistake is claimed by some case", () => {
    const claimed = new Set(cases.flatMap((c) => c.mistakes));
    for (const id of mutantIds) expect(claimed, id).toContain(id);
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
  const valid = { output: {} } as const;
  const rejects = (member: string) => ({ error: { member } }) as const;
  const outcome = { kind: "error", member: "m", offset: 2 } as const;
  const same = new Map([
    ["little-endian", outcomeHash(outcome)],
    ["dataview-byteoffset", outcomeHash(outcome)],
  ]);

  it("names every mistake whose outcome matches, in catalogue order", () => {
    expect(matchMistakes(outcome, valid, same)).toEqual(["little-endian", "dataview-byteoffset"]);
  });

  it("names one alone when the catalogue declares it more specific than the others", () => {
    const catalogue = new Map<string, Mistake>(
      [...CATALOGUE].map(([id, m]) => [
        id,
        id === "dataview-byteoffset" ? { ...m, moreSpecificThan: ["little-endian"] } : m,
      ]),
    );
    expect(matchMistakes(outcome, valid, same, { catalogue })).toEqual(["dataview-byteoffset"]);
  });

  it("names a mistake for each of its forms (id:form), once", () => {
    const forms = new Map([
      ["negative-version-accepted", "a"],
      ["negative-version-accepted:unsigned", outcomeHash(outcome)],
    ]);
    expect(matchMistakes(outcome, valid, forms)).toEqual(["negative-version-accepted"]);
  });

  // Member m's bytes: version 0, one topic "ab", null user data.
  const layout = {
    spans: [
      { field: "version", start: 0, end: 2, value: "0" },
      { field: "topics count", start: 2, end: 6, value: "1" },
      { field: "topics[0] length", start: 6, end: 8, value: "2" },
      { field: "topics[0]", start: 8, end: 10, value: '"ab"' },
      { field: "userData length", start: 10, end: 14, value: "-1 (null)" },
    ],
    error: null,
  };
  const layouts = new Map([["m", layout]]);
  const at = (offset: number | undefined) => ({ kind: "error", member: "m", offset }) as const;

  it("names a mutant that rejected bytes only when the program stopped in the same field", () => {
    const offsets = new Map([
      ["little-endian", 2],
      ["dataview-byteoffset", 0],
      ["unsigned-user-data-length", 14],
    ]);
    const hashes = new Map([...offsets.keys()].map((name) => [name, outcomeHash(at(0))]));
    const evidence = { offsets, layouts };
    expect(matchMistakes(at(2), valid, hashes, evidence)).toEqual(["little-endian"]);
    expect(matchMistakes(at(4), valid, hashes, evidence)).toEqual(["little-endian"]);
    expect(matchMistakes(at(0), valid, hashes, evidence)).toEqual(["dataview-byteoffset"]);
    // The length's first byte and the end just after it are one field: userData.
    expect(matchMistakes(at(10), valid, hashes, evidence)).toEqual(["unsigned-user-data-length"]);
    // Stopping in a field no mutant stopped in, or saying no offset, shows none of them: a valid
    // member was rejected, and that is all the case shows.
    expect(matchMistakes(at(8), valid, hashes, evidence)).toEqual(["valid-bytes-rejected"]);
    expect(matchMistakes(at(undefined), valid, hashes, evidence)).toEqual(["valid-bytes-rejected"]);
    // Without a recorded layout (a large case) the offsets must be equal.
    expect(matchMistakes(at(4), valid, hashes, { offsets })).toEqual(["valid-bytes-rejected"]);
    expect(matchMistakes(at(2), valid, hashes, { offsets })).toEqual(["little-endian"]);
  });

  it("names the kind of outcome when no mutant explains it", () => {
    const none = new Map<string, string>();
    const crash = { kind: "crash", exitCode: 70, signal: null } as const;
    const output = { kind: "output", mode: "decode", output: {} } as const;
    expect(matchMistakes(crash, rejects("m"), none)).toEqual(["crash-on-bad-bytes"]);
    expect(matchMistakes(output, rejects("m"), none)).toEqual(["bad-bytes-accepted"]);
    expect(matchMistakes(at(3), valid, none)).toEqual(["valid-bytes-rejected"]);
    // Another member rejected where a member's bytes are bad: only a member whose recorded layout
    // is valid was rejected wrongly; without a layout nothing is shown.
    const bad = { spans: [], error: { field: "version", offset: 0, message: "" } };
    expect(matchMistakes(at(3), rejects("x"), none, { layouts })).toEqual(["valid-bytes-rejected"]);
    expect(matchMistakes(at(3), rejects("x"), none, { layouts: new Map([["m", bad]]) })).toEqual(
      [],
    );
    expect(matchMistakes(at(3), rejects("x"), none)).toEqual([]);
    // A crash or a wrong answer on valid bytes is no outcome mistake of its own.
    expect(matchMistakes(crash, valid, none)).toEqual([]);
    expect(matchMistakes(output, valid, none)).toEqual([]);
    // A mutant that explains it wins over the kind of outcome.
    const counted = new Map([["negative-count-as-empty", outcomeHash(output)]]);
    expect(matchMistakes(output, rejects("m"), counted)).toEqual(["negative-count-as-empty"]);
  });

  it("treats every crash as one outcome, whatever the exit code or signal", () => {
    const crashed = new Map([
      ["unknown-topic-crash", outcomeHash({ kind: "crash", exitCode: 70, signal: null })],
    ]);
    for (const crash of [
      { kind: "crash", exitCode: 1, signal: null },
      { kind: "crash", exitCode: null, signal: "SIGSEGV" },
    ] as const) {
      expect(matchMistakes(crash, valid, crashed)).toEqual(["unknown-topic-crash"]);
    }
  });

  it("names a crash's mistake only when the crash shows its own evidence", () => {
    const crashed = new Map([
      ["truncated-tolerated", outcomeHash({ kind: "crash", exitCode: 70, signal: null })],
    ]);
    const crash = (stderr: string) =>
      ({ kind: "crash", exitCode: 70, signal: null, stderr }) as const;
    const bounds =
      "internal error (a bug, not bad input):\nRangeError: Offset is outside the bounds of the DataView";
    expect(matchMistakes(crash(bounds), rejects("m"), crashed)).toEqual(["truncated-tolerated"]);
    // A plain Error thrown on purpose is a crash on bad bytes, not a read past the end.
    const plain = "internal error (a bug, not bad input):\nError: bad bytes";
    expect(matchMistakes(crash(plain), rejects("m"), crashed)).toEqual(["crash-on-bad-bytes"]);
  });
});

describe("crashSignature: a crash's place, the same for the same throw on any case", () => {
  it("reads the error's type and the first frame in the program's sources, not the message", () => {
    const caught = (topic: string) =>
      `internal error (a bug, not bad input):\nError: no metadata for topic ${topic}\n    at assignRange (src/range-assignor.ts:41:11)\n    at run (src/main.ts:90:5)`;
    expect(crashSignature(caught("orders"))).toBe("Error @ src/range-assignor.ts:41");
    expect(crashSignature(caught("payments"))).toBe(crashSignature(caught("orders")));
    const uncaught =
      "src/subscription.ts:12\n  const n = view.getInt32(at);\n  ^\n\nRangeError: Offset is outside the bounds of the DataView\n    at readInt32 (src/subscription.ts:12:3)";
    expect(crashSignature(uncaught)).toBe("RangeError @ src/subscription.ts:12");
    expect(crashSignature("TypeError: x is not a function")).toBe("TypeError: x is not a function");
    expect(crashSignature(undefined)).toBe("");
  });
});

describe("confirmNames: a name is checked against every case of the submission", () => {
  const base = {
    passed: false,
    required: true,
    named: [] as string[],
    fallback: [] as string[],
    diagnosed: true,
    crashed: false,
    crash: undefined as string | undefined,
    failedByEveryMutantOf: new Set<string>(),
    crashPredictedBy: new Set<string>(),
    sameWay: [] as string[],
  };
  const failed = (named: string[], more: Partial<typeof base> = {}) => ({
    ...base,
    named,
    ...more,
  });
  const passedCase = (failing: string[]) => ({
    ...base,
    passed: true,
    failedByEveryMutantOf: new Set(failing),
  });
  /** A crash at `where` on a case whose mutants of `predicted` crash there too. */
  const crashAt = (where: string, named: string[], predicted: string[], more = {}) =>
    failed(named, { crashed: true, crash: where, crashPredictedBy: new Set(predicted), ...more });

  it("keeps names no other case contradicts", () => {
    expect(confirmNames([failed(["numeric-order"]), passedCase(["arrival-order"])])).toEqual([
      ["numeric-order"],
      [],
    ]);
  });

  it("drops a mistake the program shows it does not have: it passed a case all its mutants fail", () => {
    const crash = failed(["unknown-topic-crash"], { crashed: true });
    expect(confirmNames([crash, passedCase(["unknown-topic-crash"])])).toEqual([[], []]);
    // What the outcome shows by itself stays: an answer where Kafka rejects the bytes.
    const accepted = failed(["truncated-tolerated"], { fallback: ["bad-bytes-accepted"] });
    expect(confirmNames([accepted, passedCase(["truncated-tolerated"])])).toEqual([
      ["bad-bytes-accepted"],
      [],
    ]);
  });

  it("takes a pass on an extension case as evidence against the extension stages' mistakes only", () => {
    const rounded = failed(["float-range-boundaries"]);
    const rackCase = {
      ...passedCase(["float-range-boundaries", "racks-ignored"]),
      required: false,
    };
    const rackFailed = failed(["racks-ignored"]);
    // Its rack pass, code of its own, splits right: the plain ranges' mistake still stands.
    expect(confirmNames([rounded, rackCase])).toEqual([["float-range-boundaries"], []]);
    expect(confirmNames([rackFailed, rackCase])).toEqual([[], []]);
    // A required case passed contradicts any mistake.
    const plainCase = passedCase(["float-range-boundaries"]);
    expect(confirmNames([rounded, plainCase])).toEqual([[], []]);
  });

  it("drops a crash's name when the program crashed at the same place where that mistake predicts no crash", () => {
    const where = "TypeError @ src/range-assignor.ts:40";
    const unknownTopic = crashAt(where, ["unknown-topic-crash"], ["unknown-topic-crash"]);
    // The same crash on a required case with no unknown topic: a crash on every case.
    const everywhere = crashAt(where, [], []);
    expect(confirmNames([unknownTopic, everywhere])).toEqual([[], []]);
    // The outcome name falls the same way: a crash on valid bytes at the same place.
    const badBytes = crashAt(where, [], ["crash-on-bad-bytes"], {
      fallback: ["crash-on-bad-bytes"],
    });
    expect(confirmNames([badBytes, everywhere])).toEqual([[], []]);
    expect(confirmNames([badBytes])).toEqual([["crash-on-bad-bytes"]]);
    // A crash whose name a pass contradicts (rule 1, not rule 2) keeps what its outcome shows.
    const readPastEnd = crashAt(where, ["truncated-tolerated"], ["crash-on-bad-bytes"], {
      fallback: ["crash-on-bad-bytes"],
    });
    expect(confirmNames([readPastEnd, passedCase(["truncated-tolerated"])])).toEqual([
      ["crash-on-bad-bytes"],
      [],
    ]);
    // A crash the diagnosis could not look at (no data for its case) is no evidence either way.
    expect(confirmNames([unknownTopic, { ...everywhere, diagnosed: false }])).toEqual([
      ["unknown-topic-crash"],
      [],
    ]);
  });

  it("never withdraws a crash's name for a crash elsewhere of another cause (a second mistake, a stage not started)", () => {
    const where = "TypeError @ src/range-assignor.ts:40";
    const unknownTopic = crashAt(where, ["unknown-topic-crash"], ["unknown-topic-crash"]);
    // Crashed elsewhere, at another place: another mistake's crash.
    const other = crashAt("RangeError @ src/subscription.ts:12", [], []);
    expect(confirmNames([unknownTopic, other])).toEqual([["unknown-topic-crash"], []]);
    // Crashed at the same place on an extension case (its decoder, without Java's rule, made a
    // name the metadata lacks): the stage is not started, the name stands.
    const javaNames = crashAt(where, [], [], { required: false });
    expect(confirmNames([unknownTopic, javaNames])).toEqual([["unknown-topic-crash"], []]);
  });

  it("keeps, among several names, those another case names alone", () => {
    expect(
      confirmNames([
        failed(["dataview-byteoffset"]),
        failed(["newer-versions-rejected", "dataview-byteoffset"]),
        failed(["global-assignment", "unsubscribed-topics-assigned"]),
      ]),
    ).toEqual([
      ["dataview-byteoffset"],
      ["dataview-byteoffset"],
      ["global-assignment", "unsubscribed-topics-assigned"],
    ]);
  });

  it("names on a case failed the same way in kind the mistake another case shows, instead of the outcome's class", () => {
    const shown = failed(["unsigned-user-data-length"]);
    // matchMistakes found no mutant: it gave the outcome's class.
    const sameWay = failed(["valid-bytes-rejected"], {
      fallback: ["valid-bytes-rejected"],
      sameWay: ["little-endian", "unsigned-user-data-length"],
    });
    expect(confirmNames([shown, sameWay])).toEqual([
      ["unsigned-user-data-length"],
      ["unsigned-user-data-length"],
    ]);
    // Shown nowhere else: the outcome's class.
    expect(confirmNames([sameWay])).toEqual([["valid-bytes-rejected"]]);
    // Shown elsewhere but contradicted by a pass: not named.
    expect(confirmNames([shown, sameWay, passedCase(["unsigned-user-data-length"])])).toEqual([
      [],
      ["valid-bytes-rejected"],
      [],
    ]);
  });
});

describe("matchMistakes, limits", () => {
  const valid = { output: {} } as const;
  const rejects = (member: string) => ({ error: { member } }) as const;
  it("never names the starter's stubs, timeouts or limits", () => {
    for (const kind of [
      "not-implemented",
      "timeout",
      "memory",
      "output-cap",
      "build-error",
    ] as const) {
      const hashes = new Map([["little-endian", outcomeHash({ kind })]]);
      expect(matchMistakes({ kind }, valid, hashes)).toEqual([]);
      expect(matchMistakes({ kind }, rejects("m"), hashes)).toEqual([]);
    }
  });
});
