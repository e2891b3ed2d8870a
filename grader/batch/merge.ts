/**
 * `npm run grade -- --merge OUT1 OUT2 ... --report-dir OUT`: joins the report folders of
 * `--batch ... --shard I/N` runs into one class report. It reads each folder's shard.json and
 * results JSON only (nothing is graded again), refuses shards graded with different kits, case
 * lists or extension policies, or holding the same submission twice, and writes OUT exactly as an unsharded --batch
 * would from the same results (see output.ts).
 */
import { join, resolve } from "node:path";
import { SetupError } from "../errors.ts";
import type { GradeCommand } from "../options.ts";
import type { SubmissionResults } from "./gradebook.ts";
import {
  prepareReportDir,
  readReportDir,
  writeClassReport,
  writeSubmissionResults,
  type Manifest,
} from "./output.ts";
import { shownPath } from "./progress.ts";
import { everyRequiredPassed } from "../results.ts";

/** The shards' manifests and results, checked to belong to one class. */
export interface MergedShards {
  kit: Manifest["kit"];
  cases: Manifest["cases"];
  results: SubmissionResults[];
  /** Warnings (e.g. shards missing from 1..N); the merge goes on. */
  warnings: string[];
}

function sameCases(a: Manifest["cases"], b: Manifest["cases"]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => {
      const d = b[i];
      return (
        d !== undefined &&
        c.id === d.id &&
        c.title === d.title &&
        c.required === d.required &&
        c.maxPoints === d.maxPoints
      );
    })
  );
}

/**
 * Reads and checks shard report folders.
 *
 * @param dirs the shards' --report-dir folders (absolute)
 * @throws SetupError for a folder that is not a report, different kit stamps, case lists or
 *   extension policies, a submission in two shards, or the same shard given twice
 */
export function readShards(dirs: readonly string[]): MergedShards {
  const shards = dirs.map((dir) => ({ dir, ...readReportDir(dir) }));
  const first = shards[0];
  if (first === undefined) throw new SetupError("--merge needs at least one shard folder");
  for (const s of shards) {
    const { kit } = s.manifest;
    if (kit.version !== first.manifest.kit.version || kit.fixtures !== first.manifest.kit.fixtures)
      throw new SetupError(
        `the shards were graded with different kits: ${first.dir} with kit ${first.manifest.kit.version} (fixtures ${first.manifest.kit.fixtures}), ${s.dir} with kit ${kit.version} (fixtures ${kit.fixtures}); grade every shard with the same kit and --fixtures`,
      );
    if (!sameCases(s.manifest.cases, first.manifest.cases))
      throw new SetupError(
        `the shards were graded on different cases: ${first.dir} (${first.manifest.cases.length} cases) and ${s.dir} (${s.manifest.cases.length}); grade every shard with the same --only and --fixtures`,
      );
  }
  const owner = new Map<string, string>();
  const shardSeen = new Map<string, string>();
  const counts = new Set<number>();
  const indexes = new Set<number>();
  for (const s of shards) {
    const shard = s.manifest.shard;
    if (shard !== null) {
      const key = `${shard.index}/${shard.count}`;
      const other = shardSeen.get(key);
      if (other !== undefined)
        throw new SetupError(`shard ${key} is given twice: ${other} and ${s.dir}`);
      shardSeen.set(key, s.dir);
      counts.add(shard.count);
      indexes.add(shard.index);
    }
    for (const r of s.results) {
      const other = owner.get(r.submission);
      if (other !== undefined)
        throw new SetupError(
          `submission ${JSON.stringify(r.submission)} is in two shards: ${other} and ${s.dir}; the shards of one class never overlap`,
        );
      owner.set(r.submission, s.dir);
    }
  }
  // Every total of one gradebook is under one extension policy.
  const policies = new Map<string, string>();
  for (const s of shards)
    for (const r of s.results)
      if (!policies.has(r.extensionPolicy)) policies.set(r.extensionPolicy, s.dir);
  if (policies.size > 1)
    throw new SetupError(
      `the shards were graded with different extension policies: ${[...policies].map(([policy, dir]) => `--extension ${policy} in ${dir}`).join(", ")}; grade every shard with the same --extension`,
    );
  const warnings: string[] = [];
  if (counts.size > 1) {
    warnings.push(
      `the shards split the class in different ways (${[...counts].map((n) => `/${n}`).join(", ")}); each submission is still counted once`,
    );
  } else if (counts.size === 1 && shards.every((s) => s.manifest.shard !== null)) {
    const count = [...counts][0] as number;
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.has(i));
    if (missing.length > 0)
      warnings.push(
        `shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} missing: the report lacks ${missing.length === 1 ? "its" : "their"} submissions`,
      );
  }
  return {
    kit: first.manifest.kit,
    cases: first.manifest.cases,
    results: shards.flatMap((s) => s.results),
    warnings,
  };
}

/**
 * Runs --merge.
 *
 * @returns 0 when the merged report was written
 * @throws SetupError (see readShards), or when OUT is one of the shard folders
 */
export function runMerge(command: GradeCommand): Promise<number> {
  const reportDir = command.reportDir;
  if (reportDir === undefined) throw new Error("runMerge without --report-dir");
  const inputs = command.merge.map((dir) => resolve(dir));
  if (inputs.includes(resolve(reportDir))) {
    throw new SetupError(
      `--report-dir ${reportDir} is one of the shards being merged: give a new folder`,
    );
  }
  const merged = readShards(inputs);
  for (const warning of merged.warnings) process.stderr.write(`grade: warning: ${warning}\n`);
  prepareReportDir(reportDir);
  for (const r of merged.results) writeSubmissionResults(reportDir, r);
  const written = writeClassReport(
    reportDir,
    { kit: merged.kit, shard: null, cases: merged.cases },
    merged.results,
  );
  const passed = merged.results.filter((r) => everyRequiredPassed(r.cases)).length;
  process.stdout.write(
    `Merged ${inputs.length} shard${inputs.length === 1 ? "" : "s"}: ${merged.results.length} submissions, ${passed} passed every required case.\n${inputs.map((dir) => `read ${shownPath(dir)}`).join("\n")}\n${written.map((file) => `wrote ${shownPath(join(reportDir, file))}`).join("\n")}\n`,
  );
  return Promise.resolve(0);
}
