// On case 10 (topic "empty") adds a property to Array.prototype: harmless to the case itself.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) {
    Object.defineProperty(Array.prototype, "kitSharedProbe", { value: 1, configurable: true });
  }
  return reference(...args);
}
