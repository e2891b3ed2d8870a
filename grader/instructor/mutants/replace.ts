/**
 * How a variant of the reference is written. A mutant is a few Edits: whole lines inside a named
 * declaration of solution/src replaced (applyEdits). A test may write a mistake its own way, as a
 * Replacement of a whole declaration (applyReplacements). Declarations are found with the
 * TypeScript compiler's parser, so an edit of the reference elsewhere never breaks a variant;
 * renaming or removing a declaration does, loudly, and so does any change to an edit's lines.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

/** One declaration of a solution/src file replaced. */
export interface Replacement {
  /** The file in solution/src. */
  file: "subscription.ts" | "range-assignor.ts" | "assignment.ts";
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
  checkParses(file, result, mine.map((r) => r.replaceFunction).join(", "));
  return result;
}

/**
 * @throws Error naming the file and what was changed (`what`) when `text` does not parse
 */
function checkParses(file: string, text: string, what: string): void {
  const t = typescript();
  const { diagnostics = [] } = t.transpileModule(text, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: t.ScriptTarget.ES2022, module: t.ModuleKind.ESNext },
  });
  if (diagnostics.length > 0) {
    const first = t.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? "", " ");
    throw new Error(`${file} with ${what}: ${first}`);
  }
}

/**
 * A mutant's edit: whole lines of one declaration of solution/src replaced by the lines that make
 * the mistake. The declaration is found with TypeScript's parser, as for a Replacement; inside it
 * the lines of `find` must appear exactly once, in a row, each equal to a line of the reference
 * up to its indentation, so any change to those lines of the reference stops the mutant loudly.
 */
export interface Edit {
  /** The file in solution/src. */
  file: (typeof EDITABLE)[number];
  /**
   * The declaration the lines are in: a top-level function (`rangeForConsumer`) or a member of a
   * top-level class (`ByteReader.int16`, `TopicAssignmentState.constructor`).
   */
  in: string;
  /** The reference's lines (one line, or several separated by `\n`), indentation left out. */
  find: string;
  /**
   * What they become, indented as the first of them; `""` removes them. At most MAX_EDIT_LINES
   * lines, and no more for all of a mutant's edits together (see editLines).
   */
  replace: string;
}

/** The files of solution/src an edit may name. */
const EDITABLE = ["subscription.ts", "range-assignor.ts", "assignment.ts"] as const;

/** A mistake is the one to three lines that differ from the reference. */
export const MAX_EDIT_LINES = 3;

/** The lines an edit writes (none for a removal): what a mutant's size is counted in. */
export function editLines(edit: Edit): number {
  return edit.replace === "" ? 0 : edit.replace.split("\n").length;
}

/** `text` split into lines, each with where it starts. */
function linesOf(text: string): { start: number; end: number; text: string }[] {
  const lines: { start: number; end: number; text: string }[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    lines.push({ start, end: start + line.length, text: line });
    start += line.length + 1;
  }
  return lines;
}

/**
 * Applies the edits meant for `file` to its source text.
 *
 * @param file the file's name in solution/src
 * @param source its text
 * @param edits edits of any file; those of other files are left out
 * @returns the source with each edit's lines replaced
 * @throws Error naming the edit when its declaration is not exactly one, its lines are not found
 *   exactly once inside it, two edits overlap, an edit writes more than MAX_EDIT_LINES lines, or
 *   the result does not parse
 */
