/**
 * One interface for every report format (as vitest's reporters): optional hooks called at the
 * run's start, once per case in grading order (visible cases first), and at the end. A reporter
 * writes through the sink it is given, so where the report goes (terminal, file) is not its
 * concern.
 */
import type { CaseResult, GradeResults, NotGraded } from "../results.ts";

/** A case as the run's start names it: its id, and whether it is private (a --fixtures case). */
export interface CaseHeading {
  id: string;
  private: boolean;
}

export interface RunInfo {
  submission: string;
  cases: readonly CaseHeading[];
  kit: { version: string; fixtures: string };
}

export interface Reporter {
  onRunStart?(info: RunInfo): void;
  /**
   * No case can run (results.ts NotGraded): called once, after onRunStart and before every
   * case's "not run" record, so a report that writes as it goes puts the one failure first.
   */
  onNotGraded?(notGraded: NotGraded): void;
  onCaseResult?(result: CaseResult): void;
  onRunEnd?(results: GradeResults): void;
}

/** Where a report goes. `colour` is true only for a terminal without NO_COLOR. */
export interface Sink {
  write(text: string): void;
  readonly colour: boolean;
}

/** A sink that keeps everything in memory; `text()` is the whole report. */
export class MemorySink implements Sink {
  private readonly parts: string[] = [];
  readonly colour = false;
  write(text: string): void {
    this.parts.push(text);
  }
  text(): string {
    return this.parts.join("");
  }
}

/**
 * Standard output (or error), coloured only on a terminal and never with NO_COLOR set. When the
 * reader goes away (`npm run grade | head`), the rest of the report is dropped quietly instead of
 * crashing the grader with EPIPE; the exit code still reflects the grading.
 */
export function streamSink(stream: NodeJS.WriteStream): Sink {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") closed = true;
    else throw error;
  });
  return {
    write: (text) => {
      if (!closed) stream.write(text);
    },
    colour: stream.isTTY === true && !noColor,
  };
}
