/**
 * Every regular expression the grader applies to what a program wrote (its standard output and
 * standard error, and the strings of its answer as reports show them), in one place.
 *
 * A backtracking regex engine such as V8's can take time quadratic or exponential in the length of
 * the text for some patterns (`FATAL ERROR: .*Allocation failed` over one long line of
 * `FATAL ERROR: `), and a program chooses that text. test/unit/patterns.test.ts proves each
 * pattern here free of such backtracking with a ReDoS checker (recheck), runs each through the
 * function that uses it on a hostile line, and fails when a grader module uses a regular
 * expression that is neither here nor listed there as never applied to program text. So a
 * pattern for program text is added here, with a docstring saying what it reads.
 *
 * A leaf module that imports nothing: the verdict, the stack mapper (run/), the explanation, the
 * diagnosis and every report format take their patterns from it. Patterns with the `g` flag are
 * only used with `replace` (which resets `lastIndex`), never with `test` or `exec`.
 */

/* eslint-disable no-control-regex -- matching control characters is the point */

/**
 * The characters printable.ts writes as `\uXXXX`: C0 controls but tab and newline, DEL, C1
 * controls, the bidirectional marks, embeddings, overrides and isolates, U+2028/U+2029, U+FEFF
 * (a byte order mark, invisible: a name that starts with one looks like one without) and the
 * other invisible characters (printable.ts lists them; a tag character is a surrogate pair).
 */
export const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\u00ad\u115f\u1160\u200b-\u200d\u2060-\u2065\u3164\uffa0]|[\u17b4\u17b5]|\u034f|[\u180b-\u180f]|[\ufe00-\ufe0f]|\udb40[\udc00-\udfff]/g;

/** UNSAFE and newline: within one line of a report a line break must be visible too. */
export const UNSAFE_IN_LINE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\u00ad\u115f\u1160\u200b-\u200d\u2060-\u2065\u3164\uffa0]|[\u17b4\u17b5]|\u034f|[\u180b-\u180f]|[\ufe00-\ufe0f]|\udb40[\udc00-\udfff]/g;

/** What JSON.stringify leaves raw among UNSAFE (it escapes C0 itself). */
export const UNSAFE_IN_JSON =
  /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\u00ad\u115f\u1160\u200b-\u200d\u2060-\u2065\u3164\uffa0]|[\u17b4\u17b5]|\u034f|[\u180b-\u180f]|[\ufe00-\ufe0f]|\udb40[\udc00-\udfff]/g;

/* eslint-enable no-control-regex */

/** A line end as programs write them: `\n` or `\r\n` (a lone `\r` stays inside its line). */
export const LINE_END = /\r?\n/;

/** `\r\n` everywhere (Exercism's output keeps `\n` alone). */
export const CRLF = /\r\n/g;

/** A `\uXXXX` escape cut short at the end of a text (at most 5 characters are tested). */
export const PARTIAL_ESCAPE = /\\(u[0-9a-f]{0,3})?$/;

/** Tab and newline, which an XML attribute value must show as escapes. */
export const TAB_OR_NEWLINE = /[\t\n]/g;

