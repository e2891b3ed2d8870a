// --cmd: a program in another language keeps the contract and is graded with the same cases and
// limits. The example submission in Python (examples/python/main.py, standard library only) gets
// full marks; a copy with one Python pitfall (sorting member ids by code point instead of UTF-16
// code unit) fails exactly the case built to catch it, whose answer comes from the reference.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import kafkajs from "kafkajs";
import { beforeAll, describe, expect, it } from "vitest";
import { gradeJson } from "../helpers/grader.ts";
import { bundleProgram, readCases, ROOT, runProgram } from "../helpers/program.ts";

const EXAMPLE = join(ROOT, "examples", "python", "main.py");
const hasPython = spawnSync("python3", ["--version"]).status === 0;
const cases = readCases();
const points = (required: boolean) =>
  cases.filter((c) => c.meta.required === required).reduce((sum, c) => sum + c.meta.points, 0);

/** A temporary folder the graded program can read when the grader runs it as another user. */
function readableTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kit-any-language-"));
  chmodSync(dir, 0o755);
  return dir;
}

/** kafkajs's version-0 subscription bytes, as hex. */
const v0 = (topics: string[]) =>
  kafkajs.AssignerProtocol.MemberMetadata.encode({
    version: 0,
    topics,
    userData: null as unknown as Buffer,
  }).toString("hex");

/**
 * The example, copied into a folder of its own where the program's user can read it: as root the
 * grader runs --cmd programs as a run identity, and a checkout under a 0700 folder (a CI clone)
 * is not readable by it. Returns that folder.
 */
function readableExample(): string {
  const dir = readableTempDir();
  copyFileSync(EXAMPLE, join(dir, "main.py"));
  chmodSync(join(dir, "main.py"), 0o644);
  return dir;
}

/**
 * Grades `python3 main.py` typed in `dir`, as a user would from that folder: the folder a --cmd
 * command is typed in is, by default, the one of the machine's folders its program sees
 * (read-only, besides the system's), beside a private, empty /tmp.
 */
const gradePython = (dir: string, args: string[] = []) =>
  gradeJson(["--cmd", "python3 main.py", ...args], { INIT_CWD: dir });

/**
 * A --fixtures folder `code-units` with one private case where the two orders differ: "😀"
 * (U+1F600, code units D83D DE00) sorts before "ｗ" (U+FF57) in UTF-16, after it in code points.
 * The answer is the reference's. Returns the folder.
 */
function codeUnitsCase(): string {
  const cases = readableTempDir();
  const input = {
    topics: { orders: 4 },
    members: [
      { memberId: "ｗ", metadata: v0(["orders"]) },
      { memberId: "😀", metadata: v0(["orders"]) },
    ],
  };
  const inputText = `${JSON.stringify(input, null, 2)}\n`;
  const reference = runProgram(bundleProgram("solution"), inputText);
  expect(reference.status, reference.stderr).toBe(0);
  const caseDir = join(cases, "code-units", "01-astral-against-fullwidth");
  mkdirSync(caseDir, { recursive: true });
  writeFileSync(join(caseDir, "input.json"), inputText);
  writeFileSync(
    join(caseDir, "expected.json"),
    JSON.stringify({ output: JSON.parse(reference.stdout) as unknown }),
  );
  writeFileSync(
    join(caseDir, "case.json"),
    JSON.stringify({
      title: "A member id above U+FFFF against one just below",
      description:
        "UTF-16 code-unit order differs from code-point order; answer from the reference.",
      mode: "assign",
      points: 1,
      required: true,
      mistakes: [],
      hint: "Compare ids by UTF-16 code units.",
      lesson: "member-order",
    }),
  );
  return join(cases, "code-units");
}

describe("a submission in Python, graded with --cmd", () => {
  it("finds python3 (.ci/run installs Debian's python3 package)", () => {
    expect(hasPython, "no python3: apt-get install python3").toBe(true);
  });

  const example = readableExample();
  const PRIVATE = "code-units/01-astral-against-fullwidth";
  let codeUnits: string;
  beforeAll(() => {
    codeUnits = codeUnitsCase();
  });

  it("the example gets full marks, required and extension, and exits 0, the private case too", () => {
    const { status, results, stderr } = gradePython(example, ["--fixtures", codeUnits]);
    expect(status, stderr).toBe(0);
    expect(results.submission).toBe("python3 main.py");
    expect(results.cases.map((c) => [c.id, c.status])).toEqual(
      [...cases.map((c) => c.id), PRIVATE].map((id) => [id, "pass"]),
    );
    // The private case is required, of 1 point.
    expect([results.score, results.maxScore]).toEqual([points(true) + 1, points(true) + 1]);
    expect([results.extensionScore, results.extensionMaxScore]).toEqual([
      points(false),
      points(false),
    ]);
  });

  it("a copy that sorts member ids by Python's code points fails that case and built-in case 43 only, with a wrong answer", () => {
    const dir = readableTempDir();
    // The broken copy: code points instead of UTF-16 code units.
    const source = readFileSync(EXAMPLE, "utf8");
    const search = 'return text.encode("utf-16-be", "surrogatepass")';
    expect(source.split(search)).toHaveLength(2);
    writeFileSync(join(dir, "main.py"), source.replace(search, "return text"));
    const { status, results } = gradePython(dir, ["--fixtures", codeUnits]);
    expect(status).toBe(1);
    const failed = results.cases.filter((c) => c.status !== "pass");
    expect(failed.map((c) => [c.id, c.status, c.reason])).toEqual([
      ["43-utf16-code-units-not-code-points", "fail", "wrong-output"],
      [PRIVATE, "fail", "wrong-output"],
    ]);
  });
});
