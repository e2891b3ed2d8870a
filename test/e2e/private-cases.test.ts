// Private and random cases: `npm run new-case` scaffolds a case whose answer the reference
// computes, `--fixtures DIR` grades with it, and `--random N --seed S` generates cases
// reproducibly, each failure with the one command that reruns it. Every expected answer checked
// here is a fixture's (the same input as a built-in case) or the reference's.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FixtureSchemas, loadCaseFolder } from "../../grader/cases/load.ts";
import {
  dropsIdleMembers,
  grade,
  gradeJson,
  gradeTextAndJson,
  variantOfSolution,
} from "../helpers/grader.ts";
import { gradeAllFormats, type AllFormatsRun } from "../helpers/graded.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";

/** `npm run new-case -- ...args`, typed in `cwd` (npm passes it as INIT_CWD). */
function newCase(args: string[], cwd: string, stdin = "") {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", join(ROOT, "scripts", "new-case.ts"), ...args],
    {
      cwd: ROOT,
      input: stdin,
      encoding: "utf8",
      env: { ...process.env, INIT_CWD: cwd, NO_COLOR: "1" },
      timeout: 120_000,
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const fixture = (id: string, file: string) => readFileSync(join(CASES_DIR, id, file), "utf8");
const json = (text: string) => JSON.parse(text) as unknown;

/** Replaces `fields` of a case's scaffolded case.json with real text, as an instructor would. */
function fillIn(caseDir: string, fields = ["title", "description", "hint"]): void {
  const file = join(caseDir, "case.json");
  const meta = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  for (const field of fields) meta[field] = `The ${field} an instructor wrote`;
  writeFileSync(file, `${JSON.stringify(meta, null, 2)}\n`);
}

describe("npm run new-case", () => {
  let work: string;
  let first: ReturnType<typeof newCase>;
  const IDLE = "07-idle-members";
  const DECODE = "19-decode-version-0";
  const BAD_BYTES = "25-error-truncated-topic-string";

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "kit-new-case-"));
    writeFileSync(join(work, "idle.json"), fixture(IDLE, "input.json"));
    first = newCase(["private", "--input", "idle.json", "--slug", "idle-again"], work);
  });

  it("writes input.json, expected.json (the reference's answer) and a case.json that validates", () => {
    expect(first.status, first.stderr).toBe(0);
    const dir = join(work, "private", "01-idle-again");
    expect(first.stdout).toContain(`wrote private/01-idle-again/input.json`);
    expect(first.stdout).toContain(`wrote private/01-idle-again/expected.json`);
    expect(first.stdout).toContain(`wrote private/01-idle-again/case.json`);
    expect(first.stdout).toContain(
      "review expected.json (computed by the reference) and fill in case.json",
    );
    expect(readdirSync(dir).sort()).toEqual(["case.json", "expected.json", "input.json"]);
    expect(json(readFileSync(join(dir, "input.json"), "utf8"))).toEqual(
      json(fixture(IDLE, "input.json")),
    );
    // The reference's answer to a built-in case's input is that case's golden answer.
    expect(json(readFileSync(join(dir, "expected.json"), "utf8"))).toEqual(
      json(fixture(IDLE, "expected.json")),
    );
    const meta = json(readFileSync(join(dir, "case.json"), "utf8"));
    expect(meta).toMatchObject({ mode: "assign", points: 1, required: true, mistakes: [] });
    expect(meta).toMatchObject({ title: expect.stringMatching(/^TODO: /) as unknown });
    const schemas = new FixtureSchemas();
    expect(schemas.case(meta), JSON.stringify(schemas.case.errors)).toBe(true);
    // Valid, but no grading takes it until its placeholders are filled in.
    expect(() => loadCaseFolder(join(work, "private"), "private", schemas)).toThrow(
      "01-idle-again/case.json: title, description and hint still say TODO",
    );
  });

  it("refuses to add a case while one in DIR still says TODO, naming the case and the fields", () => {
    const first = join(work, "private", "01-idle-again");
    const refused = newCase(
      ["private", "--slug", "decode-v0"],
      work,
      fixture(DECODE, "input.json"),
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      "  private/01-idle-again/case.json: title, description and hint still say TODO\n",
    );
    expect(readdirSync(join(work, "private"))).toEqual(["01-idle-again"]);
    fillIn(first, ["title", "description"]);
    const hintLeft = newCase(["private", "--slug", "decode-v0"], work, "{}");
    expect(hintLeft.status).toBe(2);
    expect(hintLeft.stderr).toContain("  private/01-idle-again/case.json: hint still says TODO\n");
    fillIn(first, ["hint"]);
  });

  it("numbers the next case, reads standard input, and records rejected bytes as an error", () => {
    const decode = newCase(
      ["private", "--mode", "decode", "--slug", "decode-v0"],
      work,
      fixture(DECODE, "input.json"),
    );
    expect(decode.status, decode.stderr).toBe(0);
    expect(
      json(readFileSync(join(work, "private", "02-decode-v0", "expected.json"), "utf8")),
    ).toEqual(json(fixture(DECODE, "expected.json")));
    fillIn(join(work, "private", "02-decode-v0"));

    const bad = newCase(["private", "--slug", "cut-short"], work, fixture(BAD_BYTES, "input.json"));
    expect(bad.status, bad.stderr).toBe(0);
    expect(bad.stdout).toContain('the reference rejected member "reader-2"');
    expect(
      json(readFileSync(join(work, "private", "03-cut-short", "expected.json"), "utf8")),
    ).toEqual(json(fixture(BAD_BYTES, "expected.json")));
    fillIn(join(work, "private", "03-cut-short"));
  });

  it("never overwrites: a slug that exists is exit 2, and nothing is written", () => {
    const again = newCase(["private", "--input", "idle.json", "--slug", "idle-again"], work);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("private/01-idle-again already exists");
    expect(readdirSync(join(work, "private")).filter((n) => n.endsWith("idle-again"))).toEqual([
      "01-idle-again",
    ]);
  });

  it("refuses input that is not the program's input, naming the problem (exit 2)", () => {
    const run = newCase(
      ["private", "--slug", "broken"],
      work,
      '{"topics":{"a":-1},"members":[{"metadata":"zz"}]}',
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("does not match fixtures/schema/input.schema.json");
    expect(run.stderr).toContain("/topics/a: must be >= 0");
    expect(run.stderr).toContain("/members/0: must have required property 'memberId'");
    const notJson = newCase(["private", "--slug", "broken"], work, "{");
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain("is not JSON");
    expect(existsSync(join(work, "private", "04-broken"))).toBe(false);
  });

  it("--fixtures DIR grades the reference full and a wrong variant fails the private case", () => {
    const dir = join(work, "private");
    // Only the private cases: the built-in ones are every other file's business.
    const onlyPrivate = [1, 2, 3].flatMap((n) => [
      "--only",
      `private/0${n}-${["idle-again", "decode-v0", "cut-short"][n - 1]}`,
    ]);
    const reference = gradeJson(["solution", "--fixtures", dir, ...onlyPrivate]);
    expect(reference.status, reference.stderr).toBe(0);
    const ids = reference.results.cases.map((c) => c.id).filter((id) => id.startsWith("private/"));
    expect(ids).toEqual(["private/01-idle-again", "private/02-decode-v0", "private/03-cut-short"]);
    expect(reference.results.cases.every((c) => c.status === "pass")).toBe(true);

    const variant = gradeJson([dropsIdleMembers(), "--fixtures", dir, ...onlyPrivate]);
    expect(variant.status).toBe(1);
    const byId = new Map(variant.results.cases.map((c) => [c.id, c]));
    expect(byId.get("private/01-idle-again")).toMatchObject({
      status: "fail",
      reason: "wrong-output",
    });
    expect(byId.get("private/02-decode-v0")?.status).toBe("pass");
  });
});

