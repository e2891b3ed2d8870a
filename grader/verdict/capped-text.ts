/**
 * What a program wrote, as judging sees it: a capped view that holds no more than the caps allow,
 * so that every step after the run (the verdict's patterns, the stack mapper, the diagnosis, the
 * explanation, the reports) costs work bounded by the caps, never by what the program printed.
 *
 * - Standard error: its first STDERR_MAX_LINES lines and STDERR_MAX_BYTES bytes (UTF-8), each
 *   line cut at LINE_MAX_BYTES bytes. What was cut is said in a last line of the text.
 * - Standard output: the first OUTPUT_CAP_BYTES bytes (limits.ts), whole, since the answer is
 *   parsed as one JSON text and may be one long line; its lines, when read as lines, are cut at
 *   LINE_MAX_BYTES bytes too.
 *
 * Cuts are made in UTF-8 bytes at a character boundary: a cut line holds the whole characters
 * that fit in its bytes (a character of 2 to 4 bytes that would straddle the cut is left out
 * whole, never split into U+FFFD), and a surrogate pair is never split.
 *
 * A run becomes a CappedRun once, where it meets judging (capRun: grade.ts, the instructor kit's
 * live mutants, any caller of judge); judge and everything after it take the capped type, so no
 * code after the run can reach the uncapped text.
 */
import {
  OUTPUT_CAP_BYTES,
  STDERR_MAX_BYTES,
  STDERR_READ_BYTES,
  STDERR_TAIL_BYTES,
} from "../limits.ts";
import type { RawRun } from "../run/run-process.ts";

/** The most bytes (UTF-8) of one line that judging reads. */
export const LINE_MAX_BYTES = 4096;
/** The most lines of standard error that judging reads. */
export const STDERR_MAX_LINES = 64;
export { STDERR_MAX_BYTES, STDERR_READ_BYTES, STDERR_TAIL_BYTES };

/** UTF-8 bytes of the code point starting at `i` of `text`, and its length in code units. */
function codePointAt(text: string, i: number): { bytes: number; units: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return { bytes: 1, units: 1 };
  if (c < 0x800) return { bytes: 2, units: 1 };
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  }
  // Other BMP characters; a lone surrogate is written as U+FFFD (3 bytes), as Buffer does.
  return { bytes: 3, units: 1 };
}

/** UTF-8 length of `text` in bytes (lone surrogates as 3). */
function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * How many code units of `text`, from its start, hold whole characters of at most `maxBytes`
 * bytes in UTF-8, and how many bytes those are. Work: O(text length), and only the characters
 * kept are looked at one by one.
 */
function fitting(text: string, maxBytes: number): { units: number; bytes: number } {
  // A code unit is at most 3 bytes (a surrogate pair is 4 for 2 units), and at least 1.
  if (text.length <= maxBytes) {
    const bytes = utf8Length(text);
    if (bytes <= maxBytes) return { units: text.length, bytes };
  }
  let units = 0;
  let bytes = 0;
  while (units < text.length) {
    const next = codePointAt(text, units);
    if (bytes + next.bytes > maxBytes) break;
    bytes += next.bytes;
    units += next.units;
  }
  return { units, bytes };
}

/**
 * `text` cut to its longest start of whole characters that is at most `maxBytes` bytes in UTF-8;
 * `text` itself when it fits.
 *
 * @param maxBytes a non-negative byte count
 */
export function cutToBytes(text: string, maxBytes: number): string {
  const { units } = fitting(text, maxBytes);
  return units === text.length ? text : text.slice(0, units);
}

/** What the caps left out of a text. */
export interface Cut {
  /** Lines kept but cut at LINE_MAX_BYTES bytes. */
  shortenedLines: number;
  /** Text after what was kept was not read (more lines or bytes than the caps). */
  rest: boolean;
}

/** Which stream a capped text came from: each has its caps. */
export type Stream = "stdout" | "stderr";

