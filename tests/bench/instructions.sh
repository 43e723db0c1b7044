#!/bin/bash
# Instructions the worker's model executes, counted by valgrind: repeatable exactly (`node
# --predictable` fixes V8's hash and random seeds; without it the count moves by ±0.3 %) where
# process CPU time on a shared 2-core machine varies by 15-25 %, so a change of a few per cent is
# seen in one run. `tests/bench/instructions.sh SECONDS MODE [MODE...]` bundles
# tests/bench/worker-cpu.ts as `npm run lab` is bundled and runs each MODE (cli, session, page,
# page-nocap, page-nopath, page-nochart, page-none) under `valgrind --tool=cachegrind` with
# `node --single-threaded` (the JIT compiles on the main thread, so its work is counted too and the
# count does not depend on the other core). A 20 s run takes about 90 s. The first ~2.7 G
# instructions are start-up (modules, the lab, compiling); compare SECONDS and 3 × SECONDS for the
# steady state. What it measured: docs/design.md, "Performance". Needs Debian's `valgrind`.
set -euo pipefail
if ! command -v valgrind >/dev/null; then
  echo "instructions.sh: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 2
fi
if [ $# -lt 2 ]; then
  echo "usage: tests/bench/instructions.sh SECONDS MODE [MODE...]" >&2
  exit 2
fi
seconds=$1
shift
cd "$(dirname "$0")/../.."
bundle=$(mktemp -d)/worker-cpu.mjs
npx esbuild tests/bench/worker-cpu.ts --bundle --platform=node --format=esm --outfile="$bundle" --log-level=error
for mode in "$@"; do
  refs=$(valgrind --tool=cachegrind --cache-sim=no --smc-check=all --cachegrind-out-file=/dev/null \
    node --single-threaded --predictable "$bundle" "$seconds" "$mode" 2>&1 | sed -n 's/.*I *refs: *//p')
  echo "$mode ${seconds}s: $refs instructions"
done
rm -rf "$(dirname "$bundle")"
