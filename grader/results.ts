/**
 * What grading produces, as data: one CaseResult per case (its verdict, the mistakes named, and
 * for a case that did not pass one structured Explanation) and the run's GradeResults. record.ts
 * builds each case's (the explanation with explain/); every reporter, the watch loop and the
 * batch only read them. The explanation holds what a report shows as typed fields, never as escaped or
 * coloured text: each format escapes and colours it where it writes it (report/escape.ts).
 *
 * Also what a student may see of a grading (`studentView`), the one definition of passing: a case passed (`passed`) and a grading passed
 * (`everyRequiredPassed`), for the exit code, the batch and the class report alike; and the one
 * place scores and the total are summed (`scoresOf`, with totals.ts's extension policy).
 */
import type { Mode } from "./cases/load.ts";
import { policyTotal, type ExtensionPolicy, type SplitScores, type Total } from "./totals.ts";
import type { Reason, Status } from "./verdict/verdict.ts";

/** One line of expected against actual: ` ` both, `-` expected, `+` actual, `…` a note. */
export interface DiffLine {
  sign: " " | "-" | "+" | "…";
  text: string;
}

/**
 * A drawing that could not be made (it threw, say on an output whose values do not have the
 * declared types): its error message's first line, as thrown (not cut, not escaped). The rest of
 * the case's explanation stands.
 */
export interface NotDrawn {
  kind: "not-drawn";
  error: string;
}

/** How the program's answer compares with the expected one. */
export type Comparison =
  /**
   * A wrong assignment: members on one side only (one line per side that has any, e.g.
   * `missing members (1): "solo"`), and the grid of who owns which partition (assignmentGrid's
   * lines; empty when the owners do not differ).
   */
  | { kind: "grid"; memberSets: string[]; grid: string[] }
  /** A wrong decode: the line diff of expected against actual (lineDiff's lines). */
  | { kind: "diff"; lines: DiffLine[] }
  /**
   * Wrong assignment bytes (--sync): members on one side only (as for a grid), and for the first
   * members whose bytes differ, their fields beside Kafka's, the first wrong one marked
   * (assignmentFieldLines); `more` counts the differing members not drawn.
   */
  | {
      kind: "fields";
      memberSets: string[];
      members: { member: string; lines: string[] }[];
      more: number;
    }
  /** Anything else: what was expected and what the program did, one sentence each. */
  | { kind: "outcome"; expected: string; actual: string }
  | NotDrawn;

/** One member's subscription bytes, a field per line, the caret under where reading goes wrong. */
export interface BytesDump {
  kind: "bytes";
  member: string;
  /** hexDump's lines: offset, bytes, field, value; a caret line under one of them. */
  lines: string[];
}

/** A catalogued mistake, as a report names it. */
export interface NamedMistake {
  id: string;
  name: string;
  /** What the student most likely did and what to do instead. */
  explanation: string;
  /** The LESSON.md anchor (without `#`). */
  lesson: string;
}

/**
 * What to do about a failed case: the mistakes named, or else the case's hint. `together`: the
 * mistakes are all there, shown together by the program's bytes (a sync case), not several a
 * behaviour fits, one of them. `stoppedShort`:
 * the program stopped on this case (rejected a member Kafka reads, or crashed) before the answer
 * the case checks, so the named mistake may hide another one further on.
 */
export type Advice =
  | { kind: "mistakes"; mistakes: NamedMistake[]; together: boolean; stoppedShort: boolean }
  | CaseHint;

/** A case's own hint and lesson section, true of the case whatever the program's mistake. */
export interface CaseHint {
  kind: "hint";
  hint: string;
  lesson: string;
}

/** What a report may show of a failure beyond the advice (public cases; never for a stub). */
export interface ExplanationDetails {
  /** The input in brief (cases/brief.ts). */
  input: string;
  comparison: Comparison;
  /** The hex dump of the member whose bytes matter, for a wrong answer or a crash; or null. */
  bytes: BytesDump | NotDrawn | null;
  /** The last lines of standard error as the program wrote them, for an error; else empty. */
  stderrTail: string[];
}

/** Everything a report explains about one case that did not pass. */
export interface Explanation {
  /** null for a stub and a skipped case, whose one line says it all. */
  details: ExplanationDetails | null;
  advice: Advice;
  /**
   * The case's hint, for a report written before the names are checked against every case (the
   * text report's case lines): a name on one case may not stand once the others have run. Where
   * the program failed otherwise than the case is built to show (a crash, a valid member
   * rejected, output that is not an answer), words for what it did instead, as in the advice.
   */
  hint: CaseHint;
}

/**
 * What a report may show of a visible case to run it by hand: the input in brief and the expected
 * answer as one line of text.
 */
export interface CaseExample {
  input: string;
  expected: string;
}