/**
 * A program's standard output or standard error as judging may read it: never more than its
 * stream's caps (see the module's comment). Made only by CappedText.stdout and CappedText.stderr,
 * which do the capping; read only through its accessors, which give capped text.
 */
export class CappedText {
  readonly #stream: Stream;
  /** The kept text as the program wrote it (its line ends included), without the notice. */
  readonly #kept: string;
  /** #kept, then the notice line when something was cut (standard error). */
  readonly #text: string;
  /** The kept lines, each at most LINE_MAX_BYTES bytes; for standard output, made when asked. */
  #lines: readonly string[] | undefined;
  readonly #cut: Cut;

  private constructor(
    stream: Stream,
    kept: string,
    lines: readonly string[] | undefined,
    cut: Cut,
  ) {
    this.#stream = stream;
    this.#kept = kept;
    this.#lines = lines;
    this.#cut = cut;
    this.#text = stream === "stderr" ? withNotice(kept, cut) : kept;
  }

  /** Standard error that is empty (a program that printed nothing; a private case's). */
  static readonly EMPTY_STDERR = CappedText.stderr("");

  /**
   * Standard error as judging reads it: the first STDERR_MAX_LINES lines and STDERR_MAX_BYTES
   * bytes of `raw` (line ends count), each line cut at LINE_MAX_BYTES bytes and the rest of that
   * line skipped. Reads at most STDERR_MAX_BYTES + 1 code units of `raw`, whatever its length.
   *
   * @param raw the stream as the run collected it (decoded as UTF-8)
   */
  static stderr(raw: string): CappedText {
    // Every code unit is at least one byte: whatever fits in STDERR_MAX_BYTES lies in this window.
    const window = raw.length > STDERR_MAX_BYTES + 1 ? raw.slice(0, STDERR_MAX_BYTES + 1) : raw;
    const lines: string[] = [];
    let kept = "";
    let bytes = 0;
    let shortened = 0;
    let position = 0;
    let rest: boolean;
    for (;;) {
      if (position >= window.length) {
        rest = raw.length > window.length;
        break;
      }
      if (lines.length === STDERR_MAX_LINES || bytes === STDERR_MAX_BYTES) {
        rest = true;
        break;
      }
      const newline = window.indexOf("\n", position);
      const whole = window.slice(position, newline === -1 ? window.length : newline);
      const line = cutToBytes(whole, LINE_MAX_BYTES);
      if (line.length < whole.length) shortened++;
      // The total cap may cut the last line kept shorter still: then nothing more is read.
      const fit = fitting(line, STDERR_MAX_BYTES - bytes);
      const last = fit.units < line.length ? line.slice(0, fit.units) : line;
      lines.push(last);
      kept += last;
      bytes += fit.bytes;
      if (last.length < line.length) {
        rest = true;
        break;
      }
      if (newline === -1) {
        // The line runs to the window's end: what follows the window was not read.
        rest = raw.length > window.length;
        break;
      }
      if (bytes === STDERR_MAX_BYTES) {
        // No room for the line end: the rest is cut, unless the line end was all there was.
        rest = newline + 1 < raw.length;
        break;
      }
      kept += "\n";
      bytes += 1;
      position = newline + 1;
    }
    return new CappedText("stderr", kept, lines, { shortenedLines: shortened, rest });
  }

  /**
   * Standard output as judging reads it: the first OUTPUT_CAP_BYTES bytes of `raw`, whole (the
   * answer is parsed as one JSON text). Reads at most OUTPUT_CAP_BYTES code units of `raw`.
   *
   * @param raw the stream as the run collected it (decoded as UTF-8)
   */
  static stdout(raw: string): CappedText {
    const window = raw.length > OUTPUT_CAP_BYTES ? raw.slice(0, OUTPUT_CAP_BYTES) : raw;
    const kept = cutToBytes(window, OUTPUT_CAP_BYTES);
    return new CappedText("stdout", kept, undefined, {
      shortenedLines: 0,
      rest: kept.length < raw.length,
    });
  }