describe("--random N --seed S", () => {
  const IDS = ["001", "002", "003"].map((n) => `random/${n}`);
  // The random cases alone (--only): the built-in ones are every other file's business.
  const RANDOM = ["--random", "3", "--seed", "42", ...IDS.flatMap((id) => ["--only", id])];
  const randomOnly = (results: ReturnType<typeof gradeJson>["results"]) =>
    results.cases.filter((c) => c.id.startsWith("random/"));

  // The reference's run, graded once and shared with the wrong submission's tests below.
  let referenceRun: ReturnType<typeof gradeJson> | undefined;
  const gradedReference = () => (referenceRun ??= gradeJson(["solution", ...RANDOM]));
  // Which cases a seed gives (ids, titles, required or extension) and that the same N and S give
  // the same cases, another seed others: test/unit/random-case-set.test.ts, in process.
  it("generates cases whose answers come from the reference, which passes them all", () => {
    const reference = gradedReference();
    expect(reference.status, reference.stderr).toBe(0);
    expect(reference.results.cases.map((c) => c.id)).toEqual(IDS);
    expect(randomOnly(reference.results).map((c) => c.title)).toEqual(
      [1, 2, 3].map((n) => `random case ${n} (seed 42)`),
    );
    expect(randomOnly(reference.results).every((c) => c.status === "pass")).toBe(true);
  });

  describe("a wrong submission", () => {
    let variant: string;
    let first: ReturnType<typeof gradeTextAndJson>;
    beforeAll(() => {
      // Member order reversed: wrong on any topic that two members share.
      variant = variantOfSolution([
        {
          file: "range-assignor.ts",
          search: "return a < b ? -1 : a > b ? 1 : 0;",
          replace: "return a < b ? 1 : a > b ? -1 : 0;",
        },
      ]);
      first = gradeTextAndJson([variant, ...RANDOM]);
    });

    it("fails some of them, on the same cases as the reference was graded on", () => {
      // kit.fixtures hashes every case's files: the same N and S gave the same cases.
      expect(first.results.kit.fixtures).toBe(gradedReference().results.kit.fixtures);
      expect(randomOnly(first.results).some((c) => c.status !== "pass")).toBe(true);
    });

    // Graded again by its rerun command, a failure gets the same verdict: the same verdicts on
    // every run.
    it("prints for each failure the command that reproduces it, and that command does", () => {
      const failed = randomOnly(first.results).find((c) => c.status !== "pass");
      expect(failed).toBeDefined();
      const id = failed?.id ?? "";
      const rerun = first.stdout
        .split("\n")
        .map((line) => line.trim())
        .find((line) => line.startsWith("rerun: ") && line.endsWith(`--only ${id}`));
      // The rerun command leaves out --only and --format: it names its one case.
      expect(rerun).toBe(`rerun: npm run grade -- ${variant} --random 3 --seed 42 --only ${id}`);
      // The words after `npm run grade --` are the grader's arguments (no quoting needed here).
      const args = (rerun ?? "").replace("rerun: npm run grade -- ", "").split(" ");
      const again = gradeJson(args);
      // Exit 1 only when a required case fails; a case with racks is an extension case.
      expect(again.status).toBe(failed?.required === true ? 1 : 0);
      expect(again.results.cases.map((c) => [c.id, c.status, c.reason, c.message])).toEqual([
        [id, failed?.status, failed?.reason, failed?.message],
      ]);
    });
  });

  it("--list-cases lists the built-in, private and generated cases with their points", () => {
    const work = mkdtempSync(join(tmpdir(), "kit-list-cases-"));
    cpSync(join(CASES_DIR, "07-idle-members"), join(work, "extra", "01-idle"), {
      recursive: true,
      filter: (source) => !source.endsWith("recipe.ts"),
    });
    const listed = grade([
      "--list-cases",
      "--fixtures",
      join(work, "extra"),
      "--random",
      "2",
      "--seed",
      "7",
    ]);
    expect(listed.status, listed.stderr).toBe(0);
    const lines = listed.stdout.split("\n");
    // 71 built-in cases, the 2 generated ones (1 point each; seed 7 draws racks for case 2, an
    // extension case), the private one (grading order: every visible case first), and the final
    // newline.
    expect(lines).toHaveLength(75);
    expect(lines[0]).toBe("01-lesson-7-partitions-3-members\t2\trequired");
    expect(lines.slice(-4)).toEqual([
      "random/001\t1\trequired",
      "random/002\t1\textension",
      "extra/01-idle\t2\trequired",
      "",
    ]);
  });
});

