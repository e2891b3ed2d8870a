// Reports are safe by construction: whatever a program prints (output, JSON keys naming members
// and topics, standard error, its folder's name) reaches every report format escaped. Results
// are built in-process from constructed runs judged by the grader's own judge(), so the messages
// are the ones the grader composes (JSON.parse's error quoting the output, schema paths naming
// keys); each format is then checked as its reader sees it: no raw control, C1, bidi,
// line-separator or NUL character in the bytes, the hostile text visible as escapes, program
// lines behind the gutter, documents still valid, CSV cells guarded, no HTML or Markdown injected.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gradebookCsv, type CaseInfo } from "../../grader/batch/gradebook.ts";
import {
  prepareReportDir,
  readReportDir,
  writeClassReport,
  writeSubmissionResults,
} from "../../grader/batch/output.ts";
import { batchProgress } from "../../grader/batch/progress.ts";
import { reportHtml } from "../../grader/batch/report-html.ts";
import type { GradeResults } from "../../grader/results.ts";
import {
  capped,
  cappedEnd,
  csvText,
  escapeChar,
  GUTTER,
  htmlText,
  LINE_MAX_CHARS,
  markdownInline,
  printable,
  programLines,
  safeJson,
  textLine,
  xmlAttributeData,
  xmlData,
} from "../../grader/report/escape.ts";
import { exercismReporter, type ExercismResults } from "../../grader/report/exercism.ts";
import { githubReporter } from "../../grader/report/github.ts";
import { gradescopeReporter, type GradescopeResults } from "../../grader/report/gradescope.ts";
import { jsonReporter, resultsJson } from "../../grader/report/json.ts";
import { junitXml } from "../../grader/report/junit.ts";
import { textReporter } from "../../grader/report/text.ts";
import { watchReport } from "../../grader/watch.ts";
import {
  expectExercism,
  expectGradescope,
  formatSchema,
  parseAnnotations,
  parseCsv,
  parseJunit,
  type JunitSuite,
} from "../helpers/readers.ts";
import { buildFailure, gradeResults, judgedResult, rawRun, report } from "../helpers/results.ts";
import { expectValidJunit } from "../helpers/xmllint.ts";

// ---- what a hostile program prints ----

/** Erase the line, back to its start, and print a pass over the real result. */
const FAKE_PASS = "\u001b[2K\r✓ 01-lesson-7-partitions-3-members   2/2";
const CSI = "\u009b2K"; // the one-byte CSI of C1
const RLO = "\u202e"; // right-to-left override
const LS = "\u2028"; // line separator
const NUL = "\u0000";
const FORMULA = "=cmd|' /C calc'!A0";
const SCRIPT = "<script>alert(1)</script>";
const MARKDOWN = "| ](javascript:alert(1))";
const LONG = "L".repeat(20_000);
const HOSTILE = `${FAKE_PASS}${CSI}${RLO}${LS}${NUL}${SCRIPT}${MARKDOWN}`;

/** Each line marked stderr-N, to find where the report shows it. */
const STDERR = [
  `${FAKE_PASS} stderr-1`,
  `${CSI}31m${RLO}reversed${LS}separated${NUL}nul stderr-2\r`,
  `${FORMULA} stderr-3`,
  `${SCRIPT}${MARKDOWN} stderr-4`,
  // Cut at 4096 bytes when judged (verdict/capped-text.ts), its start kept.
  `stderr-5 ${LONG}`,
  `\u001b]52;c;Y2xpcGJvYXJk\u0007 stderr-6`,
].join("\n");

const SUBMISSION = `${FORMULA} ${HOSTILE}\n✓ second line`;
const UNBUILT = `@SUM(1+1)\t\u0085${RLO}`;
const BUILD_ERRORS = [
  `src/${FAKE_PASS}.ts:1:1: import of "${SCRIPT}${RLO}" reaches outside the submission folder build-err-1`,
  `line one\n${FAKE_PASS}\r\n${CSI}line three build-err-2`,
];