/**
 * One case's record: everything any report prints about the case, built once (record.ts). A
 * private case's record holds nothing of its input or answer (no member id, topic, byte or
 * expected value, in any field): what a report cannot hold it cannot leak.
 */
/** How a case ran: in a shared process (its clean pass kept), or in its own process. */
export type CaseRun = "shared" | "isolated";

export interface CaseResult {
  id: string;
  title: string;
  /** How reports name the case: `<id>: <title>`, with ` (extension)` for an extension case. */
  name: string;
  required: boolean;
  /** A case of a --fixtures folder: students never see it (studentView). */
  private: boolean;
  /** The folder a private case came from (its id's first part); null for the others. */
  folder: string | null;
  /** A built-in case's case.json, an absolute path; null for the others. */
  caseFile: string | null;
  /** How the program ran: `assign` (no flag), `decode` (--decode) or `sync` (--sync). */
  mode: Mode;
  /** decodeSubscription alone decides the case (a decode, or bytes Kafka rejects); never for a private case. */
  decodeOnly: boolean;
  status: Status;
  reason: Reason | null;
  points: number;
  maxPoints: number;
  /** The catalogued mistake the outcome matches, when one does (see diagnose/); the first of several. */
  mistake: string | null;
  /** Every catalogued mistake the outcome matches (most specific first; usually one). */
  mistakes: string[];
  message: string;
  /** The line saying why the case did not pass, not yet escaped: `<reason>: <message>`, a stub's message alone. */
  why: string;
  /** Standard error as the program wrote it (capped); empty for a private case. */
  stderr: string;
  /** Wall-clock time of the run, milliseconds (not part of any verdict). */
  durationMs: number;
  /** CPU time the program used, milliseconds, where the sandbox measured it. */
  cpuMs: number | null;
  /**
   * How the case ran (run/shared-run.ts): `shared`, a clean pass in a process shared with the
   * group's other cases; `isolated`, in its own process (every case that did not pass shared,
   * every case with --isolate or --cmd); null when it did not run (skipped, no build).
   */
  ran: CaseRun | null;
  /** The command line that grades just this case again, as this grading was started. */
  rerun: string;
  /** The command that grades just this case in a student's handout (`npm run grade -- --only ID`). */
  handoutRerun: string;
  /** The input in brief and the answer, for a visible case; null for a private one. */
  example: CaseExample | null;
  /** Built once, when the case is graded; null for a case that passed. */
  explanation: Explanation | null;
}

/**
 * Why a submission got no normal grading, none of its cases run: `build-error` (the bundler, or
 * tsc with --types, rejected it), `not-a-submission` (a batch folder with no src/main.ts, or one
 * whose files cannot be graded), `grader-error` (the grader itself failed on it: not the
 * submission's fault), `timeout` (the grading's time budget, --time-budget, ran out before any
 * case could start).
 */
export type NotGradedReason = "build-error" | "not-a-submission" | "grader-error" | "timeout";

/**
 * The one failure a submission that got no normal grading reports, at the top of every format:
 * the reason, and the errors as the build (or the batch) gave them, one entry each (a compiler
 * message quotes the submission's files: reports escape them as program text).
 */
export interface NotGraded {
  reason: NotGradedReason;
  errors: string[];
}

/** At most this many of a build's errors are kept in the results (each format shows them all). */
export const NOT_GRADED_MAX_ERRORS = 50;
/** ... and at most this many bytes (UTF-8) of them together. */
export const NOT_GRADED_MAX_BYTES = 16 * 1024;

/**
 * A build's errors as the results keep them: the first ones, up to NOT_GRADED_MAX_ERRORS entries
 * and NOT_GRADED_MAX_BYTES bytes together (an entry longer than what is left is cut to it), then
 * one line saying how many more there were. A submission chooses what its build says (its file
 * names, the paths it imports, its type errors): the size of every report must not be its choice.
 *
 * @param errors one entry per error, as the build gave them
 * @returns a new array; `errors` itself when it is within both bounds
 */
export function boundedErrors(errors: readonly string[]): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const error of errors) {
    const size = Buffer.byteLength(error, "utf8");
    if (kept.length === NOT_GRADED_MAX_ERRORS || bytes + size > NOT_GRADED_MAX_BYTES) {
      if (kept.length < NOT_GRADED_MAX_ERRORS && bytes < NOT_GRADED_MAX_BYTES) {
        const room = NOT_GRADED_MAX_BYTES - bytes;
        // Cut on a byte boundary: a character split in two decodes to U+FFFD, dropped.
        const cut = Buffer.from(error, "utf8").subarray(0, room).toString("utf8");
        kept.push(`${cut.endsWith("\uFFFD") ? cut.slice(0, -1) : cut}…`);
      }
      const more = errors.length - kept.length;
      if (more === 0) return kept;
      return [
        ...kept,
        `… ${more} more error${more === 1 ? "" : "s"} not shown (the first ${kept.length} are above)`,
      ];
    }
    kept.push(error);
    bytes += size;
  }
  return [...errors];
}

