#!/usr/bin/env bash
# An AFL++ campaign of one target spread over cores (and machines) the documented
# AFL++ way: one main instance (-M) and N-1 secondaries (-S) sharing a sync directory.
#
#   ci/fuzz-parallel.sh --target CONTRACT [--instances N] [--seconds S] [--sync DIR] [--kernel VARIANT]
#                       [--build-dir DIR]    (default build-fuzz-afl, built when missing)
#
# Each instance takes one core; the secondaries use different power schedules.  To
# spread over machines, give every machine the same --sync directory on shared storage,
# or run this script on each machine with its own --sync and copy every instance's
# queue/ into the others' sync directories periodically (e.g. `rsync -a hostB:sync/ sync/`
# from cron): AFL++ imports the queues of every instance it finds in its sync
# directory.  Afterwards triage the crashes with:
#   for f in DIR/*/crashes/id* DIR/*/hangs/id*; do tilediff minimize "$f" --contract CONTRACT -o min.tdf; done
# Exit 0 when no instance saved a crash or a hang, 1 when one did, 3 when an instance
# failed to run (its log says why), 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
target="" n=$(nproc) secs=600 sync=fuzz-sync kernel="" build=build-fuzz-afl
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --instances) n=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    --sync) sync=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    *) echo "ci/fuzz-parallel.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$target" ] || { echo "usage: ci/fuzz-parallel.sh --target CONTRACT [--instances N] [--seconds S] [--sync DIR]" >&2; exit 2; }
[ "$n" -ge 1 ] 2>/dev/null || { echo "ci/fuzz-parallel.sh: --instances needs a positive integer" >&2; exit 2; }
if [ ! -f "$build/fuzz/targets.txt" ]; then
  [ "$build" = build-fuzz-afl ] || { echo "ci/fuzz-parallel.sh: $build/fuzz/targets.txt missing" >&2; exit 2; }
  ci/build-fuzzers.sh --engines afl --targets "$target"
fi
name=$(awk -v c="$target" '$2 == c {print $1}' "$build/fuzz/targets.txt")
bin=$build/fuzz/$name
[ -n "$name" ] && [ -f "$bin" ] && [ -x "$bin" ] || { echo "ci/fuzz-parallel.sh: no AFL++ target for $target in $build" >&2; exit 2; }
seeds=corpus/$target
[ -d "$seeds" ] || { seeds=$(mktemp -d); printf x >"$seeds/x"; }
mkdir -p "$sync"
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 TILEDIFF_FUZZ_KERNEL="$kernel"
schedules=(explore fast coe lin quad exploit rare)
pids=() logs=()
afl-fuzz -i "$seeds" -o "$sync" -M main -V "$secs" -t 10000 -- "$bin" >"$sync/main.log" 2>&1 &
pids+=($!) logs+=("$sync/main.log")
for i in $(seq 1 $((n - 1))); do
  afl-fuzz -i "$seeds" -o "$sync" -S "sec$i" -p "${schedules[$((i % ${#schedules[@]}))]}" -V "$secs" -t 10000 -- "$bin" \
    >"$sync/sec$i.log" 2>&1 &
  pids+=($!) logs+=("$sync/sec$i.log")
done
echo "started ${#pids[@]} AFL++ instances on $target (sync directory $sync); waiting ${secs}s"
failed=0
for k in "${!pids[@]}"; do
  st=0
  wait "${pids[$k]}" || st=$?
  if [ "$st" != 0 ]; then echo "ENGINE FAILED: an AFL++ instance exited $st (see ${logs[$k]})"; failed=1; fi
done
# (find, not ls of a glob: with no match ls fails, and under pipefail + errexit that
# ended a clean campaign with exit 2 before it could say so)
crashes=$(find "$sync" -path '*/crashes/id*' -type f | wc -l)
hangs=$(find "$sync" -path '*/hangs/id*' -type f | wc -l)
echo "done: $crashes crash inputs in $sync/*/crashes, $hangs hang inputs in $sync/*/hangs"
[ "$crashes" = 0 ] && [ "$hangs" = 0 ] || exit 1
[ $failed = 0 ] || exit 3
