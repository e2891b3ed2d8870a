// The escaping the platform reports rely on, in process: GitHub workflow commands (checked
// against @actions/core's own issueCommand), XML data and attributes, and a JUnit document whose
// text looks like entities or markup, read back exactly and valid against both XSDs.
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { escapeData, escapeProperty, workflowCommand } from "../../grader/report/actions.ts";
import { textLine, xmlAttributeData, xmlData, xmlSafe } from "../../grader/report/escape.ts";
import { junitXml } from "../../grader/report/junit.ts";
import { ROOT } from "../helpers/program.ts";
import { parseJunit, type JunitSuite } from "../helpers/readers.ts";
import { gradeResults, judgedResult, rawRun } from "../helpers/results.ts";
import { expectValidJunit } from "../helpers/xmllint.ts";

/** @actions/core's issueCommand: not exported by the package, so loaded by its file's path. */
type IssueCommand = (command: string, properties: Record<string, string>, message: string) => void;

/** The line GitHub's own toolkit writes for a workflow command (its end of line left off). */
async function toolkitCommand(
  command: string,
  properties: Record<string, string>,
  message: string,
): Promise<string> {
  const file = join(ROOT, "node_modules", "@actions", "core", "lib", "command.js");
  const { issueCommand } = (await import(file)) as { issueCommand: IssueCommand };
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    issueCommand(command, properties, message);
  } finally {
    spy.mockRestore();
  }
  return written.join("").replace(/\r?\n$/, "");
}

describe("escaping helpers", () => {
  it("workflow commands: %, CR and LF in data; also : and , in properties", () => {
    expect(escapeData("50% a:b, c\r\nd")).toBe("50%25 a:b, c%0D%0Ad");
    expect(escapeProperty("50% a:b, c\nd")).toBe("50%25 a%3Ab%2C c%0Ad");
    expect(workflowCommand("error", { title: "t:1,2" }, "m%\n")).toBe(
      "::error title=t%3A1%2C2::m%25%0A",
    );
  });

  it("workflow commands: the same line as @actions/core writes (github.ts keeps its own copy)", async () => {
    // @actions/core keeps escapeData/escapeProperty internal; its issueCommand is the oracle.
    // Property values are non-empty: the toolkit leaves out an empty one.
    const text = fc.string({ unit: "binary", maxLength: 40 });
    const samples = fc.sample(
      fc.tuple(
        text.filter((t) => t !== ""),
        text.filter((t) => t !== ""),
        text,
      ),
      { numRuns: 300, seed: 14 },
    );
    samples.push(["t:1,2%\r\n", "src/main.ts", "::error::%0A% \r\n::"]);
    for (const [title, file, message] of samples) {
      for (const properties of [{ title }, { title, file }, {}] as Record<string, string>[]) {
        expect(workflowCommand("error", properties, message)).toBe(
          await toolkitCommand("error", properties, message),
        );
      }
    }
  });

  it("XML: illegal characters stripped, astral characters and tab/newline/CR kept", () => {
    expect(xmlSafe("a\u0000b\u001bc\u000bd\ufffee\tf\ng\rh")).toBe("abcde\tf\ng\rh");
    expect(xmlSafe("x\ud800y\udc00z😀")).toBe("xyz😀");
    // The builder writes the entities; the data layer only strips and shows.
    expect(xmlData(`<a & "b">\t\r`)).toBe(`<a & "b">\t\\u000d`);
    expect(xmlAttributeData(`"it's"\n\t`)).toBe(`"it's"\\u000a\\u0009`);
  });

  it("JUnit: text that looks like entities or markup reads back exactly as it was", async () => {
    const tricky = `a &bogus; &lt; &#27; &amp; ]]> <x/> "q" 'a'\ttab`;
    const graded = judgedResult("03-per-topic-skew", rawRun({ stdout: tricky }), tricky);
    const r = { ...graded, title: tricky };
    const xml = junitXml(gradeResults(tricky, [r]), { timestamp: new Date(0) });
    expect(xml).not.toContain("&bogus;");
    expect(xml).not.toContain("&#27;");
    const suite = parseJunit(xml).testsuites.testsuite[0] as JunitSuite;
    expect(suite.name).toBe(`grade ${tricky.replace("\t", "\\u0009")}`);
    const failure = suite.testcase[0]?.failure;
    expect((failure?.["#text"] ?? "").split("\n")[0]).toBe(tricky);
    expect(failure?.message).toBe(textLine(`${r.reason}: ${r.message}`).replace(/\t/g, "\\u0009"));
    await expectValidJunit(new Map([["entity-like text", xml]]));
  });
});
