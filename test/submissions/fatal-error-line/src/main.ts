// One line of standard error of 3,999,996 bytes (`FATAL ERROR: ` 307,692 times, under the 4 MiB
// output cap), then exit 134 as an abort would (status error, reason crash). The memory-death
// pattern `FATAL ERROR: .*Allocation failed` backtracked quadratically over such a line, keeping
// the grader busy for hours; judging reads 4096 bytes of it.
process.stderr.write(`${"FATAL ERROR: ".repeat(307_692)}\n`);
process.exitCode = 134;
