/**
 * The grader's command line: parsing (node:util parseArgs) and checking, into GradeCommand.
 * Anything wrong is a SetupError whose message says what to fix (exit 2).
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { quote } from "shell-quote";
import { SetupError } from "./errors.ts";
import { defaultSubmission, isInstructorKit, KIT_ROOT, userCwd } from "./kit.ts";
import { FORMAT_NAMES, isFormatName, type FormatName } from "./format-names.ts";
import {
  DEFAULT_EXTENSION_POLICY,
  EXTENSION_POLICY_SPELLINGS,
  parseExtensionPolicy,
  type ExtensionPolicy,
} from "./totals.ts";

export { FORMAT_NAMES, isFormatName, userCwd, type FormatName };

/**
 * The grader's help: in the instructor kit, every option and examples with the kit's folders; in
 * a student's handout, what a student uses, with examples that name only what a handout has.
 */
export function usage(instructorKit: boolean = isInstructorKit()): string {
  if (instructorKit) return `${USAGE_HEAD}${USAGE_INSTRUCTORS}${USAGE_KIT_EXAMPLES}${USAGE_EXITS}`;
  return `${USAGE_HEAD.replace(USAGE_KIT_INTRO, USAGE_HANDOUT_INTRO)}${USAGE_HANDOUT_EXAMPLES}${USAGE_EXITS}`;
}

const USAGE_KIT_INTRO = `Grades a submission (a folder with src/main.ts) against the golden cases.
PATH defaults to starter/ in the kit (in a student's handout: the handout's own src/).`;

const USAGE_HANDOUT_INTRO = `Grades your work (src/, beside this README) against the golden cases.
PATH defaults to this folder.`;

const USAGE_HEAD = `Usage: npm run grade -- [PATH] [options]

Grades a submission (a folder with src/main.ts) against the golden cases.
PATH defaults to starter/ in the kit (in a student's handout: the handout's own src/).

Options:
  --only ID             grade only this case (repeatable), e.g. --only 01-lesson-7-partitions-3-members
  --timeout MS          CPU-time limit per case in milliseconds (default 10000; the kernel
                        counts whole seconds; a program that uses almost no CPU for 2x the
                        limit, at least 5 s, is stopped: it sleeps or waits)
  --format NAME[=FILE]  ${FORMAT_NAMES.join(" | ")}
                        (default text), to standard output or to FILE (repeatable; at most
                        one on standard output; when all go to files, the text report still
                        goes to standard output); junit-files is junit with each case's
                        file, which GitLab and GitHub JUnit actions link to
  --watch               grade again on every save in PATH/src (Ctrl-C to stop)
  --types               type-check a TypeScript submission first; type errors fail the build
  --list-mistakes       print the catalogue of common mistakes the grader can name
  --list-cases          print each case: its id, points and required or extension, tab-separated
  -h, --help            show this help

`;

const USAGE_INSTRUCTORS = `Instructors:
  --fixtures DIR        add the private cases in DIR (repeatable); their ids are "<DIR name>/<case>"
  --random N            add N generated cases, answers from the reference (instructor kit only)
  --seed S              the seed of --random (default 1): the same N and S give the same cases
  --cmd "COMMAND" [DIR] grade any program that keeps the contract instead of a PATH; it runs
                        in DIR (default: where you typed the command), the only folder of
                        yours it sees (not the kit, not a --fixtures folder)
  --batch DIR           grade every folder in DIR; needs --report-dir OUT (gradebook.csv,
                        report.html, results/); --shard I/N grades a stable share (I from 1)
  --merge OUT1 OUT2 ... join the report folders of shards; needs --report-dir OUT; refuses
                        (exit 2) a partial class: a shard of the plan missing or incomplete
  --allow-partial       with --merge: write the partial class anyway, warning of each gap
  --show-private FILE   write each private case in full to FILE, for you alone: its input,
                        answer, diff and named mistakes (no report format ever shows them)
  --list-cases          with --fixtures and --random: their cases listed too
  --extension POLICY    how extension points enter the total every format shows:
                        ${EXTENSION_POLICY_SPELLINGS}. bonus (the default): extra credit,
                        added only once every required case passes (bonus=N: at most N
                        points), out of the required points; ignore: never counted; count:
                        added to the required points, out of both maxima
  --time-budget S       end the whole grading within S seconds of the grader's start: cases
                        not started by then are skipped, running ones stopped (time-out);
                        the reports are still written (Exercism's runner: bin/run.sh)
  --isolate             run every case in a process of its own (slower): without it, the
                        cases of a submission whose src/main.ts is the kit's run in one
                        shared process per group (visible, private), and each that does not
                        pass there runs again alone (the same verdicts either way)
  --allow-unisolated    run --batch/--cmd even where no namespaces are available (not root and
                        no user namespaces): programs then run as your user (docs/sandbox.md)

`;

