// Kills its own process with SIGKILL on case 10 (topic "empty").
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) process.kill(process.pid, "SIGKILL");
  return reference(...args);
}
