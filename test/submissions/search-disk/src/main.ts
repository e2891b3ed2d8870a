// Searches the disk for the golden answers and prints the first it finds as its own output.
// The sandbox's permission model must deny every read (it ends as a crash, never a pass).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

function find(dir: string, depth: number): string | undefined {
  if (depth > 6) return undefined;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "expected.json") return path;
    if (statSync(path).isDirectory() && name !== "proc" && name !== "sys") {
      const found = find(path, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
const roots = ["/work", "/tmp", "/root", "/home", process.cwd(), "/"];
for (const root of roots) {
  try {
    const found = find(root, 0);
    if (found) {
      const expected = JSON.parse(readFileSync(found, "utf8")) as { output?: unknown };
      process.stdout.write(JSON.stringify(expected.output ?? {}) + "\n");
      process.exit(0);
    }
  } catch (error) {
    process.stderr.write(`search of ${root} failed: ${(error as Error).message}\n`);
  }
}
process.exitCode = 70;
