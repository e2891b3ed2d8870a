// Tries to kill its parent (the grader). Run as its own user, it is not allowed to.
try {
  process.kill(process.ppid, "SIGTERM");
  process.stderr.write(`signalled parent ${process.ppid}\n`);
} catch (error) {
  process.stderr.write(`could not signal parent ${process.ppid}: ${(error as NodeJS.ErrnoException).code}\n`);
}
process.exitCode = 70;
