#!/usr/bin/env bash
# Makes sure Debian's headless-capable chromium is installed at /usr/bin/chromium, for the sandbox's
# end-to-end checkout test (playwright-core drives it; playwright never downloads a browser of its own).
# Safe to run again: it does nothing when chromium is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install chromium by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-chromium: $CHROMIUM is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing Debian's chromium (apt-get)…" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) ready" >&2
