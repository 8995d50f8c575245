#!/usr/bin/env bash
# Makes sure a tool is installed, from Debian's packages when it is missing: the one installer behind
# ensure-chromium.sh and ensure-xmllint.sh. Safe to run again: it does nothing when the tool is there.
# Usage: bash scripts/apt-ensure.sh LABEL TOOL PACKAGE [PACKAGE ...]
#   LABEL    the name its messages start with (the calling script's)
#   TOOL     a command name, or an absolute path, that must be executable afterwards
#   PACKAGE  the Debian packages to install when it is not
set -euo pipefail

if [ "$#" -lt 3 ]; then
  echo "apt-ensure: usage: bash scripts/apt-ensure.sh LABEL TOOL PACKAGE [PACKAGE ...]" >&2
  exit 2
fi
LABEL=$1
TOOL=$2
shift 2

if command -v "$TOOL" >/dev/null 2>&1; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$LABEL: $TOOL is missing and apt-get is not available; install $* by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "$LABEL: $TOOL is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

echo "$LABEL: installing Debian's $* (apt-get)…" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null

if ! command -v "$TOOL" >/dev/null 2>&1; then
  echo "$LABEL: apt-get finished but $TOOL is still missing" >&2
  exit 1
fi
# Some tools print their version on stdout (chromium, with warnings on stderr), some on stderr (xmllint).
VERSION=$("$TOOL" --version 2>/dev/null | head -n 1 || true)
[ -n "$VERSION" ] || VERSION=$("$TOOL" --version 2>&1 | head -n 1 || true)
echo "$LABEL: ${VERSION:-$TOOL} ready" >&2
