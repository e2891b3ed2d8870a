// Tries: to stretch one case's wall time far past its CPU limit, a clock a student can read from
// outside (how long the grading took, or whether a Gradescope autograder timed out), and so a
// channel from a private case's input to what a student sees. It busies itself a few percent of
// the time (30 ms every second), above the idle check's 1% of its window, and never answers, so
// only its CPU limit, reached after 25 to 50 times that limit in wall time, or the wall-clock cap
// (50 x the CPU limit) stops it. Must get: timeout, zero credit.
const BUSY_MS = 30;
const EVERY_MS = 1000;
setInterval(() => {
  const until = performance.now() + BUSY_MS;
  while (performance.now() < until);
}, EVERY_MS);
