/**
 * `npm run grade -- [PATH] [options]`: argument parsing, usage, exit codes; the work lives in the
 * modules named for what they do (cases/, run/, verdict/, diagnose/, explain/, report/, batch/,
 * grade.ts).
 * Exit codes: 0 every required case passed; 1 some did not; 2 the grader could not grade.
 */
import { CATALOGUE } from "./diagnose/catalogue.ts";
import { SetupError } from "./errors.ts";
import { FixtureSchemas } from "./cases/load.ts";
import {
  caseListing,
  loadCaseSet,
  prepareGrading,
  selectCases,
  type GradingContext,
} from "./context.ts";
import { gradeSubmission } from "./grade.ts";
import { parseGradeArgs, usage, type GradeCommand } from "./options.ts";
import { FORMATS } from "./report/formats.ts";
import { everyRequiredPassed, type PrivateCaseView } from "./results.ts";
import { privateViewText } from "./report/private-view.ts";
import { MemorySink, streamSink, type Reporter } from "./report/reporter.ts";
import { guardGrader } from "./run/run-process.ts";
import { writeReportFile } from "./safe-write.ts";
import { printable } from "./report/escape.ts";

/** The mistake catalogue as text (--list-mistakes). */
function listMistakes(): string {
  return [...CATALOGUE.values()]
    .map(
      (m) =>
        `${m.id}${m.extension ? " (extension)" : ""}: ${m.name}\n    ${m.explanation}\n    LESSON.md#${m.lesson}`,
    )
    .join("\n");
}

/** Grades one submission with every requested format; each report file is written once. */
async function gradeOne(command: GradeCommand, context: GradingContext): Promise<number> {
  const files: { file: string; sink: MemorySink }[] = [];
  const reporters: Reporter[] = command.formats.map((format) => {
    if (format.file === undefined) return FORMATS[format.name](streamSink(process.stdout));
    const sink = new MemorySink();
    files.push({ file: format.file, sink });
    return FORMATS[format.name](sink);
  });
  // The instructor's view of private cases goes to its own file, never to a reporter.
  let views: readonly PrivateCaseView[] = [];
  const results = await gradeSubmission({
    ...context.gradeOptions(command.submission, reporters),
    privateViews:
      command.showPrivate === undefined
        ? undefined
        : (v: readonly PrivateCaseView[]) => (views = v),
  });
  for (const { file, sink } of files) writeReportFile(file, sink.text());
  if (command.showPrivate !== undefined)
    writeReportFile(
      command.showPrivate,
      privateViewText(results.submission, views, results.notGraded),
      { ownerOnly: true },
    );
  return everyRequiredPassed(results.cases) ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const command = parseGradeArgs(argv);
  switch (command.action) {
    case "help":
      process.stdout.write(`${usage()}\n`);
      return 0;
    case "list-mistakes":
      process.stdout.write(`${listMistakes()}\n`);
      return 0;
    case "list-cases": {
      const cases = await loadCaseSet(command, new FixtureSchemas());
      process.stdout.write(caseListing(selectCases(cases, command.only)));
      return 0;
    }
    case "merge": {
      const { runMerge } = await import("./batch/merge.ts");
      return runMerge(command);
    }
    default:
      break;
  }
  const context = await prepareGrading(command);
  try {
    if (command.action === "batch") {
      const { runBatch } = await import("./batch/batch.ts");
      return await runBatch(command, context);
    }
    if (command.action === "watch") {
      const { runWatch } = await import("./watch.ts");
      return await runWatch(command, context);
    }
    return await gradeOne(command, context);
  } finally {
    context.dispose();
  }
}

guardGrader();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof SetupError) {
      // Setup messages can quote names a student chose (folder names): made printable.
      process.stderr.write(`grade: ${printable(error.message)}\n`);
    } else {
      process.stderr.write(
        `grade: internal error of the grader (not the submission's fault):\n${error instanceof Error ? error.stack : String(error)}\n`,
      );
    }
    process.exitCode = 2;
  },
);
