/**
 * One explanation per case that did not pass, built once when the case's record is (record.ts): the
 * input in brief, how the answer compares (a grid of owners, a line diff, or expected against
 * what the program did), the hex dump of the bytes that matter, the end of standard error, the
 * advice (the named mistake, or the case's hint). All of it
 * data (results.ts); the reports format it and never analyse anything themselves.
 *
 * The drawings run on what a program printed, which can be anything: each is bounded (grid.ts,
 * diff.ts, hexdump.ts), and one that throws becomes a NotDrawn part while the rest stands.
 */
import { inputBrief } from "../cases/brief.ts";
import {
  isPrivateCase,
  metadataBytes,
  type AssignmentOutput,
  type Case,
  type DecodeOutput,
  type SyncOutput,
} from "../cases/load.ts";
import { CATALOGUE } from "../diagnose/catalogue.ts";
import { shownByBytes } from "../diagnose/sync-evidence.ts";
import type { MemberBytes } from "../diagnose/data.ts";
import {
  passed,
  type Advice,
  type BytesDump,
  type CaseHint,
  type Comparison,
  type Explanation,
  type NotDrawn,
} from "../results.ts";
import { describeOutcome } from "../verdict/outcome.ts";
import type { Reason, Status, Verdict } from "../verdict/verdict.ts";
import { ANSWER_SIZE_FACTOR, answerSize, describeSize } from "../verdict/answer-size.ts";
import { programTextLines } from "../printable.ts";
import { assignmentKey } from "../verdict/assignment-bytes.ts";
import { assignmentFieldLines } from "./assignment-fields.ts";
import { lineDiff, outputLines } from "./diff.ts";
import { assignmentGrid, quote } from "./grid.ts";
import { decodeFocus, hexDump } from "./hexdump.ts";

/** Lines of standard error kept for an error's explanation (its end: where a stack trace is). */
export const STDERR_TAIL_LINES = 8;

/** A graded case as explain reads it: the case and its verdict, before any report sees them. */
export interface GradedCase {
  case: Case;
  verdict: Verdict;
  status: Status;
  reason: Reason | null;
  /** The catalogued mistakes named (diagnose/), most specific first. */
  mistakes: readonly string[];
  /** Standard error as the program wrote it (capped). */
  stderr: string;
}

/** What explain needs besides the graded case itself. */
export interface ExplainContext {
  /** The recorded field boundaries of the case's members' bytes (diagnosis data), if any. */
  layouts?: ReadonlyMap<string, MemberBytes> | undefined;
}

/**
 * Runs one drawing; when it throws, a NotDrawn with the first line of the error's message (or
 * "an error that cannot be printed" when not even that can be read) instead, so one case's
 * drawing never stops the grading or the report.
 */
export function drawSafely<T>(draw: () => T): T | NotDrawn {
  try {
    return draw();
  } catch (error) {
    let message: string;
    try {
      message = String(error instanceof Error ? error.message : error);
    } catch {
      message = "an error that cannot be printed";
    }
    const end = message.indexOf("\n");
    return { kind: "not-drawn", error: end === -1 ? message : message.slice(0, end) };
  }
}

/** Up to eight names as JSON strings (each cut as the grid cuts them), then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 8).map(quote);
  return [...shown, ...(names.length > 8 ? [`+${names.length - 8} more`] : [])].join(", ");
}

/** Members present on one side only (an assignment or a sync answer): one line per side that has any. */
export function memberSetLines(
  expected: Readonly<Record<string, unknown>>,
  actual: Readonly<Record<string, unknown>>,
): string[] {
  const missing = Object.keys(expected).filter((m) => !Object.hasOwn(actual, m));
  const extra = Object.keys(actual).filter((m) => !Object.hasOwn(expected, m));
  return [
    ...(missing.length > 0 ? [`missing members (${missing.length}): ${someNames(missing)}`] : []),
    ...(extra.length > 0
      ? [`members that are not in the group (${extra.length}): ${someNames(extra)}`]
      : []),
  ];
}

