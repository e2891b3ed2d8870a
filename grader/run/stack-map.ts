/**
 * Crash stacks in the student's own terms. A program runs as one bundle (at
 * /dev/shm/program/main.mjs in the sandbox), so Node's stack frames name the bundle's lines; the
 * grader maps them back through the bundle's source map (build.ts) to `src/<file>.ts:LINE:COL`,
 * after the run, with Node's own SourceMap class (the program is never run with
 * --enable-source-maps, which would cost every case a map parse). Whatever names the bundle and
 * cannot be mapped is named `<bundle>`: no temporary path reaches a report.
 */
import { SourceMap, type SourceMapPayload } from "node:module";
import { pathToFileURL } from "node:url";
import { bundleLocationPattern, LOCATION_COLUMN } from "../patterns.ts";

/** What stands for the bundle where no source line is known. */
export const BUNDLE_NAME = "<bundle>";

/** What the mapper needs to know about one build. */
export interface StackMapInput {
  /** The bundle's source map, `sources` already relative to the submission (`src/main.ts`). */
  map: SourceMapPayload;
  /** The bundle's text, to find where a line's code starts when a frame gives no column. */
  bundleText: string;
  /** Every path the bundle ran at: in the sandbox (/dev/shm/program/main.mjs) and on disk. */
  bundlePaths: readonly string[];
}

/**
 * A function that rewrites a program's standard error: every `file:///dev/shm/program/main.mjs:L:C`
 * or `/dev/shm/program/main.mjs:L:C` (also with the line alone, as Node's first crash line has it)
 * becomes `src/<file>.ts:L:C` (1-based, as Node prints them), or `<bundle>:L:C` when the map has
 * no source for it.
 *
 * @throws Error when the map is not a source map Node can read
 */
export function stackMapper(input: StackMapInput): (text: string) => string {
  const map = new SourceMap(input.map);
  const lines = input.bundleText.split("\n");
  const names = input.bundlePaths.flatMap((p) => [pathToFileURL(p).href, p]);
  if (names.length === 0) return (text) => text;
  const pattern = bundleLocationPattern(names);

  const origin = (line: number, column: number): string | undefined => {
    const entry = map.findEntry(line - 1, column - 1) as Partial<{
      generatedLine: number;
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    if (
      entry.originalSource === undefined ||
      entry.originalLine === undefined ||
      entry.originalColumn === undefined ||
      // The closest mapping before a position can lie on an earlier line: not this code.
      entry.generatedLine !== line - 1 ||
      !entry.originalSource.startsWith("src/")
    ) {
      return undefined;
    }
    return `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  };

  // Where each line's code starts, found once per line: a frame may name a line thousands of
  // times, and the line (the program's own text) may be long.
  const starts = new Map<number, number>();
  const codeStart = (line: number): number => {
    let start = starts.get(line);
    if (start === undefined) {
      const code = lines[line - 1] ?? "";
      start = code.length - code.trimStart().length + 1;
      starts.set(line, start);
    }
    return start;
  };

  return (text) =>
    text.replace(pattern, (_match, lineText?: string, columnText?: string) => {
      if (lineText === undefined) return BUNDLE_NAME;
      const line = Number(lineText);
      if (columnText !== undefined) {
        return origin(line, Number(columnText)) ?? `${BUNDLE_NAME}:${line}:${columnText}`;
      }
      // A line alone: map where that line's code starts.
      const mapped = origin(line, codeStart(line));
      return mapped === undefined ? `${BUNDLE_NAME}:${line}` : mapped.replace(LOCATION_COLUMN, "");
    });
}
