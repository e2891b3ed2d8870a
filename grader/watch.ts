// Placeholder: replaced by watch mode (issue 8).
import { SetupError } from "./errors.ts";
import type { GradingContext } from "./context.ts";
import type { GradeCommand } from "./options.ts";

export function runWatch(command: GradeCommand, context: GradingContext): Promise<number> {
  void command;
  void context;
  return Promise.reject(new SetupError("--watch is not available yet"));
}
