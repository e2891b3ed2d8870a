/**
 * `--format junit`: JUnit XML, the test report GitLab (`artifacts: reports: junit`), Jenkins and
 * GitHub test-report actions read. The document is valid against both schemas those tools' files
 * are checked against (test/junit-xsd/, validated with xmllint in the tests): the Apache Ant JUnit
 * task's XSD as published by windyroad/JUnit-Schema (JUnit.xsd), and the Jenkins xunit plugin's
 * junit-10.xsd. Their intersection fixes the shape: a `<testsuites>` without attributes (Ant allows
 * none, junit-10 no `skipped`) holding one `<testsuite>` with `id`, `package`, `name`,
 * `timestamp`, `hostname` and the counts; then `<properties>`, one `<testcase>` per case (with a
 * `<failure>`, `<error>` or `<skipped>` child when it did not pass), and the `<system-out>` and
 * `<system-err>` Ant requires, in that order.
 *
 * `--format junit-files` is the same document with a `file` attribute on each built-in case's
 * `<testcase>`, for GitLab's "copy failed tests" and the GitHub JUnit actions' file links. Neither
 * XSD allows `file` on a test case, so it is opt-in.
 *
 * The document is built by fast-xml-builder, which writes `& < > " '` as entities everywhere
 * (so `"` in a failure's body reads `&quot;` in the file, the same text once parsed). It does not
 * check what XML 1.0 can hold, so every string goes through escape.ts's xmlData or
 * xmlAttributeData first. (xmlbuilder2 4.0.3, the other candidate, writes an `&` that starts an
 * entity-like name, `&foo;` or `&#27;`, as it is: a program's text could make the document
 * ill-formed or change what it reads as.)
 */
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, sep } from "node:path";
import type { XMLBuilderConstructor } from "fast-xml-builder";
import { passed, type CaseResult, type GradeResults, type NotGraded } from "../results.ts";
import { extensionPolicyName } from "../totals.ts";
import { textLine, xmlAttributeData, xmlData } from "./escape.ts";
import { detailLines, failureLine, notGradedLines } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * The suite's `hostname`, which Ant's XSD requires. Fixed rather than the grading machine's name:
 * the report then says nothing about where it was graded, and two gradings of the same results
 * differ only in their times. "localhost" is the value the XSD documents for a host not known.
 */
export const JUNIT_HOSTNAME = "localhost";

/** The testcase's classname: its group in GitLab's and GitHub's views. */
export function junitClassname(r: CaseResult): string {
  const folder = r.folder;
  const kind = r.required ? "required" : "extension";
  // Private cases are grouped under their folder.
  return folder === null ? `cases.${kind}` : `private.${folder}.${kind}`;
}

/**
 * The `file` of a case's testcase in `--format junit-files`: the case's case.json (where the case
 * is defined: title, hint, points) as a `/`-separated path relative to `base`, the folder the
 * grader was run from (a repository's root in CI). Undefined for private and generated cases: a
 * private case's folder is the instructor's, not in the repository the report is shown with, and a
 * generated case has no file.
 */
export function junitFile(r: CaseResult, base: string): string | undefined {
  if (r.caseFile === null) return undefined;
  return relative(base, r.caseFile).split(sep).join("/");
}

/** A JUnit element as fast-xml-builder takes it: `@_` attributes, `#text`, child elements. */
type XmlNode = { [key: string]: string | XmlNode | XmlNode[] };

/** Attributes, in the order given, each value made attribute data. */
function attributes(values: Record<string, string>): XmlNode {
  const node: XmlNode = {};
  for (const [name, value] of Object.entries(values)) node[`@_${name}`] = xmlAttributeData(value);
  return node;
}

