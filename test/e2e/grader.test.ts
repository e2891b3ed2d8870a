// The grader end to end, through its command line: full marks for the reference, the starter's
// stubs, a wrong submission, every status and reason, the results schema, and bad setups.
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import {
  dropsIdleMembers,
  grade,
  gradeJson,
  variantOfSolution,
  type GraderRun,
  type ResultsJson,
} from "../helpers/grader.ts";
import { resultsFileName } from "../../grader/batch/output.ts";
import { writeBrokenFixture } from "../helpers/fixture-files.ts";
import { graded, type AllFormatsRun } from "../helpers/graded.ts";
import { readCases, ROOT } from "../helpers/program.ts";

const cases = readCases();
const submission = (name: string) => join(ROOT, "test", "submissions", name);
const validateResults = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, "grader", "results.schema.json"), "utf8")) as object,
);

function expectValidResults(results: ResultsJson): void {
  const valid = validateResults(results);
  expect(validateResults.errors ?? [], "results match grader/results.schema.json").toEqual([]);
  expect(valid).toBe(true);
}

const requiredPoints = cases
  .filter((c) => c.meta.required)
  .reduce((sum, c) => sum + c.meta.points, 0);

describe("grading the reference (solution/)", () => {
  let run: AllFormatsRun;
  beforeAll(() => {
    run = graded("reference");
  });

  it("gives full marks and exits 0", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(run.results.score).toBe(requiredPoints);
    expect(run.results.maxScore).toBe(requiredPoints);
    expect(run.results.extensionScore).toBe(run.results.extensionMaxScore);
    expect(run.results.cases.map((c) => c.status)).toEqual(cases.map(() => "pass"));
  });

  it("writes results that match grader/results.schema.json, stamped with the kit and case set", () => {
    expectValidResults(run.results);
    expect(run.results.kit.version).toBe(
      (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version,
    );
    expect(run.results.kit.fixtures).toMatch(/^[0-9a-f]{16}$/);
    expect(run.results.cases.map((c) => c.id)).toEqual(cases.map((c) => c.id));
  });
});

describe("grading the starter (the default target)", () => {
  it("scores 0, exits 1, and says per case which stub to write, never a stack", () => {
    const run = graded("starter");
    expect(run.status).toBe(1);
    const caseLines = run.text.split("\n").filter((line) => /^[✓✗⧗-] /.test(line));
    expect(caseLines).toHaveLength(cases.length);
    for (const line of caseLines) {
      expect(line).toMatch(
        /^✗ \S+ +0\/\d+( \(extension\))? {2}not implemented yet: decodeSubscription \(src\/subscription\.ts\), see LESSON\.md#the-subscription-bytes$/,
      );
    }
    expect(run.text).not.toMatch(/\n\s+at /);
    expect(run.text).toContain(`Required:  0/${requiredPoints} points`);

    const { results } = run;
    expect(results.submission).toBe("starter");
    expect(results.score).toBe(0);
    expect(new Set(results.cases.map((c) => `${c.status}/${c.reason}`))).toEqual(
      new Set(["error/not-implemented"]),
    );
    expect(results.cases.every((c) => c.mistake === null)).toBe(true);
  });
});

describe("a wrong submission fails exactly the cases it should", () => {
  it("one that drops idle members fails the assign and sync cases whose answer has a member with nothing", () => {
    const dir = dropsIdleMembers();
    // From the expected answers alone: which cases have a member that owns nothing? In a sync
    // answer, a member whose bytes have a topic count of 0 (after the 2-byte version).
    const shouldFail = cases
      .filter((c) => {
        if (!("output" in c.expected)) return false;
        if (c.meta.mode === "sync") {
          const output = c.expected.output as Record<string, string>;
          return Object.values(output).some((hex) => hex.slice(4, 12) === "00000000");
        }
        if (c.meta.mode !== "assign") return false;
        const output = c.expected.output as Record<string, Record<string, number[]>>;
        return Object.values(output).some((topics) =>
          Object.values(topics).every((p) => p.length === 0),
        );
      })
      .map((c) => c.id);
    expect(shouldFail.length).toBeGreaterThan(3);
    const { status, results } = gradeJson([dir]);
    expect(status).toBe(1);
    const failed = results.cases.filter((c) => c.status !== "pass");
    expect(failed.map((c) => c.id)).toEqual(shouldFail);
    expect(new Set(failed.map((c) => `${c.status}/${c.reason}`))).toEqual(
      new Set(["fail/wrong-output"]),
    );
  });
});

