/**
 * `npm run grade -- --merge OUT1 OUT2 ... --report-dir OUT [--allow-partial]`: joins the report
 * folders of `--batch ... --shard I/N` runs into one class report. It reads each folder's
 * shard.json and results JSON only (nothing is graded again), refuses shards graded with
 * different kits, case lists or extension policies, or holding the same submission twice, and writes OUT exactly as
 * an unsharded --batch would from the same results (see output.ts). It also refuses a partial
 * class (a shard of the plan missing or incomplete: classGaps) unless --allow-partial, which
 * writes the report anyway and warns of each gap.
 */
import { join, resolve } from "node:path";
import { SetupError } from "../errors.ts";
import { printable } from "../report/escape.ts";
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
import { byCodeUnits, shareOf } from "./shard.ts";
import { everyRequiredPassed } from "../results.ts";

/** The shards' manifests and results, checked to belong to one class. */
export interface MergedShards {
  kit: Manifest["kit"];
  cases: Manifest["cases"];
  /** Every folder of the class, as the shards listed it (their `listed`, joined). */
  listed: string[];
  results: SubmissionResults[];
  /**
   * Why the merged report would not hold the whole class (classGaps), one sentence each; [] for a
   * whole class. runMerge refuses a merge with gaps unless --allow-partial.
   */
  gaps: string[];
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

/** Submission names for a message: each as a JSON string, the first five, then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => JSON.stringify(n));
  return names.length > 5 ? `${shown.join(", ")} and ${names.length - 5} more` : shown.join(", ");
}

/** The names of `want` that `have` lacks, in `want`'s order. */
function lacking(want: readonly string[], have: ReadonlySet<string>): string[] {
  return want.filter((name) => !have.has(name));
}

/** One report folder read for a merge. */
export interface ShardFolder {
  dir: string;
  manifest: Manifest;
  results: SubmissionResults[];
}

/**
 * Why the folders do not hold the whole class, one sentence each; [] when they do. The shard plan
 * is the shards' common N: every shard 1/N..N/N must be there, each cut from the same listing of
 * the class (the manifest's `listed`) and holding all of its share of it (shard.ts shareOf), the
 * folders a --batch --shard I/N run grades. Shards that split the class in different ways (/2
 * and /3) leave the plan unknown, which is a gap too. A whole-class folder (no shard) must hold
 * every folder it lists (a partial merge's report does not).
 */
export function classGaps(folders: readonly ShardFolder[]): string[] {
  const gaps: string[] = [];
  const names = (f: ShardFolder) => new Set(f.results.map((r) => r.submission));
  for (const f of folders) {
    if (f.manifest.shard !== null) continue;
    const missing = lacking(f.manifest.listed, names(f));
    if (missing.length > 0) {
      gaps.push(
        `${f.dir} is a partial class: it lacks ${missing.length} of its ${f.manifest.listed.length} folders (${someNames(missing)})`,
      );
    }
  }
  const shards = folders.filter((f) => f.manifest.shard !== null);
  const counts = [...new Set(shards.map((f) => f.manifest.shard?.count ?? 0))];
  const first = shards[0];
  if (first === undefined) return gaps;
  if (counts.length > 1) {
    gaps.push(
      `the shards split the class in different ways (${counts.map((n) => `/${n}`).join(", ")}), so no shard plan says which folders make the class; grade every shard with the same N`,
    );
    return gaps;
  }
  const count = counts[0] ?? 0;
  const listed = first.manifest.listed;
  const key = (f: ShardFolder) => `${f.manifest.shard?.index ?? 0}/${count}`;
  const sameListing = (f: ShardFolder) =>
    f.manifest.listed.length === listed.length &&
    f.manifest.listed.every((name, i) => name === listed[i]);
  for (const f of shards) {
    if (!sameListing(f)) {
      gaps.push(
        `shards ${key(first)} and ${key(f)} were cut from different listings of the class (${listed.length} and ${f.manifest.listed.length} folders): grade every shard from the same DIR`,
      );
    }
  }
  if (gaps.length > 0) return gaps;
  const present = new Set(shards.map((f) => f.manifest.shard?.index ?? 0));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !present.has(i));
  if (missing.length > 0) {
    const lost = missing.flatMap((index) => shareOf(listed, { index, count }));
    gaps.push(
      `shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} of the plan missing: ${lost.length === 0 ? "no folders" : `${lost.length} folder${lost.length === 1 ? "" : "s"} (${someNames(lost)})`} not in the report`,
    );
  }
  for (const f of shards) {
    const shard = f.manifest.shard ?? { index: 0, count };
    const lost = lacking(shareOf(listed, shard), names(f));
    if (lost.length > 0) {
      gaps.push(
        `shard ${key(f)} (${f.dir}) is incomplete: it lacks ${lost.length} of its share's folders (${someNames(lost)})`,
      );
    }
  }
  return gaps;
}

