// Small files the tests write: stand-ins for programs the grader looks at, and fixtures it must
// refuse.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A stand-in for `node` in `dir`: a shell script (`#!/bin/sh`, executable) whose body is `script`
 * ($1 is the first argument). Returns its path.
 */
export function fakeNode(dir: string, script: string): string {
  const path = join(dir, `node-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path;
}

/**
 * A --fixtures folder `dir` holding one invalid case, 01-broken: its case.json has no
 * description and an unknown mode, its expected.json is not JSON.
 */
export function writeBrokenFixture(dir: string): void {
  mkdirSync(join(dir, "01-broken"), { recursive: true });
  writeFileSync(
    join(dir, "01-broken", "case.json"),
    JSON.stringify({ title: "x", mode: "sideways" }),
  );
  writeFileSync(join(dir, "01-broken", "input.json"), "{}");
  writeFileSync(join(dir, "01-broken", "expected.json"), "{");
}
