/**
 * The mutants' bundles, kept between grading runs (instructor kit). Every run that diagnoses a
 * private, random or edited case live built all the mutants again (live.ts), each its own confined
 * bundler process, about half a second of CPU apiece; the bundles only change with their sources.
 *
 * Kept in the kit's own .grader/ folder (never a shared temporary folder a submission could write;
 * programs never see it, run/program.ts), one folder per hash of what every mutant's bundle
 * depends on: the reference's src/, the replacements (grader/instructor/mutants/), the bundler
 * (grader/run/), the locked packages (esbuild) and Node's version. In it, one JSON file per mutant
 * named by its id and a hash of its own src/ files. Files are written atomically (a temporary
 * name, then rename), so two graders at once are safe; the folders of other hashes are removed
 * when a new one is made. A kit folder that cannot be written, or an entry that cannot be read,
 * just means a build.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import type { SourceMapPayload } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { KIT_ROOT } from "../../kit.ts";
import { buildSubmission, type BuildResult } from "../../run/build.ts";
import { byCodeUnits } from "../../verdict/order.ts";

/** The kit's cache folder (launch.mjs keeps the compiled grader there too). */
export const CACHE_ROOT = join(KIT_ROOT, ".grader");

/** What every mutant's bundle depends on besides its own src/, relative to the kit. */
const SHARED_INPUTS = [
  "solution/src/**",
  "grader/instructor/mutants/**",
  "grader/run/**",
  "package-lock.json",
];

/** One cached bundle: the bundle's text and its source map (as buildSubmission returns it). */
interface Entry {
  bundle: string;
  sourceMap: SourceMapPayload;
  entryDigest: string;
}

/** Hashes the files `patterns` match under `cwd` (paths and bytes, in code-unit order of path). */
export function hashFiles(cwd: string, patterns: string[], seed: string): string {
  const files = globSync(patterns, { cwd, dot: true, onlyFiles: true }).sort(byCodeUnits);
  const hash = createHash("sha256").update(seed);
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(cwd, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The mutants' bundles for the kit's present sources: `build` gives a mutant folder's bundle from
 * the cache, or builds it (buildSubmission) and keeps it.
 */
export class MutantBundles {
  private folder: string | undefined;

  /** The cache folder for the present sources (hashed once per instance). */
  private dir(): string {
    this.folder ??= join(
      CACHE_ROOT,
      `mutants-${hashFiles(KIT_ROOT, SHARED_INPUTS, `${process.version}\0`)}`,
    );
    return this.folder;
  }

  /**
   * buildSubmission for a mutant's folder (written by writeMutant), from the cache when its
   * sources were built before; the result is the caller's to remove (`outDir`), as with
   * buildSubmission.
   *
   * @param id the mutant's name (part of its entry's file name)
   */
  async build(id: string, mutantDir: string): Promise<BuildResult> {
    let file: string | undefined;
    try {
      file = join(this.dir(), `${id}-${hashFiles(mutantDir, ["src/**"], "")}.json`);
      const entry = JSON.parse(readFileSync(file, "utf8")) as Partial<Entry>;
      if (
        typeof entry.bundle === "string" &&
        typeof entry.sourceMap === "object" &&
        entry.sourceMap !== null &&
        typeof entry.entryDigest === "string"
      ) {
        // As buildSubmission leaves it: a private folder holding only the bundle.
        const outDir = mkdtempSync(join(tmpdir(), "kit-grade-"));
        const bundle = join(outDir, "main.mjs");
        writeFileSync(bundle, entry.bundle, { mode: 0o644, flag: "wx" });
        return {
          bundle,
          outDir,
          errors: [],
          sourceMap: entry.sourceMap,
          entryDigest: entry.entryDigest,
        };
      }
    } catch {
      // Not built before (or unreadable): build it.
    }
    const built = await buildSubmission(mutantDir);
    if (
      file !== undefined &&
      built.bundle !== undefined &&
      built.sourceMap !== undefined &&
      built.entryDigest !== undefined
    ) {
      this.keep(file, {
        bundle: readFileSync(built.bundle, "utf8"),
        sourceMap: built.sourceMap,
        entryDigest: built.entryDigest,
      });
    }
    return built;
  }

  /** Writes an entry atomically; a folder that cannot be written keeps nothing. */
  private keep(file: string, entry: Entry): void {
    const dir = this.dir();
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
      writeFileSync(temporary, JSON.stringify(entry), { mode: 0o644 });
      renameSync(temporary, file);
      // Bundles of earlier sources are never read again.
      for (const name of readdirSync(CACHE_ROOT)) {
        if (name.startsWith("mutants-") && join(CACHE_ROOT, name) !== dir)
          rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
      }
    } catch {
      // A read-only kit: build every time.
    }
  }
}
