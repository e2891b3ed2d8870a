/**
 * The batch's progress on standard output: on a terminal, a bar redrawn in place (cases and
 * submissions done, which submissions are being graded) with one line per finished submission
 * scrolling above it; anywhere else (a pipe, a CI log), just those lines: `[3/20] alice: 57/59`.
 * Submission names are chosen by students: they are written through textLine (escape.ts).
 */
import { isAbsolute, relative } from "node:path";
import { userCwd } from "../kit.ts";
import { textLine } from "../report/escape.ts";
import { shownName } from "./names.ts";

/**
 * A path as the user would type it: relative to where they typed the command when it is inside
 * that folder, absolute otherwise; escaped for one line of text (textLine), since folder names
 * are chosen by students.
 */
export function shownPath(path: string): string {
  const rel = relative(userCwd(), path) + (path.endsWith("/") ? "/" : "");
  return textLine(rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel);
}

/** What the batch tells its progress display. */
export interface Progress {
  /** A submission's grading has started. */
  started(name: string): void;
  /** One case of a submission has its verdict. */
  caseDone(): void;
  /** A submission is done; `line` says how it did (without the [k/n] counter). */
  finished(name: string, line: string): void;
  /** The batch is done: the bar is removed. */
  end(): void;
}

/**
 * The progress display for a batch of `total` submissions and `totalCases` case runs.
 *
 * @param stream standard output; a bar is drawn only when it is a terminal
 */
export function batchProgress(
  stream: NodeJS.WriteStream,
  total: number,
  totalCases: number,
): Progress {
  let finished = 0;
  let cases = 0;
  const running = new Set<string>();
  if (stream.isTTY !== true) {
    return {
      started: () => {},
      caseDone: () => {},
      finished(name, line) {
        finished++;
        stream.write(`[${finished}/${total}] ${textLine(shownName(name))}: ${textLine(line)}\n`);
      },
      end: () => {},
    };
  }
  let drawn = false;
  let last = 0;
  const draw = (force: boolean) => {
    const now = performance.now();
    if (!force && now - last < 50) return;
    last = now;
    const width = Math.max(40, stream.columns ?? 80);
    const share = totalCases === 0 ? 1 : Math.min(1, cases / totalCases);
    const barWidth = Math.min(30, Math.max(10, width - 50));
    const filled = Math.round(share * barWidth);
    const head = `[${"#".repeat(filled)}${"-".repeat(barWidth - filled)}] ${finished}/${total} submissions, ${cases}/${totalCases} cases`;
    const names = [...running].map((n) => textLine(shownName(n))).join(", ");
    const line = names === "" ? head : `${head}  ${names}`;
    stream.write(`\r\x1b[2K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
    drawn = true;
  };
  const clear = () => {
    if (drawn) stream.write("\r\x1b[2K");
    drawn = false;
  };
  return {
    started(name) {
      running.add(name);
      draw(true);
    },
    caseDone() {
      cases++;
      draw(false);
    },
    finished(name, line) {
      finished++;
      running.delete(name);
      clear();
      stream.write(`[${finished}/${total}] ${textLine(shownName(name))}: ${textLine(line)}\n`);
      draw(true);
    },
    end() {
      clear();
    },
  };
}
