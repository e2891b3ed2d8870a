// main.ts's report of a bug (exit 70) whose stack holds one line of 4,000,000 bytes of `src/`
// (under the 4 MiB output cap): status error, reason crash. The source-frame pattern
// `\(?(src\/[^\s():]+):(\d+)(?::\d+)?\)?$` backtracked quadratically over such a line (160 KB
// took 13 s); judging reads 4096 bytes of it and finds no frame there.
process.stderr.write(
  `internal error (a bug, not bad input):\nError: boom\n    at ${"src/".repeat(1_000_000)}\n`,
);
process.exitCode = 70;
