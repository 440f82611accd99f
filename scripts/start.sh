#!/usr/bin/env bash
# One command from a fresh Debian machine to a running Clindoc: install, then start the local
# API headless on its embedded defaults (no network, no GPU, no model download), compiled, on the
# Node.js that package.json pins (`npm run serve` runs bin/clindoc.js, which picks both).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec npm run serve
