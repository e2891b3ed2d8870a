/**
 * `--format classroom`: a GitHub Classroom autograding step that shows the grader's points, not
 * pass-or-fail. Everything `--format github` writes (the folded text report, annotations, the
 * job summary), then what GitHub Classroom's autograding reporter
 * (classroom-resources/autograding-grading-reporter, src/notify-classroom.js at commit 43c2d9f)
 * writes for Classroom to read: two notice annotations,
 *
 *   ::notice title=Autograding complete::Points <totalPoints>/<maxPoints>
 *   ::notice title=Autograding report::{"totalPoints":<totalPoints>,"maxPoints":<maxPoints>}
 *
 * and, when GITHUB_OUTPUT names a file, the step output `result`: the base64 JSON a Classroom
 * grader action (autograding-command-grader, src/main.js generateResult) sets, which that reporter
 * decodes from `<RUNNER>_RESULTS`. The reporter itself runs on node20, which GitHub's hosted
 * runners no longer run, so this step writes its notices instead of running it.
 *
 * The reporter's sum (NotifyClassroom): maxPoints is the sum of each runner's `max_score`, and
 * totalPoints the sum of every test's `score` of those runners. Here one runner holds a test per
 * required case, scoring its points, and, when there are extension cases, one test for them all
 * scoring what the extension policy adds to the required score (the total less the required
 * score); `max_score` is the total's maximum. So Classroom's points are the grading's total under
 * the policy (results.ts scoresOf), over the visible cases: 58/61 for a submission that lost 3
 * required points, whatever its extension cases did, under the default policy.
 */
import { appendFileSync } from "node:fs";
import { passed, studentView, type CaseResult, type GradeResults } from "../results.ts";
import { extensionPolicyName, extensionPolicyRule } from "../totals.ts";
import { capped, textLine } from "./escape.ts";
import { actionsStepReporter, workflowCommand } from "./actions.ts";
import { failureLine } from "./lines.ts";
import type { Reporter, Sink } from "./reporter.ts";

/** The step output that holds the runner result (a grader action's `outputs.result`). */
export const CLASSROOM_OUTPUT = "result";
const MESSAGE_MAX_CHARS = 1000;

/** One test of a runner result, as autograding-command-grader's generateResult writes it. */
export interface ClassroomTest {
  name: string;
  status: "pass" | "fail" | "error";
  score: number;
  message: string | null;
  test_code: string;
  filename: string;
  line_no: number;
  duration: number;
}

/** A runner result (version 1), what the reporter decodes from `<RUNNER>_RESULTS`. */
export interface ClassroomRunnerResult {
  version: 1;
  status: "pass" | "fail" | "error";
  max_score: number;
  tests: ClassroomTest[];
}

function testStatus(r: CaseResult): ClassroomTest["status"] {
  return passed(r) ? "pass" : r.status === "fail" ? "fail" : "error";
}

/** The name of the one test that stands for every extension case. */
export const EXTENSION_TEST_NAME = "extension cases";

/**
 * The test that stands for the extension cases: its score is what the extension policy adds to
 * the required score (results.total less results.score: 0 under `ignore`, and under `bonus`
 * until every required case passes), its message how they went and the policy's rule; `pass`
 * when every extension case passed, else `fail`.
 */
function extensionTest(results: GradeResults): ClassroomTest {
  const extension = results.cases.filter((r) => !r.required);
  const passes = extension.filter(passed).length;
  return {
    name: EXTENSION_TEST_NAME,
    status: passes === extension.length ? "pass" : "fail",
    score: results.total.points - results.score,
    message: `${passes} of ${extension.length} extension cases passed, ${results.extensionScore}/${results.extensionMaxScore} points; extension policy ${extensionPolicyName(results.extension)}: ${extensionPolicyRule(results.extension)}`,
    test_code: "",
    filename: "",
    line_no: 0,
    duration: extension.reduce((sum, r) => sum + Math.round(r.durationMs), 0),
  };
}

/**
 * The runner result for a grading, from the student's view (results.ts studentView: Classroom
 * shows the points to the student, so private cases are left out and the sums and the total are
 * over the visible cases): one test per visible required case, in grading order, scoring its
 * points (`score` 0 to its maximum), `message` the reason it did not pass (null on a pass),
 * `test_code` the command that reruns it; then, when there are visible extension cases, one test
 * for them (extensionTest) scoring what the extension policy adds; `max_score` the total's
 * maximum (results.total); `status` `error` when the submission did not build, `fail` when a
 * visible required case did not pass, else `pass` (extension cases are optional). `duration` is
 * the case's run's wall time in milliseconds (a visible case's run, which no private case ran
 * beside); the extension test's, the sum of theirs.
 */
export function classroomResult(graded: GradeResults): ClassroomRunnerResult {
  const results = studentView(graded);
  const required = results.cases.filter((r) => r.required);
  const tests = required.map((r): ClassroomTest => ({
    name: textLine(r.name),
    status: testStatus(r),
    score: r.points,
    message: passed(r) ? null : capped(failureLine(r), MESSAGE_MAX_CHARS),
    test_code: r.explanation === null ? "" : textLine(r.rerun),
    filename: "",
    line_no: 0,
    duration: Math.round(r.durationMs),
  }));
  const requiredPassed = tests.every((t) => t.status === "pass");
  if (results.cases.some((r) => !r.required)) tests.push(extensionTest(results));
  return {
    version: 1,
    status: results.notGraded !== null ? "error" : requiredPassed ? "pass" : "fail",
    max_score: results.total.maxPoints,
    tests,
  };
}

/**
 * The two notice annotations Classroom reads, as the reporter's NotifyClassroom writes them with
 * @actions/core's notice(): the points, and the same as JSON. Sums as that function does (every
 * test's score; the runner's max_score). None when the maximum is 0, as there.
 */
export function classroomNotices(result: ClassroomRunnerResult): string[] {
  const maxPoints = result.max_score;
  const totalPoints = result.tests.reduce((sum, t) => sum + t.score, 0);
  if (!maxPoints) return [];
  return [
    workflowCommand(
      "notice",
      { title: "Autograding complete" },
      `Points ${totalPoints}/${maxPoints}`,
    ),
    workflowCommand(
      "notice",
      { title: "Autograding report" },
      JSON.stringify({ totalPoints, maxPoints }),
    ),
  ];
}

/**
 * The Classroom reporter: what `--format github` writes on the sink, with classroomNotices after
 * the score lines; the runner result, base64, appended to the file named by `env.GITHUB_OUTPUT`
 * as `result=<base64>` (GitHub's `name=value` output syntax: base64 has no line break), once, at
 * the end of the run.
 */
export function classroomReporter(sink: Sink, env: NodeJS.ProcessEnv = process.env): Reporter {
  return actionsStepReporter(sink, env, (results) => {
    const result = classroomResult(results);
    const outputFile = env.GITHUB_OUTPUT;
    if (outputFile !== undefined && outputFile !== "") {
      const encoded = Buffer.from(JSON.stringify(result), "utf8").toString("base64");
      appendFileSync(outputFile, `${CLASSROOM_OUTPUT}=${encoded}\n`);
    }
    return classroomNotices(result);
  });
}
