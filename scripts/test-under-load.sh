#!/usr/bin/env bash
# `npm test` while busy loops hold every core: the suite must not depend on how fast the machine is.
#
#   bash scripts/test-under-load.sh                   two busy loops (one per core on a two-core machine)
#   ASSOPAY_LOAD_LOOPS=4 bash scripts/test-under-load.sh
#   bash scripts/test-under-load.sh --reporter=default --reporter=json --outputFile.json=/tmp/suite.json
#
# Arguments go to vitest. The loops are `node -e 'for(;;){}'`, started before the suite and killed when it
# ends (or is interrupted); the script exits with the suite's code and prints the suite's wall-clock, user
# and system seconds (the loops' own time is not counted: they are not the suite's children).
set -uo pipefail
cd "$(dirname "$0")/.."
loops=${ASSOPAY_LOAD_LOOPS:-2}
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
}
trap stop EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$loops"); do
  node -e 'for(;;){}' &
  pids+=($!)
done
echo "test-under-load: $loops busy loops (pids ${pids[*]})"
TIMEFORMAT='test-under-load: npm test took %R s wall-clock, %U s user, %S s system'
time npm test -- "$@"
code=$?
echo "test-under-load: npm test exited $code"
exit "$code"
