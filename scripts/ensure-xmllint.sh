#!/usr/bin/env bash
# Makes sure xmllint (Debian's libxml2-utils) is installed: the tests validate every verb's JUnit report
# against the Jenkins xunit schema with `xmllint --schema`. Safe to run again: it does nothing when
# xmllint is already there.
set -euo pipefail

if command -v xmllint >/dev/null 2>&1; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-xmllint: xmllint is missing and apt-get is not available; install libxml2-utils by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "ensure-xmllint: xmllint is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

echo "ensure-xmllint: installing Debian's libxml2-utils (apt-get)…" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends libxml2-utils >/dev/null

if ! command -v xmllint >/dev/null 2>&1; then
  echo "ensure-xmllint: apt-get finished but xmllint is still missing" >&2
  exit 1
fi
echo "ensure-xmllint: $(xmllint --version 2>&1 | head -n 1) ready" >&2
