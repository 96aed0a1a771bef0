#!/bin/sh
# The Debian packages eval/snippet-kinds.js reads (their files extracted under $OUT/debs/<package>):
# nginx and Apache configuration, SQL schemas, Dockerfiles, HCL, TOML, INI and .env files.
# Chosen by what they ship, not by how Trove names them; the split into dev and held-out halves is
# by package, in eval/snippet-kinds.js.
set -e
OUT=${OUT:-/tmp/trove-snippet-kinds}
PACKAGES="nginx-common apache2 fcgiwrap icinga2-ido-pgsql icinga2-ido-mysql pdns-backend-pgsql pdns-backend-mysql
pdns-backend-sqlite3 freeradius-postgresql freeradius-mysql golang-github-joho-godotenv-dev golang-github-hashicorp-hcl-dev
golang-github-pelletier-go-toml-dev golang-gopkg-ini.v1-dev munin awstats gitweb golang-github-openshift-imagebuilder-dev
golang-github-docker-docker-dev roundcube-core phpmyadmin dokuwiki icingaweb2 mailman3-web python3-certbot-nginx
golang-github-containers-buildah-dev golang-github-hashicorp-hcl-v2-dev golang-github-containers-common-dev
golang-github-hashicorp-go-envparse-dev golang-github-subosito-gotenv-dev golang-github-burntsushi-toml-dev
golang-github-spf13-viper-dev"
mkdir -p "$OUT/pool" "$OUT/debs"
cd "$OUT/pool"
# shellcheck disable=SC2086
apt-get download $PACKAGES
for deb in *.deb; do
  pkg=${deb%%_*}
  [ -d "$OUT/debs/$pkg" ] || { mkdir -p "$OUT/debs/$pkg" && dpkg-deb -x "$deb" "$OUT/debs/$pkg"; }
done
