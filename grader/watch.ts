/**
 * `npm run grade -- [PATH] --watch`: the student's loop. Grades the submission, then again after
 * every save in its src/ (for --cmd: in the folder the command runs in), each time showing the
 * scores and the first case that did not pass, in full (a required one first). A save while a
 * grading runs cancels it: its running cases are killed and grading starts over. Ctrl-C kills any
 * running case and exits 0. On a terminal the screen is cleared before each report.
 *
 * The folder is watched with chokidar, not fs.watch: Node 20's recursive fs.watch on Linux stops
 * seeing a file that an editor saved by renaming a temporary file over it (vim, JetBrains).
 */
import { setMaxListeners } from "node:events";
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { watch } from "chokidar";
import { createColors } from "picocolors";
import type { GradingContext } from "./context.ts";
import { SetupError } from "./errors.ts";
import { defaultSubmission } from "./kit.ts";
import { gradeSubmission } from "./grade.ts";
import type { GradeCommand } from "./options.ts";
import { shownPath } from "./batch/progress.ts";
import { printable, textLine } from "./report/escape.ts";
import { detailLines, failureLine, notGradedLines, scoreLines } from "./report/lines.ts";
import { passed, type CaseResult, type GradeResults } from "./results.ts";

/** Saves closer together than this are graded once. */
export const DEBOUNCE_MS = 150;
const CLEAR_SCREEN = "\x1b[2J\x1b[H";

/**
 * Editors' temporary and backup files, whose writes are not saves of the program (Emacs, vim,
 * JetBrains' safe write).
 */
export function isEditorNoise(file: string): boolean {
  const base = file.split(/[\\/]/).pop() ?? file;
  return (
    /(^\.#|^#.*#$|~$|\.sw[a-p]$|^4913$|\.tmp$|___jb_(tmp|old)___$)/.test(base) ||
    /(^|[\\/])(node_modules|\.git)([\\/]|$)/.test(file)
  );
}

/**
 * The case to show in full: the first required case that did not pass, else the first extension
 * case that did not pass (skipped cases aside); undefined when every case passed.
 */
export function firstFailure(results: GradeResults): CaseResult | undefined {
  const failing = results.cases.filter((r) => !passed(r) && r.status !== "skipped");
  return failing.find((r) => r.required) ?? failing[0];
}

/**
 * The report shown after each grading: scores, the first failure in full, what else failed.
 * Program text is escaped as in the text report (escape.ts), before colour is added.
 *
 * @param colour ANSI colour (a terminal without NO_COLOR)
 */
export function watchReport(results: GradeResults, colour: boolean, watched: string): string {
  const pc = createColors(colour);
  const lines: string[] = [
    `${pc.bold(textLine(results.submission))}: ${results.cases.length} case${results.cases.length === 1 ? "" : "s"} graded at ${new Date().toTimeString().slice(0, 8)}`,
    "",
    ...scoreLines(results),
    "",
  ];
  if (results.notGraded !== null) lines.push(...notGradedLines(results.notGraded, colour), "");
  const first = firstFailure(results);
  if (first === undefined) {
    lines.push(pc.green("Every case passes."), "");
  } else if (results.notGraded === null) {
    lines.push(
      `${pc.red("✗")} ${textLine(first.id)} ${first.points}/${first.maxPoints}${first.required ? "" : pc.dim(" (extension)")}  ${failureLine(first)}`,
      `      ${printable(first.title)}`,
      ...detailLines(first, { colour, rerun: true }).map((l) => `      ${l}`),
    );
    const others = results.cases.filter((r) => r !== first && !passed(r) && r.status !== "skipped");
    if (others.length > 0) {
      const shown = others.slice(0, 6).map((r) => textLine(r.id));
      lines.push(
        "",
        pc.dim(
          `${others.length} more case${others.length === 1 ? "" : "s"} did not pass: ${shown.join(", ")}${others.length > shown.length ? ", ..." : ""}`,
        ),
      );
    }
    lines.push("");
  }
  lines.push(`watching ${watched} — Ctrl-C to stop`);
  return `${lines.join("\n")}\n`;
}

/**
 * Runs --watch until Ctrl-C.
 *
 * @returns 0 after Ctrl-C; 2 when the folder can no longer be watched
 * @throws SetupError when there is no folder to watch
 */
export function runWatch(command: GradeCommand, context: GradingContext): Promise<number> {
  const target = command.submission;
  const dir = target.kind === "folder" ? join(target.path, "src") : target.cwd;
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new SetupError(`--watch: no folder to watch at ${dir}`);
  const watched = `${shownPath(dir)}/`;
  // The rerun command names the submission as typed (none for the default one).
  const typed =
    target.kind === "folder" && target.path !== defaultSubmission().path ? [target.name] : [];
  const rerunArgs = [...typed, ...command.rerunArgs];
  const out = process.stdout;
  const tty = out.isTTY === true;
  const colour = tty && (process.env.NO_COLOR ?? "") === "";

  return new Promise<number>((resolve) => {
    let controller: AbortController | undefined;
    let running: Promise<void> | undefined;
    let pending = false;
    let stopping = false;
    let timer: NodeJS.Timeout | undefined;

    const gradeOnce = async (signal: AbortSignal) => {
      out.write(tty ? CLEAR_SCREEN : "\n");
      out.write(`Grading ${textLine(target.name)} ...\n`);
      let done = 0;
      const progress = tty
        ? [{ onCaseResult: () => out.write(`\r${++done}/${context.cases.length} cases`) }]
        : [];
      try {
        const results = await gradeSubmission({
          ...context.gradeOptions(target, progress),
          rerun: { args: rerunArgs },
          signal,
        });
        if (signal.aborted) return;
        out.write(tty ? CLEAR_SCREEN : "\n");
        out.write(watchReport(results, colour, watched));
      } catch (error) {
        if (signal.aborted) return;
        out.write(
          `\ngrade: could not grade: ${textLine(error instanceof Error ? error.message : String(error))}\nwatching ${watched} — Ctrl-C to stop\n`,
        );
      }
    };
    const loop = async () => {
      while (pending && !stopping) {
        pending = false;
        controller = new AbortController();
        // Each running case listens to the signal: as many as the cores, without a leak warning.
        setMaxListeners(availableParallelism() + 10, controller.signal);
        await gradeOnce(controller.signal);
      }
      running = undefined;
    };
    const trigger = () => {
      timer = undefined;
      pending = true;
      controller?.abort(); // a grading that is running is out of date
      running ??= loop();
    };
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      // A watcher that fails to close must not keep Ctrl-C from exiting.
      const closed = watcher.close().catch(() => undefined);
      controller?.abort(); // kills the running cases
      void Promise.all([running, closed]).then(() => {
        process.off("SIGINT", onInterrupt);
        out.write(`\nstopped watching ${watched}\n`);
        resolve(code);
      });
    };
    const onInterrupt = () => stop(0);
    process.on("SIGINT", onInterrupt);
    const watcher = watch(dir, {
      ignoreInitial: true, // the first grading is started below, not by the scan
      // Relative to the folder, so that a folder above it named node_modules ignores nothing.
      ignored: (path) => isEditorNoise(relative(dir, path)),
    });
    watcher.on("all", () => {
      if (stopping) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(trigger, DEBOUNCE_MS);
    });
    watcher.on("error", (error) => {
      out.write(
        `\ngrade: stopped watching ${watched}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      stop(2);
    });
    trigger();
  });
}
