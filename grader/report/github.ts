/**
 * `--format github`: for a GitHub Actions step. The text report folded in a log group, one
 * annotation per case that did not pass, and the job summary: actions.ts writes them (shared with
 * `--format classroom`).
 */
import { actionsStepReporter } from "./actions.ts";
import type { Reporter, Sink } from "./reporter.ts";

/** The GitHub Actions reporter: actionsStepReporter with nothing after the score lines. */
export function githubReporter(sink: Sink, env: NodeJS.ProcessEnv = process.env): Reporter {
  return actionsStepReporter(sink, env);
}
