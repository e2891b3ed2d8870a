// Placeholder: replaced by the batch implementation (issue 8).
import { SetupError } from "../errors.ts";
import type { GradingContext } from "../context.ts";
import type { GradeCommand } from "../options.ts";

export function runBatch(command: GradeCommand, context: GradingContext): Promise<number> {
  void command;
  void context;
  return Promise.reject(new SetupError("--batch is not available yet"));
}
