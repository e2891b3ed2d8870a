/**
 * The reporter of each format `--format NAME[=FILE]` accepts (options.ts names them): one entry
 * per format, each a reporter built on a sink. A new format is a new file in report/, its name in
 * options.ts's FORMAT_NAMES, and one line here.
 */
import type { FormatName } from "../options.ts";
import { classroomReporter } from "./classroom.ts";
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
  classroom: classroomReporter,
  exercism: exercismReporter,
} as const satisfies Record<FormatName, (sink: Sink) => Reporter>;
