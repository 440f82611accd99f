#!/usr/bin/env bash
# Installs everything Clindoc needs on a fresh Debian machine: the Debian packages (ffmpeg,
# pocketsphinx, chromium, espeak-ng, sox), the npm packages from the lockfile, and the interface
# bundle. The clinical speech language model is committed in resources/asr; it is rebuilt here
# only when absent and the optional data sets are present (CLINDOC_EVAL_DATA, README
# "Development"); without either, Clindoc starts on the general model with a warning.
# Electron's own binary is not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD=1): `npm run serve`
# and the tests run in plain Node; `npm start` needs Electron installed where it can be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
# onnxruntime-node would otherwise fetch CUDA libraries from outside the npm registry.
export ONNXRUNTIME_NODE_INSTALL=skip
# `npm install` (not `npm ci`): npm 11 writes lockfiles that leave out other platforms' optional
# packages and then refuses them in `npm ci`; `npm install` follows the same lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi
if [ -f scripts/build-medical-lm.ts ]; then
  node --import tsx scripts/build-medical-lm.ts --if-missing
fi
if [ -f vite.config.ts ] && [ -f renderer/index.html ]; then
  npm run build:renderer --silent
fi
