/**
 * What every grading action shares, prepared once from the command line: the validated cases
 * (built-in, private, random; narrowed by --only), the kit stamp, the diagnosis source, and the
 * options one submission is graded with.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { FileOutcomes, FirstOf, type OutcomeSource } from "./diagnose/diagnose.ts";
import { SetupError } from "./errors.ts";
import { fixtureHash } from "./cases/hash.ts";
import { FixtureSchemas, isPrivateCase, loadCases, visibleFirst, type Case } from "./cases/load.ts";
import type { GradeOptions } from "./grade.ts";
import { prepareProgram, type PreparedProgram } from "./run/prepare.ts";
import { BUILT_IN_CASES_DIR, isInstructorKit, KIT_ROOT, kitVersion } from "./kit.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "./limits.ts";
import type { GradeCommand, SubmissionTarget } from "./options.ts";
import { textLine } from "./report/escape.ts";
import type { Reporter } from "./report/reporter.ts";
import {
  commandFolderClosed,
  detectSandbox,
  exposedFolders,
  nodeUnreachable,
  sandboxFeatures,
  sandboxWarnings,
} from "./run/sandbox.ts";
import { printable } from "./printable.ts";
import { protectFolders } from "./run/stage.ts";
import type { ExtensionPolicy } from "./totals.ts";

/**
 * The CPUs this process may use, so that cases run as many at once as there are CPUs for them:
 * os.availableParallelism() (the CPUs of the process's affinity mask: `taskset -c 0` gives 1),
 * and no more than its cgroup's CPU quota, rounded up (a container started with `--cpus 1`
 * keeps every CPU in its mask but gets one CPU's time): cgroup v2 `cpu.max` ("QUOTA PERIOD",
 * or "max"), or cgroup v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` (-1: no quota), in the
 * process's own cgroup as /proc/self/cgroup names it. At least 1.
 *
 * @param read reads a file as text (the real file system by default; throws when it is missing)
 */
export function availableCpus(
  read: (path: string) => string = (p) => readFileSync(p, "utf8"),
): number {
  let cpus = availableParallelism();
  const limit = (quota: number, period: number) => {
    if (quota > 0 && period > 0) cpus = Math.min(cpus, Math.max(1, Math.ceil(quota / period)));
  };
  let cgroups: string[];
  try {
    cgroups = read("/proc/self/cgroup").split("\n");
  } catch {
    return cpus; // not Linux
  }
  for (const line of cgroups) {
    const [, controllers = "", path = ""] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    try {
      if (controllers === "") {
        const [quota = "max", period = "100000"] = read(join("/sys/fs/cgroup", path, "cpu.max"))
          .trim()
          .split(/\s+/);
        if (quota !== "max") limit(Number(quota), Number(period));
      } else if (controllers.split(",").includes("cpu")) {
        const dir = join("/sys/fs/cgroup", controllers, path);
        limit(
          Number(read(join(dir, "cpu.cfs_quota_us")).trim()),
          Number(read(join(dir, "cpu.cfs_period_us")).trim()),
        );
      }
    } catch {
      // That controller's files are not mounted where they usually are: no quota known.
    }
  }
  return cpus;
}

/**
 * How many cases of a submission run at once: one more than the CPUs (availableCpus). Each case's
 * process chain spends part of its start waiting rather than computing (exec, namespace set-up,
 * the kernel tearing the last one down), and one more case in flight keeps the CPUs busy through
 * those waits. Limits are CPU time, so no verdict depends on how many run beside each other.
 */
export function caseConcurrency(): number {
  return availableCpus() + 1;
}

export interface GradingContext {
  schemas: FixtureSchemas;
  cases: Case[];
  kit: { version: string; fixtures: string };
  /** How extension points enter each grading's total (--extension). */
  extension: ExtensionPolicy;
  diagnosis: OutcomeSource;
  /** The options to grade one submission with these cases and these reporters. */
  gradeOptions(submission: SubmissionTarget, reporters: Reporter[]): GradeOptions;
  /**
   * Starts preparing a submission with this grading's limits and hidden folders, ahead of its
   * grading (pass the promise as GradeOptions.prepared, which cleans it up).
   */
  prepare(submission: SubmissionTarget): Promise<PreparedProgram>;
  /** Frees what the diagnosis source built (mutant bundles). */
  dispose(): void;
}

