// Exercism's test runner entry, bin/run.sh SLUG INPUT_DIR OUTPUT_DIR (exercism/docs,
// building/tooling/test-runners/interface.md): results.json always written and exit 0, status
// error with a message when nothing could be graded; and --time-budget, which keeps a hanging
// submission within Exercism's 20 s. No test here measures time: .ci/run runs bin/run.sh on
// hanging submissions under `taskset -c 0` and prints how long it took.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caseConcurrency } from "../../grader/context.ts";
import type { ExercismResults } from "../../grader/report/exercism.ts";
import { gradeJson } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";
import { expectExercism } from "../helpers/readers.ts";

const RUN_SH = join(ROOT, "bin", "run.sh");

function runSh(args: string[]) {
  return spawnSync(RUN_SH, args, { cwd: tmpdir(), encoding: "utf8", timeout: 60_000 });
}

describe("bin/run.sh SLUG INPUT_DIR OUTPUT_DIR", () => {
  it("a solution without src/main.ts: exit 0, results.json with status error and why", () => {
    const work = mkdtempSync(join(tmpdir(), "kit-exercism-"));
    const input = join(work, "solution");
    mkdirSync(join(input, "src"), { recursive: true });
    writeFileSync(join(input, "src", "subscription.ts"), "export {};\n");
    const output = join(work, "output");
    mkdirSync(output);
    // Exercism passes both folders with a trailing slash.
    const run = runSh(["kafka-range", `${input}/`, `${output}/`]);
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(join(output, "results.json"), "utf8")) as ExercismResults;
    expectExercism(doc);
    expect(doc.status).toBe("error");
    // The folder shown as <solution-dir>, as the interface asks of paths.
    expect(doc.message).toBe(
      "The tests could not run: <solution-dir> is not a submission: it has no src/main.ts",
    );
  });

  it("without its three arguments: exit 2 and the usage (there is nowhere to write)", () => {
    const run = runSh(["kafka-range"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("usage: bin/run.sh SLUG INPUT_DIR OUTPUT_DIR");
  });
});

describe("bin/exercism-error.mjs (what bin/run.sh writes when the grader did not)", () => {
  function errorResults(code: string, log: string): ExercismResults {
    const work = mkdtempSync(join(tmpdir(), "kit-exercism-"));
    writeFileSync(join(work, "log"), log);
    const results = join(work, "results.json");
    const run = spawnSync(
      process.execPath,
      [join(ROOT, "bin", "exercism-error.mjs"), results, code, join(work, "log"), "/sol", "17"],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(results, "utf8")) as ExercismResults;
    expectExercism(doc);
    expect(doc.status).toBe("error");
    return doc;
  }

  it("stopped by the watchdog (timeout's exit 124, or 137 after SIGKILL): says so", () => {
    for (const code of ["124", "137"]) {
      expect(errorResults(code, "").message).toMatch(
        /^The tests did not finish within 17 seconds, the test runner's limit/,
      );
    }
  });

  it("exit 2: the grader's own words, without its warnings", () => {
    const log = [
      "grade: warning: sandbox: no user namespaces",
      "grade: invalid fixture /sol/fixtures/x: points must be a number",
    ].join("\n");
    expect(errorResults("2", log).message).toBe(
      "The tests could not run: invalid fixture <solution-dir>/fixtures/x: points must be a number",
    );
  });

  it("an internal error: its stack, and that it is not the solution's fault", () => {
    const doc = errorResults(
      "2",
      "grade: internal error of the grader (not the submission's fault):\nError: x\n    at f",
    );
    expect(doc.message).toBe(
      "The test runner failed (not your solution's fault):\ninternal error of the grader (not the submission's fault):\nError: x\n    at f",
    );
  });
});

describe("--time-budget: the grading ends in time, the reports written", () => {
  it("a submission that never ends: the cases running at the budget are stopped, the rest skipped", () => {
    // --timeout 1000: a case that waits is stopped by the idle check after 5 s, or by the wall
    // clock at 10 s; a budget of 3 s stops it before either.
    const run = gradeJson([
      join(ROOT, "test", "submissions", "print-then-hang"),
      "--timeout",
      "1000",
      "--time-budget",
      "3",
    ]);
    expect(run.status).toBe(1);
    const timedOut = run.results.cases.filter((c) => c.status === "timeout");
    const skipped = run.results.cases.filter((c) => c.status === "skipped");
    expect(timedOut.length + skipped.length).toBe(run.results.cases.length);
    // Stopped at the budget, not by the idle check (which needs 5 s of waiting).
    for (const c of timedOut)
      expect(c.message).toBe(
        "stopped when the grading's time budget ran out (--time-budget), before it finished",
      );
    // At most as many cases ran as the grader runs at once (one more than the CPUs); the others
    // never started.
    expect(skipped.length).toBeGreaterThanOrEqual(run.results.cases.length - caseConcurrency());
    const budget = "skipped: the grading's time budget ran out before this case started";
    const limits =
      "skipped: 3 earlier cases hit a limit (time, memory, output size) or came close to the time limit";
    // On a machine so busy that the build takes the budget, no case starts: one failure.
    const notRun = "not run: the grading's time budget ran out before any case could start";
    for (const c of skipped) expect([budget, limits, notRun]).toContain(c.message);
    // Fewer than 3 cases ran before the budget (1 CPU: 2 at once), so the budget is what skipped
    // the rest; with 2 CPUs or more, the rule of 3 limit verdicts may name them first.
    if (timedOut.length < 3)
      expect(skipped.map((c) => c.message)).toContain(
        run.results.notGraded === null ? budget : notRun,
      );
  });
});
