/**
 * Deciding a case's verdict from what the program did (DESIGN.md, "The grader"): `pass`; `fail`
 * when the program ended as documented (exit 0 or 1) with the wrong content; `error` for anything
 * else; `timeout`. Output is compared semantically: key order and `"t": []` against a missing
 * `"t"` do not matter.
 *
 * Judging reads the run through its capped view (capped-text.ts) and applies only the patterns
 * of patterns.ts, so its work is bounded by the caps; an answer far larger than the case allows
 * is judged by its size (answer-size.ts).
 */
import type { ValidateFunction } from "ajv";
import type { AssignmentOutput, Case, DecodeOutput, ProgramOutput } from "../cases/load.ts";
import { formatAjvErrors } from "../cases/load.ts";
import {
  BAD_INPUT_LINE,
  ERROR_LINE,
  ERROR_NAME_LINE,
  FRAME_END,
  MEMORY_DEATH,
  REPORTED_OFFSET,
  UNCAUGHT_WHERE,
} from "../patterns.ts";
import { answerSize, caseAnswerSize, describeSize, oversized } from "./answer-size.ts";
import { cutToBytes, LINE_MAX_BYTES, type CappedRun, type CappedText } from "./capped-text.ts";
import { decodeFieldsChecked, outcomeKey, type Outcome } from "./outcome.ts";
import { printable } from "../printable.ts";

/** Where a program said it stopped: `... at offset <n>` on its bad-input line. */
export function reportedOffset(stderrFirstLine: string): number | undefined {
  const match = REPORTED_OFFSET.exec(stderrFirstLine);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

export type Status = "pass" | "fail" | "error" | "timeout" | "skipped";
export type Reason =
  | "wrong-output"
  | "wrong-error"
  | "invalid-output"
  | "not-implemented"
  | "crash"
  | "memory"
  | "output-cap"
  | "build-error"
  | "timeout"
  | "skipped-after-timeouts";

export interface Verdict {
  status: Status;
  reason: Reason | null;
  /** One line for the student: what went wrong (empty on a pass). */
  message: string;
  outcome: Outcome;
  /** The program's parsed output, when it printed valid output. */
  actual?: ProgramOutput;
  /**
   * What the first line of standard error said about bad input, when it is the documented
   * `error: member "<id>": ... [at offset N]` line, whatever the exit code: the member it names
   * and the offset it gives. Parsed once here; the explanation's hex dump points there.
   */
  reportedBadInput?: { member: string; offset: number | undefined };
}

/** What Node writes as it dies of memory: `FATAL ERROR: <where> Allocation failed - ...`. */
const FATAL_ERROR = "FATAL ERROR: ";
const ALLOCATION_FAILED = "Allocation failed";

/**
 * True when one of standard error's lines is a program's last words on running out of memory:
 * MEMORY_DEATH (patterns.ts), or `FATAL ERROR: ` followed later on the line by
 * `Allocation failed`, found with two searches (linear in the line).
 */
export function isMemoryDeath(lines: readonly string[]): boolean {
  return lines.some((line) => {
    if (MEMORY_DEATH.test(line)) return true;
    const fatal = line.indexOf(FATAL_ERROR);
    return fatal !== -1 && line.indexOf(ALLOCATION_FAILED, fatal + FATAL_ERROR.length) !== -1;
  });
}

/**
 * The first line of `text` (up to its first `\n`), trimmed and made printable, for messages.
 * Judging passes a capped line (CappedText.firstLine); the instructor kit's tools pass the
 * reference's own standard error.
 */
export function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return printable((end === -1 ? text : text.slice(0, end)).trim());
}

/**
 * What an uncaught exception's report says, when standard error is Node's crash report: its first
 * line is where the program stopped (`src/main.ts:194`, mapped from the bundle), then the source
 * line, a caret, a blank line and the error (`TypeError: ...`). Returns `"TypeError: ..." (at
 * src/main.ts:194)`, or undefined when standard error does not start that way.
 */
export function uncaughtErrorOf(stderr: CappedText): string | undefined {
  const lines = stderr.lines;
  const where = (lines[0] ?? "").trim();
  if (!UNCAUGHT_WHERE.test(where)) return undefined;
  const error = lines.slice(1, 8).find((l) => ERROR_LINE.test(l) || ERROR_NAME_LINE.test(l));
  if (error === undefined) return undefined;
  return `${JSON.stringify(printable(error.trim()).slice(0, 200))} (at ${printable(where)})`;
}

