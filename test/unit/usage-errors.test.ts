// The grader's usage errors (exit 2), in process: each one is a SetupError, thrown by the parts
// the command line runs before any grading (options.ts parseGradeArgs, then context.ts's
// loadCaseSet and selectCases, as prepareGrading calls them), with the words that say what to fix.
// That a SetupError becomes exit 2, an empty standard output and `grade: MESSAGE` on standard
// error is test/e2e/grader.test.ts's one spawn of a usage error.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { FixtureSchemas } from "../../grader/cases/load.ts";
import { loadCaseSet, selectCases } from "../../grader/context.ts";
import { SetupError } from "../../grader/errors.ts";
import { parseGradeArgs } from "../../grader/options.ts";
import { writeBrokenFixture } from "../helpers/fixture-files.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";

const schemas = new FixtureSchemas();
const work = mkdtempSync(join(tmpdir(), "kit-usage-errors-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The error `action` throws (failing the test when it throws none). */
async function thrown(action: () => unknown): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("nothing was thrown");
}

describe("parseGradeArgs, typed in the kit's folder", () => {
  // npm passes where the command was typed as INIT_CWD; PATH is resolved from there.
  const saved = process.env.INIT_CWD;
  beforeEach(() => {
    process.env.INIT_CWD = ROOT;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.INIT_CWD;
    else process.env.INIT_CWD = saved;
  });

  it.each([
    [["no/such/folder"], /^no such submission folder: no\/such\/folder \(looked in /],
    [["test/submissions"], /^test\/submissions is not a submission: it has no src\/main\.ts$/],
    [
      ["solution", "--seed", "42"],
      /^--seed goes with --random N \(the number of generated cases\)$/,
    ],
    [["solution", "--random", "0"], /^--random takes a whole number of cases above 0, got "0"$/],
  ])("%j", async (args, message) => {
    const error = await thrown(() => parseGradeArgs(args));
    expect(error).toBeInstanceOf(SetupError);
    expect(error.message).toMatch(message);
  });
});

describe("the case set (loadCaseSet, selectCases)", () => {
  it("--only with an id the set lacks names it and gives examples of real ids", async () => {
    const cases = await loadCaseSet({ fixtures: [], random: undefined }, schemas);
    const error = await thrown(() => selectCases(cases, ["99-no-such-case"]));
    expect(error).toBeInstanceOf(SetupError);
    expect(error.message).toBe(
      "no such case: 99-no-such-case. Case ids are the folder names, e.g. 01-lesson-7-partitions-3-members, 02-one-member-takes-all, 03-per-topic-skew",
    );
  });

  it("an invalid private fixture: every problem with its file and JSON path", async () => {
    const dir = join(work, "broken", "private");
    writeBrokenFixture(dir);
    const error = await thrown(() => loadCaseSet({ fixtures: [dir], random: undefined }, schemas));
    expect(error).toBeInstanceOf(SetupError);
    expect(error.message).toMatch(/case\.json: does not match case\.schema\.json/);
    expect(error.message).toMatch(/\/mode: must be equal to one of the allowed values/);
    expect(error.message).toMatch(/input\.json: does not match input\.schema\.json/);
    expect(error.message).toMatch(/expected\.json: not JSON/);
  });

  it("a --fixtures case still holding new-case's TODO placeholders: its file and fields", async () => {
    const dir = join(work, "drafts", "private");
    for (const name of ["01-draft", "02-done", "03-half"]) {
      cpSync(join(CASES_DIR, "07-idle-members"), join(dir, name), {
        recursive: true,
        filter: (source) => !source.endsWith("recipe.ts"),
      });
    }
    const edit = (name: string, fields: Record<string, string>) => {
      const file = join(dir, name, "case.json");
      const meta = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...meta, ...fields }));
    };
    // new-case's scaffold words, and a TODO after white space; a TODO later in a text is no
    // placeholder (02-done).
    edit("01-draft", {
      title: "TODO: one line naming what this case checks",
      hint: "  TODO: what a student whose program fails this case should look at",
    });
    edit("02-done", { description: "Idle members again; the lesson's TODO list, item 3" });
    edit("03-half", { description: "TODO" });
    const error = await thrown(() => loadCaseSet({ fixtures: [dir], random: undefined }, schemas));
    expect(error).toBeInstanceOf(SetupError);
    const shown = relative(process.cwd(), dir);
    expect(error.message).toBe(
      [
        `invalid fixtures in ${dir}:`,
        `  ${shown}/01-draft/case.json: title and hint still say TODO (npm run new-case's placeholders, which students would read: fill them in)`,
        `  ${shown}/03-half/case.json: description still says TODO (npm run new-case's placeholders, which students would read: fill them in)`,
      ].join("\n"),
    );
    // Filled in, the same folder grades.
    edit("01-draft", { title: "Idle members, again", hint: "Read idle members" });
    edit("03-half", { description: "Idle members, a third time" });
    const cases = await loadCaseSet({ fixtures: [dir], random: undefined }, schemas);
    expect(cases.filter((c) => c.id.startsWith("private/")).map((c) => c.id)).toEqual([
      "private/01-draft",
      "private/02-done",
      "private/03-half",
    ]);
  });

  it("two --fixtures folders with the same name would give duplicate ids", async () => {
    for (const parent of ["a", "b"]) {
      cpSync(join(CASES_DIR, "07-idle-members"), join(work, parent, "private", "01-idle-again"), {
        recursive: true,
        filter: (source) => !source.endsWith("recipe.ts"),
      });
    }
    const error = await thrown(() =>
      loadCaseSet(
        { fixtures: [join(work, "a", "private"), join(work, "b", "private")], random: undefined },
        schemas,
      ),
    );
    expect(error).toBeInstanceOf(SetupError);
    expect(error.message).toContain("duplicate case id private/01-idle-again");
  });
});