describe("every status and reason, from small submissions in test/submissions", () => {
  const ASSIGN = "01-lesson-7-partitions-3-members";
  const BAD_INPUT = cases.find((c) => "error" in c.expected && c.meta.required)?.id ?? "";
  const ONLY = [ASSIGN, BAD_INPUT].flatMap((id) => ["--only", id]);
  /** Graded together, as one --batch of copies (one grader, one start, one set of probes). */
  const BATCHED = [
    "empty-answer",
    "reject-everyone",
    "invalid-output",
    "wrong-shape",
    "crash",
    "uncaught",
    "memory",
    "output-flood",
  ];
  const byName = new Map<string, Map<string, ResultsJson["cases"][number]>>();
  let batchRun: GraderRun;

  const index = (results: ResultsJson) => new Map(results.cases.map((c) => [c.id, c]));
  beforeAll(() => {
    const work = mkdtempSync(join(tmpdir(), "kit-statuses-"));
    const out = join(work, "out");
    for (const name of BATCHED)
      cpSync(submission(name), join(work, "class", name), { recursive: true });
    batchRun = grade(["--batch", join(work, "class"), "--report-dir", out, ...ONLY]);
    for (const name of BATCHED) {
      const results = JSON.parse(
        readFileSync(join(out, resultsFileName(name)), "utf8"),
      ) as ResultsJson;
      expectValidResults(results);
      byName.set(name, index(results));
    }
  });

  it("finds a required bad-input case whose bad member is not the last member", () => {
    const c = cases.find((x) => x.id === BAD_INPUT);
    const expected = c?.expected as { error: { member: string } };
    const members = (JSON.parse(c?.input ?? "{}") as { members: { memberId: string }[] }).members;
    expect(members.at(-1)?.memberId).not.toBe(expected.error.member);
  });

  it.each([
    ["empty-answer", ASSIGN, "fail", "wrong-output"],
    ["empty-answer", BAD_INPUT, "fail", "wrong-error"],
    ["reject-everyone", ASSIGN, "fail", "wrong-output"],
    ["reject-everyone", BAD_INPUT, "fail", "wrong-error"],
    ["invalid-output", ASSIGN, "fail", "invalid-output"],
    ["wrong-shape", ASSIGN, "fail", "invalid-output"],
    ["crash", ASSIGN, "error", "crash"],
    ["uncaught", ASSIGN, "error", "crash"],
    ["memory", ASSIGN, "error", "memory"],
    ["output-flood", ASSIGN, "error", "output-cap"],
  ])("%s on %s: %s / %s", (name, id, status, reason) => {
    expect(batchRun.status, batchRun.stderr).toBe(0);
    const result = byName.get(name)?.get(id);
    expect(result).toMatchObject({ status, reason, points: 0 });
    expect(result?.message).not.toBe("");
  });

  it("timeout: stopped at --timeout, status timeout", () => {
    const { status, results } = gradeJson([
      submission("timeout"),
      "--only",
      ASSIGN,
      "--timeout",
      "1000",
    ]);
    expectValidResults(results);
    expect(status).toBe(1);
    expect(index(results).get(ASSIGN)).toMatchObject({ status: "timeout", reason: "timeout" });
  });

  it("build-error: importing the golden answers fails the build, every case error", () => {
    const { status, results } = graded("import-answers");
    expectValidResults(results);
    expect(status).toBe(1);
    // One failure with the build's own error; each case only says it did not run.
    expect(results.notGraded?.reason).toBe("build-error");
    expect(results.notGraded?.errors.join("\n")).toContain("outside the submission folder");
    for (const id of [ASSIGN, BAD_INPUT]) {
      expect(index(results).get(id)).toMatchObject({
        status: "error",
        reason: "build-error",
        message: "not run: the submission did not build (its errors are at the top of the report)",
      });
    }
  });
});

