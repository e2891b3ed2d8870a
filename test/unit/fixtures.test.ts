// The golden cases: valid against their schemas and linked to LESSON.md sections that exist. That
// they are exactly what their recipes write is test/e2e/generated.test.ts's check.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { lessonAnchors } from "../helpers/lesson.ts";
import { ROOT } from "../helpers/program.ts";

describe("fixtures/schema", () => {
  it("every schema is valid against JSON Schema's meta-schema (the grader skips that check)", () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    const dir = join(ROOT, "fixtures", "schema");
    const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const schema = JSON.parse(readFileSync(join(dir, name), "utf8")) as object;
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
    }
  });
});

describe("fixtures/cases", () => {
  const cases = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas());

  it("validate against fixtures/schema (the grader's loader throws otherwise)", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(cases.filter((c) => c.required).length).toBeGreaterThanOrEqual(25);
  });

  it("link only to LESSON.md sections that exist", () => {
    const anchors = lessonAnchors();
    for (const c of cases) expect(anchors, `${c.id}: LESSON.md#${c.lesson}`).toContain(c.lesson);
  });

  it("cover every version and mode the lesson teaches", () => {
    const versions = new Set(
      cases.flatMap((c) =>
        c.input.members.map((m) => parseInt(m.metadata.replace(/\s/g, "").slice(0, 4), 16)),
      ),
    );
    for (const v of [0, 1, 2, 3, 7]) expect(versions).toContain(v);
    expect(new Set(cases.map((c) => c.mode))).toEqual(new Set(["assign", "decode", "sync"]));
    expect(cases.some((c) => "error" in c.expected && c.required)).toBe(true);
    const ids = cases.flatMap((c) => c.input.members.map((m) => m.memberId));
    for (const id of ["__proto__", "constructor", "error"]) expect(ids).toContain(id);
  });
});
