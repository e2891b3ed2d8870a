// Nothing that touches submitted code can read what it must not: the staging copy, the check for
// computed imports, the confined bundler and tsc, the scrubbed messages and the stack mapping.
// Hostile submissions (test/submissions/<name>) are built in-process with the grader's own
// functions; links, FIFOs and many files are added at run time to temporary copies.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { SourceMapPayload } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { prepareProgram, runCase } from "../../grader/run/prepare.ts";
import { BUILT_IN_CASES_DIR } from "../../grader/kit.ts";
import { buildSubmission, type BuildResult } from "../../grader/run/build.ts";
import { OUTSIDE, runTool } from "../../grader/run/confined-tool.ts";
import { sandboxFeatures } from "../../grader/run/sandbox.ts";
import { stackMapper } from "../../grader/run/stack-map.ts";
import {
  protectFolders,
  STAGE_LIMITS,
  StageError,
  stageSubmission,
} from "../../grader/run/stage.ts";
import { typeCheck } from "../../grader/run/typecheck.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";

const ONE = "01-lesson-7-partitions-3-members";
const ANSWER_PATH = join(CASES_DIR, ONE, "expected.json");
const EXPECTED_TEXT = readFileSync(ANSWER_PATH, "utf8");
const INPUT_TEXT = readFileSync(join(CASES_DIR, ONE, "input.json"), "utf8");

/** Strings only case 01's golden files hold: none may reach a bundle, a map or a message. */
const ANSWER_TEXTS = [
  // A line of expected.json as written there (its spacing is not JSON.stringify's).
  (EXPECTED_TEXT.split("\n").find((l) => l.includes("[")) ?? "").trim(),
  JSON.stringify((JSON.parse(EXPECTED_TEXT) as { output: unknown }).output),
  Buffer.from(EXPECTED_TEXT).toString("base64").slice(0, 40),
  (JSON.parse(INPUT_TEXT) as { members: { metadata: string }[] }).members[0]?.metadata ?? "",
];
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

/** Every text a build left for someone to read: its messages, its bundle, its map. */
function texts(build: BuildResult): string[] {
  const out = [...build.errors];
  if (build.bundle !== undefined) out.push(readFileSync(build.bundle, "utf8"));
  if (build.sourceMap !== undefined) out.push(JSON.stringify(build.sourceMap));
  return out;
}

/** No answer text anywhere, and no path outside the copy in any message. */
function expectClean(all: readonly string[], messages: readonly string[]): void {
  for (const text of all) {
    for (const answer of ANSWER_TEXTS) expect(text).not.toContain(answer);
  }
  for (const message of messages) {
    for (const path of OUTSIDE_PATHS) expect(message).not.toContain(path);
    for (const id of CASE_IDS) expect(message).not.toContain(id);
  }
}

function cleanup(build: BuildResult): void {
  rmSync(build.outDir, { recursive: true, force: true });
}

describe("the reference still builds and runs", () => {
  it("solution/ bundles; the bundle answers case 01; the map names src/ files only", async () => {
    const build = await buildSubmission(join(ROOT, "solution"));
    try {
      expect(build.errors).toEqual([]);
      expect(build.bundle).toBeDefined();
      const bundle = build.bundle as string;
      const run = spawnSync(process.execPath, [bundle], { input: INPUT_TEXT, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(
        (JSON.parse(EXPECTED_TEXT) as { output: unknown }).output,
      );
      expect(readFileSync(bundle, "utf8")).not.toContain("sourceMappingURL");
      expect(build.sourceMap?.sources).toContain("src/main.ts");
      for (const source of build.sourceMap?.sources ?? []) expect(source).toMatch(/^src\//);
      expect(readdirSync(build.outDir)).toEqual(["main.mjs"]);
    } finally {
      cleanup(build);
    }
  });

  it("solution/ type-checks with --types", async () => {
    expect(await typeCheck(join(ROOT, "solution"))).toEqual([]);
  });
});

describe("source-map comments are not followed", () => {
  it("an inline map listing the golden files: bundled, without their text", async () => {
    const build = await buildSubmission(submission("inline-source-map"));
    try {
      expect(build.errors).toEqual([]);
      expectClean(texts(build), build.errors);
      // The program looks for the answers in its own bundle, and finds none.
      const run = spawnSync(process.execPath, [build.bundle as string], {
        input: INPUT_TEXT,
        encoding: "utf8",
      });
      expect(run.status).toBe(70);
      expect(run.stderr).toContain("no answer in the bundle");
    } finally {
      cleanup(build);
    }
  });

  it("a .map file outside the submission, in every comment form: bundled, without it", async () => {
    const dir = copyOf("external-source-map");
    // ../../answers.map from src/main.ts: next to the copy, outside the submission.
    writeFileSync(
      join(dir, "..", "answers.map"),
      JSON.stringify({
        version: 3,
        sources: [join(CASES_DIR, ONE, "expected.json"), join(CASES_DIR, ONE, "input.json")],
        names: [],
        mappings: ["ACAA", "ADAA", ...Array<string>(20).fill("AAAA")].join(";"),
      }),
    );
    const build = await buildSubmission(dir);
    try {
      expect(build.errors).toEqual([]);
      expectClean(texts(build), build.errors);
      expect(build.sourceMap?.sources).toEqual(["src/main.ts"]);
    } finally {
      cleanup(build);
    }
  });
});

describe("input that crashes esbuild fails that build only", () => {
  it("a submission after it still builds (the check runs esbuild as a process per file)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kit-esbuild-crash-"));
    mkdirSync(join(dir, "src"));
    // Half a million nested parentheses and an import() call: esbuild runs out of stack.
    writeFileSync(
      join(dir, "src", "main.ts"),
      `const x = ${"(".repeat(500_000)}1${")".repeat(500_000)};\nexport default x;\nimport("./main.ts");\n`,
    );
    const crashed = await buildSubmission(dir);
    rmSync(crashed.outDir, { recursive: true, force: true });
    expect(crashed.bundle).toBeUndefined();
    expect(crashed.errors.join("\n")).toMatch(/^src\/main\.ts: could not be checked/);
    const after = await buildSubmission(join(ROOT, "solution"));
    rmSync(after.outDir, { recursive: true, force: true });
    expect(after.errors).toEqual([]);
    expect(after.bundle).toBeDefined();
  });
});