/**
 * What the instructor sees of a private case, in full: its input in brief and Kafka's answer, why
 * it did not pass in the verdict's own words, the explanation with its details (the grid or diff,
 * the bytes, standard error's end) and the mistakes named. Built by record.ts privateCaseView
 * apart from the case's record (a CaseResult holds none of it) and handed only to
 * GradeOptions.privateViews (`--show-private FILE`, Gradescope's instructor-only output): no
 * field of GradeResults, CaseResult or a reporter hook's argument can hold one (a test checks
 * the types), so no student-facing format can receive it.
 */
export interface PrivateCaseView {
  /** Marks the type apart from every record: nothing a reporter takes has this field. */
  readonly instructorOnly: true;
  id: string;
  /** `<id>: <title>`, with ` (extension)` for an extension case. */
  name: string;
  mode: Mode;
  status: Status;
  reason: Reason | null;
  /**
   * `<points>/<max>`, one string: a view must not be a structural fit for any type a reporter
   * takes (a `{ points, maxPoints }` total would be one), or it could be stored there unnoticed.
   */
  score: string;
  /** `<reason>: <the verdict's message>` (it may quote the program), empty on a pass. */
  why: string;
  /** The input in brief and the expected answer. */
  example: CaseExample;
  /** null on a pass; the details are there as for a visible case. */
  explanation: Explanation | null;
  /** The command that grades this case again, as this grading was started. */
  rerun: string;
}

export interface GradeResults {
  kit: { version: string; fixtures: string };
  /** The stamp of the case set's visible cases (what studentView shows as `kit.fixtures`). */
  visibleFixtures: string;
  submission: string;
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
  /** How extension points enter `total` (--extension). */
  extension: ExtensionPolicy;
  /** The total under `extension` (scoresOf): what every format's total shows. */
  total: Total;
  cases: CaseResult[];
  /**
   * Why no case ran, when none did (every case is then "not run", with no explanation:
   * record.ts notRunRecord); null for a grading that ran the cases.
   */
  notGraded: NotGraded | null;
  /** Wall time of the whole grading, milliseconds. */
  durationMs: number;
  /** Wall time from the grading's start to the end of its visible phase, milliseconds. */
  visibleDurationMs: number;
}

/** True when a case passed. Takes any result with a status (a CaseResult, a results file case). */
export function passed(r: { status: Status }): boolean {
  return r.status === "pass";
}

/**
 * True when every required case passed: the grader's exit code 0, and what the batch and the
 * class report count as a submission that passed. Extension cases do not count.
 */
export function everyRequiredPassed(
  cases: readonly { required: boolean; status: Status }[],
): boolean {
  return cases.every((r) => !r.required || passed(r));
}

/** A grading's scores: required and extension apart, and the total under the extension policy. */
export interface Scores extends SplitScores {
  total: Total;
}

/**
 * The scores of a set of cases (every case of a grading, or a student's view of it): the points
 * and maxima of the required cases and of the extension cases, summed, and their total under
 * `extension` (totals.ts policyTotal, `bonus` gated on everyRequiredPassed of these cases). The
 * one place a grading's scores are summed: gradeSubmission, studentView and a batch's folder that
 * could not be graded all call it.
 */
export function scoresOf(
  cases: readonly { required: boolean; status: Status; points: number; maxPoints: number }[],
  extension: ExtensionPolicy,
): Scores {
  const sum = (required: boolean, key: "points" | "maxPoints") =>
    cases.filter((r) => r.required === required).reduce((total, r) => total + r[key], 0);
  const split: SplitScores = {
    score: sum(true, "points"),
    maxScore: sum(true, "maxPoints"),
    extensionScore: sum(false, "points"),
    extensionMaxScore: sum(false, "maxPoints"),
  };
  return { ...split, total: policyTotal(extension, split, everyRequiredPassed(cases)) };
}

/**
 * What a student may see of a grading: the visible cases alone (built-in and `--random`), in
 * grading order, the scores and the total summed over them (scoresOf, the same extension policy),
 * the visible cases' stamp as `kit.fixtures`, and the
 * visible phase's wall time as `durationMs`; nothing that counts, sums, stamps or times a private
 * case. The formats a student reads whole (github, classroom, exercism) format this, and
 * Gradescope's top-level output while private tests are hidden. Applying it twice changes nothing.
 */
export function studentView(results: GradeResults): GradeResults {
  const cases = results.cases.filter((r) => !r.private);
  return {
    ...results,
    kit: { version: results.kit.version, fixtures: results.visibleFixtures },
    ...scoresOf(cases, results.extension),
    cases,
    durationMs: results.visibleDurationMs,
  };
}

/** True when a grading had private cases (which studentView leaves out). */
export function hasPrivateCases(results: Pick<GradeResults, "cases">): boolean {
  return results.cases.some((r) => r.private);
}
