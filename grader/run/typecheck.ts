/**
 * `--types`: type-checks a TypeScript submission with the kit's own tsc and strict settings before
 * grading (never on the timed path). Type errors fail the build, one line each with file and line.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { KIT_ROOT } from "../kit.ts";

const require = createRequire(import.meta.url);

/** The compiler options of the kit's tsconfig.json that a submission is checked with. */
const TSC_OPTIONS = [
  // The submission's own tsconfig.json (if any) is not ours to trust or require.
  "--ignoreConfig",
  "--noEmit",
  "--strict",
  "--noUncheckedIndexedAccess",
  "--target",
  "ES2022",
  // Resolved as esbuild bundles it, whether or not a package.json says "type": "module".
  "--module",
  "preserve",
  "--moduleResolution",
  "bundler",
  "--allowImportingTsExtensions",
  "--allowJs",
  "--skipLibCheck",
  "--types",
  "node",
  "--typeRoots",
  join(KIT_ROOT, "node_modules", "@types"),
  "--pretty",
  "false",
];

/**
 * Runs tsc over `<submission>/src/main.ts` and what it imports.
 * @returns the type errors, one per line (empty when the submission type-checks)
 */
export function typeCheck(submissionDir: string): Promise<string[]> {
  const tsc = require.resolve("typescript/bin/tsc");
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [tsc, ...TSC_OPTIONS, join(submissionDir, "src", "main.ts")],
      {
        cwd: submissionDir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.on("close", (code) => {
      const lines = out.split("\n").filter((l) => l.trim() !== "");
      resolve(code === 0 ? [] : lines.length > 0 ? lines : [`tsc exited with code ${code}`]);
    });
  });
}
