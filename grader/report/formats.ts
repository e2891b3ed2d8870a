/**
 * The report formats `--format NAME[=FILE]` accepts: one entry per format, each a reporter built
 * on a sink. A new format is a new file in report/ and one line here.
 */
import { jsonReporter } from "./json.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { textReporter } from "./text.ts";

export const FORMATS = {
  text: textReporter,
  json: jsonReporter,
} as const satisfies Record<string, (sink: Sink) => Reporter>;

export type FormatName = keyof typeof FORMATS;

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}