const ONE = "01-lesson-7-partitions-3-members";

/** Valid assignment JSON for ONE with hostile members and topics (and a `__proto__` key). */
const HOSTILE_ASSIGNMENT = `{"consumer-a":{"orders":[0,1,2]},"consumer-b":{"orders":[3,4]},"__proto__":{"orders":[5]},${JSON.stringify(HOSTILE)}:{"orders":[6],${JSON.stringify(HOSTILE)}:[0]},${JSON.stringify(FORMULA)}:{},${JSON.stringify(LONG)}:{}}`;

const DECODE_CASE = "20-decode-version-1";
const HOSTILE_DECODE = JSON.stringify({
  "java-v1-owned": { version: 1, topics: [HOSTILE, "payments"], userData: null },
  "java-v1-user-data": { version: 1, topics: ["orders"], userData: "0102030405" },
  "librdkafka-v1": { version: 1, topics: ["orders"], userData: "" },
  [HOSTILE]: { version: 1, topics: [LONG], userData: "" },
});

function hostileResults(): GradeResults {
  const r = (id: string, fields: Parameters<typeof rawRun>[0], mistakes: string[] = []) =>
    judgedResult(id, rawRun(fields), SUBMISSION, mistakes);
  return gradeResults(SUBMISSION, [
    // Not JSON: JSON.parse's message quotes the output.
    r("03-per-topic-skew", { stdout: `${HOSTILE}\n${LONG}` }),
    // A schema error: the JSON pointer names the hostile key.
    r("04-string-order-not-numeric", { stdout: JSON.stringify({ [HOSTILE]: 5, [LONG]: 6 }) }),
    // "partitions must be ascending", naming a hostile member and topic.
    r("05-input-order-is-not-member-order", {
      stdout: JSON.stringify({ "consumer-a": { [HOSTILE]: [2, 1] }, [HOSTILE]: { o: [1, 0] } }),
    }),
    // A wrong answer whose members and topics are hostile: member lists, the grid, the legend.
    r(ONE, { stdout: HOSTILE_ASSIGNMENT }, ["global-assignment"]),
    // A wrong decode: the line diff quotes members and topics.
    r(DECODE_CASE, { stdout: HOSTILE_DECODE }),
    // A crash: the message quotes the first line of standard error, the details its last lines.
    r("06-uppercase-before-lowercase", { exitCode: 70, stderr: STDERR }),
    // A bad-input line naming a hostile member.
    r("25-error-truncated-topic-string", {
      exitCode: 1,
      stderr: `error: member "${CSI}${RLO}evil${LS}" at offset 3: ${FAKE_PASS}\n`,
    }),
    // A stub whose message is the program's own line.
    r("07-idle-members", { exitCode: 3, stderr: `not implemented yet: ${FAKE_PASS}${RLO}\n` }),
  ]);
}

const HOSTILE_RESULTS = hostileResults();
const UNBUILT_RESULTS = buildFailure(UNBUILT, [ONE, "03-per-topic-skew"], BUILD_ERRORS);
const ALL = [HOSTILE_RESULTS, UNBUILT_RESULTS];

// ---- checks ----

