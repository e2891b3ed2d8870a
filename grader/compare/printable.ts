/**
 * Text from a submission (its standard error, its messages) made safe to print on a terminal or
 * in a report: control characters (escape sequences that move the cursor, hide text or set the
 * clipboard), lone carriage returns and bidirectional overrides become visible \u escapes.
 */
// C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate marks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every unprintable character written as `\uXXXX`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
