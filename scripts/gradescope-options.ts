/**
 * The grading options `npm run gradescope-bundle` bakes into the bundle's copies of
 * templates/gradescope/setup.sh and run_autograder. Each script holds the option's line with its
 * default value; the bundle writes the instructor's choice in its place, so the uploaded
 * autograder grades the same way on every submission, with nothing to set on Gradescope.
 */

/** `--types`: the scripts' line, as the templates ship it (no type-check). */
export const TYPES_OFF = "GRADE_TYPES=0";
/** ... and as a bundle built with `--types` has it. */
export const TYPES_ON = "GRADE_TYPES=1";

/** What the instructor chose when building the bundle. */
export interface BundleOptions {
  /** Type-check each submission (the grader's `--types`): type errors fail the build. */
  types: boolean;
}

/**
 * A template script's text with `options` baked in: its `GRADE_TYPES=0` line (the whole line,
 * exactly once) becomes `GRADE_TYPES=1` when `options.types`; otherwise the text is unchanged.
 *
 * @param file the script's name, for the error
 * @throws Error when the script has not exactly one such line (the template and this module
 *   disagree: a bug of the kit's)
 */
export function bakeOptions(text: string, file: string, options: BundleOptions): string {
  const lines = text.split("\n");
  const at = lines.flatMap((line, i) => (line === TYPES_OFF ? [i] : []));
  if (at.length !== 1 || at[0] === undefined) {
    throw new Error(
      `templates/gradescope/${file} has ${at.length} lines "${TYPES_OFF}", not one: gradescope-bundle cannot bake --types into it`,
    );
  }
  if (options.types) lines[at[0]] = TYPES_ON;
  return lines.join("\n");
}