describe("computed imports are refused before bundling", () => {
  it("template, concatenation and variable: one line each, no case name, no path", async () => {
    const build = await buildSubmission(submission("glob-import"));
    try {
      expect(build.bundle).toBeUndefined();
      expect(build.errors).toEqual([
        "src/main.ts:5:28: import() with a computed path: a submission may import only literal paths",
        "src/main.ts:9:20: require() with a computed path: a submission may import only literal paths",
        "src/main.ts:13:28: import() with a computed path: a submission may import only literal paths",
      ]);
      expectClean(texts(build), build.errors);
    } finally {
      cleanup(build);
    }
  });

  it("the kit's template-import submission is refused the same way", async () => {
    const build = await buildSubmission(submission("template-import"));
    try {
      expect(build.errors).toEqual([
        "src/main.ts:4:25: import() with a computed path: a submission may import only literal paths",
      ]);
      expectClean(texts(build), build.errors);
    } finally {
      cleanup(build);
    }
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
    const build = await buildSubmission(dir);
    try {
      expect(build.errors).toEqual([]);
      const run = spawnSync(process.execPath, [build.bundle as string], { encoding: "utf8" });
      expect(run.stdout).toBe("50 22\n");
    } finally {
      cleanup(build);
    }
  });
});

describe("tsc (--types) sees the copy only", () => {
  it("an answer copied where the sandbox would show it: Node's permission model stops tsc", async () => {
    // A folder no hidden list names (outside /tmp, which every run gets fresh): only the
    // permission model keeps tsc from reading it, in every sandbox mode.
    const visible = mkdtempSync(join(ROOT, ".build-isolation-"));
    try {
      chmodSync(visible, 0o755);
      const copied = join(visible, "expected.json");
      writeFileSync(copied, EXPECTED_TEXT, { mode: 0o644 });
      const dir = join(mkdtempSync(join(TMP, "typeof-absolute-")), "sub");
      mkdirSync(join(dir, "src"), { recursive: true });
      writeFileSync(
        join(dir, "src", "main.ts"),
        `type Answer = typeof import(${JSON.stringify(copied)});\nexport const shape: number = null as unknown as Answer;\n`,
      );
      const errors = await typeCheck(dir);
      expect(errors).toEqual([
        `src/main.ts(1,29): error TS2307: Cannot find module '${OUTSIDE}' or its corresponding type declarations.`,
      ]);
      expectClean(errors, errors);
    } finally {
      rmSync(visible, { recursive: true, force: true });
    }
  });

  it("typeof import of a golden answer: not found, its shape and path never shown", async () => {
    const errors = await typeCheck(submission("typeof-answer"));
    expect(errors).toEqual([
      `src/main.ts(4,29): error TS2307: Cannot find module '${OUTSIDE}' or its corresponding type declarations.`,
    ]);
    expectClean(errors, errors);
    for (const e of errors) expect(e).not.toMatch(/consumer-a|orders/);
  });
});

