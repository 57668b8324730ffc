#!/usr/bin/env bash
# The documentation pages' browser test (test/browser/) drives Debian's headless Chromium.
# Installs it with apt when missing and we may; otherwise says what to install. Quiet when present.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's chromium with apt-get (for the documentation pages' browser test)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser test needs /usr/bin/chromium. Install it, e.g.: sudo apt-get install -y chromium" >&2
exit 1