/** Members whose bytes a sync comparison draws field by field; the others are counted. */
const SYNC_MEMBERS_DRAWN = 2;

/**
 * A wrong sync answer: the members on one side only, and the first SYNC_MEMBERS_DRAWN members (in
 * the expected answer's order) whose bytes differ from Kafka's as Kafka reads them, each field by
 * field beside Kafka's (assignmentFieldLines).
 */
function syncComparison(want: SyncOutput, got: SyncOutput): Comparison {
  const differing = Object.keys(want).filter(
    (m) => Object.hasOwn(got, m) && assignmentKey(got[m] ?? "") !== assignmentKey(want[m] ?? ""),
  );
  return {
    kind: "fields",
    memberSets: memberSetLines(want, got),
    members: differing.slice(0, SYNC_MEMBERS_DRAWN).map((member) => ({
      member,
      lines: assignmentFieldLines(member, got[member] ?? "", want[member] ?? ""),
    })),
    more: Math.max(0, differing.length - SYNC_MEMBERS_DRAWN),
  };
}

/** How the answer compares: a grid for a wrong assignment, a diff for a wrong decode, or words. */
function comparison(r: GradedCase): Comparison {
  const c = r.case;
  const expected = c.expected;
  const actual = r.verdict.actual;
  const { outcome } = r.verdict;
  if (outcome.kind === "oversized") {
    // Only the counts: nothing reads an answer this large closely (answer-size.ts).
    return {
      kind: "outcome",
      expected:
        "error" in expected
          ? `exit 1, first line of standard error: error: member ${JSON.stringify(expected.error.member)}: ...`
          : `Kafka's answer: ${describeSize(c.mode, answerSize(c.mode, expected.output))}`,
      actual: `the program printed an answer far larger than ${"error" in expected ? "the case allows" : "Kafka's"}: ${describeSize(c.mode, outcome.size)} (the grader compares answers up to ${ANSWER_SIZE_FACTOR} times the size the case allows)`,
    };
  }
  if ("output" in expected && actual !== undefined && r.reason === "wrong-output") {
    if (c.mode === "assign") {
      const want = expected.output as AssignmentOutput;
      const got = actual as AssignmentOutput;
      return drawSafely(() => ({
        kind: "grid" as const,
        memberSets: memberSetLines(want, got),
        grid: assignmentGrid(c.input.topics, want, got),
      }));
    }
    if (c.mode === "sync") {
      const want = expected.output as SyncOutput;
      const got = actual as SyncOutput;
      return drawSafely(() => syncComparison(want, got));
    }
    return drawSafely(() => ({
      kind: "diff" as const,
      lines: lineDiff(outputLines(c.mode, expected.output), outputLines(c.mode, actual)),
    }));
  }
  return {
    kind: "outcome",
    expected:
      "error" in expected
        ? `exit 1, first line of standard error: error: member ${JSON.stringify(expected.error.member)}: ...`
        : "an answer on standard output (exit 0)",
    actual: `the program ${describeOutcome(r.verdict.outcome)}`,
  };
}

/**
 * The hex dump of the member whose bytes matter (the one the program rejected, the first bad one,
 * or the first it decoded wrong), when the recorded data has that member's fields; else null.
 */
function bytesDump(
  r: GradedCase,
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): BytesDump | null {
  const c: Case = r.case;
  if (layouts === undefined || layouts.size === 0) return null;
  const { outcome, reportedBadInput } = r.verdict;
  // What the program said was bad, as the verdict read it from standard error's first line.
  const said =
    outcome.kind === "error"
      ? { member: outcome.member, offset: outcome.offset }
      : reportedBadInput;
  const focus = decodeFocus(
    c.mode,
    c.expected,
    {
      output: c.mode === "decode" ? (r.verdict.actual as DecodeOutput | undefined) : undefined,
      rejected: said?.member,
      offset: said?.offset,
    },
    c.input.members.map((m) => m.memberId),
    layouts,
  );
  const member =
    focus === undefined ? undefined : c.input.members.find((m) => m.memberId === focus.member);
  const layout = focus === undefined ? undefined : layouts.get(focus.member);
  if (focus === undefined || member === undefined || layout === undefined) return null;
  return {
    kind: "bytes",
    member: focus.member,
    lines: hexDump(metadataBytes(member), layout, focus.caret),
  };
}

