#!/usr/bin/env bash
# npm run bench: installs the peers pinned in bench/package.json (kept out of the main install), then runs
# every benchmark and rewrites docs/benchmarks.md. Flags go to bench/main.ts (--help).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d bench/node_modules ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  echo "bench: installing the peers (bench/package.json)" >&2
  npm ci --prefix bench --no-audit --no-fund >&2
fi
exec node --import tsx bench/main.ts "$@"
