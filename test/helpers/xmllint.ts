// JUnit XML checked against the two schemas its readers' files are held to, by libxml2's xmllint
// compiled to WebAssembly (the npm package xmllint-wasm; it runs in a worker thread of this
// process, so no system package is needed): Apache Ant's JUnit XSD (windyroad/JUnit-Schema) and
// the Jenkins xunit plugin's junit-10.xsd, both kept in test/junit-xsd/ (its README says where from).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { memoryPages, validateXML } from "xmllint-wasm";
import { ROOT } from "./program.ts";

/** The schemas, by the name the failures give. */
export const JUNIT_XSDS = {
  "Ant JUnit.xsd": join(ROOT, "test", "junit-xsd", "JUnit.xsd"),
  "Jenkins junit-10.xsd": join(ROOT, "test", "junit-xsd", "junit-10.xsd"),
} as const;

export type JunitXsd = keyof typeof JUNIT_XSDS;

/**
 * What xmllint says against each schema about each document: for every schema, the labels of the
 * documents it rejects with xmllint's messages (file names replaced by `[label]`); an empty list
 * when every document is valid. All documents go to one xmllint run per schema, the two schemas'
 * runs side by side.
 *
 * @param documents label to XML text (written to xmllint's in-memory file system as UTF-8)
 * @throws Error when xmllint fails without judging (an unreadable schema, say), with its output
 */
export async function xsdProblems(
  documents: ReadonlyMap<string, string>,
): Promise<Map<JunitXsd, string[]>> {
  const files = [...documents].map(([label, xml], i) => ({
    label,
    fileName: `document-${i}.xml`,
    contents: Buffer.from(xml, "utf8"),
  }));
  const runs = (Object.entries(JUNIT_XSDS) as [JunitXsd, string][]).map(async ([name, xsd]) => {
    // Invalid documents are a result (xmllint's exit codes 3 and 4); any other exit rejects.
    const result = await validateXML({
      xml: files.map(({ fileName, contents }) => ({ fileName, contents })),
      schema: { fileName: xsd.split("/").pop() ?? xsd, contents: readFileSync(xsd) },
      // A hostile grading's reports together run to megabytes; libxml2 holds them all at once.
      maxMemoryPages: 512 * memoryPages.MiB,
    }).catch((error: unknown) => {
      throw new Error(`xmllint --schema ${xsd} failed without judging: ${String(error)}`);
    });
    let text = result.rawOutput;
    for (const { label, fileName } of files) text = text.split(fileName).join(`[${label}]`);
    const problems = text
      .split("\n")
      .filter((line) => line !== "" && !/^\[.*\] validates$/.test(line));
    return [name, problems] as const;
  });
  return new Map(await Promise.all(runs));
}

/** Asserts that every document is valid against both XSDs, failing with xmllint's messages. */
export async function expectValidJunit(documents: ReadonlyMap<string, string>): Promise<void> {
  for (const [xsd, problems] of await xsdProblems(documents)) expect(problems, xsd).toEqual([]);
}
