#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (its Ubuntu base
# image), with this bundle unpacked in /autograder/source. It installs Node.js 24 from NodeSource
# and the grader's dependencies from package-lock.json (no dev dependencies: the grader needs none).
# Not run by the kit's tests (it installs system packages); see templates/gradescope/README.md.
set -euo pipefail
cd "$(dirname "$0")"

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg
curl -fsSL https://deb.nodesource.com/setup_24.x | bash -
apt-get install -y --no-install-recommends nodejs
node --version
npm --version

npm ci --omit=dev --no-audit --no-fund
chmod +x run_autograder
# The answers (built-in and private cases) belong to root and nobody else may read them: the
# grader runs as root, and every student program runs as an unprivileged run identity (besides
# not seeing these folders at all inside its namespace).
chown -R root:root fixtures
chmod -R go-rwx fixtures
if [ -d private-cases ]; then chown -R root:root private-cases && chmod -R go-rwx private-cases; fi
