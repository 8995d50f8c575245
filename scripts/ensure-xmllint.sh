#!/usr/bin/env bash
# Makes sure xmllint (Debian's libxml2-utils) is installed: the tests validate every verb's JUnit report
# against the Jenkins xunit schema with `xmllint --schema`. Safe to run again: it does nothing when
# xmllint is already there.
set -euo pipefail
exec bash "$(dirname "$0")/apt-ensure.sh" ensure-xmllint xmllint libxml2-utils
