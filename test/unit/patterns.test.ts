// Every regular expression the grader applies to what a program wrote lives in grader/patterns.ts,
// and each is proven free of catastrophic backtracking here by recheck (its automaton checker,
// which decides the question from the pattern's automaton, not by trying inputs; its pure-JS
// engine, in process, so nothing is downloaded or spawned), with every time limit of recheck off
// so that no answer depends on the machine's load. The schemas' `pattern`s that ajv applies to a
// program's answer are checked the same way.
//
// So that no pattern can escape the proof, every regular expression in the grader's sources is
// found from their syntax tree (TypeScript's parser): regex literals, `RegExp(...)` and
// `new RegExp(...)`, and `.match`/`.matchAll`/`.search` with a string (which makes one). Outside
// patterns.ts, each must be listed in NOT_PROGRAM_TEXT below with what it reads instead; a new one
// fails the test until it is moved to patterns.ts or listed with a reason (and a listed one that
// is gone fails too, so the list stays true). Inside patterns.ts, each literal must be in
// PROGRAM_TEXT_PATTERNS, which the proof iterates.
//
// Each pattern then reads a 64 KiB hostile line through the function that uses it, a fixed number
// of times (ROUNDS): a quadratic pattern would make that take minutes and run into the test's
// timeout, a linear one takes milliseconds. Nothing here asserts a time.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { checkSync, type Parameters } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../grader/diagnose/catalogue.ts";
import { exercismOutput } from "../../grader/report/exercism.ts";
import {
  capped,
  htmlText,
  markdownInline,
  safeJson,
  textLine,
  xmlAttributeData,
} from "../../grader/report/escape.ts";
import { printable, programTextLines } from "../../grader/printable.ts";
import {
  BACKTICK_RUNS,
  bundleLocationPattern,
  ERROR_LINE,
  ERROR_NAME_LINE,
  escapeRegExp,
  LOCATION_COLUMN,
  PROGRAM_TEXT_PATTERNS,
  READ_PAST_END,
  UNCAUGHT_WHERE,
} from "../../grader/patterns.ts";
import { CappedText } from "../../grader/verdict/capped-text.ts";
import { reportedNumbers } from "../../grader/diagnose/diagnose.ts";
import {
  internalErrorOf,
  isMemoryDeath,
  memberOfErrorLine,
  reportedOffset,
  sourceFrameOf,
  uncaughtErrorOf,
} from "../../grader/verdict/verdict.ts";
import { ROOT } from "../helpers/program.ts";

// recheck's synchronous check runs in this process on its pure-JS engine (read when it is called).
process.env.RECHECK_SYNC_BACKEND = "pure";

/** recheck's parameters: the automaton checker (a proof), and no limit measured in time. */
const RECHECK: Parameters = {
  checker: "automaton",
  timeout: null,
  incubationTimeout: null,
  attackTimeout: null,
  seedingTimeout: null,
  // recallTimeout stays negative (recheck's default): its recall validation times an attack.
};

/** recheck on a pattern: "safe", or the status and what it found. */
function proof(pattern: RegExp): string {
  const result = checkSync(pattern.source, pattern.flags, RECHECK);
  if (result.status === "safe") return "safe";
  if (result.status === "vulnerable")
    return `vulnerable: ${result.complexity.summary}, attack ${JSON.stringify(result.attack.pattern)}`;
  return `unknown: ${result.error.kind}`;
}

/** A 64 KiB line. */
const KIB_64 = 64 * 1024;
/** `unit` repeated to 64 KiB (cut to exactly that many code units). */
const hostile = (unit: string): string =>
  unit.repeat(Math.ceil(KIB_64 / unit.length)).slice(0, KIB_64);
/** Times each hostile line is read. */
const ROUNDS = 20;
/** `read` applied ROUNDS times; its last result. */
function rounds<T>(read: () => T): T {
  let result = read();
  for (let i = 1; i < ROUNDS; i++) result = read();
  return result;
}

// ---------------------------------------------------------------------------------------------
// Every regex in the grader's sources

