// Writes Exercism's results.json with status "error" for bin/run.sh, when the grader did not
// write one: `node bin/exercism-error.mjs RESULTS EXIT_CODE LOG_FILE INPUT_DIR WATCHDOG_S`.
// The message says why in the grader's own words (its `grade: ...` lines on standard error),
// with the solution's folder shown as <solution-dir> as the interface asks, at most 65535
// characters. Exits 1 (and bin/run.sh writes a fixed message) if anything goes wrong here.
import { readFileSync, writeFileSync } from "node:fs";

const [results, code, logFile, inputDir, watchdog] = process.argv.slice(2);
if (results === undefined) process.exit(1);
const MESSAGE_MAX_CHARS = 65_535;

let log = "";
try {
  log = readFileSync(logFile ?? "", "utf8");
} catch {
  // No log: the message says what the exit code says.
}
const solution = (text) =>
  inputDir === undefined || inputDir === "" ? text : text.split(inputDir).join("<solution-dir>");
// The grader's warnings (a weaker sandbox in a container) are not why it failed.
const said = log
  .split("\n")
  .filter((line) => line.startsWith("grade: ") && !line.startsWith("grade: warning: "))
  .map((line) => line.slice("grade: ".length));
// Continuation lines of an internal error (its stack) follow its first line.
const internal = log.indexOf("grade: internal error");

let message;
if (code === "124" || code === "137") {
  message = `The tests did not finish within ${watchdog} seconds, the test runner's limit, so none is reported. A program that never ends (an endless loop, a timer left running) does this.`;
} else if (internal >= 0) {
  message = `The test runner failed (not your solution's fault):\n${log.slice(internal + "grade: ".length)}`;
} else if (code === "2" && said.length > 0) {
  message = `The tests could not run: ${said.join("\n")}`;
} else {
  message = `The test runner failed (exit ${code}) before it could report.${log.trim() === "" ? "" : `\n${log.trim()}`}`;
}
message = solution(message);
if (message.length > MESSAGE_MAX_CHARS)
  message = `${message.slice(0, MESSAGE_MAX_CHARS - 20)}\n… (cut)`;
writeFileSync(results, `${JSON.stringify({ version: 3, status: "error", message, tests: [] })}\n`);
