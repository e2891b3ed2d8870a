// Builds a submission's program once with esbuild and runs it as its own process, as graders do.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CASES_DIR = join(ROOT, "fixtures", "cases");

/**
 * Bundles `<submission>/src/main.ts` (the submission relative to the kit, or absolute) into one ESM
 * file for `node`; returns its path.
 */
export function bundleProgram(submission: string): string {
  const outfile = join(mkdtempSync(join(tmpdir(), "kit-test-")), "main.mjs");
  buildSync({
    entryPoints: [join(resolve(ROOT, submission), "src", "main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bundled program with `input` on standard input and optional arguments. */
export function runProgram(bundle: string, input: string, args: string[] = []): RunResult {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    input,
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface FixtureCase {
  id: string;
  meta: {
    title: string;
    mode: "assign" | "decode" | "sync";
    required: boolean;
    points: number;
    mistakes: string[];
  };
  input: string;
  expected: { output: Record<string, unknown> } | { error: { member: string } };
}

/** Every built-in case, in folder order. */
export function readCases(): FixtureCase[] {
  return readdirSync(CASES_DIR)
    .sort()
    .map((id) => {
      const dir = join(CASES_DIR, id);
      return {
        id,
        meta: JSON.parse(readFileSync(join(dir, "case.json"), "utf8")) as FixtureCase["meta"],
        input: readFileSync(join(dir, "input.json"), "utf8"),
        expected: JSON.parse(
          readFileSync(join(dir, "expected.json"), "utf8"),
        ) as FixtureCase["expected"],
      };
    });
}

/** Assignment output with empty topic lists dropped (`"t": []` equals a missing `"t"`). */
export function normaliseAssignment(output: Record<string, Record<string, number[]>>) {
  return new Map(
    Object.entries(output).map(([member, topics]) => [
      member,
      new Map(Object.entries(topics).filter(([, partitions]) => partitions.length > 0)),
    ]),
  );
}
