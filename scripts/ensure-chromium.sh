#!/usr/bin/env bash
# Makes sure Debian's headless-capable chromium is installed at /usr/bin/chromium, for the sandbox's
# end-to-end checkout test (playwright-core drives it; playwright never downloads a browser of its own).
# Safe to run again: it does nothing when chromium is already there.
set -euo pipefail
exec bash "$(dirname "$0")/apt-ensure.sh" ensure-chromium /usr/bin/chromium chromium fonts-liberation
