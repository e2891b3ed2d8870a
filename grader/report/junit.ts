/**
 * `--format junit`: JUnit XML, the test report GitLab (`artifacts: reports: junit`), Jenkins and
 * GitHub test-report actions read. The shape is the one those tools share (the Ant JUnit task's
 * output, as documented by GitLab's "Unit test reports" and the JUnit 4 XSD of
 * windyroad/JUnit-Schema): one `<testsuites>`, one `<testsuite>` for the run, one `<testcase>` per
 * case, with a `<failure>`, `<error>` or `<skipped>` child when it did not pass.
 */
import type { CaseResult, GradeResults } from "../grade.ts";
import { failureLine } from "./gradescope.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { failureDetails } from "./text.ts";

/**
 * Strips what XML 1.0 cannot hold at all: control characters other than tab, newline and carriage
 * return, U+FFFE and U+FFFF, and lone surrogates (a surrogate pair, an astral character, stays).
 */
export function xmlSafe(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.slice(i, i + 2);
        i++;
      }
      continue;
    }
    const legal = c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c < 0xdc00) || c > 0xdfff;
    if (legal && c !== 0xfffe && c !== 0xffff) out += text[i];
  }
  return out;
}

/** Text content: the XML 1.0-safe text with `&`, `<` and `>` escaped. */
export function xmlText(text: string): string {
  return xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * An attribute value for `name="..."`: escaped as text, plus quotes, and tab, newline and
 * carriage return as character references (a parser would otherwise normalise them to spaces).
 */
export function xmlAttr(text: string): string {
  return xmlText(text)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The testcase's classname: its group in GitLab's and GitHub's views. */
export function junitClassname(r: CaseResult): string {
  const slash = r.id.indexOf("/");
  const kind = r.required ? "required" : "extension";
  // Private cases ("<folder>/<case>") are grouped under their folder.
  return slash === -1 ? `cases.${kind}` : `private.${r.id.slice(0, slash)}.${kind}`;
}

function testcase(r: CaseResult): string {
  const open = `    <testcase classname="${xmlAttr(junitClassname(r))}" name="${xmlAttr(r.id)}" time="${seconds(r.durationMs)}"`;
  if (r.status === "pass") return `${open}/>`;
  const message = failureLine(r);
  const body = [r.title, message, ...failureDetails(r, false)].join("\n");
  const attrs = `message="${xmlAttr(message)}" type="${xmlAttr(r.reason ?? r.status)}"`;
  const tag = r.status === "fail" ? "failure" : "error";
  const child =
    r.status === "skipped"
      ? `<skipped message="${xmlAttr(message)}"/>`
      : `<${tag} ${attrs}>${xmlText(body)}</${tag}>`;
  return `${open}>\n      ${child}\n    </testcase>`;
}

/**
 * The whole JUnit XML document for a run:
 * `<testsuites name tests failures errors skipped time>` holding one
 * `<testsuite name="grade <submission>" tests failures errors skipped time timestamp>` with
 * `<properties>` (kit version, case-set hash, scores) and one
 * `<testcase classname name time>` per case, in fixture order. `name` is the case id;
 * `classname` is `cases.required`, `cases.extension`, or `private.<folder>.required|extension`,
 * so classname + name is unique. A case with status `fail` holds
 * `<failure message type="<reason>">`, `error` and `timeout` hold `<error ...>`, `skipped` holds
 * `<skipped/>`; the failure's body repeats the message with the text report's details (input in
 * brief, expected against actual, hint, lesson section, rerun command). Every string is
 * XML-escaped and stripped of characters XML 1.0 forbids.
 */
export function junitXml(results: GradeResults, timestamp: Date = new Date()): string {
  const cases = results.cases;
  const failures = cases.filter((r) => r.status === "fail").length;
  const errors = cases.filter((r) => r.status === "error" || r.status === "timeout").length;
  const skipped = cases.filter((r) => r.status === "skipped").length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(results.durationMs)}"`;
  const properties: [string, string][] = [
    ["kit.version", results.kit.version],
    ["kit.fixtures", results.kit.fixtures],
    ["score", `${results.score}/${results.maxScore}`],
    ["extensionScore", `${results.extensionScore}/${results.extensionMaxScore}`],
  ];
  const suiteName = `grade ${results.submission}`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlAttr(suiteName)}" ${counts}>`,
    `  <testsuite name="${xmlAttr(suiteName)}" ${counts} timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, "")}">`,
    `    <properties>`,
    ...properties.map(
      ([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`,
    ),
    `    </properties>`,
    ...cases.map(testcase),
    `  </testsuite>`,
    `</testsuites>`,
    ``,
  ].join("\n");
}

/** Writes the JUnit XML document once, at the end of the run. */
export function junitReporter(sink: Sink): Reporter {
  return {
    onRunEnd(results) {
      sink.write(junitXml(results));
    },
  };
}
