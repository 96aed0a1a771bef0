#!/usr/bin/env bash
# Record the exact package versions in the cache (npm-versions.tsv pins `npm pack` in fetch.sh;
# deb-versions.tsv / debsrc-versions.tsv are for reference: bookworm rarely changes them).
HERE="$(cd "$(dirname "$0")" && pwd)"; CACHE="${CACHE:-${ML_CACHE:-$HOME/.cache/trove-ml}/language/cache}"
for d in "$CACHE"/npm/x/*/.done; do n=$(sed -n 1p "$d"); f=$(sed -n 2p "$d"); v=${f%.tgz}; v=${v##*-}; 
  # version = tarball name minus the npm-packed name prefix
  base=$(echo "$n" | sed 's/^@//; s#/#-#'); v=${f#"$base"-}; v=${v%.tgz}; printf '%s\t%s\n' "$n" "$v"; done | sort > "$HERE/npm-versions.tsv"
for d in "$CACHE"/deb/x/*/.done; do p=$(basename "$(dirname "$d")"); f=$(cat "$d"); v=${f#*_}; v=${v%_*}; printf '%s\t%s\n' "$p" "$v"; done | sort > "$HERE/deb-versions.tsv"
for d in "$CACHE"/debsrc/x/*/.done; do p=$(basename "$(dirname "$d")"); [ -n "$(ls "$(dirname "$d")")" ] || continue; f=$(head -1 "$d"); v=${f#*_}; v=${v%.dsc}; printf '%s\t%s\n' "$p" "$v"; done | sort > "$HERE/debsrc-versions.tsv"
