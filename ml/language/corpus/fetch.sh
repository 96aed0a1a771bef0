#!/usr/bin/env bash
# Download and unpack the packages listed beside this script into $CACHE (default $ML_CACHE/language/cache, ML_CACHE ~/.cache/trove-ml).
# Usage: fetch.sh [deb|debsrc|npm|all] ; rerunnable: already-unpacked packages are skipped.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${CACHE:-${ML_CACHE:-$HOME/.cache/trove-ml}/language/cache}"
JOBS="${JOBS:-6}"
what="${1:-all}"
mkdir -p "$CACHE"/{deb,debsrc,npm}/{dl,x} "$CACHE/log"
lst() { grep -v '^\s*#' "$1" | sed 's/\s.*//' | grep -v '^$'; }

fetch_deb() {  # $1 = binary package
  p="$1"; x="$CACHE/deb/x/$p"; [ -e "$x/.done" ] && return 0
  d="$CACHE/deb/dl/$p"; mkdir -p "$d"
  ( cd "$d" && ls *.deb >/dev/null 2>&1 || timeout 600 apt-get download "$p" ) >>"$CACHE/log/deb.log" 2>&1 || { echo "FAIL deb $p" >>"$CACHE/log/fail.log"; return 0; }
  rm -rf "$x"; mkdir -p "$x"
  for f in "$d"/*.deb; do dpkg-deb -x "$f" "$x" && basename "$f" >"$x/.done"; done
}
fetch_debsrc() {  # $1 = source package
  p="$1"; x="$CACHE/debsrc/x/$p"; [ -e "$x/.done" ] && return 0
  d="$CACHE/debsrc/dl/$p"; mkdir -p "$d"
  # The mirror reachable here lacks some pool files, and apt-get fails when any file of a source
  # package is missing; only the upstream tarballs are used, so go on with those that arrived.
  ( cd "$d" && ls *.dsc >/dev/null 2>&1 || timeout 900 apt-get source --download-only "$p" ) >>"$CACHE/log/debsrc.log" 2>&1
  upstream=$(ls "$d"/*.tar.* 2>/dev/null | grep -v -e '\.debian\.tar\.' -e '\.asc$' || true)
  [ -n "$upstream" ] || { echo "FAIL debsrc $p" >>"$CACHE/log/fail.log"; return 0; }
  rm -rf "$x"; mkdir -p "$x"
  for f in $upstream; do tar -xf "$f" -C "$x" 2>>"$CACHE/log/debsrc.log"; done
  ls "$d"/*.dsc | xargs -n1 basename >"$x/.done"
}
fetch_npm() {  # $1 = npm package name (optionally name@version)
  p="$1"; key="$(echo "$p" | tr '/@' '__')"; x="$CACHE/npm/x/$key"; [ -e "$x/.done" ] && return 0
  d="$CACHE/npm/dl/$key"; mkdir -p "$d"
  v=$(awk -F'\t' -v p="$p" '$1==p{print $2}' "$HERE/npm-versions.tsv" 2>/dev/null)
  ( cd "$d" && ls *.tgz >/dev/null 2>&1 || timeout 600 npm pack --silent "$p${v:+@$v}" ) >>"$CACHE/log/npm.log" 2>&1 || { echo "FAIL npm $p" >>"$CACHE/log/fail.log"; return 0; }
  rm -rf "$x"; mkdir -p "$x"
  for f in "$d"/*.tgz; do tar -xzf "$f" -C "$x" --no-same-owner 2>>"$CACHE/log/npm.log" && { echo "$p"; basename "$f"; } >"$x/.done"; done
}
extract_deb() {  # $1 = binary package, downloaded into $CACHE/deb/pool
  p="$1"; x="$CACHE/deb/x/$p"; [ -e "$x/.done" ] && return 0
  f=$(ls "$CACHE/deb/pool/${p}_"*.deb 2>/dev/null | head -1)
  if [ -z "$f" ]; then
    # a failing name makes apt-get download skip its whole batch: retry alone
    ( cd "$CACHE/deb/pool" && timeout 600 apt-get download "$p" ) >>"$CACHE/log/deb.log" 2>&1
    f=$(ls "$CACHE/deb/pool/${p}_"*.deb 2>/dev/null | head -1)
  fi
  [ -z "$f" ] && { echo "FAIL deb $p" >>"$CACHE/log/fail.log"; return 0; }
  rm -rf "$x"; mkdir -p "$x"; dpkg-deb -x "$f" "$x" && basename "$f" >"$x/.done"
}
export -f extract_deb fetch_deb fetch_debsrc fetch_npm; export CACHE HERE
case "$what" in deb|all)
  # batch download (one apt-get call per 40 packages is much faster than one per package)
  mkdir -p "$CACHE/deb/pool"
  ls "$CACHE/deb/pool" | sed 's/_.*//' | sort -u > "$CACHE/deb/have.txt"
  { lst "$HERE/python-packages.txt"; lst "$HERE/deb-packages.txt"; } | sort -u | comm -23 - "$CACHE/deb/have.txt" > "$CACHE/deb/missing.txt"
  ( cd "$CACHE/deb/pool" && xargs -n 40 -P 3 timeout 900 apt-get download < "$CACHE/deb/missing.txt" ) >>"$CACHE/log/deb.log" 2>&1
  { lst "$HERE/python-packages.txt"; lst "$HERE/deb-packages.txt"; } | sort -u | xargs -P "$JOBS" -I{} bash -c 'extract_deb "$@"' _ {}
  # binary package -> source package (binary and source of one project share a split)
  touch "$CACHE/deb/srcmap.tsv"
  for f in "$CACHE"/deb/pool/*.deb "$CACHE"/deb/dl/*/*.deb; do
    [ -e "$f" ] || continue
    b=$(basename "$f"); grep -q "^${b%%_*}	" "$CACHE/deb/srcmap.tsv" && continue
    p=$(dpkg-deb -f "$f" Package); s=$(dpkg-deb -f "$f" Source | sed 's/ .*//')
    printf '%s\t%s\n' "$p" "${s:-$p}"
  done > "$CACHE/deb/srcmap.new"
  sort -u "$CACHE/deb/srcmap.tsv" "$CACHE/deb/srcmap.new" > "$CACHE/deb/srcmap.tmp" && mv "$CACHE/deb/srcmap.tmp" "$CACHE/deb/srcmap.tsv" ;;
esac
case "$what" in npm|all) lst "$HERE/npm-packages.txt" | xargs -P "$JOBS" -I{} bash -c 'fetch_npm "$@"' _ {} ;; esac
case "$what" in debsrc|all) lst "$HERE/debsrc-packages.txt" | xargs -P "$JOBS" -I{} bash -c 'fetch_debsrc "$@"' _ {} ;; esac
echo "fetch $what done"