describe("private cases leave no trace in what a student sees", () => {
  // test/submissions/private-bit reads one bit of a case's input: a topic "leak" or "flood" of 3
  // partitions makes it crash or print a 3.5 MB wrong answer; of 2 it answers right. Graded on the
  // same visible cases (one of which it crashes on, named crash-on-bad-bytes) with two --fixtures
  // folders of the same name, ids, titles and points that differ in that bit alone.
  const VISIBLE = [
    "01-lesson-7-partitions-3-members",
    "07-idle-members",
    "25-error-truncated-topic-string",
  ];
  const PRIVATE = ["private/01-leak", "private/02-flood"];
  const METADATA = {
    leak: "0000 00000001 0004 6c65616b ffffffff",
    flood: "0000 00000001 0005 666c6f6f64 ffffffff",
  };

  /**
   * A --fixtures folder `private` of two cases, one member subscribed to one topic of
   * `partitions` partitions (answers worked by hand: that member takes them all).
   */
  function privateFolder(partitions: number): string {
    const dir = join(mkdtempSync(join(tmpdir(), "kit-private-bit-")), "private");
    for (const [n, topic] of [
      [1, "leak"],
      [2, "flood"],
    ] as const) {
      const caseDir = join(dir, `0${n}-${topic}`);
      mkdirSync(caseDir, { recursive: true });
      const input = {
        topics: { [topic]: partitions },
        members: [{ memberId: "m", metadata: METADATA[topic] }],
      };
      const output = { m: { [topic]: Array.from({ length: partitions }, (_, i) => i) } };
      writeFileSync(join(caseDir, "input.json"), JSON.stringify(input));
      writeFileSync(join(caseDir, "expected.json"), JSON.stringify({ output }));
      writeFileSync(
        join(caseDir, "case.json"),
        JSON.stringify({
          title: `One member takes every partition of ${topic}`,
          description: "A group of one.",
          mode: "assign",
          points: 2,
          required: true,
          mistakes: [],
          hint: "One member gets every partition.",
          lesson: "the-range-assignor",
        }),
      );
    }
    return dir;
  }

  /** The GitHub log with the token that fences its text report (a fresh UUID each run) fixed. */
  const fixedToken = (log: string) =>
    log.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "TOKEN");
  /**
   * The text report's visible lines: after its first line (the instructor's: it counts and
   * stamps every case), before the first private case's.
   */
  const visibleText = (text: string) =>
    text.slice(text.indexOf("\n\n")).split(/\n[✓✗⧗-] private\//)[0] ?? "";

  let quiet: AllFormatsRun;
  let loud: AllFormatsRun;
  beforeAll(() => {
    const only = [...VISIBLE, ...PRIVATE].flatMap((id) => ["--only", id]);
    const submission = join(ROOT, "test", "submissions", "private-bit");
    quiet = gradeAllFormats([submission, "--fixtures", privateFolder(2), ...only]);
    loud = gradeAllFormats([submission, "--fixtures", privateFolder(3), ...only]);
  });

  it("the private cases go differently: passed once, a crash and a 3.5 MB wrong answer the other time", () => {
    const privates = (run: AllFormatsRun) =>
      run.results.cases.filter((c) => c.id.startsWith("private/")).map((c) => [c.id, c.reason]);
    expect(privates(quiet)).toEqual([
      ["private/01-leak", null],
      ["private/02-flood", null],
    ]);
    expect(privates(loud)).toEqual([
      ["private/01-leak", "crash"],
      ["private/02-flood", "wrong-output"],
    ]);
    // The visible cases come first, and the crash on bad bytes keeps its name both times (a
    // private crash that no mistake explains once took it away).
    for (const run of [quiet, loud]) {
      expect(run.results.cases.map((c) => c.id)).toEqual([...VISIBLE, ...PRIVATE]);
      expect(run.results.cases[2]?.mistakes).toEqual(["crash-on-bad-bytes"]);
    }
  });

  it("every student-visible report is byte for byte the same", () => {
    const visibleTests = (run: AllFormatsRun) =>
      JSON.stringify(run.gradescope.tests.filter((t) => t.visibility === "visible"));
    expect(visibleTests(loud)).toBe(visibleTests(quiet));
    expect(loud.gradescope.output).toBe(quiet.gradescope.output);
    expect(loud.summary).toBe(quiet.summary);
    expect(fixedToken(loud.stdout)).toBe(fixedToken(quiet.stdout));
    expect(JSON.stringify(loud.exercism)).toBe(JSON.stringify(quiet.exercism));
    expect(visibleText(loud.text)).toBe(visibleText(quiet.text));
    expect(visibleText(quiet.text)).toContain("25-error-truncated-topic-string");
    // The visible results in the results file, too.
    expect(loud.results.cases.slice(0, 3)).toEqual(quiet.results.cases.slice(0, 3));
    // While the whole case set's stamp (instructors' reports) tells the two apart.
    expect(loud.results.kit.fixtures).not.toBe(quiet.results.kit.fixtures);
  });
});