  /** Which stream this is. */
  get stream(): Stream {
    return this.#stream;
  }

  /**
   * The kept text. Standard error: the kept lines as the program wrote them (line ends included),
   * at most STDERR_MAX_BYTES bytes, then, when something was cut, one more line saying what:
   * `[… 2 lines cut at 4096 bytes; the rest not read (...)]`. Standard output: at most
   * OUTPUT_CAP_BYTES bytes, its lines not cut.
   */
  get text(): string {
    return this.#text;
  }

  /**
   * The kept lines, without their line ends, each at most LINE_MAX_BYTES bytes (standard error:
   * at most STDERR_MAX_LINES, the notice line not among them). Text that ends with a line end
   * has no empty last line here.
   */
  get lines(): readonly string[] {
    this.#lines ??= splitLines(this.#kept).map((line) => cutToBytes(line, LINE_MAX_BYTES));
    return this.#lines;
  }

  /** The first kept line ("" for empty text). */
  get firstLine(): string {
    return this.lines[0] ?? "";
  }

  /** What the caps left out. */
  get cut(): Cut {
    return { ...this.#cut };
  }

  /**
   * Standard error with `map` applied to each kept line (the stack mapper: bundle frames to
   * `src/` ones), capped again by standard error's caps; what was cut before is still said.
   *
   * @param map a function of one line (it may return a longer one: the result is capped)
   */
  mapLines(map: (line: string) => string): CappedText {
    const ending = this.#kept.endsWith("\n") ? "\n" : "";
    const mapped = CappedText.stderr(`${this.lines.map(map).join("\n")}${ending}`);
    return new CappedText("stderr", mapped.#kept, mapped.lines, {
      shortenedLines: mapped.#cut.shortenedLines + this.#cut.shortenedLines,
      rest: mapped.#cut.rest || this.#cut.rest,
    });
  }
}

/** `text` split at `\n`, without the empty last part a final line end leaves. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

/** Standard error's kept text, then the line that says what was cut, if anything was. */
function withNotice(kept: string, cut: Cut): string {
  const notes: string[] = [];
  if (cut.shortenedLines > 0)
    notes.push(
      `${cut.shortenedLines} line${cut.shortenedLines === 1 ? "" : "s"} cut at ${LINE_MAX_BYTES} bytes`,
    );
  if (cut.rest)
    notes.push(
      `the rest not read (the grader reads the first ${STDERR_MAX_LINES} lines and ${STDERR_MAX_BYTES / 1024} KiB of standard error)`,
    );
  if (notes.length === 0) return kept;
  return `${kept}${kept === "" || kept.endsWith("\n") ? "" : "\n"}[… ${notes.join("; ")}]`;
}

/** A run as judging sees it: RawRun's fields, with both streams (and standard error's end) capped. */
export type CappedRun = Omit<RawRun, "stdout" | "stderr" | "stderrTail"> & {
  readonly stdout: CappedText;
  readonly stderr: CappedText;
  /** Standard error's last lines when its start did not hold it all (empty otherwise). */
  readonly stderrTail: CappedText;
};

/**
 * The one conversion from what a process did to what judging reads: both streams capped
 * (CappedText), standard error's lines then rewritten by `mapStderrLine` if given (the stack
 * mapper) and capped again.
 *
 * @param raw what the process did (run-process.ts)
 * @param mapStderrLine applied to each kept line of standard error
 */
export function capRun(raw: RawRun, mapStderrLine?: (line: string) => string): CappedRun {
  const { stdout, stderr, stderrTail, ...rest } = raw;
  const cappedStderr = CappedText.stderr(stderr);
  return {
    ...rest,
    stdout: CappedText.stdout(stdout),
    stderrTail: stderrTail === "" ? CappedText.EMPTY_STDERR : CappedText.stderr(stderrTail),
    stderr: mapStderrLine === undefined ? cappedStderr : cappedStderr.mapLines(mapStderrLine),
  };
}
