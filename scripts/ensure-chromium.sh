#!/bin/sh
# The /docs browser test (test/e2e/api-docs-browser.e2e.spec.ts) drives Debian's headless Chromium at
# /usr/bin/chromium. Run before the tests (npm's pretest, .ci/run): as root it installs the package
# with apt-get; otherwise it stops at once with the one command to run, instead of six failing tests.
set -eu
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium (apt-get) for the /docs browser test" >&2
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
  [ -x "$CHROMIUM" ] && exit 0
  echo "ensure-chromium: apt-get installed chromium, but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: the /docs browser test needs Chromium at $CHROMIUM; install it, then run the tests again:" >&2
echo "  sudo apt-get install -y chromium" >&2
exit 1
