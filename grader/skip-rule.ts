/**
 * When a grading stops running a submission's cases: after a few limit verdicts, or once its CPU
 * budget is spent. A pure function of the earlier results in grading order, never of which cases
 * happened to run at the same time.
 */
import { passed, type CaseResult } from "./results.ts";

/**
 * When the cases not yet graded are skipped: after this many limit verdicts (time, memory,
 * output cap, or a failure that used half the CPU limit or slept a whole limit of wall time), in
 * grading order (visible cases first, so a private case never counts towards a visible one's skip).
 */
export const LIMIT_VERDICTS_BEFORE_SKIPPING = 3;
/**
 * A submission's total CPU time across the cases it did not pass, in multiples of the per-case
 * limit. Only those: a case that did not pass ran alone whichever way its group ran
 * (run/shared-run.ts), so the budget is spent the same way shared and --isolate; a pass's CPU time
 * is not (a shared pass starts no process), and each pass is held to the per-case limit anyway.
 */
export const CPU_BUDGET_CASES = 10;
/** With a deadline, the least time left for a case to start, milliseconds (Node starts in ~0.1 s). */
export const MIN_CASE_MS = 1000;

/**
 * True when a result counts towards skipping: it hit a limit, used half the CPU limit, or slept
 * a whole limit of wall time (less than 5% of it in CPU) before failing.
 */
export function isLimitVerdict(r: CaseResult, timeoutMs: number): boolean {
  if (passed(r) || r.status === "skipped") return false;
  if (r.status === "timeout" || r.reason === "memory" || r.reason === "output-cap") return true;
  // A failure that used half the CPU limit counts, and so does one that slept a whole limit of
  // wall time: under 5% of it in CPU (Node's own start is a few percent of a 2 s sleep). A
  // program that only waited for a CPU on a busy machine gets far more (a seventh of a core beside
  // a dozen busy loops on two), so the count, like every verdict, does not depend on the load.
  const cpuMs = r.cpuMs ?? 0;
  return cpuMs >= timeoutMs / 2 || (r.durationMs >= timeoutMs && cpuMs < r.durationMs / 20);
}

/**
 * Decides skipping from the results before a case, in case order only: a pure function of those
 * verdicts, never of which cases happened to run at the same time.
 */
export class SkipRule {
  private limitVerdicts = 0;
  private cpuMs = 0;
  constructor(private readonly timeoutMs: number) {}

  /** Takes the next result in case order. */
  add(r: CaseResult): void {
    if (isLimitVerdict(r, this.timeoutMs)) this.limitVerdicts++;
    if (!passed(r) && r.status !== "skipped") this.cpuMs += r.cpuMs ?? 0;
  }

  /** Why the cases from here on are skipped, or undefined while they are graded. */
  reason(): string | undefined {
    if (this.limitVerdicts >= LIMIT_VERDICTS_BEFORE_SKIPPING)
      return `skipped: ${LIMIT_VERDICTS_BEFORE_SKIPPING} earlier cases hit a limit (time, memory, output size) or came close to the time limit`;
    const budgetMs = CPU_BUDGET_CASES * this.timeoutMs;
    if (this.cpuMs > budgetMs)
      return `skipped: the earlier cases used the submission's CPU budget (${budgetMs / 1000} s)`;
    return undefined;
  }
}

/**
 * Why case `index` is skipped, decided before it starts from the earlier cases that have
 * finished (undefined entries are still running): the skip rule's counts only grow along the
 * case order, so once the finished earlier cases alone reach a limit, the rule applied in case
 * order to every earlier result will too, whatever the running ones end as. Skipping early is
 * therefore never a different verdict, only less work (with cases running in parallel, waiting
 * for every earlier case to be published would run nearly every case of a hanging program).
 *
 * @param results results by case index so far (undefined: not finished)
 * @param index the case about to start
 * @param timeoutMs the per-case time limit, milliseconds
 * @returns the skip message, or undefined when the case must run
 */
export function skipBefore(
  results: readonly (CaseResult | undefined)[],
  index: number,
  timeoutMs: number,
): string | undefined {
  const rule = new SkipRule(timeoutMs);
  for (let i = 0; i < index; i++) {
    const r = results[i];
    if (r !== undefined) rule.add(r);
  }
  return rule.reason();
}
