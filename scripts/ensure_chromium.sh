#!/bin/sh
# Make sure the Chromium that the report site's browser test drives exists
# before `make test` runs anything: the test launches Debian's Chromium (never
# a downloaded browser) at $EXECRET_CHROMIUM, default /usr/bin/chromium, the
# same path src/site/browser.ts uses.
#
# Present: exit 0 silently. Missing, as root with apt-get on PATH: install the
# `chromium` package. Otherwise print one line saying what to install and exit
# 1, so the test run stops before it starts rather than failing in its last
# suite. POSIX sh, run as `sh scripts/ensure_chromium.sh`; it looks up `id`
# and `apt-get` on PATH only, which is what lets a test fake a non-root or
# apt-less machine.
set -eu

chromium="${EXECRET_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium missing at $chromium: installing Debian's chromium package (apt-get)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$chromium" ] && exit 0
  echo "make test: apt-get installed chromium but there is still none at $chromium; set EXECRET_CHROMIUM to the Chromium binary" >&2
  exit 1
fi

echo "make test needs Chromium at $chromium for the report site's browser test: install the chromium package (e.g. sudo apt-get install chromium) or set EXECRET_CHROMIUM to a Chromium binary" >&2
exit 1
