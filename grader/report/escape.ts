/**
 * Escaping for everything a report writes. What a submitted program prints is hostile: its
 * output, standard error, JSON keys (member and topic names), the messages the grader composes
 * around them (JSON.parse's error quoting the output, schema paths naming keys), its folder name.
 * Raw, such text can move a terminal's cursor and print a fake `✓ ... 2/2` over the real result,
 * reorder a line with bidirectional controls, inject a spreadsheet formula, HTML or Markdown.
 *
 * Results data (CaseResult messages, stderr, the results JSON's parsed strings) stay exactly what
 * the program printed; escaping happens where text is written, and covers the whole string, so
 * it does not matter where a piece of it came from. Two layers:
 *
 * - text: every string that reaches a reader as text goes through `textLine` (one line: line
 *   breaks visible too, length capped), `printable` (several lines of the kit's own text) or
 *   `programLines` (several lines a program printed, each behind a `| ` gutter so none can pass
 *   for a grader line). The shared text renderers of report/lines.ts do this before colouring.
 * - container: each file format escapes for its own syntax where it is written: `safeJson`,
 *   `xmlData`/`xmlAttributeData` (before fast-xml-builder writes the entities), `htmlText`,
 *   `markdownInline`, `csvText`.
 *
 * Unsafe characters are written as `\uXXXX` (printable.ts says which, and why a backslash stays
 * as it is); `textLine` also makes newline visible. The text layer is idempotent: text escaped
 * twice (by a shared renderer, then again where a format writes it) reads the same as escaped
 * once. The container escapes (entities, Markdown backslashes) are applied once, where the file
 * is written.
 */
import { createRequire } from "node:module";
import type * as CsvStringify from "csv-stringify/sync";
import { escapeChar, printable, programTextLines } from "../printable.ts";
import {
  HTML_SPECIAL,
  MARKDOWN_SPECIAL,
  PARTIAL_ESCAPE,
  TAB_OR_NEWLINE,
  UNSAFE_IN_JSON,
  UNSAFE_IN_LINE,
} from "../patterns.ts";

// The character layer every format starts from, defined once in printable.ts.
export { escapeChar, printable };

/** The most characters one line of a report shows of a string before the rest is cut. */
export const LINE_MAX_CHARS = 1000;

/** Marks each line a program printed, so that none of them can pass for a grader line. */
export const GUTTER = "| ";

/** The length of a cut that keeps `keep` characters, not splitting a pair or a `\uXXXX`. */
function cutPoint(text: string, keep: number, fromEnd: boolean): number {
  let at = fromEnd ? text.length - keep : keep;
  const code = text.charCodeAt(at - 1);
  // A surrogate pair (an emoji) is kept or cut whole.
  if (code >= 0xd800 && code <= 0xdbff) at += fromEnd ? 1 : -1;
  if (!fromEnd) {
    // A `\uXXXX` escape cut in the middle would read as other text: cut before it instead.
    const partial = PARTIAL_ESCAPE.exec(text.slice(Math.max(0, at - 5), at));
    if (partial !== null) at -= partial[0].length;
  }
  return at;
}

/**
 * `text` cut to at most `max` characters, the notice included: the start, then
 * `… (N more characters)`. Text within the limit is returned unchanged, so capping twice with
 * the same limit changes nothing.
 *
 * @throws RangeError when `max` is under 40 (no room for the notice)
 */
export function capped(text: string, max: number): string {
  if (max < 40) throw new RangeError(`capped: max ${max} leaves no room for the notice`);
  if (text.length <= max) return text;
  let keep = max;
  for (;;) {
    const at = cutPoint(text, keep, false);
    const notice = `… (${text.length - at} more characters)`;
    if (at + notice.length <= max) return `${text.slice(0, at)}${notice}`;
    keep = max - notice.length;
  }
}

/**
 * `text` cut to at most `max` characters, the notice included, keeping its end:
 * `(N earlier characters) …` then the end. For the end of a program's standard error.
 *
 * @throws RangeError when `max` is under 40 (no room for the notice)
 */
export function cappedEnd(text: string, max: number): string {
  if (max < 40) throw new RangeError(`cappedEnd: max ${max} leaves no room for the notice`);
  if (text.length <= max) return text;
  let keep = max;
  for (;;) {
    const at = cutPoint(text, keep, true);
    const notice = `(${at} earlier characters) …`;
    if (text.length - at + notice.length <= max) return `${notice}${text.slice(at)}`;
    keep = max - notice.length;
  }
}

/**
 * One line of a report that holds (or may hold) a program's text: every unsafe character,
 * newline and carriage return included, written as `\uXXXX`, then capped at `max` characters
 * with a visible `… (N more characters)`.
 */
