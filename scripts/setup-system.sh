#!/usr/bin/env bash
# Installs the Debian packages Clindoc needs on this machine: ffmpeg (audio conversion),
# pocketsphinx with its US-English model (the embedded recogniser), Chromium (interface tests),
# espeak-ng and sox (speech fixtures for tests and quality scripts), PostgreSQL (clinic-mode tests),
# sphinxtrain with sphinxbase-utils and pocketsphinx (voice adaptation).
# Skips apt when everything is already present, so it is cheap to run before every start.
set -euo pipefail
need=()
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v sox >/dev/null 2>&1 || need+=(sox libsox-fmt-all)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
[ -e /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/*/libpocketsphinx.so.3 >/dev/null 2>&1 || need+=(libpocketsphinx3)
[ -d /usr/share/pocketsphinx/model/en-us ] || need+=(pocketsphinx-en-us)
# Real two-speaker recordings for the diarization score (scripts/eval-diarization.ts).
dpkg -s codec2-examples >/dev/null 2>&1 || need+=(codec2-examples)
# Real English recordings with transcripts (LibriVox readings, spoken card names; BSD-2) for the WER script.
dpkg -s pocketsphinx-testdata >/dev/null 2>&1 || need+=(pocketsphinx-testdata)
# Learning the physician's voice (issue 27): sphinxtrain's bw/mllr_solve/map_adapt, sphinx_fe, pocketsphinx_mdef_convert.
[ -x /usr/lib/sphinxtrain/bw ] || need+=(sphinxtrain)
command -v sphinx_fe >/dev/null 2>&1 || need+=(sphinxbase-utils)
command -v pocketsphinx_mdef_convert >/dev/null 2>&1 || need+=(pocketsphinx)
# Dictate anywhere types through xdotool (+ xclip for accents); its tests type into an xterm under Xvfb.
for tool in xdotool xclip xterm; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
# PostgreSQL server for the clinic-scale mode's tests (a throwaway cluster: scripts/postgres-throwaway.sh).
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -eq 0 ]; then
  echo "setup-system: Debian packages already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup-system: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
# Two runs started at once on a fresh machine (two clones testing side by side) would otherwise
# race for apt's locks and the loser would stop (apt-get update does not wait for the lists lock):
# they take turns on a lock file of their own, and apt's dpkg lock is waited for too.
exec 9>"${TMPDIR:-/tmp}/clindoc-setup-system.lock"
flock -w 1800 9
lock_wait=(-o DPkg::Lock::Timeout=900)
$SUDO apt-get "${lock_wait[@]}" update -qq
$SUDO apt-get "${lock_wait[@]}" install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "setup-system: done"