/**
 * The whole case set of a command, in grading order (cases/load.ts visibleFirst): the visible
 * cases, built-in then `--random N --seed S`'s generated ones, then the private ones of every
 * `--fixtures` folder (before --only narrows it). Reports, results files and `--list-cases` keep
 * this order.
 *
 * @throws SetupError for invalid fixtures or duplicate ids, or --random outside the instructor kit
 */
export async function loadCaseSet(
  command: Pick<GradeCommand, "fixtures" | "random">,
  schemas: FixtureSchemas,
): Promise<Case[]> {
  const cases = loadCases(BUILT_IN_CASES_DIR, command.fixtures, schemas);
  if (command.random === undefined) return visibleFirst(cases);
  if (!isInstructorKit()) {
    throw new SetupError(
      "--random computes answers with the reference solution: it works in the instructor kit only",
    );
  }
  const { randomCases } = await import("./instructor/random/random-cases.ts");
  return visibleFirst([
    ...cases,
    ...(await randomCases(command.random.count, command.random.seed, schemas)),
  ]);
}

/**
 * The cases `--only` names, in the set's order; every case when it names none.
 *
 * @throws SetupError naming each id the set does not have
 */
export function selectCases(cases: readonly Case[], only: readonly string[]): Case[] {
  if (only.length === 0) return [...cases];
  const known = new Set(cases.map((c) => c.id));
  const unknown = only.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new SetupError(
      `no such case: ${unknown.join(", ")}. Case ids are the folder names, e.g. ${cases
        .slice(0, 3)
        .map((c) => c.id)
        .join(", ")}`,
    );
  }
  return cases.filter((c) => only.includes(c.id));
}

/**
 * `--list-cases`: one line per case, in grading order, `ID<TAB>POINTS<TAB>required|extension`
 * (tab-separated, as ids of private cases can hold spaces; the id made printable by textLine, and
 * a tab in it written `\u0009` as textLine writes other controls), for setting up a platform
 * test per case. No header and no total, so a script can read every line.
 */
export function caseListing(cases: readonly Pick<Case, "id" | "points" | "required">[]): string {
  return cases
    .map(
      (c) =>
        `${textLine(c.id).replaceAll("\t", "\\u0009")}\t${c.points}\t${c.required ? "required" : "extension"}\n`,
    )
    .join("");
}

/**
 * Loads and checks everything a grading run needs.
 *
 * @throws SetupError for invalid fixtures, duplicate or unknown case ids, or --random outside
 *   the instructor kit
 */
