// The skip rule decided before a case starts (grade.ts skipBefore): from the earlier cases that
// have finished, never different from the rule applied in case order once all have.
import { describe, expect, it } from "vitest";
import { LIMIT_VERDICTS_BEFORE_SKIPPING, skipBefore } from "../../grader/skip-rule.ts";
import type { CaseResult } from "../../grader/results.ts";

const TIMEOUT_MS = 2000;
const result = (status: CaseResult["status"], cpuMs: number, durationMs = 50): CaseResult =>
  ({ status, reason: null, cpuMs, durationMs }) as unknown as CaseResult;
const timeout = () => result("timeout", TIMEOUT_MS, TIMEOUT_MS);
const pass = () => result("pass", 30);

describe("skipBefore", () => {
  it("skips once the finished earlier cases alone hit the limit count, even with cases running", () => {
    expect(LIMIT_VERDICTS_BEFORE_SKIPPING).toBe(3);
    // Cases 0, 2 and 3 timed out; 1 and 4 still run (undefined): case 5 is skipped before it starts.
    const results = [timeout(), undefined, timeout(), timeout(), undefined];
    expect(skipBefore(results, 5, TIMEOUT_MS)).toMatch(/^skipped: 3 earlier cases hit a limit/);
  });

  it("runs a case while the finished earlier cases do not reach the rule, whatever is running", () => {
    const results = [timeout(), undefined, timeout(), pass()];
    expect(skipBefore(results, 4, TIMEOUT_MS)).toBeUndefined();
    // Only earlier cases count: a later case's time-out does not skip an earlier one.
    expect(skipBefore([timeout(), timeout(), pass(), timeout()], 2, TIMEOUT_MS)).toBeUndefined();
  });

  it("a failure counts when it slept a whole limit (under 5% CPU), never when it waited for a CPU", () => {
    // Three crashes after 2 s of wall time each: asleep (Node's start, 90 ms of CPU: 4.5%), or
    // slowed by a busy machine (300 ms of CPU in 2.5 s, 12%): only the sleepers count.
    const slept = () => result("error", 90, 2000);
    const slowed = () => result("error", 300, 2500);
    expect(skipBefore([slept(), slept(), slept()], 3, TIMEOUT_MS)).toMatch(/^skipped: 3 earlier/);
    expect(skipBefore([slowed(), slowed(), slowed()], 3, TIMEOUT_MS)).toBeUndefined();
    // Half the CPU limit counts whatever the wall time.
    expect(
      skipBefore(
        [1, 2, 3].map(() => result("error", 1000, 1100)),
        3,
        TIMEOUT_MS,
      ),
    ).toMatch(/^skipped: 3 earlier/);
  });

  it("skips once the cases that did not pass used the CPU budget (10 limits); a pass's CPU time never counts", () => {
    // Wrong answers after 0.9 s of CPU each (under half the limit: no limit verdict): 22 of them
    // are 19.8 s, 23 are 20.7 s, over the 20 s budget.
    const slowFailures = Array.from({ length: 23 }, () => result("fail", 900));
    expect(skipBefore(slowFailures, 23, TIMEOUT_MS)).toMatch(/CPU budget \(20 s\)/);
    expect(skipBefore(slowFailures.slice(0, 22), 22, TIMEOUT_MS)).toBeUndefined();
    // Passes in between add nothing: a shared pass's CPU time has no process start in it, an
    // isolated one's has, and the budget must be spent the same way in both.
    const mixed = slowFailures.flatMap((f) => [f, result("pass", 1900)]);
    expect(skipBefore(mixed.slice(0, 44), 44, TIMEOUT_MS)).toBeUndefined();
    expect(skipBefore(mixed.slice(0, 45), 45, TIMEOUT_MS)).toMatch(/CPU budget \(20 s\)/);
    const slowPasses = Array.from({ length: 30 }, () => result("pass", 1900));
    expect(skipBefore(slowPasses, 30, TIMEOUT_MS)).toBeUndefined();
  });
});
