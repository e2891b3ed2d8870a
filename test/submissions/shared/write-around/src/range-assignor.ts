// Writes around the process's streams: to file descriptor 1 on case 10 (topic "empty"), a line
// before the answer; to file descriptor 2 on case 16 (topic "café"), beside a right answer.
import { writeSync } from "node:fs";
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) writeSync(1, "write-around: fd 1\n");
  if (args[0].has("café")) writeSync(2, "write-around: fd 2\n");
  return reference(...args);
}