describe("staging copies regular files only", () => {
  const answer = ANSWER_PATH;
  const ONLY = "a submission's src/ may hold regular files only";

  /** Builds and type-checks; both must refuse with exactly `line`, naming nothing outside. */
  async function expectRefused(dir: string, line: string | RegExp): Promise<void> {
    const build = await buildSubmission(dir);
    try {
      expect(build.bundle).toBeUndefined();
      expect(build.errors).toHaveLength(1);
      expect(build.errors[0]).toMatch(line);
      expectClean(texts(build), build.errors);
    } finally {
      cleanup(build);
    }
    const typeErrors = await typeCheck(dir);
    expect(typeErrors).toEqual(build.errors);
  }

  it("a symbolic link to a golden answer", async () => {
    const dir = copyOf("link-in-src");
    symlinkSync(answer, join(dir, "src", "answers.json"));
    await expectRefused(dir, `src/answers.json is a symbolic link: ${ONLY}`);
  });

  it("a symbolic link to a folder, and src/ itself a link", async () => {
    const dir = copyOf("link-in-src");
    symlinkSync(CASES_DIR, join(dir, "src", "cases"));
    await expectRefused(dir, `src/cases is a symbolic link: ${ONLY}`);
    const linked = join(mkdtempSync(join(TMP, "src-link-")), "sub");
    mkdirSync(linked);
    symlinkSync(join(dir, "src"), join(linked, "src"));
    await expectRefused(linked, "src is a symbolic link: it must be a folder");
  });

  it("a hard link to a golden answer, or to a file of a private-case folder, is refused", async () => {
    const dir = copyOf("link-in-src");
    const target = join(dir, "src", "answers.json");
    try {
      linkSync(answer, target);
    } catch {
      // Another file system than the kit's (EXDEV): a private-case folder beside the copy instead.
      const privateCases = mkdtempSync(join(TMP, "private-cases-"));
      writeFileSync(join(privateCases, "expected.json"), "{}");
      protectFolders([privateCases]);
      linkSync(join(privateCases, "expected.json"), target);
    }
    await expectRefused(
      dir,
      /^src\/answers\.json is a hard link to a file of the kit's or of the private cases: a submission's src\/ may hold regular files only/,
    );
  });

  it("a hard link to anything else (a classmate's file) is copied like any file", async () => {
    const classmate = copyOf("link-in-src");
    const dir = copyOf("link-in-src");
    const ours = join(dir, "src", "shared.ts");
    writeFileSync(join(classmate, "src", "shared.ts"), "export const shared = 1;\n");
    linkSync(join(classmate, "src", "shared.ts"), ours);
    const build = await buildSubmission(dir);
    try {
      expect(build.errors.filter((e) => e.includes("hard link"))).toEqual([]);
    } finally {
      cleanup(build);
    }
  });

  it("a FIFO (the grader never blocks on it)", async () => {
    const dir = copyOf("link-in-src");
    execFileSync("mkfifo", [join(dir, "src", "answers.json")]);
    await expectRefused(dir, `src/answers.json is a FIFO (named pipe): ${ONLY}`);
  });

  it("300 files", async () => {
    const dir = copyOf("many-files");
    for (let i = 0; i < 300; i++)
      writeFileSync(join(dir, "src", `f${i}.ts`), `export const n = ${i};\n`);
    await expectRefused(dir, /src\/ holds more than 200 files: a submission may hold at most 200$/);
  });

  it("too deep, too big, too much in all: each cap names the file", () => {
    const dir = join(mkdtempSync(join(TMP, "caps-")), "sub");
    const deep = join(dir, "src", "a", "b", "c");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(dir, "src", "main.ts"), "x".repeat(100));
    writeFileSync(join(deep, "x.ts"), "");
    const problems = (limits: Partial<typeof STAGE_LIMITS>) => {
      try {
        stageSubmission(dir, { ...STAGE_LIMITS, ...limits }).cleanup();
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(StageError);
        return (error as StageError).problems;
      }
    };
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
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect(mode(staged.root)).toBe("700");
      expect(mode(staged.src)).toBe("755");
      expect(mode(join(staged.src, "main.ts"))).toBe("644");
    } finally {
      staged.cleanup();
    }
  });
});

describe("the kit's other hostile builds still fail", () => {
  it.each([
    ["import-answers", /^src\/main\.ts:2:22: import of "<outside the submission>" reaches outside/],
    ["symlink-answers", /^src\/answers\.json is a symbolic link/],
    ["tsconfig-paths", /^src\/main\.ts:4:21: Could not resolve "\.answers"$/],
  ])("%s", async (name, line) => {
    const build = await buildSubmission(submission(name));
    try {
      expect(build.bundle).toBeUndefined();
      expect(build.errors[0]).toMatch(line);
      expectClean(texts(build), build.errors);
    } finally {
      cleanup(build);
    }
  });
});

