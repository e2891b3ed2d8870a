// Leaves work for later: on case 07 (topic "t" alone, 5 members) a timer that prints after the answer;
// on case 16 (topic "café") a promise rejected and never handled.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].size === 1 && args[0].has("t") && args[1].size === 5) {
    setTimeout(() => console.log("late-output: timer"), 30);
  }
  if (args[0].has("café")) void Promise.reject(new Error("late-output: rejected"));
  return reference(...args);
}
