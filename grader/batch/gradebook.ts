/**
 * The class gradebook (OUT/gradebook.csv): one row per submission, sorted by name in code-unit
 * order, built from the submissions' results JSON alone, so a batch and a merge of its shards
 * write the same bytes. Columns: submission, score, max, extension_score, extension_max, total,
 * total_max and extension_policy (the results file's total, maxTotal and extensionPolicy: the
 * total under the extension policy, as every format shows it), one per case id with its status
 * (pass, fail, error, timeout, skipped), main_mistake, mistakes (every mistake named on a failed
 * case, space-separated, main_mistake first), not_graded (why no case ran: `build-error`,
 * `not-a-submission`, `grader-error`, `timeout`; empty when the cases ran). Every cell is
 * written by escape.ts csvText: one line, control and bidi characters visible, and a cell a
 * spreadsheet would run as a formula guarded with a leading apostrophe (submission names are
 * chosen by students); a name's bytes that are not UTF-8 show as `\xNN` (names.ts shownName).
 */
import { csvText } from "../report/escape.ts";
import { passed } from "../results.ts";
import type { resultsJson } from "../report/json.ts";
import { byCodeUnits } from "./shard.ts";
import { shownName } from "./names.ts";

/** One submission's results as the results JSON has them (resultsJson, --format json). */
export type SubmissionResults = ReturnType<typeof resultsJson>;

/** What the gradebook and the report need of a case: the same for every submission of a batch. */
export interface CaseInfo {
  id: string;
  title: string;
  required: boolean;
  maxPoints: number;
}

/**
 * Every mistake named on the submission's failed cases, the one that best explains them first:
 * each failed case gives its named mistakes a weight of 1 shared among them (a case naming one
 * mistake alone gives it 1, a case naming two gives each 1/2), so a mistake that some case tells
 * apart comes before one it was only confused with; equal weights keep case order. The gradebook,
 * the class report's chart and its tables all read this, so they agree with the per-case results.
 */
export function namedMistakes(results: SubmissionResults): string[] {
  const weights = new Map<string, number>();
  for (const c of results.cases) {
    if (passed(c) || c.mistakes.length === 0) continue;
    for (const id of c.mistakes) weights.set(id, (weights.get(id) ?? 0) + 1 / c.mistakes.length);
  }
  // Array.prototype.sort is stable: a Map iterates in insertion order, so ties stay in case order.
  return [...weights]
    .sort(([, a], [, b]) => (Math.abs(a - b) < 1e-9 ? 0 : b - a))
    .map(([id]) => id);
}

/** The mistake that best explains the failed cases (namedMistakes' first), null when none is named. */
export function mainMistake(results: SubmissionResults): string | null {
  return namedMistakes(results)[0] ?? null;
}

/** The gradebook's header row (raw; csvText escapes it). */
export function gradebookHeader(cases: readonly CaseInfo[]): string[] {
  return [
    "submission",
    "score",
    "max",
    "extension_score",
    "extension_max",
    "total",
    "total_max",
    "extension_policy",
    ...cases.map((c) => c.id),
    "main_mistake",
    "mistakes",
    "not_graded",
  ];
}

/**
 * The gradebook as CSV text (csvText: RFC 4180 quoting, LF line ends, cells escaped and guarded
 * against formulas), a header row first.
 *
 * @param submissions every submission's results, in any order (rows are sorted by name)
 * @param cases the batch's cases, in fixture order: one status column each; a case a submission's
 *   results lack gets an empty cell
 */
export function gradebookCsv(
  submissions: readonly SubmissionResults[],
  cases: readonly CaseInfo[],
): string {
  const rows = [...submissions]
    .sort((a, b) => byCodeUnits(a.submission, b.submission))
    .map((s) => {
      const status = new Map(s.cases.map((c) => [c.id, c.status]));
      return [
        shownName(s.submission),
        String(s.score),
        String(s.maxScore),
        String(s.extensionScore),
        String(s.extensionMaxScore),
        String(s.total),
        String(s.maxTotal),
        s.extensionPolicy,
        ...cases.map((c) => status.get(c.id) ?? ""),
        mainMistake(s) ?? "",
        namedMistakes(s).join(" "),
        s.notGraded?.reason ?? "",
      ];
    });
  return csvText([gradebookHeader(cases), ...rows]);
}
