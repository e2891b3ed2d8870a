/**
 * The one runner of the mutants (instructor kit): every mutant (grader/instructor/mutants) built once,
 * run on a case when that case is first asked about, each outcome kept. The grader uses it for
 * cases grader/diagnose/diagnosis.json does not cover (private, random or edited cases);
 * `npm run build:diagnosis` and the kit's tests record and check that file with it.
 */
import { rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import pLimit from "p-limit";
import { dirname } from "node:path";
import { judge } from "../../verdict/verdict.ts";
import { capRun } from "../../verdict/capped-text.ts";
import type { Outcome } from "../../verdict/outcome.ts";
import {
  mutantOffsets,
  mutantRejections,
  outcomeHash,
  type MemberBytes,
} from "../../diagnose/data.ts";
import type { OutcomeSource } from "../../diagnose/diagnose.ts";
import { metadataBytes, type Case, type FixtureSchemas } from "../../cases/load.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES } from "../../limits.ts";
import { prepareProgram, runCase, type Program } from "../../run/prepare.ts";
import { runSharedGroup, sharedRawRun } from "../../run/shared-run.ts";
import { MUTANTS, writeMutant } from "./mutants.ts";
import { fieldSpans } from "./field-spans.ts";
import { MutantBundles } from "./bundle-cache.ts";
import { MutantThreads } from "./in-process.ts";
import { OutcomeCache } from "./outcome-cache.ts";

/**
 * The limits every mutant runs under: the grader's memory and output caps, and a per-case time
 * limit well above what a mutant needs (each is the reference with one mistake: it finishes fast).
 */
export const MUTANT_LIMITS = {
  timeoutMs: 20_000,
  memoryMiB: MEMORY_MIB,
  outputCapBytes: OUTPUT_CAP_BYTES,
} as const;

/** A mutant ready to run: as a sandboxed process, and the bundle a thread runs (in-process.ts). */
interface BuiltMutant {
  program: Program;
  bundle: string;
}

/**
 * Mutant outcomes found by running the mutants: on a case's first use every mutant runs on it (in
 * parallel), and the outcomes are kept by case id. Each run is a worker thread's where the thread
 * can vouch for it (in-process.ts), else a sandboxed process's. Call dispose() to remove what it
 * built.
 */
export class LiveOutcomes implements OutcomeSource {
  private programs: Promise<Map<string, BuiltMutant>> | undefined;
  private readonly cleanup: (() => void)[] = [];
  private readonly cache = new Map<string, Promise<Map<string, Outcome>>>();
  /** Outcomes of the clean passes shared runs found (shareRuns): mutant to case id to outcome. */
  private readonly sharedPasses = new Map<BuiltMutant, Map<string, Outcome>>();

  /** Outcomes kept between runs (grading only: recording and checking diagnosis.json run all). */
  private readonly kept: OutcomeCache | undefined;

  /** The threads that run mutants in process; undefined when every run is a process. */
  private readonly threads: MutantThreads | undefined;

  /**
   * @param ids the mutants that run, by name (default: every mutant, in the catalogue's order)
   * @param options `keep`: read and keep outcomes in the kit's cache (outcome-cache.ts) instead of
   *   running the mutants on a case whose outcomes are kept for the present sources;
   *   `processesOnly`: every run a sandboxed process, none in a thread (recording diagnosis.json)
   */
  constructor(
    private readonly schemas: FixtureSchemas,
    private readonly ids: readonly string[] = [...MUTANTS.keys()],
    options: { keep?: boolean; processesOnly?: boolean } = {},
  ) {
    this.kept = options.keep === true ? new OutcomeCache() : undefined;
    this.threads = options.processesOnly === true ? undefined : new MutantThreads(MUTANT_LIMITS);
  }

  /** Mutant name to its program and bundle, built on first use. */
  private build(): Promise<Map<string, BuiltMutant>> {
    this.programs ??= (async () => {
      // Built a few at a time (each build is its own confined bundler process), kept in `ids` order;
      // a mutant whose sources were bundled before comes from the kit's cache (bundle-cache.ts).
      const bundles = new MutantBundles();
      const built = await pLimit(availableParallelism()).map(this.ids, async (id) => {
        const dir = writeMutant(id);
        this.cleanup.push(() => rmSync(dirname(dir), { recursive: true, force: true }));
        let bundle: string | undefined;
        const prepared = await prepareProgram(
          { kind: "folder", path: dir, name: `mutant ${id}` },
          MUTANT_LIMITS,
          async (path) => {
            const build = await bundles.build(id, path);
            bundle = build.bundle;
            return build;
          },
        );
        this.cleanup.push(prepared.cleanup);
        return [id, prepared, bundle] as const;
      });
      const programs = new Map<string, BuiltMutant>();
      for (const [id, prepared, bundle] of built) {
        if (prepared.program === undefined || bundle === undefined) {
          throw new Error(`mutant ${id} does not build: ${prepared.errors.join("; ")}`);
        }
        programs.set(id, { program: prepared.program, bundle });
      }
      return programs;
    })();
    return this.programs;
  }

  /**
   * Runs each mutant's cases in shared processes (run/shared-run.ts), a few mutants at a time, and
   * keeps the outcome of every clean pass: outcomes() then runs a mutant alone only on the cases it
   * did not pass there, as the grading loop does (grade.ts), so every outcome is the one a run
   * alone gives.
   *
   * @param cases the cases outcomes() will be asked about (one group: shared runs never mix a
   *   visible case with a private one, and these are the built-in cases)
   * @throws Error when a mutant does not build
   */
  async shareRuns(cases: readonly Case[]): Promise<void> {
    const programs = await this.build();
    await pLimit(availableParallelism()).map([...programs.values()], async (mutant) => {
      const start = mutant.program.shared;
      if (start === undefined) return;
      const passes = new Map<string, Outcome>();
      this.sharedPasses.set(mutant, passes);
      await runSharedGroup(start, cases, MUTANT_LIMITS, (k, report) => {
        const c = cases[k] as Case;
        const raw = sharedRawRun(report, MUTANT_LIMITS.timeoutMs);
        if (raw === undefined) return false;
        const verdict = judge(c, capRun(raw), this.schemas.output(c.mode), MUTANT_LIMITS.timeoutMs);
        if (verdict.status !== "pass") return false;
        passes.set(c.id, verdict.outcome);
        return true;
      });
    });
  }

  /**
   * Every mutant's outcome on the case, in the order of `ids`; run once per case id and kept.
   *
   * @throws Error when a mutant does not build (its replacements no longer fit solution/src)
   */
  outcomes(c: Case): Promise<Map<string, Outcome>> {
    let outcomes = this.cache.get(c.id);
    if (outcomes === undefined) {
      outcomes = (async () => {
        const kept = this.kept?.read(c, this.ids, MUTANT_LIMITS);
        if (kept !== undefined) return kept;
        const programs = await this.build();
        // A mutant whose edits are all in files the case's mode never calls runs as the
        // reference does: one of them runs for them all (`--decode` never calls assignRange or
        // encodeAssignment, and only `--sync` calls encodeAssignment).
        const unused =
          c.mode === "decode" ? DECODE_UNUSED : c.mode === "assign" ? ASSIGN_UNUSED : [];
        const shared = [...programs.keys()].filter((id) => onlyIn(id, unused));
        const once = new Map<BuiltMutant, Promise<Outcome>>();
        const outcomeOf = (mutant: BuiltMutant) => {
          let outcome = once.get(mutant);
          if (outcome === undefined) {
            outcome = (async () => {
              const passed = this.sharedPasses.get(mutant)?.get(c.id);
              if (passed !== undefined) return passed;
              const run =
                (await this.threads?.run(mutant.bundle, c)) ??
                (await runCase(mutant.program, c, MUTANT_LIMITS));
              return judge(c, capRun(run), this.schemas.output(c.mode), MUTANT_LIMITS.timeoutMs)
                .outcome;
            })();
            once.set(mutant, outcome);
          }
          return outcome;
        };
        const runs = await Promise.all(
          [...programs].map(async ([id, program]): Promise<[string, Outcome]> => {
            const runner = shared.includes(id)
              ? (programs.get(shared[0] ?? id) ?? program)
              : program;
            return [id, await outcomeOf(runner)];
          }),
        );
        const ran = new Map(runs);
        this.kept?.keep(c, this.ids, MUTANT_LIMITS, ran);
        return ran;
      })();
      this.cache.set(c.id, outcomes);
    }
    return outcomes;
  }

  /** The outcomes of a case already run, without running anything. */
  async knownOutcomesFor(c: Case): Promise<Map<string, string> | undefined> {
    return this.cache.has(c.id) ? this.outcomesFor(c) : undefined;
  }

  async outcomesFor(c: Case): Promise<Map<string, string>> {
    return new Map([...(await this.outcomes(c))].map(([id, o]) => [id, outcomeHash(o)]));
  }

  async offsetsFor(c: Case): Promise<Map<string, number>> {
    return mutantOffsets(await this.outcomes(c));
  }

  async rejectionsFor(c: Case): Promise<Map<string, string>> {
    return mutantRejections(await this.outcomes(c));
  }

  /** Each member's field layout, read as the reference reads it (cases of up to 50 members). */
  layoutsFor(c: Case): Promise<ReadonlyMap<string, MemberBytes> | undefined> {
    return Promise.resolve(memberLayouts(c));
  }

  /** Stops the threads, and removes the mutants' folders and bundles. */
  dispose(): void {
    void this.threads?.close();
    for (const clean of this.cleanup) clean();
  }
}

/** Cases with more members than this get no field layouts (hex dumps are for small cases). */
export const MAX_MEMBERS_WITH_LAYOUTS = 50;

/** Member id to the field layout of its bytes, or undefined for a case with too many members. */
export function memberLayouts(c: Case): Map<string, MemberBytes> | undefined {
  if (c.input.members.length > MAX_MEMBERS_WITH_LAYOUTS) return undefined;
  return new Map(
    c.input.members.map((m): [string, MemberBytes] => [m.memberId, fieldSpans(metadataBytes(m))]),
  );
}

/** The files of solution/src a decode case never calls, and those an assign case never calls. */
const DECODE_UNUSED: readonly string[] = ["range-assignor.ts", "assignment.ts"];
const ASSIGN_UNUSED: readonly string[] = ["assignment.ts"];

/** True for a mutant whose edits are all in `files` (none when `files` is empty). */
function onlyIn(id: string, files: readonly string[]): boolean {
  const edits = MUTANTS.get(id) ?? [];
  return files.length > 0 && edits.length > 0 && edits.every((r) => files.includes(r.file));
}
