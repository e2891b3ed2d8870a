// JUnit XML checked against the two schemas its readers' files are held to, by xmllint (Debian's
// libxml2-utils, which .ci/run installs): Apache Ant's JUnit XSD (windyroad/JUnit-Schema) and the
// Jenkins xunit plugin's junit-10.xsd, both kept in test/junit-xsd/ (its README says where from).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "./program.ts";

/** The schemas, by the name the failures give. */
export const JUNIT_XSDS = {
  "Ant JUnit.xsd": join(ROOT, "test", "junit-xsd", "JUnit.xsd"),
  "Jenkins junit-10.xsd": join(ROOT, "test", "junit-xsd", "junit-10.xsd"),
} as const;

export type JunitXsd = keyof typeof JUNIT_XSDS;

const INSTALL =
  "xmllint is missing: install Debian's libxml2-utils (apt-get install libxml2-utils; .ci/run does)";

/** True when xmllint runs here. */
export function haveXmllint(): boolean {
  return spawnSync("xmllint", ["--version"]).status === 0;
}

/**
 * What xmllint says against each schema about each document: for every schema, the labels of the
 * documents it rejects with xmllint's messages (file names replaced by the labels); an empty list
 * when every document is valid. All documents go to one xmllint run per schema.
 *
 * @param documents label to XML text
 * @throws Error when xmllint is missing (with the package to install), or fails without judging
 */
export function xsdProblems(documents: ReadonlyMap<string, string>): Map<JunitXsd, string[]> {
  if (!haveXmllint()) throw new Error(INSTALL);
  const dir = mkdtempSync(join(tmpdir(), "kit-xmllint-"));
  try {
    const files = [...documents].map(([label, xml], i) => {
      const file = join(dir, `${i}.xml`);
      writeFileSync(file, xml);
      return { label, file };
    });
    const problems = new Map<JunitXsd, string[]>();
    for (const [name, xsd] of Object.entries(JUNIT_XSDS) as [JunitXsd, string][]) {
      const run = spawnSync("xmllint", ["--noout", "--schema", xsd, ...files.map((f) => f.file)], {
        encoding: "utf8",
      });
      // 0: every file valid; 3: some file invalid (xmllint's exit codes). Anything else is xmllint
      // failing to judge (an unreadable schema, say), not a verdict on the documents.
      if (run.status !== 0 && run.status !== 3)
        throw new Error(`xmllint --schema ${xsd} exited ${run.status}: ${run.stderr}`);
      let text = run.stderr;
      for (const { label, file } of files) text = text.split(file).join(`[${label}]`);
      problems.set(
        name,
        text.split("\n").filter((line) => line !== "" && !/^\[.*\] validates$/.test(line)),
      );
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Asserts that every document is valid against both XSDs, failing with xmllint's messages (and
 * with the package to install when xmllint is missing).
 */
export function expectValidJunit(documents: ReadonlyMap<string, string>): void {
  expect(haveXmllint(), INSTALL).toBe(true);
  for (const [xsd, problems] of xsdProblems(documents)) expect(problems, xsd).toEqual([]);
}
