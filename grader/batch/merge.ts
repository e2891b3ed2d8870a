// Placeholder: replaced by the shard merge (issue 8).
import { SetupError } from "../errors.ts";
import type { GradeCommand } from "../options.ts";

export function runMerge(command: GradeCommand): Promise<number> {
  void command;
  return Promise.reject(new SetupError("--merge is not available yet"));
}
