// Reading the report formats as their readers do: the published JSON schemas (ajv), JUnit XML (an
// XML parser), GitHub workflow commands (as the runner reads them) and CSV (RFC 4180). Shared by
// the end-to-end format tests and the in-process escaping tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";
import { ROOT } from "./program.ts";

/** A schema of grader/schemas/ (or the results schema, `../results.schema.json`), compiled. */
export function formatSchema(name: string): ValidateFunction {
  return new Ajv({ allErrors: true, strict: true }).compile(
    JSON.parse(readFileSync(join(ROOT, "grader", "schemas", name), "utf8")) as object,
  );
}

export const validateGradescope = formatSchema("gradescope-results.schema.json");
export const validateExercism = formatSchema("exercism-results.schema.json");

/** Asserts that `doc` matches gradescope-results.schema.json. */
export function expectGradescope(doc: unknown): void {
  validateGradescope(doc);
  expect(validateGradescope.errors ?? [], "matches gradescope-results.schema.json").toEqual([]);
}

/** Asserts that `doc` matches exercism-results.schema.json. */
export function expectExercism(doc: unknown): void {
  validateExercism(doc);
  expect(validateExercism.errors ?? [], "matches exercism-results.schema.json").toEqual([]);
}

// ---- JUnit, as a reader sees it ----

export interface JunitFailure {
  message: string;
  type: string;
  "#text"?: string;
}
export interface JunitCase {
  classname: string;
  name: string;
  time: string;
  /** --format junit-files only. */
  file?: string;
  failure?: JunitFailure;
  error?: JunitFailure;
  skipped?: { message: string };
}
export interface JunitSuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  testcase: JunitCase[];
}
export interface Junit {
  testsuites: JunitSuite & { testsuite: JunitSuite[] };
}

/** Asserts that `xml` is well-formed and parses it (attributes without prefix, text untrimmed). */
export function parseJunit(xml: string): Junit {
  expect(XMLValidator.validate(xml)).toBe(true);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testsuite" || name === "testcase",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    htmlEntities: true,
  }).parse(xml) as Junit;
}

// ---- GitHub workflow commands, as the runner reads them ----

export interface Annotation {
  kind: string;
  title: string;
  message: string;
  raw: string;
}

const unescapeData = (s: string) =>
  s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
const unescapeProperty = (s: string) => unescapeData(s.replace(/%3A/g, ":").replace(/%2C/g, ","));

/**
 * The annotations on standard output, skipping what `::stop-commands::` fences off; asserts that
 * every `::stop-commands::` is resumed.
 */
export function parseAnnotations(stdout: string): Annotation[] {
  const found: Annotation[] = [];
  let stopToken: string | null = null;
  for (const line of stdout.split("\n")) {
    if (stopToken !== null) {
      if (line === `::${stopToken}::`) stopToken = null;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop?.[1] !== undefined) {
      stopToken = stop[1];
      continue;
    }
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (m === null) continue;
    const props = new Map(
      (m[2] ?? "")
        .split(",")
        .filter((p) => p !== "")
        .map((p) => {
          const eq = p.indexOf("=");
          return [p.slice(0, eq), unescapeProperty(p.slice(eq + 1))] as const;
        }),
    );
    found.push({
      kind: m[1] ?? "",
      title: props.get("title") ?? "",
      message: unescapeData(m[3] ?? ""),
      raw: line,
    });
  }
  expect(stopToken, "every ::stop-commands:: is resumed").toBeNull();
  return found;
}

// ---- CSV ----

/** A minimal RFC 4180 reader (quoted fields, doubled quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
