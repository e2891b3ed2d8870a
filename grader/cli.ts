/**
 * `npm run grade -- [PATH] [options]`: argument parsing, usage, exit codes; the work lives in the
 * modules named for what they do (fixtures/, run/, compare/, report/, grade.ts).
 * Exit codes: 0 every required case passed; 1 some did not; 2 the grader could not grade.
 */
import { availableParallelism } from "node:os";
import { writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CATALOGUE } from "./diagnose/catalogue.ts";
import { FileOutcomes, FirstOf, type OutcomeSource } from "./diagnose/diagnose.ts";
import { SetupError } from "./errors.ts";
import { fixtureHash } from "./fixtures/hash.ts";
import { FixtureSchemas, loadCases } from "./fixtures/load.ts";
import { allRequiredPassed, gradeSubmission } from "./grade.ts";
import { BUILT_IN_CASES_DIR, KIT_ROOT, kitVersion } from "./kit.ts";
import { parseGradeArgs, USAGE, type FormatTarget } from "./options.ts";
import { FORMATS } from "./report/formats.ts";
import { MemorySink, streamSink, type Reporter, type Sink } from "./report/reporter.ts";

function reporterFor(name: FormatTarget["name"], sink: Sink): Reporter {
  return FORMATS[name](sink);
}

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The mistake catalogue as text (--list-mistakes). */
function listMistakes(): string {
  return [...CATALOGUE.values()]
    .map(
      (m) =>
        `${m.id}${m.extension ? " (extension)" : ""}: ${m.name}\n    ${m.explanation}\n    LESSON.md#${m.lesson}`,
    )
    .join("\n");
}

/**
 * Where mutant outcomes come from: the recorded data file; in the instructor kit (which has the
 * mutants and the reference), also running the mutants live for cases the file does not cover.
 */
async function diagnosisSource(
  schemas: FixtureSchemas,
): Promise<{ source: OutcomeSource; dispose: () => void }> {
  const file = new FileOutcomes();
  const instructorKit =
    existsSync(join(KIT_ROOT, "grader", "mutants", "live.ts")) &&
    existsSync(join(KIT_ROOT, "solution", "src"));
  if (!instructorKit) return { source: file, dispose: () => {} };
  const { LiveOutcomes } = await import("./mutants/live.ts");
  const live = new LiveOutcomes(schemas);
  return { source: new FirstOf([file, live]), dispose: () => live.dispose() };
}

async function main(argv: string[]): Promise<number> {
  const command = parseGradeArgs(argv);
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.listMistakes) {
    process.stdout.write(`${listMistakes()}\n`);
    return 0;
  }
  const schemas = new FixtureSchemas();
  let cases = loadCases(BUILT_IN_CASES_DIR, command.fixtures, schemas);
  const kit = { version: kitVersion(), fixtures: fixtureHash(cases) };
  if (command.only.length > 0) {
    const known = new Set(cases.map((c) => c.id));
    const unknown = command.only.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new SetupError(
        `no such case: ${unknown.join(", ")}. Case ids are the folder names, e.g. ${cases
          .slice(0, 3)
          .map((c) => c.id)
          .join(", ")}`,
      );
    }
    cases = cases.filter((c) => command.only.includes(c.id));
  }

  const files: { file: string; sink: MemorySink }[] = [];
  const reporters = command.formats.map((format) => {
    if (format.file === undefined) return reporterFor(format.name, streamSink(process.stdout));
    const sink = new MemorySink();
    files.push({ file: format.file, sink });
    return reporterFor(format.name, sink);
  });

  const diagnosis = await diagnosisSource(schemas);
  const results = await gradeSubmission({
    submission: command.submission,
    cases,
    schemas,
    timeoutMs: command.timeoutMs,
    outputCapBytes: 4 * 1024 * 1024, // 25 times the largest expected answer
    memoryMiB: 512,
    concurrency: availableParallelism(),
    kit,
    reporters,
    diagnosis: diagnosis.source,
    rerunCommand: (id) =>
      ["npm run grade --", ...[...command.rerunArgs, "--only", id].map(shellWord)].join(" "),
  });
  diagnosis.dispose();
  // Each report file is written once, whole, at the end.
  for (const { file, sink } of files) writeFileSync(file, sink.text());
  return allRequiredPassed(results) ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`grade: ${error.message}\n`);
    } else {
      process.stderr.write(
        `grade: internal error of the grader (not the submission's fault):\n${error instanceof Error ? error.stack : String(error)}\n`,
      );
    }
    process.exitCode = 2;
  },
);