/** Regular expressions outside patterns.ts, by file, with what they read (never program text). */
const NOT_PROGRAM_TEXT: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  "grader/batch/names.ts": [
    ["/^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/", "a submission folder's name"],
  ],
  "grader/run/shared-harness.mjs": [
    ["/./", "no text: a RegExp String Iterator's prototype, to watch it for changes"],
  ],
  "grader/context.ts": [
    ["/^\\d+:([^:]*):(.*)$/", "/proc/self/cgroup"],
    ["/\\s+/", "a cgroup's cpu.max"],
  ],
  "grader/diagnose/diagnose.ts": [
    [
      "/(^version$| length$| count$|^generationId$|\\.partitions\\[\\d+\\]$)/",
      "the kit's own field names",
    ],
    ["/ (length|count)$/", "the kit's own field names"],
  ],
  "grader/cases/load.ts": [["/\\s+/g", "the case's input (metadata hex)"]],
  "grader/instructor/mutants/replace.ts": [
    ["/^[ \\t]*/", "the reference's source"],
    ["/^[ \\t]*/", "the reference's source"],
    ["/^(##|@|-|\\+)? ?(.*)$/", "the mutants' edits in mutants.ts"],
  ],
  "grader/kit.ts": [["/[\\\\/]$/", "the kit's path"]],
  "grader/launch.mjs": [
    ["/^flags:\\s+(\\d+)/m", "/proc/self/fdinfo"],
    ["/\\.(ts|json|mjs)$/", "the grader's file names"],
  ],
  "grader/options.ts": [
    ["/^\\d+$/", "the command line"],
    ["/^\\d+$/", "the command line"],
    ["/^(\\d+)\\/(\\d+)$/", "the command line (--shard)"],
  ],
  "grader/run/build-worker/build-worker.mjs": [
    ["/(\\/[/*][#@][ \\t]*)(sourceMappingURL)/gi", "the submitted sources, before the build"],
    ["/.*/", "the bundler's options"],
    ["/.*/", "the bundler's options"],
  ],
  "grader/run/confined-tool.ts": [
    [
      'new RegExp(`(?<![\\\\w.~/:\\\\-])(?:file://)?/${PATH_CHARS}+`, "g")',
      "the build tools' messages",
    ],
    [
      'new RegExp(`(?<![\\\\w.~/\\\\-])(?:\\\\./)*(?:\\\\.\\\\./)+${PATH_CHARS}*`, "g")',
      "the build tools' messages",
    ],
    ["/^(src\\/[^\\s:(]*)[:(]/", "the build tools' messages"],
    ["/[.:]+$/", "the build tools' messages"],
  ],
  "grader/run/identities.ts": [
    ["/^\\d+$/", "/proc entries"],
    ["/^Uid:\\s+(\\d+)\\s+(\\d+)/m", "/proc/<pid>/status"],
  ],
  "grader/run/literal-imports.ts": [
    ["/\\bimport\\s*(?:\\(|\\/[/*])/", "the submitted sources, before the build"],
    [
      "/\\\\u\\{([0-9a-fA-F]+)\\}|\\\\u([0-9a-fA-F]{4})/g",
      "the submitted sources, before the build",
    ],
    ["/\\brequire\\b/", "the submitted sources, before the build"],
    ["/\\[ERROR\\] (.*)/", "the bundler's messages"],
    ["/^\\s+(\\S+?):(\\d+):(\\d+):/m", "the bundler's messages"],
  ],
  "grader/run/run-process.ts": [
    ["/^(\\d+)m([\\d.]+)s$/", "the sandbox wrapper's report (a descriptor programs lack)"],
    ["/\\s+/", "the sandbox wrapper's report (a descriptor programs lack)"],
  ],
  "grader/run/sandbox.ts": [["/[\\\\ \\t\\n]/g", "mount paths"]],
  "grader/totals.ts": [["/^bonus=(0|[1-9]\\d{0,8})$/", "the command line's --extension"]],
  "grader/watch.ts": [
    ["/[\\\\/]/", "file names in src/"],
    ["/(^\\.#|^#.*#$|~$|\\.sw[a-p]$|^4913$|\\.tmp$|___jb_(tmp|old)___$)/", "file names in src/"],
    ["/(^|[\\\\/])(node_modules|\\.git)([\\\\/]|$)/", "file paths in src/"],
  ],
};

