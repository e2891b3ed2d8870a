#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (its Ubuntu base
# image), with this bundle unpacked in /autograder/source. It installs Node.js 24 from NodeSource
# and the grader's dependencies from package-lock.json (no dev dependencies: the grader needs
# none, unless the bundle type-checks, which needs the kit's typescript and @types/node), then
# locks the answers away from every identity but root (lock_answers below).
#
#   setup.sh                     install, then lock the answers
#   setup.sh --permissions-only  only lock the answers again (after files in the bundle changed;
#                                the kit's tests run this, not the installation)
#
# The installation is not run by the kit's tests; see templates/gradescope/README.md.
set -euo pipefail
cd "$(dirname "$0")"

# Baked in by `npm run gradescope-bundle` (as in run_autograder): 1 when built with --types.
GRADE_TYPES=0

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run it as root (Gradescope does): it installs packages and gives the answers to root alone" >&2
  exit 1
fi

# Gradescope's source folder is readable by any code in the container unless the autograder
# restricts it. run_autograder runs the grader as root, and the grader runs every student program
# (and the bundler and tsc on the student's files) as an unprivileged run identity of its own, in
# namespaces where these folders are covered anyway; the permissions are the second wall. The run
# identities still read node_modules/ (esbuild, typescript) and grader/run/build-worker/, so the
# rest of the bundle stays readable, but nothing in it is theirs or writable by them.
lock_answers() {
  chown -R root:root .
  chmod -R go-w .
  # The answers (built-in and private cases) and what is derived from them (the mutants' outcomes
  # and the mutants); solution/ is never bundled, and is locked too should anyone add it.
  local dir
  for dir in fixtures private-cases grader/diagnose grader/instructor solution; do
    if [ -e "$dir" ]; then chmod -R go-rwx "$dir"; fi
  done
}

if [ "${1:-}" = "--permissions-only" ]; then
  lock_answers
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg
curl -fsSL https://deb.nodesource.com/setup_24.x | bash -
apt-get install -y --no-install-recommends nodejs
node --version
npm --version

if [ "$GRADE_TYPES" = 1 ]; then
  # --types runs the kit's tsc with Node's types: dev dependencies of the kit's package.json.
  npm ci --no-audit --no-fund
else
  npm ci --omit=dev --no-audit --no-fund
fi
chmod +x run_autograder
lock_answers