describe("the text report on a failure", () => {
  it("shows the input in brief, a grid of owners, the named mistake and the rerun command", () => {
    const run = graded("locale-order-variant");
    const dir = run.args[0] ?? "";
    expect(run.status).toBe(1);
    const out = run.text;
    expect(out).toContain("✗ 06-uppercase-before-lowercase");
    expect(out).toContain(
      'input: 1 topic ("orders":6); 4 members in input order: "Consumer-b", "consumer-a", "CONSUMER-c", "_x"',
    );
    expect(out).toContain(
      [
        '        topic "orders" (6 partitions):',
        "          partition   0  1  2  3  4  5",
        "          expected    A  A  B  B  C  D",
        "          actual      C  C  D  D  B  A",
        "                      ^  ^  ^  ^  ^  ^",
        '        members: A = "CONSUMER-c", B = "Consumer-b", C = "_x", D = "consumer-a"; . = nobody, * = more than one',
      ].join("\n"),
    );
    expect(out).toContain("This looks like: members sorted with localeCompare (locale-order).");
    expect(out).toContain("Read LESSON.md#member-order");
    expect(out).toContain(`rerun: npm run grade -- ${dir} --only 06-uppercase-before-lowercase`);
    expect(out.includes("\u001b[")).toBe(false); // no colour when not a terminal
  });

  it("falls back to the case's hint when no catalogued mistake matches", () => {
    const dir = variantOfSolution([
      {
        file: "range-assignor.ts",
        search: "return a < b ? -1 : a > b ? 1 : 0;",
        replace: "return a < b ? 1 : a > b ? -1 : 0;",
      },
    ]);
    const run = grade([dir, "--only", "01-lesson-7-partitions-3-members"]);
    expect(run.stdout).not.toContain("This looks like");
    expect(run.stdout).toMatch(
      /hint: .+\n\s+read: LESSON\.md#worked-example-7-partitions-3-members/,
    );
  });
});

describe("--types", () => {
  // That the reference type-checks clean is test/e2e/build-isolation.test.ts's (the same
  // type-check, in process); this is the option's way through the command line.
  it("fails the build of a copy with a type error, with tsc's message", () => {
    const dir = variantOfSolution([
      {
        file: "subscription.ts",
        search: "const topics = reader.array",
        replace: "const topics: number = reader.array",
      },
    ]);
    const bad = gradeJson([dir, "--types", "--only", "01-lesson-7-partitions-3-members"]);
    expect(bad.status).toBe(1);
    expect(bad.results.cases[0]).toMatchObject({ status: "error", reason: "build-error" });
    expect(bad.results.notGraded?.reason).toBe("build-error");
    expect(bad.results.notGraded?.errors.join("\n")).toMatch(
      /src\/subscription\.ts\(\d+,\d+\): error TS2322/,
    );
  });
});

describe("bad setups exit 2 with what to fix", () => {
  // Each usage error's words are test/unit/usage-errors.test.ts's and options.test.ts's (in
  // process); this one shows the way of every one of them out of the command line: exit 2,
  // nothing on standard output, the message on standard error. An invalid fixture is found after
  // the submission's build has started (context.ts prepareGrading), the latest a setup error comes.
  it("an invalid private fixture: every problem with its file and JSON path", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "kit-private-")), "private");
    writeBrokenFixture(dir);
    const run = grade(["solution", "--fixtures", dir]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^grade: /);
    expect(run.stderr).toMatch(/case\.json: does not match case\.schema\.json/);
    expect(run.stderr).toMatch(/\/mode: must be equal to one of the allowed values/);
    expect(run.stderr).toMatch(/input\.json: does not match input\.schema\.json/);
    expect(run.stderr).toMatch(/expected\.json: not JSON/);
  });

  it("--help shows usage with examples and exits 0", () => {
    const run = grade(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: npm run grade -- [PATH] [options]");
    expect(run.stdout).toContain("npm run grade -- solution");
  });
});
