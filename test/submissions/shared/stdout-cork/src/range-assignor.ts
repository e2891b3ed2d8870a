// Corks process.stdout on case 10 (topic "empty") and never uncorks it: alone, main.ts's answer
// is held in the stream and never written.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) process.stdout.cork();
  return reference(...args);
}