const USAGE_KIT_EXAMPLES = `Examples:
  npm run grade                          grade starter/ (or, in the handout, your src/)
  npm run grade -- --watch               the same, again on every save
  npm run grade -- solution              grade the reference: every case passes
  npm run grade -- ../alice --only 03-per-topic-skew
  npm run -s grade -- solution --format json=results.json
  npm run grade -- --cmd "python3 main.py" examples/python
  npm run grade -- --batch submissions --report-dir out

`;

const USAGE_HANDOUT_EXAMPLES = `Examples:
  npm run grade                          grade your src/
  npm run grade -- --watch               the same, again on every save
  npm run grade -- --only 03-per-topic-skew
  npm run -s grade -- --format json=results.json

`;

const USAGE_EXITS = `Exit codes: 0 every required case passed (a batch or merge: it ran); 1 some required case did
not; 2 the grader could not grade (bad arguments, no such submission, invalid fixture, a fixture
still saying TODO, shards to merge that miss part of the class).`;

export interface FormatTarget {
  name: FormatName;
  /** A file path, or undefined for standard output. */
  file?: string;
}

/**
 * What the grader grades: a folder with src/main.ts, or (with --cmd) any command, run in its
 * folder `cwd` (`--cmd COMMAND DIR`).
 */
export type SubmissionTarget =
  | {
      kind: "folder";
      path: string;
      name: string;
      /**
       * The batch folder that holds `path`, for a batch's submission: no folder below it on the
       * way to src/ may be a link (stage.ts). Absent for PATH on the command line, which may be.
       */
      within?: string;
    }
  | { kind: "command"; command: string; cwd: string; name: string };

export interface GradeCommand {
  /** What to do: grade one submission (the default), a batch, merge shards, or watch. */
  action: "help" | "list-mistakes" | "list-cases" | "grade" | "batch" | "merge" | "watch";
  submission: SubmissionTarget;
  only: string[];
  fixtures: string[];
  formats: FormatTarget[];
  timeoutMs: number;
  /** --time-budget S, in milliseconds: the grading ends by then (GradeOptions.deadline). */
  timeBudgetMs: number | undefined;
  /** --random N --seed S: N generated cases with answers from the reference (instructor kit). */
  random: { count: number; seed: number } | undefined;
  /** --extension POLICY: how extension points enter the total (totals.ts). */
  extension: ExtensionPolicy;
  /** --types: type-check a TypeScript submission before grading (off the timed path). */
  types: boolean;
  /** --batch DIR: every subfolder of DIR is a submission. */
  batch: { dir: string; shard: { index: number; count: number } | undefined } | undefined;
  /** --merge OUT1 OUT2 ...: shard report folders to join. */
  merge: string[];
  /** --allow-partial: --merge writes a class with shards missing or incomplete (it warns). */
  allowPartial: boolean;
  /**
   * --show-private FILE: the instructor's view of every private case (report/private-view.ts),
   * written to FILE, an absolute path; undefined without it.
   */
  showPrivate: string | undefined;
  /** --report-dir OUT: where --batch and --merge write the gradebook and report. */
  reportDir: string | undefined;
  /** The arguments a user would retype to grade the same way, without --only/--format. */
  rerunArgs: string[];
  /**
   * --allow-unisolated: run --batch or --cmd programs even where the sandbox has no namespaces
   * (not root and no user namespaces), accepting what docs/sandbox.md says is then exposed.
   */
  allowUnisolated: boolean;
  /** --isolate: every case in its own process, never a shared run (GradeOptions.isolate). */
  isolate: boolean;
}

