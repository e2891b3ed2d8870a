// Reaches a limit. On case 10 (topic "empty") fills the heap: strings of 256 MiB, each made flat,
// until the heap limit stops the process (a few large allocations, not millions of small ones, so
// it takes well under the time limit). On case 16 (topic "café") loops forever.
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) {
    const hoard: string[] = [];
    for (let i = 0; ; i++) {
      const text = "x".repeat(2 ** 28 - i);
      text.indexOf("y"); // flattens the string: its bytes are allocated now
      hoard.push(text);
    }
  }
  if (args[0].has("café")) for (;;);
  return reference(...args);
}