export function applyEdits(file: string, source: string, edits: readonly Edit[]): string {
  const mine = edits.filter((e) => e.file === file);
  if (mine.length === 0) return source;
  const sourceFile = parse(file, source);
  const lines = linesOf(source);
  const changes = mine.map((e) => {
    const where = `${file}: ${e.in}: ${JSON.stringify(e.find)}`;
    if (editLines(e) > MAX_EDIT_LINES) {
      throw new Error(`${where}: an edit writes at most ${MAX_EDIT_LINES} lines`);
    }
    const found = declarationsNamed(sourceFile.statements, e.in);
    const [declaration] = found;
    if (found.length !== 1 || declaration === undefined) {
      throw new Error(`${where}: ${e.in} names ${found.length} declarations (an edit needs one)`);
    }
    const from = declaration.getStart(sourceFile, true);
    const to = declaration.getEnd();
    const wanted = e.find.split("\n").map((line) => line.trim());
    const at: number[] = [];
    for (let i = 0; i + wanted.length <= lines.length; i++) {
      const first = lines[i];
      const last = lines[i + wanted.length - 1];
      if (first === undefined || last === undefined || last.end < from || first.start > to) {
        continue;
      }
      if (wanted.every((w, k) => lines[i + k]?.text.trim() === w)) at.push(i);
    }
    const [i] = at;
    const first = i === undefined ? undefined : lines[i];
    const last = i === undefined ? undefined : lines[i + wanted.length - 1];
    if (at.length !== 1 || first === undefined || last === undefined) {
      throw new Error(`${where}: found ${at.length} times in ${e.in} (an edit needs once)`);
    }
    const indent = /^[ \t]*/.exec(first.text)?.[0] ?? "";
    const text =
      e.replace === ""
        ? ""
        : e.replace
            .split("\n")
            .map((line) => indent + line.trim())
            .join("\n");
    // A removal takes its lines' ends with it.
    return e.replace === ""
      ? { start: first.start, end: Math.min(source.length, last.end + 1), text, where }
      : { start: first.start, end: last.end, text, where };
  });
  changes.sort((a, b) => b.start - a.start);
  let result = source;
  let previousStart = Number.POSITIVE_INFINITY;
  for (const change of changes) {
    if (change.end > previousStart) throw new Error(`${change.where}: overlaps another edit`);
    result = result.slice(0, change.start) + change.text + result.slice(change.end);
    previousStart = change.start;
  }
  checkParses(file, result, mine.map((e) => e.in).join(", "));
  return result;
}

/**
 * Edits written as a short patch, one or more named blocks: `## NAME`, any lines saying what it
 * is, then each edit: `@ FILE DECLARATION`, the reference's lines (`- `, indentation left out)
 * and the lines that replace them (`+ `; none: the lines are removed).
 *
 * @param text the patch
 * @param source what to call it in an error message
 * @returns block name to its edits, in the order written
 * @throws Error naming the line that does not fit the format
 */
export function parseEdits(text: string, source: string): Map<string, Edit[]> {
  const mutants = new Map<string, Edit[]>();
  let edits: Edit[] | undefined;
  let edit: { file: Edit["file"]; in: string; find: string[]; replace: string[] } | undefined;
  const close = () => {
    if (edit !== undefined)
      edits?.push({ ...edit, find: edit.find.join("\n"), replace: edit.replace.join("\n") });
    edit = undefined;
  };
  text.split("\n").forEach((line, i) => {
    const fail = (why: string) => new Error(`${source} line ${i + 1}: ${why}: ${line}`);
    const [, mark = "", rest = ""] = /^(##|@|-|\+)? ?(.*)$/.exec(line) ?? [];
    if (mark === "##") {
      close();
      if (mutants.has(rest)) throw fail("a second mutant of this name");
      mutants.set(rest, (edits = []));
    } else if (mark === "@") {
      close();
      const [file, inside, extra] = rest.split(" ");
      if (!EDITABLE.some((f) => f === file) || inside === undefined || extra !== undefined) {
        throw fail("expected @ FILE DECLARATION");
      }
      edit = { file: file as Edit["file"], in: inside, find: [], replace: [] };
    } else if (mark === "-" || mark === "+") {
      if (edit === undefined || (mark === "-" && edit.replace.length > 0))
        throw fail("out of place");
      (mark === "-" ? edit.find : edit.replace).push(rest);
    } else if (edit !== undefined && line !== "") {
      throw fail("inside an edit, every line starts with - or +");
    } else if (edits === undefined && line !== "") {
      throw fail("text before the first mutant");
    }
  });
  close();
  for (const [name, list] of mutants) {
    if (list.length === 0 || list.some((e) => e.find === "")) {
      throw new Error(`${source}: ${name} needs edits, each with the reference's lines`);
    }
  }
  return mutants;
}
