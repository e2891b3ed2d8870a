// Nothing that touches submitted code can read what it must not: the staging copy and the check
// for computed imports. Hostile submissions (test/submissions/<name>) are checked in-process with
// the grader's own functions; links, FIFOs and many files are added at run time to temporary
// copies.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLiteralImports } from "../grader/run/literal-imports.ts";
import { STAGE_LIMITS, StageError, stageSubmission } from "../grader/run/stage.ts";
import { CASES_DIR, ROOT } from "./helpers/program.ts";

const ONE = "01-lesson-7-partitions-3-members";
/** Paths no message may name. */
const OUTSIDE_PATHS = ["/work/", ROOT, "fixtures/cases", "/tmp/", tmpdir(), "/dev/shm"];
const CASE_IDS = readdirSync(CASES_DIR);

const submission = (name: string) => join(ROOT, "test", "submissions", name);
const TMP = mkdtempSync(join(tmpdir(), "kit-build-isolation-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** A fresh copy of a test submission in its own temporary folder; returns the copy's path. */
function copyOf(name: string): string {
  const dir = join(mkdtempSync(join(TMP, `${name}-`)), name);
  cpSync(submission(name), dir, { recursive: true });
  return dir;
}

/** No path outside the copy and no case name in any message. */
function expectClean(messages: readonly string[]): void {
  for (const message of messages) {
    for (const path of OUTSIDE_PATHS) expect(message).not.toContain(path);
    for (const id of CASE_IDS) expect(message).not.toContain(id);
  }
}

/** The staging problems for a submission (empty when it stages). */
function stagingProblems(dir: string, limits = STAGE_LIMITS): string[] {
  try {
    stageSubmission(dir, limits).cleanup();
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(StageError);
    return (error as StageError).problems;
  }
}

/** The computed-import lines for a submission's staged copy. */
async function computedImports(dir: string): Promise<string[]> {
  const staged = stageSubmission(dir);
  try {
    return await checkLiteralImports(staged);
  } finally {
    staged.cleanup();
  }
}

describe("computed imports are refused before bundling", () => {
  it("template, concatenation and variable: one line each, no case name, no path", async () => {
    const lines = await computedImports(submission("glob-import"));
    expect(lines).toEqual([
      "src/main.ts:5:28: import() with a computed path: a submission may import only literal paths",
      "src/main.ts:9:20: require() with a computed path: a submission may import only literal paths",
      "src/main.ts:13:28: import() with a computed path: a submission may import only literal paths",
    ]);
    expectClean(lines);
  });

  it("the kit's template-import submission is refused the same way", async () => {
    expect(await computedImports(submission("template-import"))).toEqual([
      "src/main.ts:4:25: import() with a computed path: a submission may import only literal paths",
    ]);
  });

  it("comments and strings that look like computed imports do not fool the check", async () => {
    const dir = join(mkdtempSync(join(TMP, "lookalike-")), "lookalike");
    mkdirSync(join(dir, "src", "lib"), { recursive: true });
    writeFileSync(
      join(dir, "src", "main.ts"),
      [
        "// import(`./cases/${id}.json`) and require(a + b) in a comment",
        "/* import(dir + name) */",
        'const text: string = "import(`${x}`) require(y)";',
        "const template = `require(${text.length})`;",
        "const lib = (await import(`./lib/util.ts`)) as { twice(n: number): number };",
        'const same = (await import("./lib/util.ts")) as { twice(n: number): number };',
        "process.stdout.write(`${lib.twice(text.length)} ${same.twice(template.length)}\\n`);",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "src", "lib", "util.ts"),
      "export function twice(n: number): number {\n  return 2 * n;\n}\n",
    );
    expect(await computedImports(dir)).toEqual([]);
    expect(await computedImports(join(ROOT, "solution"))).toEqual([]);
  });
});

describe("staging copies regular files only", () => {
  const answer = join(CASES_DIR, ONE, "expected.json");
  const ONLY = "a submission's src/ may hold regular files only";

  /** Staging must refuse with exactly one line matching `line`, naming nothing outside. */
  function expectRefused(dir: string, line: string | RegExp): void {
    const problems = stagingProblems(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(line);
    expectClean(problems);
  }

  it("a symbolic link to a golden answer", () => {
    const dir = copyOf("link-in-src");
    symlinkSync(answer, join(dir, "src", "answers.json"));
    expectRefused(dir, `src/answers.json is a symbolic link: ${ONLY}`);
  });

  it("a symbolic link to a folder, and src/ itself a link", () => {
    const dir = copyOf("link-in-src");
    symlinkSync(CASES_DIR, join(dir, "src", "cases"));
    expectRefused(dir, `src/cases is a symbolic link: ${ONLY}`);
    const linked = join(mkdtempSync(join(TMP, "src-link-")), "sub");
    mkdirSync(linked);
    symlinkSync(join(dir, "src"), join(linked, "src"));
    expectRefused(linked, "src is a symbolic link: it must be a folder");
  });

  it("a hard link (to a golden answer where the file system allows it)", () => {
    const dir = copyOf("link-in-src");
    const target = join(dir, "src", "answers.json");
    try {
      linkSync(answer, target);
    } catch {
      // Another file system (EXDEV): a second name for a file outside src/ is refused the same way.
      writeFileSync(join(dir, "other.json"), "{}");
      linkSync(join(dir, "other.json"), target);
    }
    expectRefused(
      dir,
      /^src\/answers\.json has 2 hard links: a submission's src\/ may hold regular files only/,
    );
  });

  it("a FIFO (the grader never blocks on it)", () => {
    const dir = copyOf("link-in-src");
    execFileSync("mkfifo", [join(dir, "src", "answers.json")]);
    expectRefused(dir, `src/answers.json is a FIFO (named pipe): ${ONLY}`);
  });

  it("300 files", () => {
    const dir = copyOf("many-files");
    for (let i = 0; i < 300; i++) {
      writeFileSync(join(dir, "src", `f${i}.ts`), `export const n = ${i};\n`);
    }
    expectRefused(dir, /src\/ holds more than 200 files: a submission may hold at most 200$/);
  });

  it("too deep, too big, too much in all: each cap names the file", () => {
    const dir = join(mkdtempSync(join(TMP, "caps-")), "sub");
    const deep = join(dir, "src", "a", "b", "c");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(dir, "src", "main.ts"), "x".repeat(100));
    writeFileSync(join(deep, "x.ts"), "");
    const problems = (limits: Partial<typeof STAGE_LIMITS>) =>
      stagingProblems(dir, { ...STAGE_LIMITS, ...limits });
    expect(problems({})).toEqual([]);
    expect(problems({ maxDepth: 2 })).toEqual([
      "src/a/b/c is 3 folders below src/: a submission may nest folders 2 deep at most",
    ]);
    expect(problems({ maxFileBytes: 50 })).toEqual([
      "src/main.ts is 100 bytes: a submission's files may be at most 50 bytes each",
    ]);
    expect(problems({ maxTotalBytes: 50, maxFileBytes: 200 })).toEqual([
      "src/main.ts: src/ holds more than 50 bytes: a submission may hold at most 50",
    ]);
  });

  it("the copy is regular files with fixed modes in a private folder", () => {
    const staged = stageSubmission(join(ROOT, "solution"));
    try {
      expect(staged.files).toContain("src/main.ts");
      expect(staged.files.every((f) => f.startsWith("src/"))).toBe(true);
      const mode = (p: string) =>
        execFileSync("stat", ["-c", "%a", p], { encoding: "utf8" }).trim();
      expect(mode(staged.root)).toBe("700");
      expect(mode(staged.src)).toBe("755");
      expect(mode(join(staged.src, "main.ts"))).toBe("644");
    } finally {
      staged.cleanup();
    }
  });
});
