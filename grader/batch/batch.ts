/**
 * `npm run grade -- --batch DIR --report-dir OUT [--shard I/N]`: grades every subfolder of DIR
 * (or shard I's share of them, see shard.ts) as a submission, one after another with its cases in
 * parallel (context.ts caseConcurrency), and writes OUT/gradebook.csv, OUT/report.html, OUT/results/ and
 * OUT/shard.json (see output.ts). Every submission's visible cases are graded before any
 * submission's private cases start (phases.ts PhaseGate), so no two students can signal each
 * other from a private case to a visible one through the machine.
 *
 * Each submission (DIR/NAME, or the one folder inside it that holds src/main.ts; shard.ts) is
 * graded exactly as `npm run grade -- DIR/NAME` grades it (its own build, its own sandboxed
 * process per case, in its own slot), so one submission cannot change another's verdicts; a
 * folder that is not a submission, or a submission the grader fails on, gets every case `error`
 * with a message saying why, and the batch goes on. Before grading, it prints what it skipped in
 * DIR (hidden folders, files), which folders are not submissions, and which submissions it found
 * one folder down (listingNotes). Exit code 0 when the batch ran
 * (the verdicts are in the gradebook); 2 (SetupError) when it could not.
 */
import { isAbsolute, join, relative } from "node:path";
import pLimit from "p-limit";
import { caseConcurrency, type GradingContext } from "../context.ts";
import { SetupError } from "../errors.ts";
import { gradeSubmission, type GradeOptions } from "../grade.ts";
import type { PreparedProgram } from "../run/prepare.ts";
import { PhaseGate } from "../phases.ts";
import { userCwd } from "../kit.ts";
import type { GradeCommand, SubmissionTarget } from "../options.ts";
import { resultsJson, totalFields } from "../report/json.ts";
import { NOT_RUN_MESSAGES } from "../record.ts";
import { everyRequiredPassed, scoresOf, type NotGradedReason } from "../results.ts";
import type { CaseInfo, SubmissionResults } from "./gradebook.ts";
import { prepareReportDir, writeClassReport, writeSubmissionResults } from "./output.ts";
import { printable, textLine } from "../report/escape.ts";
import { batchProgress, shownPath } from "./progress.ts";
import { listBatch, listingNotes, shareOf, type BatchEntry } from "./shard.ts";

/**
 * Submissions in their visible phase at once (phases.ts: every submission's visible cases are
 * graded before any submission's private cases start). Their cases share one set of slots
 * (context.ts caseConcurrency, one grading's worth), so the second one only fills the slots the
 * first's last cases leave free: a class takes what one submission at a time takes, without the
 * idle tail of each submission.
 * (Measured on 2 cores, when each submission had the cores to itself, against "one submission per
 * core, one case at a time": the same time for a class of ordinary submissions, 13.4 s for 12 x
 * 43 cases either way, and faster when one submission is slow on every case, a memory hog, 30-44
 * s against 46-60 s for 11 submissions, since no submission's cases then run one by one at the
 * end of the batch.)
 */
export const SUBMISSIONS_AT_ONCE = 2;

/** The case list every submission of the batch is graded on (the manifest's `cases`). */
export function caseInfos(context: GradingContext): CaseInfo[] {
  return context.cases.map((c) => ({
    id: c.id,
    title: c.title,
    required: c.required,
    maxPoints: c.points,
  }));
}

/**
 * Results for a folder the grader could not grade: `notGraded` with the reason and `message`
 * (why it is not a submission, or how the grader failed on it), every case `error` with reason
 * `build-error` and the reason's "not run" line (record.ts NOT_RUN_MESSAGES).
 */
export function ungradedResults(
  name: string,
  context: GradingContext,
  reason: Extract<NotGradedReason, "not-a-submission" | "grader-error">,
  message: string,
): SubmissionResults {
  const cases = caseInfos(context).map((c) => ({
    id: c.id,
    title: c.title,
    required: c.required,
    status: "error" as const,
    reason: "build-error" as const,
    points: 0,
    maxPoints: c.maxPoints,
    mistake: null,
    mistakes: [],
    message: NOT_RUN_MESSAGES[reason],
    ran: null,
  }));
  const scores = scoresOf(cases, context.extension);
  return {
    kit: context.kit,
    submission: name,
    notGraded: { reason, errors: [message] },
    score: scores.score,
    maxScore: scores.maxScore,
    extensionScore: scores.extensionScore,
    extensionMaxScore: scores.extensionMaxScore,
    ...totalFields(scores.total, context.extension),
    cases,
  };
}

/** `57/59` with the extension score when there is one, then the total: `, total 57/59`. */
function scoreText(r: SubmissionResults): string {
  const scores =
    r.extensionMaxScore > 0
      ? `${r.score}/${r.maxScore} (extension ${r.extensionScore}/${r.extensionMaxScore})`
      : `${r.score}/${r.maxScore}`;
  return `${scores}, total ${r.total}/${r.maxTotal}`;
}

/** A batch folder as the submission to grade. */
function folderTarget(entry: BatchEntry): SubmissionTarget {
  return { kind: "folder", path: entry.path, name: entry.name, within: entry.dir };
}

