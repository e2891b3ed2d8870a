// GitHub Classroom's side of `--format classroom`, written from the source of
// classroom-resources/autograding-grading-reporter (main at commit 43c2d9f, 2025-09-02): how it
// reads a runner's result and sums the points Classroom records. The tests hold the kit's
// notices and step output to this, not to the kit's own code.

/** A runner result as the reporter reads it (only the fields it reads). */
export interface RunnerResult {
  status: string;
  max_score?: number;
  tests: { name: string; status: string; score: number }[];
}

/**
 * src/main.js: for each runner id in the `runners` input, the environment variable
 * `${runner.trim().toUpperCase()}_RESULTS`, base64-decoded, parsed as JSON.
 */
export function decodeRunner(env: Record<string, string>, runner: string): RunnerResult {
  const encoded = env[`${runner.trim().toUpperCase()}_RESULTS`] ?? "";
  return JSON.parse(Buffer.from(encoded, "base64").toString("utf-8")) as RunnerResult;
}

/**
 * src/notify-classroom.js, NotifyClassroom: a runner whose `max_score` is falsy is skipped;
 * otherwise its max_score is added to maxPoints and each of its tests' `score` to totalPoints.
 * With maxPoints 0 nothing is written; else two notices, `Points ${totalPoints}/${maxPoints}`
 * titled "Autograding complete" and JSON.stringify({ totalPoints, maxPoints }) titled
 * "Autograding report", through @actions/core's notice() (`::notice title=...::message`).
 */
export function notifyClassroom(runners: RunnerResult[]): {
  totalPoints: number;
  maxPoints: number;
  notices: string[];
} {
  const { totalPoints, maxPoints } = runners.reduce(
    (acc, results) => {
      if (!results.max_score) return acc;
      acc.maxPoints += results.max_score;
      results.tests.forEach(({ score }) => {
        acc.totalPoints += score;
      });
      return acc;
    },
    { totalPoints: 0, maxPoints: 0 },
  );
  if (!maxPoints) return { totalPoints, maxPoints, notices: [] };
  return {
    totalPoints,
    maxPoints,
    notices: [
      `::notice title=Autograding complete::Points ${totalPoints}/${maxPoints}`,
      `::notice title=Autograding report::${JSON.stringify({ totalPoints, maxPoints })}`,
    ],
  };
}

/** src/main.js: the step fails when a runner's status is "fail" or "error". */
export function reporterFails(runners: RunnerResult[]): boolean {
  return runners.some((r) => r.status === "fail" || r.status === "error");
}

/**
 * The step outputs a GITHUB_OUTPUT file holds: `name=value` lines (and `name<<DELIMITER` blocks,
 * which the kit does not write: refused here so a change to that syntax is noticed).
 */
export function stepOutputs(text: string): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const at = line.indexOf("=");
    if (at <= 0 || line.includes("<<")) throw new Error(`not a name=value output line: ${line}`);
    outputs.set(line.slice(0, at), line.slice(at + 1));
  }
  return outputs;
}
