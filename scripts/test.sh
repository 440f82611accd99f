#!/usr/bin/env bash
# One command from a fresh Debian machine to the whole test suite: install, type-check, test on
# SQLite, test the integration suite again on PostgreSQL, then check that a fresh clone with nothing
# beside it starts (scripts/check-standalone.sh). All of it on the Node.js that package.json pins
# (scripts/runtime.sh), after the dependency check (npm audit where the registry answers it, and the
# lockfile against the reviewed list: scripts/review-dependencies.mjs).
#
# One throwaway PostgreSQL cluster serves the whole run (CLINDOC_TEST_PG_URL): the PostgreSQL store
# and queue tests make their databases on it, and in the second pass every server the integration
# tests start gets a fresh database of its own (test/support/database.ts). The cluster is stopped
# however the run ends.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
source scripts/runtime.sh
node scripts/review-dependencies.mjs
npm run typecheck

# Assigned first, so a cluster that cannot start stops the run here (`eval "$(...)"` would not).
pg_exports=$(bash scripts/postgres-throwaway.sh start)
eval "$pg_exports"
trap 'bash scripts/postgres-throwaway.sh stop "$PG_THROWAWAY_DIR"' EXIT

npm test

# The second pass: the test files that start a server and talk to it over HTTP, WebSocket or the
# CLI, in the folders whose behaviour depends on where account data is kept. They ran once above on
# SQLite; the rest did too and is not run again: pure functions (macros, extraction rules, coders),
# the renderer and browser tests, the engines and live recognition (streaming needs the database
# only for keys and tokens: handshake and config-limits cover that), installed models (kept in the
# data folder either way), hostile audio (the decoder's), and test/backup, whose backups copy the
# SQLite data folder (a clinic's PostgreSQL is backed up with pg_dump, docs/deploy.md).
pg_dirs=(test/api test/security test/jobs test/notes test/coding test/macros test/extraction test/ops)
mapfile -t pg_files < <(
  grep -rlE --include='*.test.ts' "startServer|startStreaming|startHeadless|startOn|createClindoc|runCli\(" "${pg_dirs[@]}" \
    | grep -v '^test/security/fuzz-audio\.test\.ts$' | sort
)
pg_files+=(test/streaming/handshake.test.ts test/streaming/config-limits.test.ts)
echo "PostgreSQL pass: ${#pg_files[@]} test files"
CLINDOC_TEST_DATABASE=postgres npx vitest run "${pg_files[@]}"

bash scripts/check-standalone.sh