/**
 * The command line that grades one case again, as a report shows it for the student to copy:
 * `npm run grade -- ARGS... --only ID`, each of ARGS and ID quoted for a POSIX shell by
 * shell-quote (ids, folder names and --cmd commands can hold spaces, quotes and `$`).
 *
 * @param args the arguments that grade the same way (GradeCommand.rerunArgs, after the submission
 *   as the user typed it where the context has one); [] in a student's handout
 * @param caseId the case to grade
 */
export function rerunCommand(args: readonly string[], caseId: string): string {
  return `npm run grade -- ${quote([...args, "--only", caseId])}`;
}

/**
 * Rerun arguments (GradeCommand.rerunArgs, or the same after a submission path) without their
 * `--fixtures DIR` pairs: what reruns a visible case, which needs no private folder, and whose
 * rerun command may reach a student, who must not learn where the private cases are. A `--cmd`
 * value is kept whatever it says.
 */
export function withoutFixtures(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--fixtures") {
      i++;
      continue;
    }
    kept.push(arg);
    if (arg === "--cmd" && i + 1 < args.length) kept.push(args[++i] as string);
  }
  return kept;
}

function parsePositiveInt(text: string, option: string, unit: string): number {
  if (!/^\d+$/.test(text) || Number(text) <= 0) {
    throw new SetupError(
      `${option} takes a whole number of ${unit} above 0, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

function parseSeed(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 2 ** 32 - 1) {
    throw new SetupError(
      `--seed takes a whole number from 0 to 4294967295, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

/** Resolves PATH (relative to where the user typed the command) and checks it is a submission. */
export function resolveSubmission(path: string): SubmissionTarget & { kind: "folder" } {
  const candidates = [resolve(userCwd(), path)];
  if (!isAbsolute(path)) candidates.push(resolve(KIT_ROOT, path));
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) {
    throw new SetupError(
      `no such submission folder: ${path} (looked in ${[...new Set(candidates)].join(" and ")})`,
    );
  }
  if (!statSync(found).isDirectory()) {
    throw new SetupError(
      `${path} is a file; give the submission folder, the one that holds src/main.ts`,
    );
  }
  if (!existsSync(join(found, "src", "main.ts"))) {
    const hint = existsSync(join(found, "main.ts"))
      ? ` (it has main.ts: give its parent folder, ${relative(userCwd(), resolve(found, ".."))})`
      : "";
    throw new SetupError(`${path} is not a submission: it has no src/main.ts${hint}`);
  }
  return { kind: "folder", path: found, name: path };
}

const isInside = (path: string, dir: string) => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/**
 * The `--cmd COMMAND [DIR]` target: DIR (relative to where the user typed the command; default
 * that folder) is where the command runs and the one folder of the machine's, besides the system
 * folders, that the program sees.
 *
 * @param fixtures the --fixtures folders, absolute
 * @throws SetupError when DIR is missing or not a folder, when it is or holds the kit (the kit's
 *   answers would be in the program's sight), or when it is, holds or lies in a --fixtures folder
 */
export function commandTarget(
  command: string,
  dir: string | undefined,
  fixtures: readonly string[],
): SubmissionTarget & { kind: "command" } {
  const cwd = dir === undefined ? userCwd() : resolve(userCwd(), dir);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    throw new SetupError(`--cmd's folder ${dir ?? cwd} is not a folder: give the program's folder`);
  }
  const real = realpathSync(cwd);
  const kit = realpathSync(KIT_ROOT);
  if (isInside(kit, real)) {
    throw new SetupError(
      `--cmd runs the program in ${cwd}, which ${real === kit ? "is" : "holds"} the kit (its answers and grader would be in the program's sight): give the program's own folder, e.g. --cmd "python3 main.py" examples/python`,
    );
  }
  for (const folder of fixtures) {
    const f = existsSync(folder) ? realpathSync(folder) : folder;
    if (isInside(f, real) || isInside(real, f)) {
      throw new SetupError(
        `--cmd runs the program in ${cwd}, which ${isInside(real, f) ? "is inside" : "holds"} the --fixtures folder ${folder} (private cases would be in the program's sight): give the program's own folder`,
      );
    }
  }
  return { kind: "command", command, cwd: real, name: command };
}

/**
 * Parses the grader's arguments.
 *
 * @throws SetupError for an unknown option, a bad value, two formats on standard output, or a
 *   PATH that is not a submission folder
 */
export function parseGradeArgs(argv: string[]): GradeCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h", default: false },
        "list-mistakes": { type: "boolean", default: false },
        "list-cases": { type: "boolean", default: false },
        only: { type: "string", multiple: true, default: [] },
        fixtures: { type: "string", multiple: true, default: [] },
        format: { type: "string", multiple: true, default: [] },
        timeout: { type: "string" },
        "time-budget": { type: "string" },
        cmd: { type: "string" },
        random: { type: "string" },
        seed: { type: "string" },
        types: { type: "boolean", default: false },
        extension: { type: "string" },
        batch: { type: "string" },
        shard: { type: "string" },
        merge: { type: "boolean", default: false },
        "allow-partial": { type: "boolean", default: false },
        "report-dir": { type: "string" },
        "show-private": { type: "string" },
        watch: { type: "boolean", default: false },
        "allow-unisolated": { type: "boolean", default: false },
        isolate: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    throw new SetupError(
      `${(error as Error).message}\nRun npm run grade -- --help for the options.`,
    );
  }
  const { values, positionals } = parsed;
  const action: GradeCommand["action"] = values.help
    ? "help"
    : values["list-mistakes"]
      ? "list-mistakes"
      : values["list-cases"]
        ? "list-cases"
        : values.merge
          ? "merge"
          : values.batch !== undefined
            ? "batch"
            : values.watch
              ? "watch"
              : "grade";
  const only = (flag: string, allowed: readonly GradeCommand["action"][]) => {
    if (!allowed.includes(action))
      throw new SetupError(
        `${flag} does not go with ${action === "grade" ? "grading one submission" : `--${action}`}`,
      );
  };
  if (action !== "merge" && positionals.length > 1) {
    throw new SetupError(
      `give at most one submission PATH, got ${positionals.length}: ${positionals.join(" ")}`,
    );
  }
  if (action === "list-cases") {
    if (positionals.length > 0) {
      throw new SetupError(
        `--list-cases lists the case set, not a submission: give no PATH (got ${positionals[0]})`,
      );
    }
    for (const flag of ["batch", "watch", "cmd", "merge"] as const) {
      if (values[flag] !== undefined && values[flag] !== false) {
        throw new SetupError(`--${flag} does not go with --list-cases`);
      }
    }
  }
  if (action === "batch" && positionals.length > 0) {
    throw new SetupError(
      `--batch grades every folder in its DIR: give no PATH (got ${positionals[0]})`,
    );
  }
  if (values.cmd !== undefined) {
    only("--cmd", ["grade", "watch"]);
    if (values.types)
      throw new SetupError(
        "--types type-checks a TypeScript submission folder; it does not go with --cmd",
      );
  }
  if (values.shard !== undefined) only("--shard", ["batch"]);
  // Written once per grading, for one submission: a batch or watch would overwrite it.
  if (values["show-private"] !== undefined) {
    only("--show-private", ["grade"]);
    if (values["show-private"] === "")
      throw new SetupError("--show-private needs a FILE: the view goes to a file only");
  }
  if (values["time-budget"] !== undefined) only("--time-budget", ["grade"]);
  // A merge totals with the policy its shards were graded with (their results files hold it).
  if (values.extension !== undefined) only("--extension", ["grade", "watch", "batch"]);
  // A batch writes its own gradebook, report and results; watch mode shows the text report.
  if (values.format.length > 0) only("--format", ["grade"]);
  if (values["report-dir"] !== undefined) only("--report-dir", ["batch", "merge"]);
  if (values["allow-partial"] === true) only("--allow-partial", ["merge"]);
  if ((action === "batch" || action === "merge") && values["report-dir"] === undefined) {
    throw new SetupError(
      `--${action} needs --report-dir OUT: the folder for the gradebook and the report`,
    );
  }
  if (action === "merge" && positionals.length === 0) {
    throw new SetupError(
      "--merge needs the shards' report folders: --merge OUT1 OUT2 ... --report-dir OUT",
    );
  }
  if (values.seed !== undefined && values.random === undefined) {
    throw new SetupError("--seed goes with --random N (the number of generated cases)");
  }

  const formats: FormatTarget[] = (values.format.length > 0 ? values.format : ["text"]).map(
    (spec) => {
      const [name, ...rest] = spec.split("=");
      if (name === undefined || !isFormatName(name)) {
        throw new SetupError(
          `unknown format ${JSON.stringify(name)}: use one of ${FORMAT_NAMES.join(", ")}`,
        );
      }
      const file = rest.length > 0 ? rest.join("=") : undefined;
      if (file === "") throw new SetupError(`--format ${name}= needs a file name after "="`);
      return {
        name,
        ...(file === undefined ? {} : { file: resolve(userCwd(), file) }),
      };
    },
  );
  // The classroom format writes all the github format does (annotations, the job summary): both
  // would write each twice.
  if (formats.some((f) => f.name === "github") && formats.some((f) => f.name === "classroom")) {
    throw new SetupError(
      "--format classroom writes everything --format github does, and Classroom's points: give one of them",
    );
  }
  // With every report going to files, the text report still goes to the terminal.
  if (formats.every((f) => f.file !== undefined)) formats.push({ name: "text" });
  const onStdout = formats.filter((f) => f.file === undefined);
  if (onStdout.length > 1) {
    throw new SetupError(
      `two formats on standard output (${onStdout.map((f) => f.name).join(", ")}): send all but one to a file, e.g. --format json=results.json`,
    );
  }

  const fixtures = values.fixtures.map((dir) => resolve(userCwd(), dir));
  const submission: SubmissionTarget =
    values.cmd !== undefined
      ? commandTarget(values.cmd, positionals[0], fixtures)
      : action !== "grade" && action !== "watch"
        ? { kind: "folder", ...defaultSubmission() }
        : positionals[0] === undefined
          ? { kind: "folder", ...defaultSubmission() }
          : resolveSubmission(positionals[0]);
  const random =
    values.random === undefined
      ? undefined
      : {
          count: parsePositiveInt(values.random, "--random", "cases"),
          seed: values.seed === undefined ? 1 : parseSeed(values.seed),
        };
  let shard: { index: number; count: number } | undefined;
  if (values.shard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(values.shard);
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (match === null || count < 1 || index < 1 || index > count) {
      throw new SetupError(
        `--shard takes I/N with 1 <= I <= N (I counts from 1), got ${JSON.stringify(values.shard)}`,
      );
    }
    shard = { index, count };
  }
  const rerunArgs = [
    ...(values.cmd !== undefined ? ["--cmd", values.cmd] : []),
    ...(positionals[0] === undefined || (action !== "grade" && values.cmd === undefined)
      ? []
      : [positionals[0]]),
    ...values.fixtures.flatMap((dir) => ["--fixtures", dir]),
    ...(random === undefined
      ? []
      : ["--random", String(random.count), "--seed", String(random.seed)]),
  ];
  return {
    action,
    submission,
    only: values.only,
    fixtures,
    formats,
    timeoutMs:
      values.timeout === undefined
        ? 10_000
        : parsePositiveInt(values.timeout, "--timeout", "milliseconds"),
    timeBudgetMs:
      values["time-budget"] === undefined
        ? undefined
        : parsePositiveInt(values["time-budget"], "--time-budget", "seconds") * 1000,
    random,
    extension:
      values.extension === undefined
        ? DEFAULT_EXTENSION_POLICY
        : parseExtensionPolicy(values.extension),
    types: values.types === true,
    batch:
      values.batch === undefined ? undefined : { dir: resolve(userCwd(), values.batch), shard },
    merge: action === "merge" ? positionals.map((dir) => resolve(userCwd(), dir)) : [],
    allowPartial: values["allow-partial"] === true,
    reportDir:
      values["report-dir"] === undefined ? undefined : resolve(userCwd(), values["report-dir"]),
    showPrivate:
      values["show-private"] === undefined ? undefined : resolve(userCwd(), values["show-private"]),
    rerunArgs,
    allowUnisolated: values["allow-unisolated"] === true,
    isolate: values.isolate === true,
  };
}
