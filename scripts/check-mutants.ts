/**
 * `tsx scripts/check-mutants.ts typecheck|lint`: every mutant (grader/instructor/mutants) as code
 * the kit checks like its own. `typecheck` writes each mutant as a submission folder and
 * type-checks them all in one program, strict, as tsconfig.json does the reference; `lint` runs
 * the kit's ESLint configuration over each mutant's changed files. package.json's `typecheck` and
 * `lint` scripts run it after their own checks.
 *
 * One rule is off for mutants: no-unused-vars. A mistake often leaves a line of the reference it
 * no longer needs (a helper it skips, a parameter it ignores), as a student's mistake would.
 *
 * Exit 0 when every mutant passes; 1 listing each problem with its mutant; 2 for bad arguments.
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { KIT_ROOT } from "../grader/kit.ts";
import { MUTANTS, variantSources, writeMutant } from "../grader/instructor/mutants/mutants.ts";

const USAGE = "usage: tsx scripts/check-mutants.ts typecheck|lint";

/** Type errors of every mutant, each as `<mutant>: <file>:<line>: <message>`. */
function typeErrors(): string[] {
  const dirs = new Map([...MUTANTS.keys()].map((id) => [writeMutant(id), id]));
  try {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(KIT_ROOT, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (config === undefined) throw new Error("tsconfig.json cannot be read");
    const program = ts.createProgram(
      [...dirs.keys()].map((dir) => join(dir, "src", "main.ts")),
      // ES modules as in the kit (a mutant's folder has no package.json saying so).
      {
        ...config.options,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        noEmit: true,
      },
    );
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const file = d.file?.fileName ?? "";
      const dir = [...dirs.keys()].find((k) => file.startsWith(`${k}/`));
      const at =
        d.file !== undefined && d.start !== undefined
          ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
          : "";
      const where = dir === undefined ? file : file.slice(dir.length + 1);
      const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
      return `${dir === undefined ? "?" : dirs.get(dir)}: ${where}${at}: ${message}`;
    });
  } finally {
    for (const dir of dirs.keys()) rmSync(dirname(dir), { recursive: true, force: true });
  }
}

/** Lint problems of every mutant's changed files, each as `<mutant>: <file>:<line>: <message>`. */
async function lintErrors(): Promise<string[]> {
  const eslint = new ESLint({
    cwd: KIT_ROOT,
    overrideConfig: { rules: { "@typescript-eslint/no-unused-vars": "off" } },
  });
  const problems: string[] = [];
  for (const [id, edits] of MUTANTS) {
    const changed = new Set(edits.map((e) => e.file));
    for (const [file, text] of variantSources(edits)) {
      if (!changed.has(file)) continue;
      // Linted as the reference's own file, so the kit's configuration for solution/ applies.
      const filePath = join(KIT_ROOT, "solution", "src", file);
      for (const result of await eslint.lintText(text, { filePath })) {
        for (const m of result.messages) {
          problems.push(`${id}: src/${file}:${m.line}: ${m.message} (${m.ruleId ?? "parse"})`);
        }
      }
    }
  }
  return problems;
}

const [mode, ...rest] = process.argv.slice(2);
if ((mode !== "typecheck" && mode !== "lint") || rest.length > 0) {
  console.error(USAGE);
  process.exit(2);
}
const problems = mode === "typecheck" ? typeErrors() : await lintErrors();
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(
    `${problems.length} problem(s) in the mutants (grader/instructor/mutants/mutants.ts)`,
  );
  process.exit(1);
}
console.log(`${MUTANTS.size} mutants: ${mode === "typecheck" ? "type-check" : "lint"} clean`);