function testcase(r: CaseResult, fileBase: string | undefined): XmlNode {
  const file = fileBase === undefined ? undefined : junitFile(r, fileBase);
  const node = attributes({
    classname: textLine(junitClassname(r)),
    name: textLine(r.id),
    time: seconds(r.durationMs),
    ...(file === undefined ? {} : { file: textLine(file) }),
  });
  if (passed(r)) return node;
  const message = failureLine(r);
  // A case that did not run (no build) is skipped: the one error is the submission's own testcase.
  if (r.status === "skipped" || r.explanation === null) {
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

/** What junitXml writes besides the results. */
export interface JunitOptions {
  /** The suite's `timestamp`: when the grading started (written in UTC, to the second). */
  timestamp: Date;
  /**
   * `--format junit-files`: add each built-in case's `file` (junitFile), relative to this folder.
   * Left out, the document is the default one, valid against both XSDs.
   */
  fileBase?: string;
}

/**
 * The whole JUnit XML document for a run, a pure function of `results` and `options`:
 * `<testsuites>` (no attributes) holding one
 * `<testsuite id="0" package name timestamp hostname tests failures errors skipped time>`, where
 * `name` and `package` are both `grade <submission>` (Ant's XSD derives the package from the
 * suite's name), `timestamp` is options.timestamp in UTC as `YYYY-MM-DDTHH:MM:SS` (the pattern
 * Ant's XSD requires: no zone, no fraction), `hostname` is JUNIT_HOSTNAME and times are seconds
 * with three decimals. The suite holds `<properties>` (kit version, case-set hash, scores, the
 * total under the extension policy and the policy's name), one
 * `<testcase classname name time>` per case in fixture order (after, for a submission no case of
 * which ran, its own testcase: notGradedTestcase, the one error, each case then `<skipped>`), then
 * an empty `<system-out/>` and
 * `<system-err/>` (required by Ant's XSD; GitLab reads them only inside a testcase).
 * `name` is the case id; `classname` is `cases.required`, `cases.extension`, or
 * `private.<folder>.required|extension`, so classname + name is unique. A case with status `fail`
 * holds `<failure message type="<reason>">`, `error` and `timeout` hold `<error ...>`, `skipped`
 * holds `<skipped message/>`; the failure's body repeats the message with the text report's
 * details (input in brief, expected against actual, hint, lesson section, rerun command). With
 * options.fileBase, a built-in case's testcase also has `file` (junitFile). Every string is made
 * XML data (escape.ts xmlData, xmlAttributeData) and escaped by the builder; text that may quote
 * a program (the submission's name, messages, details) goes through textLine first, so its
 * control, bidi and line-separator characters show as `\uXXXX` instead of being dropped;
 * characters XML 1.0 forbids in the kit's own text are dropped, and a tab in an attribute shows
 * as `\u0009` (a reader would read a space).
 */
/**
 * The testcase of a submission no case of which ran (results.ts NotGraded): classname
 * `submission`, name the reason (`build-error`, ...), holding an `<error>` whose message is
 * lines.ts NOT_GRADED_HEADINGS' line and whose body is the build's errors.
 */
function notGradedTestcase(notGraded: NotGraded): XmlNode {
  const [heading = "", ...errors] = notGradedLines(notGraded, false);
  return {
    ...attributes({ classname: "submission", name: notGraded.reason, time: seconds(0) }),
    error: {
      ...attributes({ message: heading, type: notGraded.reason }),
      "#text": xmlData([heading, ...errors].join("\n")),
    },
  };
}

export function junitXml(results: GradeResults, options: JunitOptions): string {
  const cases = results.cases;
  const testcases = [
    ...(results.notGraded === null ? [] : [notGradedTestcase(results.notGraded)]),
    ...cases.map((r) => testcase(r, options.fileBase)),
  ];
  const count = (child: string) => String(testcases.filter((t) => child in t).length);
  const name = `grade ${textLine(results.submission)}`;
  const properties: [string, string][] = [
    ["kit.version", results.kit.version],
    ["kit.fixtures", results.kit.fixtures],
    ["score", `${results.score}/${results.maxScore}`],
    ["extensionScore", `${results.extensionScore}/${results.extensionMaxScore}`],
    ["total", `${results.total.points}/${results.total.maxPoints}`],
    ["extensionPolicy", extensionPolicyName(results.extension)],
  ];
  const suite: XmlNode = {
    ...attributes({
      id: "0",
      package: name,
      name,
      timestamp: options.timestamp.toISOString().slice(0, "YYYY-MM-DDTHH:MM:SS".length),
      hostname: JUNIT_HOSTNAME,
      tests: String(testcases.length),
      failures: count("failure"),
      errors: count("error"),
      skipped: count("skipped"),
      time: seconds(results.durationMs),
    }),
    properties: { property: properties.map(([key, value]) => attributes({ name: key, value })) },
    testcase: testcases,
    // Empty: written as `<system-out/>` (suppressEmptyNode).
    "system-out": "",
    "system-err": "",
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
    testsuites: { testsuite: suite },
  });
  return xml.endsWith("\n") ? xml : `${xml}\n`;
}

/**
 * Writes the JUnit XML document once, at the end of the run, stamped with the time the run
 * started. `fileBase` (the folder the grader was run from) makes it `--format junit-files`; its
 * real path is taken, as the cases' folders are real paths (the kit's, from its module's URL), so
 * a checkout reached through a symbolic link still gets paths from its root.
 */
export function junitReporter(sink: Sink, fileBase?: string): Reporter {
  if (fileBase !== undefined && existsSync(fileBase)) fileBase = realpathSync(fileBase);
  let started = new Date();
  return {
    onRunStart() {
      started = new Date();
    },
    onRunEnd(results) {
      sink.write(junitXml(results, { timestamp: started, fileBase }));
    },
  };
}
