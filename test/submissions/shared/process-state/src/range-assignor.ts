// Changes the process's state in a stub. On case 10 (topic "empty") process.exitCode = 5: main.ts
// sets the exit code after run, so alone the case still exits 0. On case 16 (topic "café") reads
// file descriptor 0 itself and answers with whatever it got there, if anything (in a shared run
// that would be the harness's job: every case's input).
import { readFileSync } from "node:fs";
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) process.exitCode = 5;
  if (args[0].has("café")) {
    let text = "";
    try {
      text = readFileSync(0, "utf8");
    } catch (error) {
      text = String(error);
    }
    if (text !== "") return new Map([[text.slice(0, 200), new Map()]]);
  }
  return reference(...args);
}
