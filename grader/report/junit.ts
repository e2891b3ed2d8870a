/**
 * `--format junit`: JUnit XML, the test report GitLab (`artifacts: reports: junit`), Jenkins and
 * GitHub test-report actions read. The shape is the one those tools share (the Ant JUnit task's
 * output, as documented by GitLab's "Unit test reports" and the JUnit 4 XSD of
 * windyroad/JUnit-Schema): one `<testsuites>`, one `<testsuite>` for the run, one `<testcase>` per
 * case, with a `<failure>`, `<error>` or `<skipped>` child when it did not pass.
 */
import { privateFolder } from "../cases/load.ts";
import { passed, type CaseResult, type GradeResults } from "../results.ts";
import { textLine, xmlAttr, xmlText } from "./escape.ts";
import { detailLines, failureLine } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";

/** Re-exported for the tests and tools that took them from here; escape.ts defines them. */
export { xmlAttr, xmlSafe, xmlText } from "./escape.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The testcase's classname: its group in GitLab's and GitHub's views. */
export function junitClassname(r: CaseResult): string {
  const folder = privateFolder(r.case);
  const kind = r.required ? "required" : "extension";
  // Private cases are grouped under their folder.
  return folder === null ? `cases.${kind}` : `private.${folder}.${kind}`;
}

function testcase(r: CaseResult): string {
  const open = `    <testcase classname="${xmlAttr(textLine(junitClassname(r)))}" name="${xmlAttr(textLine(r.id))}" time="${seconds(r.durationMs)}"`;
  if (passed(r)) return `${open}/>`;
  const message = failureLine(r);
  // The title is the kit's or instructor's; the message and details are escaped text lines.
  const body = [r.title, message, ...detailLines(r, { colour: false, rerun: true })].join("\n");
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
 * XML-escaped (escape.ts xmlText, xmlAttr); text that may quote a program (the submission's name,
 * messages, details) goes through textLine first, so its control, bidi and line-separator
 * characters show as `\uXXXX` instead of being dropped; characters XML 1.0 forbids in the kit's
 * own text are dropped.
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
  const suiteName = `grade ${textLine(results.submission)}`;
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
