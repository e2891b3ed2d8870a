#!/usr/bin/env bash
# The grader end to end on one Node.js version, run by .ci/run for each version the README lists:
#
#   .ci/node-smoke.sh VERSION NODE
#
# VERSION is what `node -v` must say without the v (e.g. 22.12.0), NODE that Node's binary. NODE's
# folder goes first on PATH, so npm, tsx and the grader (and every program it starts) run on it.
# Grades, through npm as an instructor would: the reference on every case (full marks, exit 0);
# on two cases (an assignment and a decoding: what differs between Node versions is how the
# grader starts and confines a program, not the case) the starter (0, exit 1), one mutant (one
# case passed, one failed with its mistake named), the hostile programs that try to read or
# rewrite the answers (0, exit 1, the fixtures unchanged), the handout's starter after
# `npm run handout` and `npm ci --engine-strict` (0, exit 1); and a probe whose answer is its own
# process.version (graded: the report must show VERSION). Any failed check stops with exit 1.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: .ci/node-smoke.sh VERSION NODE" >&2
  exit 2
fi
version=$1
node_bin=$2
cd "$(dirname "$0")/.."
kit=$PWD
PATH="$(dirname "$node_bin"):$PATH"
export PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

fail() {
  echo "node-smoke $version: FAIL: $*" >&2
  exit 1
}
step() { echo "node-smoke $version: $*"; }

[ "$(node -v)" = "v$version" ] || fail "node on PATH is $(node -v), not v$version"

# grade NAME EXPECTED_EXIT ARGS...: npm run grade with ARGS, the JSON results in $work/NAME.json,
# the text report in $work/NAME.txt; fails unless the grader exits with EXPECTED_EXIT.
grade() {
  local name=$1 expected=$2
  shift 2
  local status=0
  npm run -s grade -- "$@" --format "json=$work/$name.json" >"$work/$name.txt" 2>"$work/$name.err" || status=$?
  if [ "$status" -ne "$expected" ]; then
    cat "$work/$name.txt" "$work/$name.err" >&2
    fail "$name: the grader exited $status, not $expected"
  fi
}

# check NAME JS: JS (a boolean expression over r, the JSON results) must hold.
check() {
  node -e '
    const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    const ok = new Function("r", `return (${process.argv[2]});`)(r);
    const score = `${r.score}/${r.maxScore}, extension ${r.extensionScore}/${r.extensionMaxScore}`;
    if (!ok) { console.error(`${score}: not ${process.argv[2]}`); process.exit(1); }
    console.log(`  ${score}`);
  ' "$work/$1.json" "$2" || fail "$1"
}

zero='r.score === 0 && r.extensionScore === 0 && r.maxScore > 0'
assign=01-lesson-7-partitions-3-members
decode=19-decode-version-0
two=(--only "$assign" --only "$decode")

step "the reference"
grade reference 0 solution
check reference 'r.maxScore > 0 && r.score === r.maxScore && r.extensionScore === r.extensionMaxScore'
# Shared runs work on this Node: the reference's every case passed in its group's shared process.
check reference 'r.cases.every((c) => c.ran === "shared")'

step "the starter"
grade starter 1 "${two[@]}"
check starter "$zero && r.cases.length === 2"

step "a mutant (global-assignment)"
mutant=$(npx tsx -e 'import { writeMutant } from "./grader/instructor/mutants/mutants.ts";
process.stdout.write(writeMutant("global-assignment"));')
# Case 01 it passes; 03-per-topic-skew it fails, its mistake named.
grade mutant 1 "$mutant" --only "$assign" --only 03-per-topic-skew
rm -rf "$(dirname "$mutant")"
check mutant 'r.cases.map((c) => `${c.status}:${c.mistake ?? ""}`).join() === "pass:,fail:global-assignment"'

for hostile in import-answers search-disk glob-import template-import tsconfig-paths rewrite-answers; do
  step "hostile: $hostile"
  grade "$hostile" 1 "test/submissions/$hostile" "${two[@]}"
  check "$hostile" "$zero"
done
step "hostile: typeof-answer (--types)"
grade typeof-answer 1 test/submissions/typeof-answer --types "${two[@]}"
check typeof-answer "$zero"
git diff --quiet -- fixtures || fail "the fixtures changed while hostile programs ran"

step "a probe whose answer is its Node's version"
mkdir -p "$work/probe/src"
cat >"$work/probe/src/main.ts" <<'EOF'
// The graded program's Node: its version as the only member of its answer.
process.stdout.write(`${JSON.stringify({ [process.version]: {} })}\n`);
EOF
grade probe 1 "$work/probe" --only "$assign"
check probe "$zero"
grep -qF "members that are not in the group (1): \"v$version\"" "$work/probe.txt" ||
  { cat "$work/probe.txt" >&2; fail "the probe's report does not show v$version"; }
echo "  the graded program ran on v$version"

step "the handout: built, installed with --engine-strict, its starter graded"
npm run -s handout -- "$work/handout" >/dev/null
cd "$work/handout"
flags=(--ignore-scripts --no-audit --no-fund --engine-strict)
npm ci --offline "${flags[@]}" >/dev/null 2>&1 || npm ci --prefer-offline "${flags[@]}" >/dev/null ||
  fail "npm ci in the handout"
grade handout 1 "${two[@]}"
check handout "$zero"
cd "$kit"
step "passed"
