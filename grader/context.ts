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
import { FixtureSchemas, loadCases, type Case } from "./cases/load.ts";
import type { GradeOptions } from "./grade.ts";
import { BUILT_IN_CASES_DIR, isInstructorKit, kitVersion } from "./kit.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "./limits.ts";
import { rerunCommand, type GradeCommand, type SubmissionTarget } from "./options.ts";
import type { Reporter } from "./report/reporter.ts";
import { sandboxFeatures, sandboxWarnings } from "./run/sandbox.ts";

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

export interface GradingContext {
  schemas: FixtureSchemas;
  cases: Case[];
  kit: { version: string; fixtures: string };
  diagnosis: OutcomeSource;
  /** The options to grade one submission with these cases and these reporters. */
  gradeOptions(submission: SubmissionTarget, reporters: Reporter[]): GradeOptions;
  /** Frees what the diagnosis source built (mutant bundles). */
  dispose(): void;
}

/**
 * Loads and checks everything a grading run needs.
 *
 * @throws SetupError for invalid fixtures, duplicate or unknown case ids, or --random outside
 *   the instructor kit
 */
export async function prepareGrading(command: GradeCommand): Promise<GradingContext> {
  for (const warning of sandboxWarnings()) process.stderr.write(`grade: warning: ${warning}\n`);
  const untrusted = command.action === "batch" || command.submission.kind === "command";
  if (untrusted && sandboxFeatures().mode === "none" && !command.allowUnisolated) {
    throw new SetupError(
      `${command.action === "batch" ? "--batch" : "--cmd"} runs other people's code, and this machine gives the grader no namespaces to isolate it (${sandboxFeatures().weaker ?? "no isolation"}). Run the grader as root (sudo npm run grade -- ...), or pass --allow-unisolated to accept that programs run as your user, can write where you can and signal your processes (docs/sandbox.md).`,
    );
  }
  const schemas = new FixtureSchemas();
  let cases = loadCases(BUILT_IN_CASES_DIR, command.fixtures, schemas);
  if (command.random !== undefined) {
    if (!isInstructorKit()) {
      throw new SetupError(
        "--random computes answers with the reference solution: it works in the instructor kit only",
      );
    }
    const { randomCases } = await import("./instructor/random/random-cases.ts");
    cases = [...cases, ...(await randomCases(command.random.count, command.random.seed, schemas))];
  }
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

  const file = new FileOutcomes();
  let diagnosis: OutcomeSource = file;
  let dispose = () => {};
  if (isInstructorKit()) {
    const { LiveOutcomes } = await import("./instructor/mutants/live.ts");
    const live = new LiveOutcomes(schemas);
    diagnosis = new FirstOf([file, live]);
    dispose = () => live.dispose();
  }

  return {
    schemas,
    cases,
    kit,
    diagnosis,
    dispose,
    gradeOptions: (submission, reporters) => ({
      submission,
      cases,
      schemas,
      timeoutMs: command.timeoutMs,
      outputCapBytes: OUTPUT_CAP_BYTES,
      memoryMiB: MEMORY_MIB,
      concurrency: availableCpus(),
      deadline: command.timeBudgetMs,
      typeCheck: command.types,
      // Private cases, the other submissions of a batch and the reports: no program sees them.
      hidden: [
        ...command.fixtures,
        ...(command.batch === undefined ? [] : [command.batch.dir]),
        ...(command.reportDir === undefined ? [] : [command.reportDir]),
      ],
      kit,
      reporters,
      diagnosis,
      rerunCommand: (id) => rerunCommand(command.rerunArgs, id),
    }),
  };
}
