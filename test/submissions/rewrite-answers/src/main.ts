// Tries to rewrite the golden answers (and the kit's other files) so that anything passes.
// Every write must be denied; the fixtures must be byte-for-byte unchanged afterwards.
import { writeFileSync } from "node:fs";
const targets = [
  "/work/main/fixtures/cases/01-lesson-7-partitions-3-members/expected.json",
  `${process.cwd()}/../../fixtures/cases/01-lesson-7-partitions-3-members/expected.json`,
  "fixtures/cases/01-lesson-7-partitions-3-members/expected.json",
];
let denied = 0;
for (const target of targets) {
  try {
    writeFileSync(target, '{"output": {}}\n');
  } catch {
    denied++;
  }
}
process.stderr.write(`writes denied: ${denied} of ${targets.length}\n`);
process.exitCode = 70;