// Every character a report must never hold raw: C0 but tab and newline, DEL, C1, bidi, U+2028/9.
/* eslint-disable no-control-regex -- finding control characters is the point */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** An SGR sequence: the colours picocolors writes. */
const SGR = /\u001b\[\d+m/g;
/* eslint-enable no-control-regex */

/** The first few raw unsafe characters in `text`, with where they are. */
function rawUnsafe(text: string): string[] {
  return [...text.matchAll(UNSAFE)]
    .slice(0, 5)
    .map(
      (m) =>
        `${escapeChar(m[0])} at ${m.index}: ${printable(text.slice(Math.max(0, m.index - 30), m.index + 10))}`,
    );
}

function expectNoRawUnsafe(text: string, label: string): void {
  expect(rawUnsafe(text), `${label}: raw unsafe characters`).toEqual([]);
}

/** Every strings inside a parsed JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  }
  return [];
}

/** The hostile text as the reports show it: escapes, not the characters. */
const VISIBLE = ["\\u001b[2K\\u000d✓ 01-", "\\u009b2K", "\\u202e", "\\u2028", "\\u0000"];

function expectVisible(text: string, label: string, shown: readonly string[] = VISIBLE): void {
  for (const escaped of shown) expect(text, `${label} shows ${escaped}`).toContain(escaped);
}

/**
 * Lines of a text (a report, or a test's output) that show standard error, marked stderr-N or
 * build-err-N: each is behind the gutter, or is a grader line that quotes the program on one
 * line (`grader`).
 */
function expectGuttered(text: string, grader: RegExp, label: string): void {
  const lines = text.split("\n").filter((l) => /stderr-\d|build-err-\d/.test(l));
  expect(lines.length, `${label}: some program lines are shown`).toBeGreaterThan(0);
  for (const line of lines) {
    if (grader.test(line)) continue;
    expect(line, `${label}: a program line without the gutter`).toMatch(/^\s*(\|\s|\| )/);
  }
}

/** No line of a text starts (indentation aside) with a pass mark: none can fake a result. */
function expectNoFakePass(text: string, label: string): void {
  const fake = text.split("\n").filter((l) => /^\s*✓/.test(l));
  expect(fake, `${label}: lines that read as a pass`).toEqual([]);
}

const ids = (results: GradeResults) => new Set(results.cases.map((r) => r.id));

describe("the text report (terminal)", () => {
  const texts = ALL.map((results) => report(textReporter, results));

  it("holds no raw unsafe character, and shows the hostile text as escapes", () => {
    for (const text of texts) expectNoRawUnsafe(text, "text report");
    expectVisible(texts[0] ?? "", "text report");
    expectVisible(texts[1] ?? "", "text report of the build failure", ["\\u001b[2K\\u000d✓ 01-"]);
  });

  it("starts a line only with the grader's own words; program lines are behind the gutter", () => {
    for (const [i, text] of texts.entries()) {
      const results = ALL[i] as GradeResults;
      for (const line of text.split("\n").filter((l) => /^\S/.test(l))) {
        expect(line).toMatch(
          /^(Grading |✗ |Required: |Extension: |Total: |The submission did not build, so no case ran:|Nothing is implemented|Every case stopped at assignRange|Checked against every case, these mistakes stand:$)/,
        );
        const id = /^✗ (\S+)/.exec(line)?.[1];
        if (id !== undefined) expect(ids(results).has(id), line).toBe(true);
      }
      expectNoFakePass(text, "text report");
      // The case line quotes the first line of standard error (the crash's message).
      expectGuttered(text, /^✗ /, "text report");
    }
    // The header names the submission on its one line.
    expect(texts[0]?.split("\n")[0]).toMatch(/^Grading =cmd.*\\u000a✓ second line: 8 cases/);
  });

  it("caps long strings with a visible notice, and keeps `__proto__` a member like any other", () => {
    const text = texts[0] ?? "";
    expect(text).toMatch(/… \(\d+ more characters\)/);
    const longest = Math.max(...text.split("\n").map((l) => l.length));
    expect(longest).toBeLessThanOrEqual(LINE_MAX_CHARS + 80);
    expect(text).toContain(`"__proto__"`);
  });

  it("with colour, the only escape sequences are the grader's own colours", () => {
    const coloured = report(textReporter, HOSTILE_RESULTS, true);
    expect(coloured.match(SGR)?.length ?? 0).toBeGreaterThan(0);
    expectNoRawUnsafe(coloured.replace(SGR, ""), "coloured text report");
  });

  it("the watch report and the batch progress lines are escaped the same way", () => {
    for (const results of ALL) {
      const watch = watchReport(results, false, "src/");
      expectNoRawUnsafe(watch, "watch report");
      expectNoFakePass(watch, "watch report");
    }
    const written: string[] = [];
    const stream = { isTTY: false, write: (text: string) => written.push(text) };
    const progress = batchProgress(stream as unknown as NodeJS.WriteStream, 2, 2);
    progress.started(SUBMISSION);
    progress.finished(SUBMISSION, `note ${FAKE_PASS}`);
    expect(written).toHaveLength(1);
    expectNoRawUnsafe(written.join(""), "progress line");
    expect(written[0]).toMatch(
      /^\[1\/2\] =cmd[^\n]*\\u000a✓ second line: note \\u001b\[2K[^\n]*\n$/,
    );
  });
});

describe("--format json (the results file)", () => {
  it("keeps the exact strings (JSON escapes), with no raw unsafe character in its bytes", () => {
    const validate = formatSchema("../results.schema.json");
    for (const results of ALL) {
      const bytes = report(jsonReporter, results);
      expectNoRawUnsafe(bytes, "results JSON");
      const parsed: unknown = JSON.parse(bytes);
      expect(parsed).toEqual(resultsJson(results));
      validate(parsed);
      expect(validate.errors ?? []).toEqual([]);
    }
    const bytes = report(jsonReporter, HOSTILE_RESULTS);
    // The escapes are JSON's own: `\u009b` in the file is U+009B once parsed.
    expect(bytes).toContain("\\u202e");
    expect(bytes).toContain("\\u001b[2K\\r✓ 01-");
  });
});

describe("--format junit", () => {
  const documents = ALL.map((results) => junitXml(results, { timestamp: new Date(0) }));

  it("is well-formed XML with no raw unsafe character, valid against both JUnit XSDs", async () => {
    for (const xml of documents) {
      expectNoRawUnsafe(xml, "JUnit XML");
      const suites = parseJunit(xml).testsuites.testsuite;
      expect(suites).toHaveLength(1);
    }
    await expectValidJunit(new Map(documents.map((xml, i) => [`hostile results ${i}`, xml])));
  });

  it("shows the hostile text as escapes in names, messages and bodies", () => {
    const suite = parseJunit(documents[0] ?? "").testsuites.testsuite[0] as JunitSuite;
    expect(suite.name).toMatch(/^grade =cmd\|' \/C calc'!A0 \\u001b\[2K\\u000d✓/);
    const texts = suite.testcase.map((t) => {
      const f = t.failure ?? t.error;
      return `${f?.message ?? ""}\n${f?.["#text"] ?? ""}`;
    });
    expectVisible(texts.join("\n"), "JUnit");
    for (const t of suite.testcase) {
      const f = t.failure ?? t.error;
      expect(f?.message ?? "", "a message stays one line").not.toContain("\n");
    }
    const crash = texts.find((t) => t.includes("stderr-2")) ?? "";
    expectGuttered(crash, /^crash: /, "JUnit body");
    // `<script>` is text in the parsed body because the document holds it as `&lt;script&gt;`.
    expect(crash).toContain("<script>");
    expect(documents[0]).not.toMatch(/<script/i);
  });
});

describe("--format gradescope", () => {
  const documents = ALL.map(
    (results) =>
      [report((sink) => gradescopeReporter(sink, {}), results), results] as [string, GradeResults],
  );

  it("matches the schema, declares plain text, and holds no raw unsafe character", () => {
    for (const [bytes] of documents) {
      expectNoRawUnsafe(bytes, "Gradescope JSON");
      const doc = JSON.parse(bytes) as GradescopeResults;
      expectGradescope(doc);
      expect(doc.output_format).toBe("text");
      expect(doc.test_output_format).toBe("text");
      // Gradescope renders these strings: they are escaped as text, not only as JSON.
      for (const s of strings(doc)) expectNoRawUnsafe(s, "a Gradescope string");
    }
  });

  it("shows the hostile text as escapes, program lines behind the gutter", () => {
    const doc = JSON.parse(documents[0]?.[0] ?? "") as GradescopeResults;
    const outputs = doc.tests.map((t) => t.output).join("\n");
    expectVisible(outputs, "Gradescope outputs");
    expectGuttered(outputs, /^crash: /, "Gradescope output");
    expectNoFakePass(outputs, "Gradescope output");
    const unbuilt = JSON.parse(documents[1]?.[0] ?? "") as GradescopeResults;
    expect(unbuilt.output).toMatch(
      /^The submission did not build, so no case ran:\n {2}\| src\/\\u001b\[2K/,
    );
    expectGuttered(unbuilt.output, /^$/, "Gradescope build errors");
  });
});

describe("--format exercism", () => {
  const documents = ALL.map((results) => report(exercismReporter, results));

  it("matches the schema and holds no raw unsafe character, in bytes or strings", () => {
    for (const bytes of documents) {
      expectNoRawUnsafe(bytes, "Exercism JSON");
      const doc = JSON.parse(bytes) as ExercismResults;
      expectExercism(doc);
      for (const s of strings(doc)) expectNoRawUnsafe(s, "an Exercism string");
    }
  });

  it("shows the hostile text as escapes; output is the end of standard error, cut visibly", () => {
    const doc = JSON.parse(documents[0] ?? "") as ExercismResults;
    expectVisible(doc.tests.map((t) => t.message ?? "").join("\n"), "Exercism messages");
    const crash = doc.tests.find((t) => (t.output ?? "").includes("stderr-6"));
    expect(crash?.output).toMatch(
      /^Output was truncated\. Please limit to 500 chars\.\n\(\d+ earlier characters\) …L+\n\\u001b\]52;c;Y2xpcGJvYXJk\\u0007 stderr-6\n\[… 1 line cut at 4096 bytes\]$/,
    );
    expect((crash?.output ?? "").length).toBeLessThanOrEqual(500);
    const unbuilt = JSON.parse(documents[1] ?? "") as ExercismResults;
    expect(unbuilt.status).toBe("error");
    expectGuttered(unbuilt.message ?? "", /^$/, "Exercism build errors");
  });
});

describe("--format github", () => {
  const runs = ALL.map((results) => {
    const summary = join(mkdtempSync(join(tmpdir(), "kit-escaping-")), "summary.md");
    const stdout = report(
      (sink) => githubReporter(sink, { GITHUB_STEP_SUMMARY: summary }),
      results,
    );
    return { results, stdout, summary: readFileSync(summary, "utf8") };
  });

  it("workflow commands: no raw unsafe character, nothing a program printed acts as a command", () => {
    for (const { results, stdout } of runs) {
      expectNoRawUnsafe(stdout, "GitHub log");
      const annotations = parseAnnotations(stdout);
      // A submission that did not build gets one annotation, its build's errors.
      expect(annotations.length).toBe(
        results.notGraded !== null
          ? 1
          : Math.min(10, results.cases.filter((r) => r.status !== "pass").length),
      );
      // Only the grader's commands start a line: the group, the stop token, annotations.
      const token = /^::stop-commands::(\S+)$/m.exec(stdout)?.[1] ?? "(none)";
      const commands = stdout.split("\n").filter((l) => l.startsWith("::"));
      for (const line of commands) {
        expect(line).toMatch(
          new RegExp(
            `^::(group::Grading |stop-commands::|${token}::$|endgroup::$|error |warning )`,
          ),
        );
      }
      expect(commands.filter((l) => l.startsWith("::group::"))).toHaveLength(1);
    }
    const annotations = parseAnnotations(runs[0]?.stdout ?? "");
    expectVisible(annotations.map((a) => a.message).join("\n"), "annotations", [
      "\\u001b[2K\\u000d✓ 01-",
      "\\u2028",
    ]);
    for (const a of annotations) expect(a.raw).not.toContain("\n");
  });

  it("the job summary: no raw unsafe character, no HTML, no link, no broken table row", () => {
    for (const { results, summary } of runs) {
      expectNoRawUnsafe(summary, "job summary");
      const rows = summary.split("\n").filter((l) => l.startsWith("| "));
      expect(rows).toHaveLength(results.cases.length + 2);
      // Five cell borders per row: every `|` from a program is escaped.
      for (const row of rows) expect(row.match(/(?<!\\)\|/g), row).toHaveLength(5);
      // Fenced details are code, shown as text (a fence longer than any backtick run inside);
      // outside them `]` is escaped, so `](javascript:...)` cannot make a link, and no tag opens.
      const outsideFences = summary.replace(/^(`{3,})text\n[^]*?\n\1$/gm, "");
      expect(outsideFences).not.toMatch(/<script/i);
      expect(outsideFences).not.toMatch(/(?<!\\)\]\(/);
      expect(outsideFences).not.toMatch(/<(?!\/?(details|summary)>)/);
    }
    // Markdown shows `\\` as one backslash: the reader sees `\u001b[2K\u000d✓`.
    expect(runs[0]?.summary).toMatch(
      /^## Grading =cmd\\\|' \/C calc'!A0 \\\\u001b\\\[2K\\\\u000d✓/,
    );
  });
});

describe("the batch: gradebook.csv, report.html, results/", () => {
  const submissions = ALL.map(resultsJson);
  const cases: CaseInfo[] = [...new Map(ALL.flatMap((r) => r.cases).map((r) => [r.id, r]))].map(
    ([id, r]) => ({ id, title: r.title, required: r.required, maxPoints: r.maxPoints }),
  );

  it("gradebook.csv: no raw unsafe character, no cell a spreadsheet would run", () => {
    const text = gradebookCsv(submissions, cases);
    expectNoRawUnsafe(text, "gradebook.csv");
    const rows = parseCsv(text);
    expect(rows).toHaveLength(3);
    for (const cell of rows.flat())
      expect(cell).not.toMatch(/^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/);
    const names = rows.slice(1).map((row) => row[0]);
    expect(names).toEqual([
      `'${textLine(SUBMISSION)}`, // "=" sorts before "@"
      `'@SUM(1+1)\t\\u0085\\u202e`,
    ]);
  });

  it("report.html: no raw unsafe character, no tag but the report's own", () => {
    const html = reportHtml(submissions, cases, HOSTILE_RESULTS.kit);
    expectNoRawUnsafe(html, "report.html");
    expect(html).not.toMatch(/<script/i);
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]));
    const allowed =
      "html head meta title style body h1 h2 p div b i code svg g rect text span table thead tbody tr th td a details summary";
    expect([...tags].filter((t) => !allowed.split(" ").includes(t ?? ""))).toEqual([]);
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).toContain("\\u001b[2K\\u000d✓ 01-");
    // The build error shown under the submission that did not build.
    expect(html).toMatch(/<p class="error">build-error: src\/\\u001b\[2K/);
  });

  it("results/ and shard.json: no raw unsafe character; read back, the exact names", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "kit-escaping-")), "out");
    prepareReportDir(dir);
    const files = submissions.map((s) => writeSubmissionResults(dir, s));
    writeClassReport(dir, { kit: HOSTILE_RESULTS.kit, shard: null, cases }, submissions);
    for (const file of [...files, "shard.json", "gradebook.csv", "report.html"]) {
      expectNoRawUnsafe(readFileSync(join(dir, file), "utf8"), file);
    }
    const back = readReportDir(dir);
    expect(back.results.map((r) => r.submission).sort()).toEqual([SUBMISSION, UNBUILT].sort());
    expect(back.results.find((r) => r.submission === SUBMISSION)).toEqual(submissions[0]);
  });
});