export async function prepareGrading(command: GradeCommand): Promise<GradingContext> {
  // The sandbox's probes (two short processes) run while the schemas load.
  const sandbox = detectSandbox();
  sandbox.catch(() => {}); // awaited just below
  const schemas = new FixtureSchemas();
  await sandbox;
  for (const warning of sandboxWarnings()) process.stderr.write(`grade: warning: ${warning}\n`);
  const untrusted = command.action === "batch" || command.submission.kind === "command";
  if (untrusted && sandboxFeatures().mode === "none" && !command.allowUnisolated) {
    throw new SetupError(
      `${command.action === "batch" ? "--batch" : "--cmd"} runs other people's code, and this machine gives the grader no namespaces to isolate it (${sandboxFeatures().weaker ?? "no isolation"}). Run the grader as root (sudo npm run grade -- ...), or pass --allow-unisolated to accept that programs run as your user, can write where you can and signal your processes (docs/sandbox.md).`,
    );
  }
  // Programs see the system's folders: nothing that holds answers or submissions may lie there.
  if (sandboxFeatures().mode !== "none") {
    const kept = [
      KIT_ROOT,
      ...command.fixtures,
      ...(command.batch === undefined ? [] : [command.batch.dir]),
      ...(command.reportDir === undefined ? [] : [command.reportDir]),
    ];
    const exposed = exposedFolders(kept);
    if (exposed.length > 0) {
      throw new SetupError(
        `every sandboxed program sees ${[...new Set(exposed.map(([, d]) => d))].join(", ")} (read-only), and ${exposed.map(([p]) => p).join(", ")} ${exposed.length === 1 ? "is" : "are"} inside: move ${exposed.length === 1 ? "it" : "them"} elsewhere (docs/sandbox.md)`,
      );
    }
  }
  // A --cmd program runs in its folder, as a run identity that must be let in.
  if (command.submission.kind === "command") {
    const closed = commandFolderClosed(sandboxFeatures().mode, command.submission.cwd);
    if (closed !== undefined) process.stderr.write(`grade: warning: ${printable(closed)}\n`);
  }
  // The sandbox starts the grader's own Node for every TypeScript program and build (not for a
  // --cmd program): refuse at once, saying why, rather than fail every case.
  if (command.submission.kind !== "command") {
    const problem = nodeUnreachable(sandboxFeatures().mode);
    if (problem !== undefined) throw new SetupError(problem);
  }
  // A submission may hold no other name (hard link) for a private case's file either.
  protectFolders(command.fixtures);
  const limits = {
    timeoutMs: command.timeoutMs,
    memoryMiB: MEMORY_MIB,
    outputCapBytes: OUTPUT_CAP_BYTES,
    typeCheck: command.types,
  };
  // Grading one folder: its build (a confined bundler process) runs while the cases load, and
  // gradeOptions hands it to that grading.
  let early =
    command.action === "grade" && command.submission.kind === "folder"
      ? prepareProgram(command.submission, limits)
      : undefined;
  const discardEarly = () => {
    early?.then(
      (p) => p.cleanup(),
      () => {},
    );
    early = undefined;
  };
  let cases: Case[];
  let kit: GradingContext["kit"];
  let visibleFixtures: string;
  const file = new FileOutcomes();
  let diagnosis: OutcomeSource = file;
  let disposeLive = () => {};
  try {
    const all = await loadCaseSet(command, schemas);
    kit = { version: kitVersion(), fixtures: fixtureHash(all) };
    // With no private case the visible cases are all of them: the same stamp, not hashed again.
    const visible = all.filter((c) => !isPrivateCase(c));
    visibleFixtures = visible.length === all.length ? kit.fixtures : fixtureHash(visible);
    cases = selectCases(all, command.only);
    if (isInstructorKit()) {
      const { LiveOutcomes } = await import("./instructor/mutants/live.ts");
      // Outcomes kept between runs: regrading with the same private or random cases runs no mutant.
      const live = new LiveOutcomes(schemas, undefined, { keep: true });
      diagnosis = new FirstOf([file, live]);
      disposeLive = () => live.dispose();
    }
  } catch (error) {
    // Not graded after all (invalid fixtures, an unknown --only id): the early build goes.
    discardEarly();
    throw error;
  }
  const dispose = () => {
    discardEarly();
    disposeLive();
  };

  return {
    schemas,
    cases,
    kit,
    extension: command.extension,
    diagnosis,
    dispose,
    prepare: (submission) => prepareProgram(submission, limits),
    gradeOptions: (submission, reporters) => {
      // The early build is the command's own submission's, handed over once.
      const prepared = submission === command.submission ? early : undefined;
      if (prepared !== undefined) early = undefined;
      return {
        submission,
        cases,
        schemas,
        ...limits,
        concurrency: caseConcurrency(),
        deadline: command.timeBudgetMs,
        kit,
        extension: command.extension,
        visibleFixtures,
        reporters,
        diagnosis,
        rerun: { args: command.rerunArgs },
        prepared,
        isolate: command.isolate,
      };
    },
  };
}
