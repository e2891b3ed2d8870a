// The scaffold `npm run new-case` writes, and how new-case and `npm run gradescope-bundle` find a
// case that still holds it (the scripts themselves are run in test/e2e/private-cases.test.ts and
// test/e2e/templates.test.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas } from "../../grader/cases/load.ts";
import {
  unfinishedCases,
  unfinishedFields,
  unfinishedLines,
} from "../../grader/cases/placeholders.ts";
import { scaffoldMeta } from "../../scripts/case-scaffold.ts";
import { CASES_DIR } from "../helpers/program.ts";

describe("the scaffold", () => {
  it("validates, and its title, description and hint are unfinished", () => {
    const schemas = new FixtureSchemas();
    const meta = scaffoldMeta("decode", { output: {} });
    expect(schemas.case(meta), JSON.stringify(schemas.case.errors)).toBe(true);
    expect(meta).toMatchObject({ points: 1, required: true, lesson: "the-subscription-bytes" });
    expect(unfinishedFields(meta)).toEqual(["title", "description", "hint"]);
    expect(scaffoldMeta("assign", { error: { member: "m" } }).lesson).toBe("bad-bytes");
  });
});

describe("unfinishedFields", () => {
  it("a built-in case is finished", () => {
    const meta = JSON.parse(readFileSync(join(CASES_DIR, "07-idle-members", "case.json"), "utf8"));
    expect(unfinishedFields(meta)).toEqual([]);
  });

  it("a field that starts with TODO (after spaces) is unfinished; TODO later in the text is not", () => {
    expect(
      unfinishedFields({
        title: "  TODO later",
        description: "Checks the TODO list of the lesson",
        hint: "Read the section",
      }),
    ).toEqual(["title"]);
    expect(unfinishedFields({ title: 3, hint: "TODO" })).toEqual(["hint"]);
    expect(unfinishedFields(null)).toEqual([]);
  });
});

describe("unfinishedCases and unfinishedLines", () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-scaffold-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names each case folder still holding placeholders, in name order, and its fields", () => {
    const write = (name: string, text: string) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "case.json"), text);
    };
    write("02-draft", JSON.stringify(scaffoldMeta("assign", { output: {} })));
    write("01-half", JSON.stringify({ title: "Done", description: "TODO: why", hint: "TODO" }));
    write("03-done", JSON.stringify({ title: "Done", description: "Done", hint: "Done" }));
    write("04-broken", "{");
    writeFileSync(join(dir, "notes.txt"), "TODO");
    const found = unfinishedCases(dir);
    expect(found).toEqual([
      { name: "01-half", fields: ["description", "hint"] },
      { name: "02-draft", fields: ["title", "description", "hint"] },
    ]);
    expect(unfinishedLines(found, "cases/")).toEqual([
      "cases/01-half/case.json: description and hint still say TODO",
      "cases/02-draft/case.json: title, description and hint still say TODO",
    ]);
    expect(unfinishedLines([{ name: "05-x", fields: ["hint"] }], "")).toEqual([
      "05-x/case.json: hint still says TODO",
    ]);
    expect(unfinishedCases(join(dir, "missing"))).toEqual([]);
  });
});