describe("the tools' sandbox", () => {
  it("exists: this machine gives the grader namespaces (as root, or through a user namespace)", () => {
    expect(sandboxFeatures().mode).not.toBe("none");
  });

  it("shows the copy, and neither the kit's answers nor the submission folder", async () => {
    const staged = stageSubmission(join(ROOT, "solution"));
    try {
      const out = join(staged.root, "out");
      mkdirSync(out, { mode: 0o700 });
      const probe = [
        "const fs = require('node:fs');",
        "const tryRead = (p) => { try { fs.readFileSync(p); return 'read'; } catch (e) { return e.code; } };",
        "const tryWrite = (p) => { try { fs.writeFileSync(p, 'x'); return 'wrote'; } catch (e) { return e.code; } };",
        "console.log(JSON.stringify({",
        `  answer: tryRead(${JSON.stringify(ANSWER_PATH)}),`,
        `  submission: tryRead(${JSON.stringify(join(ROOT, "solution", "src", "main.ts"))}),`,
        "  copy: tryRead('/dev/shm/src/main.ts'),",
        "  writeCopy: tryWrite('/dev/shm/src/main.ts'),",
        "  writeOut: tryWrite('/dev/shm/out/x'),",
        "}));",
      ].join("\n");
      const { run } = await runTool({
        staged,
        packages: [],
        out,
        args: () => ["-e", probe],
        limits: { cpuSeconds: 10, dataMiB: 1024, fileBytes: 1024 * 1024, openFiles: 1024 },
        outputCapBytes: 65536,
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        answer: expect.stringMatching(/^(ENOENT|EACCES)$/) as unknown,
        submission: expect.stringMatching(/^(ENOENT|EACCES)$/) as unknown,
        copy: "read",
        writeCopy: expect.stringMatching(/^(EROFS|EACCES)$/) as unknown,
        writeOut: "wrote",
      });
    } finally {
      staged.cleanup();
    }
  });
});

describe("crash stacks name src/ files", () => {
  it("an uncaught exception's frames map to src/main.ts, and no bundle path is left", async () => {
    const build = await buildSubmission(submission("uncaught"));
    try {
      const bundle = build.bundle as string;
      const run = spawnSync(process.execPath, [bundle], { encoding: "utf8" });
      expect(run.status).toBe(1);
      const map = stackMapper({
        map: build.sourceMap as SourceMapPayload,
        bundleText: readFileSync(bundle, "utf8"),
        bundlePaths: ["/dev/shm/program/main.mjs", bundle],
      });
      const shown = map(run.stderr);
      expect(shown).toContain("src/main.ts:2\n");
      expect(shown).toContain("    at src/main.ts:2:7\n");
      expect(shown).not.toContain(bundle);
      expect(shown).not.toContain("main.mjs");
      // The sandbox's path, as a URL and as a path, with and without a column.
      expect(map("at file:///dev/shm/program/main.mjs:2:7)")).toBe("at src/main.ts:2:7)");
      expect(map("at /dev/shm/program/main.mjs:2:7")).toBe("at src/main.ts:2:7");
      expect(map("/dev/shm/program/main.mjs:99999:1 and /dev/shm/program/main.mjs")).toBe(
        "<bundle>:99999:1 and <bundle>",
      );
    } finally {
      cleanup(build);
    }
  });
});

describe("a graded crash shows src/ frames", () => {
  it("prepareProgram's mapper rewrites the sandbox's bundle path in a case's standard error", async () => {
    const c = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas()).find((x) => x.id === ONE);
    expect(c).toBeDefined();
    const prepared = await prepareProgram(
      { kind: "folder", path: submission("uncaught"), name: "uncaught" },
      { memoryMiB: 256, timeoutMs: 10_000, outputCapBytes: 1024 * 1024 },
    );
    try {
      const program = prepared.program;
      expect(prepared.errors).toEqual([]);
      if (program === undefined || c === undefined) return;
      const run = await runCase(program, c, { timeoutMs: 10_000, outputCapBytes: 65536 });
      expect(run.exitCode).toBe(1);
      const shown = program.mapStderr(run.stderr);
      expect(shown).toContain("    at src/main.ts:2:7\n");
      expect(shown).not.toContain("main.mjs");
      expect(shown).not.toContain("/dev/shm");
      expect(shown).not.toContain(tmpdir());
    } finally {
      prepared.cleanup();
    }
  });
});