/** `(`, `)`, `:` and whitespace: what a frame's file name cannot hold. */
const isFrameDelimiter = (c: string): boolean =>
  c === "(" || c === ")" || c === ":" || c.trim() === "";

/**
 * The `src/` file and line a stack frame's line ends with (`at f (src/a.ts:3:7)`,
 * `at src/a.ts:3`), or undefined. The file is the part of the last word before `:LINE` that
 * starts at its first `src/` (as `\(?(src\/[^\s():]+):(\d+)(?::\d+)?\)?$` would find it), read
 * by FRAME_END and one backward scan instead: linear in the line.
 */
export function sourceFrameOf(line: string): { file: string; line: string } | undefined {
  const end = FRAME_END.exec(line);
  if (end === null || end[1] === undefined) return undefined;
  let start = end.index;
  while (start > 0 && !isFrameDelimiter(line[start - 1] ?? "")) start--;
  const word = line.slice(start, end.index);
  const src = word.indexOf("src/");
  if (src === -1 || src + "src/".length === word.length) return undefined;
  return { file: word.slice(src), line: end[1] };
}

/**
 * What main.ts's report of an exception it did not expect says (exit 70: the line `internal error
 * (a bug, not bad input):`, then the error's stack): the error's first line and the first frame
 * in the student's src/, as `"TypeError: ..." (at src/range-assignor.ts:23)`; undefined when
 * standard error does not start that way.
 */
export function internalErrorOf(stderr: CappedText): string | undefined {
  const lines = stderr.lines;
  if (!(lines[0] ?? "").startsWith("internal error")) return undefined;
  const error = (lines[1] ?? "").trim();
  if (error === "") return undefined;
  const frame = lines
    .slice(2, 40)
    .map((l) => sourceFrameOf(l.trim()))
    .find((f) => f !== undefined);
  const where = frame ? ` (at ${printable(`${frame.file}:${frame.line}`)})` : "";
  return `${JSON.stringify(printable(error).slice(0, 200))}${where}`;
}

/** The member named on a bad-input line, or undefined when the line is not of that form. */
export function memberOfErrorLine(line: string): string | undefined {
  const match = BAD_INPUT_LINE.exec(line);
  if (!match?.[1]) return undefined;
  try {
    return JSON.parse(match[1]) as string;
  } catch {
    return undefined;
  }
}

/** Problems named in an invalid-output message. */
const MAX_PROBLEMS = 3;

/**
 * Checks the output's shape; returns the first MAX_PROBLEMS problems, each at most
 * LINE_MAX_BYTES bytes (they quote member and topic names); empty when it is the documented JSON.
 */
function outputProblems(c: Case, output: unknown, schema: ValidateFunction): string[] {
  if (!schema(output))
    return formatAjvErrors((schema.errors ?? []).slice(0, MAX_PROBLEMS)).map((p) =>
      cutToBytes(p, LINE_MAX_BYTES),
    );
  const problems: string[] = [];
  if (c.mode === "assign") {
    for (const [member, topics] of Object.entries(output as AssignmentOutput)) {
      for (const [topic, partitions] of Object.entries(topics)) {
        if (partitions.some((p, i) => i > 0 && p <= (partitions[i - 1] ?? -1))) {
          problems.push(
            cutToBytes(`/${member}/${topic}: partitions must be ascending`, LINE_MAX_BYTES),
          );
          if (problems.length === MAX_PROBLEMS) return problems;
        }
      }
    }
  }
  return problems;
}

/** Each case's expected outcome, made once per case (its key is then worked out once). */
const expectedOutcomes = new WeakMap<Case, Outcome>();

/** The key of case `c`'s expected answer (`output`: its expected.json output). */
function expectedKey(c: Case, output: ProgramOutput): string {
  let expected = expectedOutcomes.get(c);
  if (expected === undefined) {
    expected = { kind: "output", mode: c.mode, output };
    expectedOutcomes.set(c, expected);
  }
  return outcomeKey(expected);
}

