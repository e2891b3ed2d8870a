/**
 * `--format github`: for a GitHub Actions step. The text report folded in a log group, one
 * annotation per case that did not pass, and the job summary: actions.ts writes them (shared with
 * `--format classroom`), and its helpers are re-exported here for the tests and tools that took
 * them from this module.
 */
import { actionsStepReporter } from "./actions.ts";
import type { Reporter, Sink } from "./reporter.ts";

export {
  ANNOTATIONS_PER_STEP,
  SUMMARY_MAX_BYTES,
  escapeData,
  escapeProperty,
  githubAnnotations,
  githubSummary,
  markdownInline,
  workflowCommand,
} from "./actions.ts";

/** The GitHub Actions reporter: actionsStepReporter with nothing after the score lines. */
export function githubReporter(sink: Sink, env: NodeJS.ProcessEnv = process.env): Reporter {
  return actionsStepReporter(sink, env);
}
