/**
 * The reporter of each format `--format NAME[=FILE]` accepts (options.ts names them): one entry
 * per format, each a reporter built on a sink (`junit-files` is junit.ts's, with file attributes).
 * A new format is a new file in report/, its name in format-names.ts's FORMAT_NAMES, and one line here.
 */
import type { FormatName } from "../format-names.ts";
import { userCwd } from "../kit.ts";
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
  junit: (sink) => junitReporter(sink),
  // JUnit with each built-in case's file, relative to where the grader was run (a repo's root).
  "junit-files": (sink) => junitReporter(sink, userCwd()),
  gradescope: gradescopeReporter,
  github: githubReporter,
  classroom: classroomReporter,
  exercism: exercismReporter,
} as const satisfies Record<FormatName, (sink: Sink) => Reporter>;
