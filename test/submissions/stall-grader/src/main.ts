// Tries to stall the grader that judges it: one line of almost 4 MiB of `FATAL ERROR: ` on
// standard error (under the output cap, so it is read), then exit 1. A pattern that backtracks
// over such a line keeps the grader's event loop busy; the programs of every other submission
// graded meanwhile must keep their verdicts (test/load/load.test.ts).
import { writeSync } from "node:fs";
const line = Buffer.from("FATAL ERROR: ".repeat(Math.floor((4 * 1024 * 1024 - 4096) / 13)));
for (let at = 0; at < line.length; ) at += writeSync(2, line, at);
process.exitCode = 1;