export function textLine(text: string, max: number = LINE_MAX_CHARS): string {
  return capped(text.replace(UNSAFE_IN_LINE, escapeChar), max);
}

/** How programLines picks and marks the lines. */
export interface ProgramLinesOptions {
  /** Only the last `last` lines (the rest are left out silently, as a tail). */
  last?: number;
  /** Put before each line; GUTTER by default (the text report passes a dimmed `|`). */
  gutter?: string;
  /** Each line capped at this many characters (LINE_MAX_CHARS by default). */
  maxChars?: number;
}

/**
 * Text a program printed, as report lines: split at line ends (`\n` or `\r\n`), each line made
 * safe by textLine (so a lone `\r` or a U+2028 shows as an escape, never as a line break) and
 * put behind the gutter. Trailing blank lines are dropped; empty text gives no lines.
 */
export function programLines(text: string, options: ProgramLinesOptions = {}): string[] {
  const lines = programTextLines(text);
  return guttered(options.last === undefined ? lines : lines.slice(-options.last), options);
}

/**
 * Lines a program printed, already split (programTextLines), as report lines: each made safe by
 * textLine and put behind the gutter (GUTTER unless `options.gutter`).
 */
export function guttered(
  lines: readonly string[],
  options: Pick<ProgramLinesOptions, "gutter" | "maxChars"> = {},
): string[] {
  const gutter = options.gutter ?? GUTTER;
  return lines.map((l) => `${gutter}${textLine(l, options.maxChars)}`);
}

/**
 * A value as JSON text whose bytes hold no raw control, bidirectional or line-separator
 * character: JSON.stringify already writes C0 controls and lone surrogates as escapes; DEL, C1,
 * the bidi marks and U+2028/U+2029, which it leaves raw, become `\uXXXX` too. They can only
 * occur inside strings, where `\uXXXX` is a JSON escape, so the parsed value is exactly `value`:
 * the results file keeps what the program printed and is safe to `cat` on a terminal.
 */
export function safeJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, escapeChar);
}

/**
 * Strips what XML 1.0 cannot hold at all: control characters other than tab, newline and carriage
 * return, U+FFFE and U+FFFF, and lone surrogates (a surrogate pair, an astral character, stays).
 * Program text reaches XML through textLine first, so its control characters show as escapes;
 * this only guards the kit's own text.
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

/**
 * XML element text as an XML builder takes it (the builder then writes `& < > " '` as entities):
 * stripped of what XML 1.0 forbids (xmlSafe), the remaining unsafe characters (carriage return,
 * DEL, C1, bidi, U+2028/U+2029) made visible (printable).
 */
export function xmlData(text: string): string {
  return printable(xmlSafe(text));
}

/**
 * An XML attribute value as an XML builder takes it: as xmlData, and a tab or line break shown as
 * `\uXXXX` too, since a reader turns them into spaces (attribute-value normalisation) and a
 * builder writes them raw.
 */
export function xmlAttributeData(text: string): string {
  return xmlData(text).replace(TAB_OR_NEWLINE, escapeChar);
}

/**
 * HTML element content or a double- or single-quoted attribute value, for one line of text:
 * textLine (unsafe characters visible, capped at `max`), then `& < > " '` as character references.
 */
export function htmlText(text: string, max: number = LINE_MAX_CHARS): string {
  return textLine(text, max).replace(HTML_SPECIAL, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * GitHub-flavoured Markdown for one table cell or line: textLine (unsafe characters and line
 * breaks visible, capped at `max`), no HTML (`& < >` as entities), and the characters that make
 * emphasis, code, links (`[`, `]`), tables (`|`), headings or strike-through backslash-escaped.
 */
export function markdownInline(text: string, max: number = LINE_MAX_CHARS): string {
  return textLine(text, max)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(MARKDOWN_SPECIAL, "\\$1");
}

/**
 * Rows as CSV text (RFC 4180 quoting by csv-stringify, LF line ends): every cell through
 * textLine (one line, unsafe characters visible), and csv-stringify's `escape_formulas` puts an
 * apostrophe before a cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
 * tab or carriage return, or their full-width forms; OWASP's CSV injection advice).
 */
export function csvText(rows: readonly (readonly string[])[]): string {
  // Loaded here, for --batch only, not at every grader start.
  const { stringify } = createRequire(import.meta.url)("csv-stringify/sync") as typeof CsvStringify;
  return stringify(
    rows.map((row) => row.map((cell) => textLine(cell))),
    { record_delimiter: "unix", escape_formulas: true },
  );
}
