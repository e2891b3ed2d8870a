/**
 * What "still a placeholder" means for a case: a case.json whose title, description or hint still
 * starts with the TODO text of `npm run new-case`'s scaffold. The grader refuses such a case
 * (load.ts), and so do new-case (before adding another) and `npm run gradescope-bundle`, so a
 * placeholder never reaches a student's report. The one definition all three use.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every placeholder of the scaffold starts with this word. */
export const TODO_MARK = "TODO";

/** The case.json fields the scaffold leaves as placeholders, in case.json's order. */
export const SCAFFOLD_FIELDS = ["title", "description", "hint"] as const;

/**
 * The scaffold fields of a parsed case.json that still start with TODO (leading white space
 * ignored), in SCAFFOLD_FIELDS order; [] for a finished case. A field that is not a string is left
 * to the schema check.
 */
export function unfinishedFields(meta: unknown): string[] {
  if (typeof meta !== "object" || meta === null) return [];
  const record = meta as Record<string, unknown>;
  return SCAFFOLD_FIELDS.filter((field) => {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    return typeof value === "string" && value.trimStart().startsWith(TODO_MARK);
  });
}

/** A case folder whose case.json still holds scaffold placeholders. */
export interface UnfinishedCase {
  /** The case folder's name (its id within the folder of cases). */
  name: string;
  /** The fields still saying TODO (unfinishedFields). */
  fields: string[];
}

/**
 * The case folders of a folder of private cases (each subfolder with a case.json) whose case.json
 * still holds scaffold placeholders, sorted by name. A case.json that is not JSON is skipped: the
 * grader's own checks report it. A folder that does not exist has none.
 */
export function unfinishedCases(dir: string): UnfinishedCase[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const found: UnfinishedCase[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, "case.json");
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    let meta: unknown;
    try {
      meta = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    const fields = unfinishedFields(meta);
    if (fields.length > 0) found.push({ name, fields });
  }
  return found;
}

/**
 * One line per unfinished case: `<prefix><name>/case.json: title, description and hint still say
 * TODO`.
 *
 * @param prefix what goes before the case's folder name (its folder as shown, with a `/`)
 */
export function unfinishedLines(cases: readonly UnfinishedCase[], prefix: string): string[] {
  return cases.map((c) => {
    const fields =
      c.fields.length === 1
        ? (c.fields[0] ?? "")
        : `${c.fields.slice(0, -1).join(", ")} and ${c.fields.at(-1) ?? ""}`;
    return `${prefix}${c.name}/case.json: ${fields} still say${c.fields.length === 1 ? "s" : ""} ${TODO_MARK}`;
  });
}
