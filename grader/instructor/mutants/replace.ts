/**
 * How a mutant is written: it replaces named declarations of solution/src (a function, or a method
 * of a class) with its own versions. The declarations are found with the TypeScript compiler's
 * parser, not by searching text, so an edit of the reference elsewhere, or inside the replaced
 * declaration, never breaks a mutant; renaming or removing a replaced declaration does, loudly.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

/** One declaration of a solution/src file replaced. */
export interface Replacement {
  /** The file in solution/src. */
  file: "subscription.ts" | "range-assignor.ts";
  /**
   * What to replace: a top-level function (`compareMembers`) or a member of a top-level class
   * (`ByteReader.int16`, `ByteReader.constructor`).
   */
  replaceFunction: string;
  /**
   * The new declaration, whole: the same kind and name (and `export`, if the original has it),
   * for a class member as it would stand inside the class. It replaces the original and the
   * original's doc comment, so any comment it starts with describes the mutant's version.
   */
  with: string;
}

// Loaded on first use: the grader imports this module at start in the instructor kit, and most
// runs never build a mutant.
let ts: typeof TypeScript | undefined;
function typescript(): typeof TypeScript {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TypeScript;
  return ts;
}

/** A class member a mutant may replace. */
type Member =
  | TypeScript.MethodDeclaration
  | TypeScript.ConstructorDeclaration
  | TypeScript.GetAccessorDeclaration
  | TypeScript.SetAccessorDeclaration;
type Declaration = TypeScript.FunctionDeclaration | Member;

function parse(fileName: string, text: string): TypeScript.SourceFile {
  const t = typescript();
  return t.createSourceFile(fileName, text, t.ScriptTarget.Latest, true, t.ScriptKind.TS);
}

function isMember(element: TypeScript.ClassElement): element is Member {
  const t = typescript();
  return (
    t.isConstructorDeclaration(element) ||
    t.isMethodDeclaration(element) ||
    t.isGetAccessor(element) ||
    t.isSetAccessor(element)
  );
}

/** A member's name as written in `replaceFunction` (`constructor` for the constructor). */
function memberName(member: Member): string | undefined {
  const t = typescript();
  if (t.isConstructorDeclaration(member)) return "constructor";
  return t.isIdentifier(member.name) ? member.name.text : undefined;
}

/** The declarations among `statements` that `name` (`f` or `Class.member`) names. */
function declarationsNamed(
  statements: readonly TypeScript.Statement[],
  name: string,
): Declaration[] {
  const t = typescript();
  const [owner, member] = name.split(".");
  if (member === undefined) {
    return statements.filter(
      (s): s is TypeScript.FunctionDeclaration =>
        t.isFunctionDeclaration(s) && s.name?.text === owner,
    );
  }
  return statements
    .filter((s): s is TypeScript.ClassDeclaration => t.isClassDeclaration(s))
    .filter((c) => c.name?.text === owner)
    .flatMap((c) => c.members.filter(isMember).filter((m) => memberName(m) === member));
}

/** What must match between an original and its replacement: kind, and `export`. */
function shape(d: Declaration): string {
  const t = typescript();
  const exported = t.getCombinedModifierFlags(d) & t.ModifierFlags.Export;
  return `${t.SyntaxKind[d.kind]}${exported === 0 ? "" : " (exported)"}`;
}

/**
 * The replacement's declaration, parsed on its own (a class member inside a class of its own).
 * @throws Error when `with` is not exactly one declaration of that name
 */
function replacementDeclaration(r: Replacement): Declaration {
  const t = typescript();
  const member = r.replaceFunction.includes(".");
  const owner = r.replaceFunction.split(".")[0] ?? "";
  const text = member ? `class ${owner} {\n${r.with}\n}\n` : r.with;
  const statements = parse(`replacement of ${r.replaceFunction}.ts`, text).statements;
  const [only] = statements;
  const declarations =
    only === undefined ? 0 : t.isClassDeclaration(only) && member ? only.members.length : 1;
  const [declaration] = declarationsNamed(statements, r.replaceFunction);
  if (statements.length !== 1 || declarations !== 1 || declaration === undefined) {
    throw new Error(
      `the replacement of ${r.replaceFunction} must be exactly one declaration named ${r.replaceFunction}`,
    );
  }
  return declaration;
}

/** `text` with every line after the first indented by `indent` (a class member's place). */
function indented(text: string, indent: string): string {
  return text
    .trim()
    .split("\n")
    .map((line, i) => (i === 0 || line === "" ? line : `${indent}${line}`))
    .join("\n");
}

/**
 * Applies the replacements meant for `file` to its source text.
 *
 * @param file the file's name in solution/src
 * @param source its text
 * @param replacements replacements for any file; those of other files are left out
 * @returns the source with each named declaration (and its doc comment) replaced
 * @throws Error when a name does not match exactly one declaration, a replacement is not one
 *   declaration of that name, kind and export, two replacements name the same declaration, or the
 *   result does not parse
 */
export function applyReplacements(
  file: string,
  source: string,
  replacements: readonly Replacement[],
): string {
  const mine = replacements.filter((r) => r.file === file);
  if (mine.length === 0) return source;
  const t = typescript();
  const sourceFile = parse(file, source);
  const edits = mine.map((r) => {
    const found = declarationsNamed(sourceFile.statements, r.replaceFunction);
    const [original] = found;
    if (found.length !== 1 || original === undefined) {
      throw new Error(
        `${file}: ${r.replaceFunction} names ${found.length} declarations (a mutant replaces exactly one)`,
      );
    }
    const replacement = replacementDeclaration(r);
    if (shape(replacement) !== shape(original)) {
      throw new Error(
        `${file}: ${r.replaceFunction} is a ${shape(original)}, its replacement a ${shape(replacement)}`,
      );
    }
    const start = original.getStart(sourceFile, true);
    const lineStart = source.lastIndexOf("\n", start - 1) + 1;
    const indent = /^[ \t]*/.exec(source.slice(lineStart, start))?.[0] ?? "";
    return {
      start,
      end: original.getEnd(),
      text: indented(r.with, indent),
      name: r.replaceFunction,
    };
  });
  edits.sort((a, b) => b.start - a.start);
  let result = source;
  let previousStart = Number.POSITIVE_INFINITY;
  for (const edit of edits) {
    if (edit.end > previousStart) throw new Error(`${file}: ${edit.name} is replaced twice`);
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    previousStart = edit.start;
  }
  const { diagnostics = [] } = t.transpileModule(result, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: t.ScriptTarget.ES2022, module: t.ModuleKind.ESNext },
  });
  if (diagnostics.length > 0) {
    const first = t.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? "", " ");
    throw new Error(`${file} with ${mine.map((r) => r.replaceFunction).join(", ")}: ${first}`);
  }
  return result;
}