/**
 * What a case's hint says when the program failed otherwise than the case is built to show: a
 * case's hint is written for a wrong answer where Kafka gives one, or for an answer where Kafka
 * rejects a member's bytes. A crash, a valid member rejected, or output that is not an answer
 * get words for what the program did instead; undefined when the case's own hint fits.
 */
function hintFor(
  r: GradedCase,
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): { hint: string; lesson: string } | undefined {
  const outcome = r.verdict.outcome;
  const badBytes = "error" in r.case.expected;
  if (outcome.kind === "crash") {
    // A main.ts from before the sync stage: Node's parseArgs refuses the option it does not know.
    if (r.case.mode === "sync" && outcome.exitCode === 2 && r.stderr.includes("'--sync'")) {
      return {
        hint: "Your src/main.ts does not know --sync: it is older than the sync stage (kit 1.3). Take src/main.ts from the kit's current handout (your instructor's upgrade replaces it); your own files stay as they are.",
        lesson: "the-assignment-bytes",
      };
    }
    return badBytes
      ? {
          hint: "The program crashed on bytes Kafka rejects: read the error and the line it names, and throw SubscriptionDecodeError (the field, the offset) where the bytes stop making sense, never let a read fail by itself.",
          lesson: "bad-bytes",
        }
      : {
          hint: "The program crashed on input Kafka handles: read the error and the line it names on standard error, and fix that line first; nothing in this case should throw.",
          lesson: "the-exercise",
        };
  }
  if (outcome.kind === "error" && (!badBytes || layouts?.get(outcome.member)?.error === null)) {
    return {
      hint: "The program rejected a member whose bytes Kafka reads: compare each field it read, its width and its byte order, with the bytes, up to where it stopped.",
      lesson: "reading-lengths",
    };
  }
  if (outcome.kind === "invalid-output") {
    return {
      hint: "The program's standard output is not the answer: print exactly one JSON object, as the exercise's Output section says, and write anything else to standard error.",
      lesson: "the-exercise",
    };
  }
  return undefined;
}

/**
 * Whether the program stopped on the case before what the case checks: it crashed where Kafka
 * gives an answer, or rejected a member whose bytes Kafka reads (an answer was due, or another
 * member's bytes are the bad ones). Then nothing after that point of the case was checked, and a
 * mistake named there can hide another one further on.
 */
function stoppedShort(
  r: GradedCase,
  layouts: ReadonlyMap<string, MemberBytes> | undefined,
): boolean {
  const outcome = r.verdict.outcome;
  const expected = r.case.expected;
  if (outcome.kind === "crash") return !("error" in expected);
  if (outcome.kind !== "error") return false;
  if (!("error" in expected)) return true;
  return outcome.member !== expected.error.member && layouts?.get(outcome.member)?.error === null;
}

/**
 * The named mistakes (catalogue order as given, unknown ids left out), else the case's hint, or,
 * when the program failed otherwise than the case is built to show, words for what it did
 * (hintFor).
 */