/**
 * Judges one run of one case.
 *
 * @param c the case (its mode and expected outcome)
 * @param run what the process did, its output capped (capRun)
 * @param outputSchema the ajv validator for the case's mode's output
 * @param timeoutMs the per-case CPU limit in ms (the kernel applies it in whole seconds)
 */
export function judge(
  c: Case,
  run: CappedRun,
  outputSchema: ValidateFunction,
  timeoutMs = Number.POSITIVE_INFINITY,
): Verdict {
  const stderrLine = firstLine(run.stderr.firstLine);
  const badMember = memberOfErrorLine(stderrLine);
  const reported =
    badMember === undefined
      ? {}
      : { reportedBadInput: { member: badMember, offset: reportedOffset(stderrLine) } };
  const verdict = (
    status: Status,
    reason: Reason | null,
    message: string,
    outcome: Outcome,
  ): Verdict => ({
    status,
    reason,
    message,
    outcome,
    ...reported,
  });
  if (run.spawnError !== null) {
    return verdict("error", "crash", `could not start the program: ${run.spawnError}`, {
      kind: "crash",
      exitCode: null,
      signal: null,
    });
  }
  if (run.sandboxError !== null) {
    return verdict(
      "error",
      "crash",
      `the grader's sandbox could not start the program (${run.sandboxError}); not the program's fault: tell your instructor`,
      {
        kind: "crash",
        exitCode: null,
        signal: null,
      },
    );
  }
  // The kernel decides: SIGXCPU at the CPU limit, or SIGKILL a second later for a program that
  // ignored it (its CPU time then at the limit; `times` may count a little short of the kernel).
  const cpuLimitMs = Math.max(1, Math.ceil(timeoutMs / 1000)) * 1000;
  const killedAtCpuLimit =
    run.signal === "SIGKILL" && run.cpuMs !== null && run.cpuMs >= cpuLimitMs * 0.8;
  if (run.treeLimit === "cpu") {
    return verdict(
      "timeout",
      "timeout",
      `its processes together used more CPU time than the limit (${cpuLimitMs / 1000} s)`,
      { kind: "timeout" },
    );
  }
  if (run.treeLimit === "memory") {
    return verdict("error", "memory", "its processes together used more memory than the limit", {
      kind: "memory",
    });
  }
  if (run.signal === "SIGXCPU" || killedAtCpuLimit) {
    return verdict(
      "timeout",
      "timeout",
      `used more CPU time than the limit (${cpuLimitMs / 1000} s)`,
      { kind: "timeout" },
    );
  }
  if (run.timedOut) {
    return verdict(
      "timeout",
      "timeout",
      run.budget
        ? "stopped when the grading's time budget ran out (--time-budget), before it finished"
        : run.idle
          ? "did not finish: it used almost no CPU for seconds on end (it sleeps or waits)"
          : "did not finish: it used almost no CPU (under 2% on average) until the wall-clock limit",
      { kind: "timeout" },
    );
  }
  if (run.outputCapped !== null) {
    return verdict(
      "error",
      "output-cap",
      `printed more than the output cap on ${run.outputCapped}`,
      { kind: "output-cap" },
    );
  }
  // Its last words may come after a long log: the end of standard error is read too.
  if (
    run.exitCode !== 0 &&
    (isMemoryDeath(run.stderr.lines) || isMemoryDeath(run.stderrTail.lines))
  ) {
    return verdict(
      "error",
      "memory",
      "ran out of memory (the heap or data memory limit was reached)",
      {
        kind: "memory",
      },
    );
  }
  if (run.exitCode === 3 && stderrLine.startsWith("not implemented yet:")) {
    // main.ts decodes every member before it assigns: a program that reached assignRange's stub
    // where Kafka rejects a member's bytes accepted them, which is a failure of its decoder.
    if (
      "error" in c.expected &&
      c.mode === "assign" &&
      stderrLine.startsWith("not implemented yet: assignRange ")
    ) {
      return verdict(
        "fail",
        "wrong-error",
        `expected exit 1 rejecting member ${JSON.stringify(c.expected.error.member)}'s bytes, but the program decoded every member and went on to assignRange, still a stub`,
        { kind: "not-implemented" },
      );
    }
    return verdict("error", "not-implemented", stderrLine, { kind: "not-implemented" });
  }

  if (run.exitCode === 0) {
    let output: unknown;
    try {
      output = JSON.parse(run.stdout.text);
    } catch (error) {
      return verdict(
        "fail",
        "invalid-output",
        `standard output is not JSON: ${(error as Error).message}`,
        { kind: "invalid-output" },
      );
    }
    // Far larger than the case allows: wrong by its size, before anything reads it closely.
    const size = answerSize(c.mode, output);
    if (oversized(size, caseAnswerSize(c))) {
      const outcome: Outcome = { kind: "oversized", mode: c.mode, size };
      if ("error" in c.expected)
        return verdict(
          "fail",
          "wrong-error",
          `expected exit 1 rejecting member ${JSON.stringify(c.expected.error.member)}'s bytes, but the program printed an answer (far larger than the case allows: ${describeSize(c.mode, size)})`,
          outcome,
        );
      return verdict(
        "fail",
        "wrong-output",
        `the answer is far larger than Kafka's: ${describeSize(c.mode, size)}, where Kafka's has ${describeSize(c.mode, answerSize(c.mode, c.expected.output))}`,
        outcome,
      );
    }
    const problems = outputProblems(c, output, outputSchema);
    if (problems.length > 0) {
      return verdict(
        "fail",
        "invalid-output",
        `standard output is not the documented ${c.mode} JSON: ${problems.slice(0, 3).join("; ")}`,
        {
          kind: "invalid-output",
        },
      );
    }
    const printed = output as ProgramOutput;
    const actual =
      c.mode === "decode" && "output" in c.expected
        ? decodeFieldsChecked(printed as DecodeOutput, c.expected.output as DecodeOutput)
        : printed;
    const outcome: Outcome = { kind: "output", mode: c.mode, output: actual };
    if ("error" in c.expected) {
      return {
        ...verdict(
          "fail",
          "wrong-error",
          `expected exit 1 rejecting member ${JSON.stringify(c.expected.error.member)}'s bytes, but the program printed an answer`,
          outcome,
        ),
        actual,
      };
    }
    if (outcomeKey(outcome) === expectedKey(c, c.expected.output))
      return { ...verdict("pass", null, "", outcome), actual };
    return {
      ...verdict("fail", "wrong-output", "the answer differs from Kafka's", outcome),
      actual,
    };
  }

  if (run.exitCode === 1) {
    const member = badMember;
    if (member === undefined) {
      // Exit 1 without the documented line is how Node ends on an uncaught exception: a crash.
      return verdict(
        "error",
        "crash",
        `exit 1 without the documented first line error: member "<id>": ... on standard error; ${
          uncaughtErrorOf(run.stderr) === undefined
            ? `got ${JSON.stringify(stderrLine.slice(0, 200))}`
            : `an uncaught exception: ${uncaughtErrorOf(run.stderr)}`
        }`,
        { kind: "crash", exitCode: 1, signal: null, stderr: run.stderr.text.slice(0, 4000) },
      );
    }
    const outcome: Outcome = {
      kind: "error",
      member,
      offset: reportedOffset(stderrLine),
      line: stderrLine,
    };
    if ("output" in c.expected) {
      return verdict(
        "fail",
        "wrong-output",
        `rejected member ${JSON.stringify(member)}'s bytes, but every subscription in this case is valid`,
        outcome,
      );
    }
    if (member !== c.expected.error.member) {
      return verdict(
        "fail",
        "wrong-error",
        `rejected member ${JSON.stringify(member)}, but the first bad member is ${JSON.stringify(c.expected.error.member)}`,
        outcome,
      );
    }
    return verdict("pass", null, "", outcome);
  }

  const how =
    run.exitCode !== null
      ? `exited with code ${run.exitCode}`
      : `was killed by ${run.signal ?? "a signal"}`;
  const internal = internalErrorOf(run.stderr);
  return verdict(
    "error",
    "crash",
    internal !== undefined
      ? `the program ${how}: an uncaught exception: ${internal}`
      : `the program ${how}${stderrLine ? `: ${stderrLine.slice(0, 200)}` : ""}`,
    {
      kind: "crash",
      exitCode: run.exitCode,
      signal: run.signal,
      stderr: run.stderr.text.slice(0, 4000),
    },
  );
}
