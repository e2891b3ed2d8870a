/**
 * Which characters of a program's text are unsafe to show, and how they are shown instead. Below
 * every stage (it imports only patterns.ts, which holds its patterns): the verdict quotes a program's first line of standard error with it, and every report
 * format builds on it (report/escape.ts).
 *
 * Unsafe characters are written as `\uXXXX` (four lower-case hex digits): C0 controls (tab and
 * newline excepted), DEL, C1 controls (U+0080-U+009F, which include the one-byte CSI U+009B), the
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069), the line and paragraph separators (U+2028, U+2029), U+FEFF (a byte order
 * mark) and the other invisible (default ignorable) characters: the soft hyphen, zero-width
 * spaces and joiners (U+200B-U+200D), word joiners and invisible operators (U+2060-U+2065),
 * variation selectors, Hangul fillers and tag characters (U+E0000-U+E03FF), with which
 * "orders\u200b" looks like "orders". Raw, they can move a terminal's cursor or reorder a line. A backslash is left as it is, so escaping twice reads the
 * same as escaping once, and a program that prints `\u001b` literally shows exactly that, which is
 * harmless.
 */

import { LINE_END, UNSAFE } from "./patterns.ts";

/** One character as `\uXXXX` per UTF-16 code unit (a tag character is two), lower-case hex. */
export function escapeChar(c: string): string {
  let escaped = "";
  for (let i = 0; i < c.length; i++) {
    escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return escaped;
}

/**
 * `text` with every unsafe character (see the module's comment) written as `\uXXXX`; tabs and
 * newlines stay, so several lines remain several lines. For the kit's own text (hints, titles)
 * and for lines already split; a program's text on one line goes through report/escape.ts's
 * `textLine`.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * A program's text as its lines: split at line ends (`\n` or `\r\n`; a lone `\r` stays inside its
 * line, where textLine shows it), trailing blank lines dropped; empty text gives no lines.
 */
export function programTextLines(text: string): string[] {
  const trimmed = text.trimEnd();
  return trimmed === "" ? [] : trimmed.split(LINE_END);
}
