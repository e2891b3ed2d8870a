// Tries: to keep the grader's main thread busy for seconds per case through the stack mapper
// (grader/run/stack-map.ts), whose work must be bounded by what judging reads. A bundle line that
// starts with ~1 MB of spaces (src/pad.ts: a template literal) makes every frame `<bundle>:<line>`
// without a column cost a scan of those spaces (`trimStart`); standard error's 64 KiB hold about
// 2,400 such frames. Must get: error / crash (exit 2), zero credit, and a grader whose work on its
// standard error does not grow with the bundle's line length.
import { readFileSync } from "node:fs";
import { PAD } from "./pad.ts";

const bundle = process.argv[1] ?? "";
const lines = readFileSync(bundle, "utf8").split("\n");
// The bundle line that holds the padding (1-based, as a stack frame gives it).
const padded = lines.findIndex((l) => l.length > 100_000 && l.trimStart().length < 100) + 1;
const frame = `${bundle}:${padded}`;
const line = frame.repeat(Math.floor(4000 / frame.length));
process.stderr.write(`${line}\n`.repeat(64));
process.exitCode = PAD.length > 0 ? 2 : 3;
