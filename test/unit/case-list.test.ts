// `npm run grade -- --list-cases`: the case set as the grader loads it (built-in, --fixtures,
// narrowed by --only), one tab-separated line per case. The figures are the fixtures' case.json
// files' (61 required points over 33 cases, 43 extension points over 38, as docs/instructors.md
// shows the reference's score); --random and the command itself run in test/e2e/private-cases.test.ts.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas } from "../../grader/cases/load.ts";
import { caseListing, loadCaseSet, selectCases } from "../../grader/context.ts";
import { parseGradeArgs } from "../../grader/options.ts";
import { CASES_DIR } from "../helpers/program.ts";

const schemas = new FixtureSchemas();
const builtIn = await loadCaseSet({ fixtures: [], random: undefined }, schemas);

/** The listing's lines, each split at its tabs. */
const rows = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => line.split("\t"));

describe("caseListing", () => {
  const listed = rows(caseListing(builtIn));

  it("a line per built-in case, in grading order: id, points, required or extension", () => {
    expect(listed).toHaveLength(71);
    expect(listed[0]).toEqual(["01-lesson-7-partitions-3-members", "2", "required"]);
    expect(listed.find((r) => r[0] === "31-static-members-first")).toEqual([
      "31-static-members-first",
      "2",
      "extension",
    ]);
    // The sync stage's cases, last (fixtures/cases/66-71, each case.json: 1 point, not required).
    expect(listed.slice(-6)).toEqual([
      ["66-sync-lesson-7-partitions", "1", "extension"],
      ["67-sync-idle-members", "1", "extension"],
      ["68-sync-assignment-user-data", "1", "extension"],
      ["69-sync-many-topics-utf8", "1", "extension"],
      ["70-sync-static-members-kafka-bytes", "1", "extension"],
      ["71-sync-after-rack-pass", "1", "extension"],
    ]);
    expect(caseListing(builtIn).endsWith("\n")).toBe(true);
  });

  it("adds up to the kit's totals", () => {
    const total = (kind: string) =>
      listed.filter((r) => r[2] === kind).reduce((sum, r) => sum + Number(r[1]), 0);
    expect([total("required"), listed.filter((r) => r[2] === "required").length]).toEqual([61, 33]);
    expect([total("extension"), listed.filter((r) => r[2] === "extension").length]).toEqual([
      43, 38,
    ]);
  });

  it("an id with a tab or a control character cannot add a column", () => {
    expect(caseListing([{ id: "mine/a\tb\u001b", points: 3, required: false }])).toBe(
      "mine/a\\u0009b\\u001b\t3\textension\n",
    );
  });
});

describe("loadCaseSet and selectCases, as --list-cases uses them", () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-list-cases-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--fixtures DIR's cases come after the built-in ones, as <DIR name>/<case>", async () => {
    cpSync(join(CASES_DIR, "07-idle-members"), join(dir, "mine", "01-idle"), {
      recursive: true,
      filter: (source) => !source.endsWith("recipe.ts"),
    });
    const cases = await loadCaseSet({ fixtures: [join(dir, "mine")], random: undefined }, schemas);
    expect(rows(caseListing(cases)).at(-1)).toEqual(["mine/01-idle", "2", "required"]);
  });

  it("--only keeps the set's order; an unknown id is refused", () => {
    const only = selectCases(builtIn, ["03-per-topic-skew", "01-lesson-7-partitions-3-members"]);
    expect(only.map((c) => c.id)).toEqual([
      "01-lesson-7-partitions-3-members",
      "03-per-topic-skew",
    ]);
    expect(() => selectCases(builtIn, ["nope"])).toThrow(/^no such case: nope\. /);
  });
});

describe("parseGradeArgs --list-cases", () => {
  it("takes --fixtures, --random and --only, and no PATH, --format or --batch", () => {
    const command = parseGradeArgs(["--list-cases", "--random", "3", "--only", "random/002"]);
    expect(command.action).toBe("list-cases");
    expect(command.random).toEqual({ count: 3, seed: 1 });
    expect(command.only).toEqual(["random/002"]);
    expect(() => parseGradeArgs(["--list-cases", "solution"])).toThrow(
      "--list-cases lists the case set, not a submission: give no PATH (got solution)",
    );
    expect(() => parseGradeArgs(["--list-cases", "--format", "json"])).toThrow(
      "--format does not go with --list-cases",
    );
    expect(() => parseGradeArgs(["--list-cases", "--batch", "x"])).toThrow(
      "--batch does not go with --list-cases",
    );
  });
});
