#!/bin/sh
# Exercism's test runner entry point (exercism/docs, building/tooling/test-runners/interface.md):
#
#   bin/run.sh SLUG INPUT_DIR OUTPUT_DIR
#
# grades the submission in INPUT_DIR (a folder with src/main.ts; read, never written) and writes
# OUTPUT_DIR/results.json, version 3 of the interface, always, then exits 0: status pass or fail
# when the cases ran, error with a message when they could not (no src/main.ts, a grader that
# failed or ran out of time). SLUG is not used: the kit has one exercise. The whole run stays
# within Exercism's 20 seconds on one CPU: 2 s of CPU per case, the grading ended after 14 s
# (--time-budget: cases not started by then are skipped), and the grader stopped after 17 s.
# Only wrong arguments (no OUTPUT_DIR to write to) exit 2.
set -u

TIME_BUDGET_S=14
WATCHDOG_S=17
CASE_CPU_MS=2000

if [ $# -ne 3 ]; then
  echo "usage: bin/run.sh SLUG INPUT_DIR OUTPUT_DIR" >&2
  exit 2
fi
input=${2%/}
output=${3%/}
kit=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
results="$output/results.json"

mkdir -p -- "$output" 2>/dev/null
rm -f -- "$results"
log=$(mktemp "${TMPDIR:-/tmp}/exercism-run.XXXXXX") || log=/dev/null

started=$(date +%s)
timeout -k 1 "$WATCHDOG_S" node "$kit/grader/launch.mjs" "${input:-/}" \
  --format "exercism=$results" --timeout "$CASE_CPU_MS" --time-budget "$TIME_BUDGET_S" \
  2>"$log"
code=$?
echo "bin/run.sh: grader exit $code after $(($(date +%s) - started)) s" >&2

# 0 and 1: the cases ran, and the grader wrote results.json itself.
if { [ "$code" -eq 0 ] || [ "$code" -eq 1 ]; } && [ -s "$results" ]; then
  [ "$log" != /dev/null ] && rm -f -- "$log"
  exit 0
fi

# Otherwise status error, with the grader's own words where it had any.
if ! node "$kit/bin/exercism-error.mjs" "$results" "$code" "$log" "$input" "$WATCHDOG_S" 2>/dev/null; then
  printf '%s\n' '{"version":3,"status":"error","message":"The test runner failed before it could grade the solution.","tests":[]}' >"$results"
fi
[ "$log" != /dev/null ] && rm -f -- "$log"
exit 0
