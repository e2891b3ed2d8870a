/**
 * The names `--format NAME[=FILE]` accepts: the command line checks them (options.ts), the
 * format registry maps each to its reporter (report/formats.ts). A leaf, so that report/ needs
 * nothing of the command line.
 */

/**
 * The report formats `--format NAME[=FILE]` accepts, in the order the help lists them. Each has a
 * reporter in report/ (report/formats.ts maps the names to them).
 */
export const FORMAT_NAMES = [
  "text",
  "json",
  "junit",
  "junit-files",
  "gradescope",
  "github",
  "classroom",
  "exercism",
] as const;

export type FormatName = (typeof FORMAT_NAMES)[number];

/** True when `name` is one of the formats --format accepts. */
export function isFormatName(name: string): name is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(name);
}
