// On case 16 (topic "café") a console.log: a line before the answer on standard output.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("café")) console.log("console-log: debugging case 16");
  return reference(...args);
}
