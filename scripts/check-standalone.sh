#!/usr/bin/env bash
# The repository stands alone: clone it (the committed HEAD, as a user gets it) into a temporary
# folder with nothing beside it (no ../shared), run the README's start command there, and check
# that the local API answers /openapi.json, runs compiled on the pinned Node.js and uses the
# clinical language model.
#
# To stay cheap, the clone borrows this checkout's node_modules (a symlink) and its lockfile is
# dated back so scripts/install.sh sees the packages as current instead of reinstalling; the rest
# of install.sh runs for real in the clone (system check, clinical model --if-missing, interface
# build). Fails, printing the server's output, when any step breaks.
#
#   scripts/check-standalone.sh [REF]     (default HEAD; scripts/test.sh runs it after the tests)
set -euo pipefail
REF=${1:-HEAD}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/clindoc-standalone-XXXXXX")
CLONE="$WORK/clindoc"
LOG="$WORK/serve.log"
PGID=""

cleanup() {
  if [ -n "$PGID" ] && kill -0 "$PGID" 2>/dev/null; then
    kill -TERM -- "-$PGID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$PGID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$PGID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "check-standalone: FAILED: $*" >&2
  [ -f "$LOG" ] && { echo "--- server output ---" >&2; tail -n 60 "$LOG" >&2; }
  exit 1
}

[ -d "$ROOT/node_modules" ] || fail "run scripts/install.sh first (node_modules is missing)"
git clone --quiet "$ROOT" "$CLONE"
git -C "$CLONE" checkout --quiet --detach "$(git -C "$ROOT" rev-parse "$REF")"
[ ! -e "$WORK/shared" ] || fail "$WORK/shared exists; the clone would not stand alone"
ln -s "$ROOT/node_modules" "$CLONE/node_modules"
touch -d '2000-01-01 00:00:00' "$CLONE/package-lock.json"

# The README's start command, with a free port and a data folder of its own. Variables that could
# point back into the development workspace are removed.
(
  cd "$CLONE"
  exec env -u CLINDOC_EVAL_DATA -u CLINDOC_RENDERER_DIR -u CLINDOC_DATA_DIR \
    CLINDOC_PORT=0 CLINDOC_DATA_DIR="$WORK/data" CLINDOC_LOG_LEVEL=info \
    setsid ./scripts/start.sh >"$LOG" 2>&1
) &
PGID=$!

URL=""
for _ in $(seq 1 600); do
  URL=$(grep -o 'local API on http://[^ ]*' "$LOG" 2>/dev/null | head -n1 | sed 's/^local API on //' || true)
  [ -n "$URL" ] && break
  kill -0 "$PGID" 2>/dev/null || fail "the start command exited before the API listened"
  sleep 0.5
done
[ -n "$URL" ] || fail "the API did not start within 5 minutes"

curl -fsS "$URL/openapi.json" -o "$WORK/openapi.json" || fail "GET /openapi.json failed"
# `npm run serve` runs the compiled server (built by install.sh) on the Node.js package.json pins,
# not the TypeScript sources through tsx, nor whatever `node` is on PATH.
SERVER=$(ps -s "$PGID" -o args= | grep -F "$CLONE/dist/main/cli.js serve" || true)
[ -n "$SERVER" ] || fail "the server is not the compiled build: $(ps -s "$PGID" -o args= | tr '\n' ';')"
case "$SERVER" in
  "$CLONE/node_modules/node-linux-"*"/bin/node "*) ;;
  *) fail "the server does not run on the pinned Node.js: $SERVER" ;;
esac
CREDS="$WORK/data/local-credentials.json"
[ -f "$CREDS" ] || fail "no local account was created on first start"
ACCOUNT=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).accountId)' "$CREDS")
KEY=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).apiKey)' "$CREDS")
curl -fsS -H "X-ACCOUNT-ID: $ACCOUNT" -H "X-API-KEY: $KEY" "$URL/v1/settings/engines" -o "$WORK/engines.json" || fail "GET /v1/settings/engines failed"

node - "$WORK/openapi.json" "$WORK/engines.json" "$CLONE" <<'NODE' || fail "the standalone server's answers are wrong"
const fs = require('node:fs');
const path = require('node:path');
const [doc, engines, clone] = process.argv.slice(2);
const openapi = JSON.parse(fs.readFileSync(doc, 'utf8'));
const problems = [];
if (openapi.openapi !== '3.1.0') problems.push(`openapi is ${openapi.openapi}`);
for (const p of ['/v1/notes', '/v2/audio/transcriptions', '/v1/settings/engines']) if (!openapi.paths?.[p]) problems.push(`no ${p} in /openapi.json`);
const model = JSON.parse(fs.readFileSync(engines, 'utf8')).data?.clinicalLanguageModel;
if (!model?.loaded) problems.push(`clinical language model not loaded: ${JSON.stringify(model)}`);
else if (path.resolve(model.path) !== path.join(clone, 'resources', 'asr')) problems.push(`clinical language model from ${model.path}, not the clone`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`check-standalone: ${Object.keys(openapi.paths).length} paths in /openapi.json; clinical language model from the clone`);
NODE
echo "check-standalone: a fresh clone with no ../shared beside it starts and answers at $URL"