/** The file that holds the patterns for program text. */
const PATTERNS_FILE = "grader/patterns.ts";

/** Every .ts and .mjs file under grader/, as `/`-separated paths from the kit's root. */
function graderFiles(dir = join(ROOT, "grader")): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return graderFiles(path);
      return /\.(ts|mjs)$/.test(name) ? [relative(ROOT, path).split(sep).join("/")] : [];
    });
}

/** What makes a regular expression in a source file, as its source text. */
function regexesIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const implicit = new Set(["match", "matchAll", "search"]);
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push(node.getText(source));
    if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    )
      found.push(node.getText(source));
    // `text.match("a.b")` compiles its string argument into a RegExp.
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      implicit.has(node.expression.name.text)
    ) {
      const argument = node.arguments[0];
      if (
        argument !== undefined &&
        (ts.isStringLiteralLike(argument) || ts.isTemplateExpression(argument))
      )
        found.push(node.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("every regular expression of the grader", () => {
  const files = graderFiles();

  it("is read from every grader file", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files).toContain(PATTERNS_FILE);
    // The scanner finds each kind of construction (checked on this very file's own text).
    expect(regexesIn("test/unit/patterns.test.ts").length).toBeGreaterThan(0);
  });

  it("outside patterns.ts, is one listed as never applied to program text, and every listed one exists", () => {
    const unlisted: string[] = [];
    const stale: string[] = [];
    for (const file of files) {
      if (file === PATTERNS_FILE) continue;
      const found = regexesIn(file);
      const listed = (NOT_PROGRAM_TEXT[file] ?? []).map(([source]) => source);
      const left = [...listed];
      for (const source of found) {
        const at = left.indexOf(source);
        if (at === -1) unlisted.push(`${file}: ${source}`);
        else left.splice(at, 1);
      }
      for (const source of left) stale.push(`${file}: ${source}`);
    }
    for (const file of Object.keys(NOT_PROGRAM_TEXT))
      if (!files.includes(file)) stale.push(`${file} (no such file)`);
    // A regex that reads program text belongs in grader/patterns.ts (and PROGRAM_TEXT_PATTERNS).
    expect(unlisted, "regular expressions neither in patterns.ts nor listed here").toEqual([]);
    expect(stale, "listed regular expressions that are gone").toEqual([]);
  });

  it("in patterns.ts, each literal is in PROGRAM_TEXT_PATTERNS, which the proof below checks", () => {
    const sources = new Set(
      [...PROGRAM_TEXT_PATTERNS.values()].map((p) => `/${p.source}/${p.flags}`),
    );
    const literals = regexesIn(PATTERNS_FILE).filter((s) => s.startsWith("/"));
    expect(literals.length).toBeGreaterThan(15);
    for (const literal of literals) expect(sources, literal).toContain(literal);
    // The one built pattern is there through its builder.
    expect(regexesIn(PATTERNS_FILE).filter((s) => !s.startsWith("/"))).toHaveLength(1);
    expect(PROGRAM_TEXT_PATTERNS.get("bundleLocationPattern")).toBeInstanceOf(RegExp);
  });

  it("the catalogue's crash evidence is a pattern of patterns.ts", () => {
    const evidence = [...CATALOGUE.values()].flatMap((m) =>
      m.crashEvidence === undefined ? [] : [m.crashEvidence],
    );
    expect(evidence.length).toBeGreaterThan(0);
    const patterns = new Set(PROGRAM_TEXT_PATTERNS.values());
    for (const pattern of evidence) expect(patterns.has(pattern), String(pattern)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The proof

/** The `pattern` of every schema that ajv applies to a program's answer. */
function schemaPatterns(): [string, RegExp][] {
  const found: [string, RegExp][] = [];
  for (const file of ["assignment-output.schema.json", "decode-output.schema.json"]) {
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}/${i}`));
      else if (typeof value === "object" && value !== null)
        for (const [key, v] of Object.entries(value)) {
          // ajv compiles a schema's pattern with the `u` flag.
          if (key === "pattern" && typeof v === "string")
            found.push([`${file}${path}`, new RegExp(v, "u")]);
          else walk(v, `${path}/${key}`);
        }
    };
    walk(JSON.parse(readFileSync(join(ROOT, "fixtures", "schema", file), "utf8")), "");
  }
  return found;
}

describe("recheck proves each pattern applied to program text free of catastrophic backtracking", () => {
  it("recheck itself finds the pattern that froze the grader on exit 70", () => {
    // The source-frame pattern before it was rewritten (recheck finds `FATAL ERROR: .*Allocation
    // failed` quadratic too, but takes several seconds over it).
    expect(proof(/\(?(src\/[^\s():]+):(\d+)(?::\d+)?\)?$/)).toBe(
      `vulnerable: 2nd degree polynomial, attack "'src/s'.repeat(24495) + 'c'"`,
    );
  }, 120_000);

  it.each([...PROGRAM_TEXT_PATTERNS])(
    "%s",
    (_name, pattern) => {
      expect(proof(pattern)).toBe("safe");
    },
    120_000,
  );

  it.each(schemaPatterns())(
    "the schema pattern at %s",
    (_where, pattern) => {
      expect(proof(pattern)).toBe("safe");
    },
    120_000,
  );
});

// ---------------------------------------------------------------------------------------------
// Behaviour: a 64 KiB hostile line through each pattern's function, ROUNDS times

describe(`each pattern reads a 64 KiB hostile line ${ROUNDS} times and gives the right answer`, () => {
  it("MEMORY_DEATH and the FATAL ERROR search (isMemoryDeath)", () => {
    expect(rounds(() => isMemoryDeath([hostile("FATAL ERROR: ")]))).toBe(false);
    expect(rounds(() => isMemoryDeath([`${hostile("FATAL ERROR: ")}Allocation failed`]))).toBe(
      true,
    );
    expect(rounds(() => isMemoryDeath([hostile("out of ")]))).toBe(false);
  });

  it("FRAME_END and the source frame's scan (sourceFrameOf, internalErrorOf)", () => {
    expect(rounds(() => sourceFrameOf(hostile("src/")))).toBeUndefined();
    expect(rounds(() => sourceFrameOf(`${hostile("src/")}:1:2)`))?.line).toBe("1");
    expect(rounds(() => sourceFrameOf(hostile(":1")))).toBeUndefined();
    const stderr = CappedText.stderr(`internal error\nTypeError: x\n${hostile("src/")}\n`);
    expect(rounds(() => internalErrorOf(stderr))).toBe('"TypeError: x"');
  });

  it("UNCAUGHT_WHERE, ERROR_LINE, ERROR_NAME_LINE (uncaughtErrorOf)", () => {
    expect(rounds(() => UNCAUGHT_WHERE.test(hostile("a.js:1")))).toBe(false);
    expect(rounds(() => UNCAUGHT_WHERE.test(`src/${hostile("\t")}`))).toBe(false);
    expect(rounds(() => ERROR_LINE.test(`a${hostile(".")}`))).toBe(false);
    expect(rounds(() => ERROR_NAME_LINE.test(`${hostile("x")}Error`))).toBe(true);
    expect(rounds(() => ERROR_NAME_LINE.test(`${hostile("Error")}x`))).toBe(false);
    expect(rounds(() => uncaughtErrorOf(CappedText.stderr(hostile("a.js:1"))))).toBeUndefined();
  });

  it("BAD_INPUT_LINE and REPORTED_OFFSET (memberOfErrorLine, reportedOffset)", () => {
    expect(rounds(() => memberOfErrorLine(`error: member "${hostile('\\"')}`))).toBeUndefined();
    expect(rounds(() => memberOfErrorLine(`error: member "${hostile("a")}": x`))).toHaveLength(
      KIB_64,
    );
    expect(rounds(() => reportedOffset(hostile(" at offset ")))).toBeUndefined();
    expect(rounds(() => reportedOffset(hostile(" at offset 1")))).toBe(1);
  });

  it("NOT_A_NUMBER (reportedNumbers): a bounded list of distinct numbers", () => {
    const line = (rest: string) => `error: member "m": ${rest}`;
    expect(rounds(() => reportedNumbers(line(hostile("-1 "))))).toEqual([-1]);
    expect(rounds(() => reportedNumbers(line(hostile("a-"))))).toEqual([]);
    expect(rounds(() => reportedNumbers(hostile("error: member \\u2028")))).toEqual([]);
    expect(rounds(() => reportedNumbers(line(hostile("\\u2028 "))))).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => i + 1).join(" ");
    expect(reportedNumbers(`error: member "7": ${many} at offset 99`)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it("READ_PAST_END (the catalogue's crash evidence)", () => {
    expect(rounds(() => READ_PAST_END.test(hostile("out of ")))).toBe(false);
    expect(rounds(() => READ_PAST_END.test(hostile("RangeErr_")))).toBe(false);
    expect(rounds(() => READ_PAST_END.test(`${hostile("out of ")} out of range`))).toBe(true);
  });

  it("LOCATION_COLUMN, the bundle location and escapeRegExp (the stack mapper)", () => {
    expect(rounds(() => hostile(":1").replace(LOCATION_COLUMN, ""))).toHaveLength(KIB_64 - 2);
    const pattern = bundleLocationPattern(["/dev/shm/program/main.mjs"]);
    // Near misses: every position starts the path, none completes it.
    const text = hostile("/dev/shm/program/main.mj");
    expect(rounds(() => text.replace(pattern, "<bundle>"))).toBe(text);
    expect(rounds(() => escapeRegExp(hostile(".")))).toHaveLength(2 * KIB_64);
  });

  it("UNSAFE, UNSAFE_IN_LINE, UNSAFE_IN_JSON, LINE_END (printable, textLine, safeJson)", () => {
    expect(rounds(() => printable(hostile("\u0001")))).toHaveLength(6 * KIB_64);
    expect(rounds(() => textLine(hostile("\n"), 100))).toMatch(
      /^(\\u000a)+… \(\d+ more characters\)$/,
    );
    expect(rounds(() => safeJson(hostile("\u2028")))).toHaveLength(6 * KIB_64 + 2);
    expect(rounds(() => programTextLines(hostile("\ra")))).toHaveLength(1);
    expect(rounds(() => programTextLines(`${hostile("\r\n")}x`))).toHaveLength(KIB_64 / 2 + 1);
  });

  it("CRLF, PARTIAL_ESCAPE, TAB_OR_NEWLINE, HTML_SPECIAL, MARKDOWN_SPECIAL (the reports)", () => {
    expect(rounds(() => exercismOutput(`${hostile("\r\n")}x`))).toMatch(/x$/);
    // Cut before the `\u0` that would straddle the cut: 72 characters and a 25-character notice.
    expect(rounds(() => capped(hostile("\\u00"), 100))).toBe(
      `${"\\u00".repeat(18)}… (65464 more characters)`,
    );
    expect(rounds(() => xmlAttributeData(hostile("\t")))).toHaveLength(6 * KIB_64);
    expect(rounds(() => htmlText(hostile("&"), 2 * KIB_64))).toHaveLength(5 * KIB_64);
    expect(rounds(() => markdownInline(hostile("`"), 2 * KIB_64))).toHaveLength(2 * KIB_64);
  });

  it("BACKTICK_RUNS (the job summary's fences)", () => {
    expect(rounds(() => hostile("`").match(BACKTICK_RUNS))).toHaveLength(1);
    expect(rounds(() => hostile("`a").match(BACKTICK_RUNS))).toHaveLength(KIB_64 / 2);
  });
});