/** Grades one folder of the batch; never rejects. */
async function gradeEntry(
  entry: BatchEntry,
  command: GradeCommand,
  context: GradingContext,
  onCase: () => void,
  ahead: Pick<GradeOptions, "prepared" | "slots" | "phases">,
): Promise<{ results: SubmissionResults; note: string }> {
  if (entry.problem !== null) {
    for (let i = 0; i < context.cases.length; i++) onCase();
    const message = `not a submission: the folder ${JSON.stringify(entry.name)} ${entry.problem.why}`;
    return {
      results: ungradedResults(entry.name, context, "not-a-submission", message),
      note: `not a submission (${entry.problem.short})`,
    };
  }
  const where = relative(userCwd(), entry.path) || ".";
  const options = {
    ...context.gradeOptions(folderTarget(entry), [{ onCaseResult: onCase }]),
    rerun: { args: [where, ...command.rerunArgs] },
    ...ahead,
  };
  try {
    const graded = await gradeSubmission(options);
    const results = resultsJson(graded);
    const built = graded.notGraded === null;
    return { results, note: built ? scoreText(results) : `did not build, ${scoreText(results)}` };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `grade: internal error of the grader on ${textLine(entry.name)} (its cases are marked error; the batch goes on):\n${printable((error instanceof Error ? error.stack : undefined) ?? detail)}\n`,
    );
    return {
      results: ungradedResults(
        entry.name,
        context,
        "grader-error",
        `the grader failed on this submission (not the submission's fault): ${detail}`,
      ),
      note: "the grader failed on it (see standard error)",
    };
  }
}

/**
 * Runs --batch.
 *
 * @returns 0 when every folder was graded (whatever the verdicts)
 * @throws SetupError when DIR has no subfolders, OUT is inside DIR, or OUT cannot hold the report
 */
export async function runBatch(command: GradeCommand, context: GradingContext): Promise<number> {
  const batch = command.batch;
  const reportDir = command.reportDir;
  if (batch === undefined || reportDir === undefined) throw new Error("runBatch without --batch");
  const started = performance.now();
  const inside = relative(batch.dir, reportDir);
  if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) {
    throw new SetupError(
      `--report-dir ${reportDir} is inside the --batch folder ${batch.dir}: it would be graded as a submission next time; put it elsewhere`,
    );
  }
  const listing = listBatch(batch.dir);
  const all = listing.entries;
  const mine = shareOf(all, batch.shard);
  prepareReportDir(reportDir);

  const share =
    batch.shard === undefined
      ? ""
      : ` (shard ${batch.shard.index}/${batch.shard.count}: ${mine.length} of ${all.length})`;
  process.stdout.write(
    `Grading ${mine.length} submission${mine.length === 1 ? "" : "s"} in ${shownPath(batch.dir)}${share}: ${context.cases.length} case${context.cases.length === 1 ? "" : "s"} each (kit ${context.kit.version}, fixtures ${context.kit.fixtures})\n`,
  );
  // What was left out of DIR or found one folder down (every shard says it of the whole DIR).
  for (const note of listingNotes(listing)) process.stdout.write(`${textLine(note)}\n`);

  const progress = batchProgress(process.stdout, mine.length, mine.length * context.cases.length);
  const results: SubmissionResults[] = [];
  // Two submissions are in their visible phase at once but share one set of case slots (as many
  // as one grading has): the second's cases start only in the slots the first's last cases leave
  // free, so the CPUs stay busy through each submission's tail, its results and the next build.
  // A submission whose visible phase is over waits, its build kept, until every submission's is
  // (the gate); then every private phase runs, in the same slots.
  const slots = pLimit(caseConcurrency());
  const gate = new PhaseGate(mine.length, SUBMISSIONS_AT_ONCE);
  // Each submission's build starts while the one before it runs its cases: the bundler's start
  // and waits fill the gaps between cases instead of leaving the cores idle between submissions.
  const builds = new Map<number, Promise<PreparedProgram>>();
  const buildAhead = (index: number) => {
    const entry = mine[index];
    if (entry === undefined || entry.problem !== null || builds.has(index)) return;
    const build = context.prepare(folderTarget(entry));
    build.catch(() => {}); // gradeSubmission awaits it and reports what it throws
    builds.set(index, build);
  };
  // Finished submissions are announced in folder order, whichever of two ends first.
  const finished = new Map<number, { entry: BatchEntry; note: string }>();
  let announced = 0;
  const gradeOne = async (entry: BatchEntry, index: number): Promise<void> => {
    const phases = await gate.enter();
    let done: Awaited<ReturnType<typeof gradeEntry>>;
    try {
      progress.started(entry.name);
      buildAhead(index);
      const prepared = builds.get(index);
      builds.delete(index);
      buildAhead(index + 1);
      done = await gradeEntry(entry, command, context, () => progress.caseDone(), {
        prepared,
        slots,
        phases,
      });
    } finally {
      // A folder that is no submission, or a grading that failed, must not hold the gate shut.
      phases.visibleDone();
    }
    writeSubmissionResults(reportDir, done.results);
    results.push(done.results);
    finished.set(index, { entry, note: done.note });
    for (let next = finished.get(announced); next !== undefined; next = finished.get(announced)) {
      progress.finished(next.entry.name, next.note);
      finished.delete(announced++);
    }
  };
  try {
    // Every folder enters the gate in folder order (the gate lets SUBMISSIONS_AT_ONCE in).
    await Promise.all(mine.map(gradeOne));
  } finally {
    progress.end();
  }

  const written = writeClassReport(
    reportDir,
    {
      kit: context.kit,
      shard: batch.shard ?? null,
      cases: caseInfos(context),
      // The whole DIR, every shard's folders: --merge checks each shard against it.
      listed: all.map((e) => e.name),
    },
    results,
  );
  const passed = results.filter((r) => everyRequiredPassed(r.cases)).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\nGraded ${results.length} submission${results.length === 1 ? "" : "s"} in ${seconds} s: ${passed} passed every required case.\n${written.map((file) => `wrote ${shownPath(join(reportDir, file))}`).join("\n")}\n`,
  );
  return 0;
}
