// The e2e tier's global setup: one folder per test run where test/helpers/graded.ts keeps each
// shared grading (the reference, the starter, a failing variant, every format at once), so that
// every file asking for one reads the same run instead of grading the submission again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of this run's shared gradings (graded.ts). */
    gradedDir: string;
  }
}

/**
 * Makes this run's folder of shared gradings and hands its path to the test files
 * (`inject("gradedDir")`).
 * @returns the teardown, which removes the folder
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "kit-graded-"));
  project.provide("gradedDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