/**
 * Reads and checks shard report folders.
 *
 * @param dirs the shards' --report-dir folders (absolute)
 * @throws SetupError for a folder that is not a report (or an unfinished one), different kit
 *   stamps, case lists or extension policies, a submission in two shards, or the same shard given twice; a partial
 *   class is not thrown but returned as `gaps`
 */
export function readShards(dirs: readonly string[]): MergedShards {
  const shards: ShardFolder[] = dirs.map((dir) => ({ dir, ...readReportDir(dir) }));
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
  for (const s of shards) {
    const shard = s.manifest.shard;
    if (shard !== null) {
      const key = `${shard.index}/${shard.count}`;
      const other = shardSeen.get(key);
      if (other !== undefined)
        throw new SetupError(`shard ${key} is given twice: ${other} and ${s.dir}`);
      shardSeen.set(key, s.dir);
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
  return {
    kit: first.manifest.kit,
    cases: first.manifest.cases,
    listed: [...new Set(shards.flatMap((s) => s.manifest.listed))].sort(byCodeUnits),
    results: shards.flatMap((s) => s.results),
    gaps: classGaps(shards),
  };
}

/**
 * Runs --merge.
 *
 * @returns 0 when the merged report was written
 * @throws SetupError (see readShards), when OUT is one of the shard folders, or when the shards
 *   do not hold the whole class (MergedShards.gaps) and --allow-partial was not given; nothing is
 *   written then
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
  if (merged.gaps.length > 0 && !command.allowPartial) {
    throw new SetupError(
      [
        `the merge would publish a partial class (nothing was written):`,
        ...merged.gaps.map((gap) => `  ${gap}`),
        `Merge every shard of the plan (grade a missing or incomplete shard again), or add --allow-partial to write the partial report anyway.`,
      ].join("\n"),
    );
  }
  // A gap names folders, whose names a student chose: made printable, as a refusal's are.
  for (const gap of merged.gaps) process.stderr.write(`grade: warning: ${printable(gap)}\n`);
  prepareReportDir(reportDir);
  for (const r of merged.results) writeSubmissionResults(reportDir, r);
  const graded = new Set(merged.results.map((r) => r.submission));
  const written = writeClassReport(
    reportDir,
    { kit: merged.kit, shard: null, cases: merged.cases, listed: merged.listed },
    merged.results,
    merged.gaps.length > 0 ? merged.listed.filter((name) => !graded.has(name)) : [],
  );
  const passed = merged.results.filter((r) => everyRequiredPassed(r.cases)).length;
  const partial =
    merged.gaps.length > 0 ? ` of ${merged.listed.length} (a partial class: --allow-partial)` : "";
  process.stdout.write(
    `Merged ${inputs.length} shard${inputs.length === 1 ? "" : "s"}: ${merged.results.length} submissions${partial}, ${passed} passed every required case.\n${inputs.map((dir) => `read ${shownPath(dir)}`).join("\n")}\n${written.map((file) => `wrote ${shownPath(join(reportDir, file))}`).join("\n")}\n`,
  );
  return Promise.resolve(0);
}
