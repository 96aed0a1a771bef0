#!/usr/bin/env bash
# Rebuild the language-detection corpus: fetch (skips what is cached) then build.
#   [ML_CACHE=~/.cache/trove-ml] [CACHE=$ML_CACHE/language/cache] [OUT=$ML_CACHE/language/corpus] bash ml/language/corpus/run.sh
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
export CACHE="${CACHE:-${ML_CACHE:-$HOME/.cache/trove-ml}/language/cache}"
OUT="${OUT:-${ML_CACHE:-$HOME/.cache/trove-ml}/language/corpus}"
if ! grep -qs deb-src /etc/apt/sources.list.d/trove-src.sources; then
  cp "$HERE/trove-src.sources" /etc/apt/sources.list.d/trove-src.sources
  apt-get update
fi
bash "$HERE/fetch.sh" deb
bash "$HERE/fetch.sh" npm
bash "$HERE/fetch.sh" debsrc
python3 "$HERE/build.py" --cache "$CACHE" --out "$OUT"