describe("escape.ts", () => {
  it("printable shows invisible characters: zero-width, soft hyphen, variation selectors, tags", () => {
    // "orders" followed by what would draw nothing, one each.
    expect(printable("orders\u200b")).toBe("orders\\u200b");
    expect(printable("a\u00adb\u2060c\ufe0fd\u3164")).toBe("a\\u00adb\\u2060c\\ufe0fd\\u3164");
    // A tag character is a surrogate pair: both halves shown.
    expect(printable("x\u{e0041}")).toBe("x\\udb40\\udc41");
    // Letters, and an emoji's surrogate pair, stay.
    expect(printable("日本😀")).toBe("日本😀");
  });

  it("printable keeps tabs and newlines; textLine shows them all; both are idempotent", () => {
    const text = `a\tb\nc\r${HOSTILE}\u0085\u061c\u200e\u200f\u2066\u2069\u007f`;
    expect(printable(text)).toContain("a\tb\nc\\u000d\\u001b[2K");
    expect(textLine(text)).toContain("a\tb\\u000ac\\u000d\\u001b[2K");
    for (const f of [printable, (s: string) => textLine(s)]) {
      expectNoRawUnsafe(f(text).replace(/\n/g, ""), "escaped");
      expect(f(f(text))).toBe(f(text));
    }
    // A backslash stays: a program that prints `\u001b` shows exactly that.
    expect(textLine("\\u001b")).toBe("\\u001b");
  });

  it("capped and cappedEnd: at most max characters with the notice, unchanged within it", () => {
    expect(capped("short", 100)).toBe("short");
    const cut = capped(LONG, 100);
    expect(cut).toMatch(/^L+… \(19\d\d\d more characters\)$/);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(capped(cut, 100)).toBe(cut);
    const end = cappedEnd(`${LONG}tail`, 100);
    expect(end).toMatch(/^\(19\d\d\d earlier characters\) …L+tail$/);
    expect(end.length).toBeLessThanOrEqual(100);
    // Neither a surrogate pair nor an escape is cut in half.
    expect(capped("😀".repeat(100), 50)).toMatch(/^(😀)+… /);
    expect(textLine("\u001b".repeat(100), 60)).toMatch(/^(\\u001b)+… /);
    expect(() => capped("x", 10)).toThrow(RangeError);
  });

  it("programLines: one gutter line per line, CRLF ends dropped, lone CR and U+2028 visible", () => {
    expect(programLines(`one\r\ntwo\rthree${LS}four\n\n`)).toEqual([
      `${GUTTER}one`,
      `${GUTTER}two\\u000dthree\\u2028four`,
    ]);
    expect(programLines("a\nb\nc", { last: 2, gutter: "> " })).toEqual(["> b", "> c"]);
    expect(programLines(" \n")).toEqual([]);
  });

  it("safeJson: the same value back, no raw C1, bidi or separator in the bytes", () => {
    const value = { [HOSTILE]: [HOSTILE, "\ud800 lone"], plain: "ok" };
    const bytes = safeJson(value);
    expectNoRawUnsafe(bytes, "safeJson");
    expect(JSON.parse(bytes)).toEqual(value);
  });

  it("XML, HTML, Markdown and CSV contexts", () => {
    expect(xmlData(`<a & "b">\r\u009b`)).toBe(`<a & "b">\\u000d\\u009b`);
    expect(xmlAttributeData(`"it's"\n\t`)).toBe(`"it's"\\u000a\\u0009`);
    expect(htmlText(`${SCRIPT}"'${RLO}`)).toBe(
      "&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;\\u202e",
    );
    expect(markdownInline(`${MARKDOWN}\n<b>*x*`)).toBe(
      "\\| \\](javascript:alert(1))\\\\u000a&lt;b&gt;\\*x\\*",
    );
    expect(csvText([[FORMULA, "+1", "-1", "@x", "\tx", "\rx", "ok", "a,b"]])).toBe(
      `'${FORMULA},'+1,'-1,'@x,'\tx,\\u000dx,ok,"a,b"\n`,
    );
  });
});
