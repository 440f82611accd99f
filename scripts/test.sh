#!/usr/bin/env bash
# One command from a fresh Debian machine to the whole test suite: install, type-check, test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
npm run typecheck
npm test
