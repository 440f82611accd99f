#!/usr/bin/env bash
# One command from a fresh Debian machine to the whole test suite: install, type-check, test, then
# check that a fresh clone with nothing beside it starts (scripts/check-standalone.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
npm run typecheck
npm test
bash scripts/check-standalone.sh