function advice(r: GradedCase, layouts?: ReadonlyMap<string, MemberBytes>): Advice {
  const named = r.mistakes.flatMap((id) => {
    const m = CATALOGUE.get(id);
    return m === undefined
      ? []
      : [{ id: m.id, name: m.name, explanation: m.explanation, lesson: m.lesson }];
  });
  if (named.length > 0) {
    const { outcome } = r.verdict;
    const expected = r.case.expected;
    const together =
      named.length > 1 &&
      outcome.kind === "output" &&
      outcome.mode === "sync" &&
      "output" in expected &&
      shownByBytes(
        outcome.output as SyncOutput,
        expected.output as SyncOutput,
        named.map((m) => m.id),
      ) !== undefined;
    return {
      kind: "mistakes",
      mistakes: named,
      together,
      stoppedShort: stoppedShort(r, layouts),
    };
  }
  return caseHint(r, layouts);
}

/** The case's hint, or words for what the program did where the hint does not fit (hintFor). */
function caseHint(r: GradedCase, layouts?: ReadonlyMap<string, MemberBytes>): CaseHint {
  const own = hintFor(r, layouts);
  return { kind: "hint", hint: own?.hint ?? r.case.hint, lesson: own?.lesson ?? r.case.lesson };
}

/**
 * The hint on a case line written before the names are confirmed: caseHint, except where the
 * outcome matched a catalogued mistake's and none the case is written for (its `mistakes`): the
 * case's own hint would then point at a mistake the program did not make, so the line says what
 * it did do, with the lesson section of those mistakes when they share one.
 */
function unconfirmedHint(r: GradedCase, layouts?: ReadonlyMap<string, MemberBytes>): CaseHint {
  const matched = r.mistakes.filter((id) => CATALOGUE.get(id)?.evidence === "mutant");
  const otherMistake = matched.length > 0 && !matched.some((id) => r.case.mistakes.includes(id));
  if (!otherMistake || hintFor(r, layouts) !== undefined) return caseHint(r, layouts);
  // The section those mistakes are taught in, when they share one; else the list of them all.
  const sections = new Set(matched.map((id) => CATALOGUE.get(id)?.lesson));
  const [section] = sections;
  return {
    kind: "hint",
    hint: "Your program's outcome here is what a catalogued mistake gives, not one this case was written for.",
    lesson: sections.size === 1 && section !== undefined ? section : "common-mistakes",
  };
}

/**
 * The explanation of one graded case: null when it passed; for a stub, a skipped case or a private
 * case only the advice; otherwise the details too (the comparison; the hex dump for a
 * wrong answer or a crash; the last STDERR_TAIL_LINES lines of standard error for an error).
 * Never throws on what the program printed: a drawing that throws is a NotDrawn part.
 *
 * @param r the graded case (its verdict, standard error and named mistakes)
 * @param context the recorded byte layouts of the case's members
 */
export function explain(r: GradedCase, context: ExplainContext): Explanation | null {
  return explanationOf(r, context, false);
}

/**
 * explain, a private case's details included (its input, the comparison, the bytes, standard
 * error's end): for the instructor's view of private cases alone (record.ts privateCaseView),
 * never for a case's record.
 */
export function explainInFull(r: GradedCase, context: ExplainContext): Explanation | null {
  return explanationOf(r, context, true);
}

function explanationOf(
  r: GradedCase,
  context: ExplainContext,
  inFull: boolean,
): Explanation | null {
  if (passed(r)) return null;
  const base = {
    advice: advice(r, context.layouts),
    hint: unconfirmedHint(r, context.layouts),
  };
  // A private case's input and answer are never shown, whichever report this goes into.
  if (
    r.reason === "not-implemented" ||
    r.status === "skipped" ||
    (!inFull && isPrivateCase(r.case))
  )
    return { ...base, details: null };
  const tail =
    r.status === "error" && r.stderr.trim() !== ""
      ? programTextLines(r.stderr).slice(-STDERR_TAIL_LINES)
      : [];
  return {
    ...base,
    details: {
      input: inputBrief(r.case),
      comparison: comparison(r),
      bytes:
        r.status === "fail" || r.reason === "crash"
          ? drawSafely(() => bytesDump(r, context.layouts))
          : null,
      stderrTail: tail,
    },
  };
}