/** The characters HTML text and attribute values write as character references. */
export const HTML_SPECIAL = /[&<>"']/g;

/** The characters Markdown reads as emphasis, code, links, tables, headings or strike-through. */
export const MARKDOWN_SPECIAL = /([\\`*_[\]|#~])/g;

/** Runs of backticks, to fence a block with a longer run than any inside it. */
export const BACKTICK_RUNS = /`+/g;

/**
 * Last words of a program that reached the heap limit or the kernel's data limit, tested line by
 * line: V8's heap death, a failed ArrayBuffer/Buffer allocation, and the usual messages of other
 * languages' runtimes (for --cmd programs). Node's `FATAL ERROR: <where> Allocation failed` line
 * is found by isMemoryDeath without a regex (a pattern with `.*` between the two phrases
 * backtracks quadratically over a line of repeated `FATAL ERROR: `).
 */
export const MEMORY_DEATH =
  /JavaScript heap out of memory|Reached heap limit|Array buffer allocation failed|Fatal process out of memory|\bMemoryError\b|Cannot allocate memory|std::bad_alloc|out of memory/;

/**
 * What separates the numbers of a program's error line (diagnose.ts reportedNumbers splits the
 * line on it): anything but digits and minus signs.
 */
export const NOT_A_NUMBER = /[^\d-]+/;

/**
 * An escape printable.ts writes for an unsafe character (`\u2028`), in a program's line as the
 * verdict keeps it: diagnose.ts reportedNumbers blanks them, so that their hex digits are never
 * read as a number the program reported.
 */
export const PRINTABLE_ESCAPE = /\\u[0-9a-f]{4}/g;

/** Where a program said it stopped: `... at offset <n>` on its bad-input line. */
export const REPORTED_OFFSET = / at offset (\d+)/;

/** `error: member "<id as a JSON string>": ...`, the documented first line for bad bytes. */
export const BAD_INPUT_LINE = /^error: member ("(?:[^"\\]|\\.)*")/;

/** The first line of Node's report of an uncaught exception: where it stopped (`src/main.ts:194`). */
export const UNCAUGHT_WHERE = /^(?:src\/\S+|<bundle>|\S+\.m?[jt]s):\d+$/;

/** An error's line in Node's crash report: `TypeError: ...`, `Error [ERR_X]: ...`. */
export const ERROR_LINE = /^[A-Za-z_$][\w$.]*(?: \[\w+\])?: /;

/** An error's line without a message: `RangeError`. */
export const ERROR_NAME_LINE = /^[A-Za-z_$][\w$]*Error$/;

/**
 * The end of a stack frame's location: `:LINE` or `:LINE:COLUMN`, then `)` or nothing, at the end
 * of the line (internalErrorOf reads the file name before it without a regex: a pattern for the
 * whole `src/...:LINE` backtracks quadratically over a long line of `src/`).
 */
export const FRAME_END = /:(\d+)(?::\d+)?\)?$/;

/** A location's column, `:COLUMN` at its end (`src/main.ts:3:7` to `src/main.ts:3`). */
export const LOCATION_COLUMN = /:\d+$/;

/**
 * A crash that read past the end of a buffer, in Node (DataView, Buffer) and in other languages'
 * runtimes: the crash evidence of the catalogue's read-past-the-end mistake.
 */
export const READ_PAST_END =
  /RangeError|ERR_OUT_OF_RANGE|ERR_BUFFER_OUT_OF_BOUNDS|out of (?:range|bounds)|outside the bounds|IndexError|struct\.error|unpack requires|EOFError|index out of range/i;

/** Characters a regular expression reads as syntax (escaped to match a path literally). */
const REGEXP_SYNTAX = /[.*+?^${}()|[\]\\/]/g;

/** `text` as a regular expression source that matches exactly `text`. */
export function escapeRegExp(text: string): string {
  return text.replace(REGEXP_SYNTAX, "\\$&");
}

/**
 * Where a program's bundle appears in its standard error: any of `paths` (each a file path or
 * `file://` URL, matched literally, longest first so that a URL wins over the path it ends
 * with), then `:LINE` and `:COLUMN` if there. Global, for `replace`: a literal alternation and
 * optional digits after it, so each position is tried against a fixed set of literal strings
 * (linear in the text; the test checks it with the sandbox's and a long on-disk path).
 *
 * @param paths every path and URL the bundle ran at (non-empty)
 */
export function bundleLocationPattern(paths: readonly string[]): RegExp {
  const alternatives = [...new Set(paths)].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?:${alternatives.join("|")})(?::(\\d+)(?::(\\d+))?)?`, "g");
}

/**
 * Every pattern above by name, for the test that proves them free of catastrophic backtracking.
 * The builder's is made from short paths shaped like the real ones (a URL, the path it ends with,
 * another path): escaped literals only make its automaton larger, never add a quantifier, and
 * short ones keep the proof quick.
 */
export const PROGRAM_TEXT_PATTERNS: ReadonlyMap<string, RegExp> = new Map([
  ["UNSAFE", UNSAFE],
  ["UNSAFE_IN_LINE", UNSAFE_IN_LINE],
  ["UNSAFE_IN_JSON", UNSAFE_IN_JSON],
  ["LINE_END", LINE_END],
  ["CRLF", CRLF],
  ["PARTIAL_ESCAPE", PARTIAL_ESCAPE],
  ["TAB_OR_NEWLINE", TAB_OR_NEWLINE],
  ["HTML_SPECIAL", HTML_SPECIAL],
  ["MARKDOWN_SPECIAL", MARKDOWN_SPECIAL],
  ["BACKTICK_RUNS", BACKTICK_RUNS],
  ["MEMORY_DEATH", MEMORY_DEATH],
  ["REPORTED_OFFSET", REPORTED_OFFSET],
  ["NOT_A_NUMBER", NOT_A_NUMBER],
  ["PRINTABLE_ESCAPE", PRINTABLE_ESCAPE],
  ["BAD_INPUT_LINE", BAD_INPUT_LINE],
  ["UNCAUGHT_WHERE", UNCAUGHT_WHERE],
  ["ERROR_LINE", ERROR_LINE],
  ["ERROR_NAME_LINE", ERROR_NAME_LINE],
  ["FRAME_END", FRAME_END],
  ["LOCATION_COLUMN", LOCATION_COLUMN],
  ["READ_PAST_END", READ_PAST_END],
  ["REGEXP_SYNTAX", REGEXP_SYNTAX],
  ["bundleLocationPattern", bundleLocationPattern(["/p/m.mjs", "file:///p/m.mjs", "/t/k-1/m.mjs"])],
]);
