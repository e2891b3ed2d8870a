/**
 * Where the kit's files are, and its version stamp. The grader runs from the instructor kit (with
 * starter/ and solution/) and from the student handout (whose root is itself the submission).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The nearest folder at or above `dir` that holds a package.json, with a trailing separator.
 *
 * @throws Error when no folder above holds one
 */
function nearestPackageRoot(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return join(at, "/");
    if (dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/**
 * The kit's root folder: the one holding package.json, grader/ and fixtures/. This module runs from
 * grader/ (tsx, the tests) and from the compiled grader's folder in .grader/ (launch.mjs), at
 * different depths, so the root is the nearest folder above with a package.json.
 */
export const KIT_ROOT = nearestPackageRoot(fileURLToPath(new URL(".", import.meta.url)));

export const BUILT_IN_CASES_DIR = join(KIT_ROOT, "fixtures", "cases");
export const SCHEMA_DIR = join(KIT_ROOT, "fixtures", "schema");

/** The kit's version, from package.json. */
export function kitVersion(): string {
  const pkg = JSON.parse(readFileSync(join(KIT_ROOT, "package.json"), "utf8")) as {
    version?: string;
  };
  return pkg.version ?? "0.0.0";
}

/**
 * What `npm run grade` grades with no PATH: `starter/` in the instructor kit, the kit root itself in
 * the student handout (where the student's work is `src/`).
 */
export function defaultSubmission(): { path: string; name: string } {
  if (existsSync(join(KIT_ROOT, "starter", "src", "main.ts"))) {
    return { path: join(KIT_ROOT, "starter"), name: "starter" };
  }
  return { path: KIT_ROOT.replace(/[\\/]$/, ""), name: "src" };
}

/** True in the instructor kit, which has the reference and the mutants (not the handout). */
export function isInstructorKit(): boolean {
  return (
    existsSync(join(KIT_ROOT, "grader", "instructor", "mutants", "live.ts")) &&
    existsSync(join(KIT_ROOT, "solution", "src", "main.ts"))
  );
}

/** npm runs scripts from the package root; INIT_CWD is where the user typed the command. */
export function userCwd(): string {
  return process.env.INIT_CWD ?? process.cwd();
}
