/**
 * `--format junit`: JUnit XML, the test report GitLab (`artifacts: reports: junit`), Jenkins and
 * GitHub test-report actions read. The shape is the one those tools share (the Ant JUnit task's
 * output, as documented by GitLab's "Unit test reports" and the JUnit 4 XSD of
 * windyroad/JUnit-Schema): one `<testsuites>`, one `<testsuite>` for the run, one `<testcase>` per
 * case, with a `<failure>`, `<error>` or `<skipped>` child when it did not pass.
 *
 * The document is built by fast-xml-builder, which writes `& < > " '` as entities everywhere
 * (so `"` in a failure's body reads `&quot;` in the file, the same text once parsed). It does not
 * check what XML 1.0 can hold, so every string goes through escape.ts's xmlData or
 * xmlAttributeData first. (xmlbuilder2 4.0.3, the other candidate, writes an `&` that starts an
 * entity-like name, `&foo;` or `&#27;`, as it is: a program's text could make the document
 * ill-formed or change what it reads as.)
 */
import { createRequire } from "node:module";
import type { XMLBuilderConstructor } from "fast-xml-builder";
import { caseFolder } from "../cases/load.ts";
import { passed, type CaseResult, type GradeResults } from "../results.ts";
import { textLine, xmlAttributeData, xmlData } from "./escape.ts";
import { detailLines, failureLine } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The testcase's classname: its group in GitLab's and GitHub's views. */
export function junitClassname(r: CaseResult): string {
  const folder = caseFolder(r.case);
  const kind = r.required ? "required" : "extension";
  // Private cases are grouped under their folder.
  return folder === null ? `cases.${kind}` : `private.${folder}.${kind}`;
}

/** A JUnit element as fast-xml-builder takes it: `@_` attributes, `#text`, child elements. */
type XmlNode = { [key: string]: string | XmlNode | XmlNode[] };

/** Attributes, in the order given, each value made attribute data. */
function attributes(values: Record<string, string>): XmlNode {
  const node: XmlNode = {};
  for (const [name, value] of Object.entries(values)) node[`@_${name}`] = xmlAttributeData(value);
  return node;
}

function testcase(r: CaseResult): XmlNode {
  const node = attributes({
    classname: textLine(junitClassname(r)),
    name: textLine(r.id),
    time: seconds(r.durationMs),
  });
  if (passed(r)) return node;
  const message = failureLine(r);
  if (r.status === "skipped") {
    node.skipped = attributes({ message });
    return node;
  }
  // The title is the kit's or instructor's; the message and details are escaped text lines.
  const body = [r.title, message, ...detailLines(r, { colour: false, rerun: true })].join("\n");
  node[r.status === "fail" ? "failure" : "error"] = {
    ...attributes({ message, type: r.reason ?? r.status }),
    "#text": xmlData(body),
  };
  return node;
}

/** fast-xml-builder, loaded on the first JUnit report (not at every grader start). */
let builder: XMLBuilderConstructor | undefined;
function xmlBuilder(): XMLBuilderConstructor {
  builder ??= (
    createRequire(import.meta.url)("fast-xml-builder") as { default: XMLBuilderConstructor }
  ).default;
  return builder;
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
 * brief, expected against actual, hint, lesson section, rerun command). Every string is made
 * XML data (escape.ts xmlData, xmlAttributeData) and escaped by the builder; text that may quote
 * a program (the submission's name, messages, details) goes through textLine first, so its
 * control, bidi and line-separator characters show as `\uXXXX` instead of being dropped;
 * characters XML 1.0 forbids in the kit's own text are dropped, and a tab in an attribute shows
 * as `\u0009` (a reader would read a space).
 */
export function junitXml(results: GradeResults, timestamp: Date = new Date()): string {
  const cases = results.cases;
  const counts = {
    tests: String(cases.length),
    failures: String(cases.filter((r) => r.status === "fail").length),
    errors: String(cases.filter((r) => r.status === "error" || r.status === "timeout").length),
    skipped: String(cases.filter((r) => r.status === "skipped").length),
    time: seconds(results.durationMs),
  };
  const name = `grade ${textLine(results.submission)}`;
  const properties: [string, string][] = [
    ["kit.version", results.kit.version],
    ["kit.fixtures", results.kit.fixtures],
    ["score", `${results.score}/${results.maxScore}`],
    ["extensionScore", `${results.extensionScore}/${results.extensionMaxScore}`],
  ];
  const suite: XmlNode = {
    ...attributes({ name, ...counts, timestamp: timestamp.toISOString().replace(/\.\d+Z$/, "") }),
    properties: { property: properties.map(([key, value]) => attributes({ name: key, value })) },
    testcase: cases.map(testcase),
  };
  const Builder = xmlBuilder();
  const xml = new Builder({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    format: true,
    indentBy: "  ",
    // `<testcase .../>` for a pass; and an attribute whose value is "true" (a case id) keeps it.
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
    processEntities: true,
  }).build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    testsuites: { ...attributes({ name, ...counts }), testsuite: suite },
  });
  return xml.endsWith("\n") ? xml : `${xml}\n`;
}

/** Writes the JUnit XML document once, at the end of the run. */
export function junitReporter(sink: Sink): Reporter {
  return {
    onRunEnd(results) {
      sink.write(junitXml(results));
    },
  };
}
