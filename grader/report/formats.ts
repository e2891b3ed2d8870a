/**
 * The report formats `--format NAME[=FILE]` accepts: one entry per format, each a reporter built
 * on a sink. A new format is a new file in report/ and one line here.
 */
import { exercismReporter } from "./exercism.ts";
import { githubReporter } from "./github.ts";
import { gradescopeReporter } from "./gradescope.ts";
import { jsonReporter } from "./json.ts";
import { junitReporter } from "./junit.ts";
import type { Reporter, Sink } from "./reporter.ts";
import { textReporter } from "./text.ts";

export const FORMATS = {
  text: textReporter,
  json: jsonReporter,
  junit: junitReporter,
  gradescope: gradescopeReporter,
  github: githubReporter,
  exercism: exercismReporter,
} as const satisfies Record<string, (sink: Sink) => Reporter>;

export type FormatName = keyof typeof FORMATS;

/** True when `name` is one of the formats --format accepts. */
export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}
