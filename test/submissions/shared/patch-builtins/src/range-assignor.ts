// On case 16 (topic "café") replaces JSON.stringify (every answer becomes "{}") and
// Array.prototype.push (the same push, through the program's own function): what a harness that
// used them after the program's code had run would get wrong.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("café")) {
    JSON.stringify = () => "{}";
    const push = Array.prototype.push;
    Array.prototype.push = function <T>(this: T[], ...items: T[]) {
      return push.apply(this, items);
    };
  }
  return reference(...args);
}
