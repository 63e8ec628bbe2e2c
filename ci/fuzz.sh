#!/usr/bin/env bash
# A time-boxed fuzzing campaign over the contracts' targets.
#
#   ci/fuzz.sh --seconds-per-target N [--targets GLOB] [--jobs J] [--engine libfuzzer|afl]
#              [--kernel VARIANT] [--out DIR] [--build-dir DIR] [--expect-finding] [--no-merge]
#              [--shard K/N] [--max-runs R]
#
# For every target whose contract id matches GLOB: fuzz for N seconds from the seed
# corpus corpus/<contract>/ (libFuzzer -fork=J, or AFL++), merge the new coverage into
# DIR/corpus/<contract> (-merge=1), then minimise every crash with `tilediff minimize`
# and deduplicate them by (contract, verdict class, region, lane class) into
# DIR/findings/, each with its repro command in DIR/findings.txt.
# An input the engine stopped on that tilediff's replay does not turn into a kernel
# finding (a leak, a sanitizer report, a timeout or out-of-memory the replay does not
# reproduce) is a finding too: kept raw as DIR/findings/<contract>.engine-<kind>.raw,
# one per contract and kind, with the engine's repro command (the target on the file).
# --kernel runs a named variant as the kernel under test (a seeded mutant: a planted
# bug the campaign must find).  Exit 1 on any finding (0 with --expect-finding when
# one was found, 1 when none was), 3 on a tilediff harness bug or an engine that
# failed without saving an input, 2 on bad usage.
# --no-merge skips the corpus merge (a smoke run whose corpus is thrown away, as CI's).
# --shard K/N takes every N-th matching target from the K-th (0 <= K < N): N campaigns
# with K = 0..N-1 cover the matching targets once, in near-equal parts whatever the
# contract names (CI runs one shard per core).
# --max-runs R (libFuzzer) also stops a target after R executions, whichever of the two
# limits comes first: -max_total_time counts whole seconds and fuzzes 2 s for 1, and a
# smoke run over every target (CI's) wants each target started, its seeds replayed and a
# hundred or so mutations run, which a fast target does in a fraction of a second.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
secs=10 targets='*' jobs=1 engine=libfuzzer kernel="" out=fuzz-out build="" expect=0 merge=1 shard=0/1 maxruns=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds-per-target) secs=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --expect-finding) expect=1; shift ;;
    --no-merge) merge=0; shift ;;
    --shard) shard=$2; shift 2 ;;
    --max-runs) maxruns=$2; shift 2 ;;
    *) echo "ci/fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$engine" in libfuzzer|afl) ;; *) echo "ci/fuzz.sh: --engine libfuzzer or afl" >&2; exit 2 ;; esac
[[ "$maxruns" =~ ^[0-9]+$ ]] || { echo "ci/fuzz.sh: --max-runs needs a whole number, not '$maxruns'" >&2; exit 2; }
shard_k=${shard%/*} shard_n=${shard#*/}
if ! [[ "$shard_k" =~ ^[0-9]+$ && "$shard_n" =~ ^[0-9]+$ ]] || [ "$shard_n" -lt 1 ] || [ "$shard_k" -ge "$shard_n" ]; then
  echo "ci/fuzz.sh: --shard K/N with 0 <= K < N" >&2; exit 2
fi
[ -n "$build" ] || build=build-fuzz-$engine
if [ ! -f "$build/fuzz/targets.txt" ]; then
  ci/build-fuzzers.sh --engines "$engine" --targets "$targets" || exit 3
fi
[ -x "$build/tilediff" ] || { echo "ci/fuzz.sh: $build/tilediff missing" >&2; exit 3; }
td="$build/tilediff"
# the tilediff of an AFL++ build is instrumented too and dlopens an instrumented kernel
# library: outside afl-fuzz that needs AFL_IGNORE_PROBLEMS to run
[ "$engine" = afl ] && export AFL_IGNORE_PROBLEMS=1
mkdir -p "$out/corpus" "$out/crashes" "$out/findings" "$out/logs"
: >"$out/findings.txt"
export TILEDIFF_FUZZ_KERNEL="$kernel"
if [ "$engine" = afl ]; then
  # AFL++ refuses ASan options without symbolize=0 (it needs the raw abort)
  export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0
else
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ntargets=0 nfind=0 harness=0 nmatch=0
while read -r target contract; do
  case "$contract" in $targets) ;; *) continue ;; esac
  nmatch=$((nmatch + 1))
  [ $(((nmatch - 1) % shard_n)) = "$shard_k" ] || continue
  ntargets=$((ntargets + 1))
  bin="$build/fuzz/$target" work="$out/corpus/$contract" crashes="$out/crashes/$contract"
  mkdir -p "$work" "$crashes"
  seeds="corpus/$contract"; [ -d "$seeds" ] || seeds=""
  log="$out/logs/$contract.log"
  if [ "$engine" = libfuzzer ]; then
    opts=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=256 -artifact_prefix="$crashes/" -print_final_stats=1)
    [ "$jobs" -gt 1 ] && opts+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1)
    [ "$maxruns" -gt 0 ] && opts+=(-runs="$maxruns")
    erc=0
    # (in a subshell that waits for it, so that the shell's "Aborted" line goes to the log)
    ("$bin" "${opts[@]}" "$work" ${seeds:+"$seeds"}; exit $?) >"$log" 2>&1 || erc=$?
    # merge the new coverage into one minimal corpus
    if [ $merge = 1 ]; then
      # (the merge re-runs every input: one that crashes is written as an artifact too,
      # kept apart from the campaign's own, which were triaged above, and out of the cwd)
      mkdir -p "$out/merged/$contract" "$out/merge-artifacts/$contract"
      "$bin" -merge=1 -timeout=10 -artifact_prefix="$out/merge-artifacts/$contract/" \
        "$out/merged/$contract" "$work" ${seeds:+"$seeds"} >>"$log" 2>&1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  else
    in="$seeds"; [ -n "$in" ] || { in="$out/empty-seed"; mkdir -p "$in"; printf 'x' >"$in/x"; }
    mkdir -p "$out/afl"
    erc=0
    AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 timeout $((secs + 30)) \
      afl-fuzz -i "$in" -o "$out/afl/$contract" -V "$secs" -t 10000 -- "$bin" >"$log" 2>&1 || erc=$?
    cp "$out"/afl/"$contract"/default/crashes/id* "$crashes"/ 2>/dev/null
    # AFL++'s hangs are libFuzzer's timeouts: triaged the same way
    for h in "$out"/afl/"$contract"/default/hangs/id*; do [ -f "$h" ] && cp "$h" "$crashes/timeout-$(basename "$h")"; done
    execs=$(grep -o 'execs_done *: *[0-9]*' "$out/afl/$contract/default/fuzzer_stats" 2>/dev/null | awk '{print $3}')
  fi
  grep -q "TILEDIFF-HARNESS-BUG" "$log" && { echo "HARNESS BUG while fuzzing $contract (see $log)"; harness=1; }
  found=0 nart=0
  for c in "$crashes"/*; do
    [ -f "$c" ] || continue
    base=$(basename "$c")
    case "$base" in README*) continue ;; esac
    nart=$((nart + 1))
    # what the engine saw: libFuzzer names its artifacts crash-, leak-, timeout-, oom-,
    # slow-unit-; AFL++'s crashes are id:..., its hangs were renamed timeout- above
    case "$base" in leak-*) kind=leak ;; timeout-*) kind=timeout ;; oom-*) kind=oom ;;
                    slow-unit-*) kind=slow-unit ;; *) kind=crash ;; esac
    if [ $kind = leak ]; then
      # a leak is seen only by LeakSanitizer at the end of a process, never by a
      # replay's verdict: it is recorded as the engine saw it
      rc=0 why="LeakSanitizer"
    else
      # minimise with the same kernel; the key names the finding for deduplication
      m=$("$td" minimize "$c" --contract "$contract" ${kernel:+--kernel "$kernel"} -o "$out/findings/tmp.tdf" 2>&1)
      rc=$?
      why="tilediff's replay gives no finding: $(printf '%s' "$m" | tail -1)"
    fi
    if [ $rc = 3 ]; then echo "HARNESS BUG replaying $c: $m"; harness=1; continue; fi
    if [ $rc != 1 ]; then
      # the engine stopped on this input but tilediff's replay gives no kernel finding:
      # a sanitizer report, a leak, an out-of-memory or a timeout the replay does not
      # reproduce.  It is still a finding (one per contract and kind), kept as the raw
      # input with the engine's own repro command: the target binary on the file.
      rm -f "$out/findings/tmp.tdf"
      dest="$out/findings/$contract.engine-$kind.raw"
      [ -f "$dest" ] && continue
      cp "$c" "$dest"
      found=1 nfind=$((nfind + 1))
      echo "$contract: engine-$kind ($why)  repro: TILEDIFF_FUZZ_KERNEL=$kernel $(realpath "$(dirname "$bin")")/$(basename "$bin") $(realpath "$dest")  log: $log" |
        tee -a "$out/findings.txt"
      continue
    fi
    key=$(printf '%s\n' "$m" | sed -n 's/.*same finding: //p' | head -1 | tr ' ' ',')
    dest="$out/findings/$contract.$key.tdf"
    if [ -f "$dest" ]; then rm -f "$out/findings/tmp.tdf"; continue; fi
    mv "$out/findings/tmp.tdf" "$dest"
    found=1 nfind=$((nfind + 1))
    echo "$contract: $(printf '%s' "$key" | tr ',' ' ')  repro: tilediff repro $(realpath "$dest")" | tee -a "$out/findings.txt"
  done
  # an engine that stopped with an error but left no input behind failed to run
  if [ "$erc" != 0 ] && [ $nart = 0 ]; then
    echo "ENGINE FAILED on $contract (exit $erc, no input saved; see $log)"; harness=1
  fi
  printf '%-70s %6s execs in %ss%s\n' "$contract" "${execs:-?}" "$secs" "$([ $found = 1 ] && echo '  FINDING')"
done <"$build/fuzz/targets.txt"
echo "$ntargets targets, $nfind distinct findings (details: $out/findings.txt)"
[ "$nmatch" -gt 0 ] || { echo "ci/fuzz.sh: no target matches '$targets'" >&2; exit 2; }
[ $harness = 1 ] && exit 3
if [ $expect = 1 ]; then [ $nfind -gt 0 ] && exit 0 || { echo "ci/fuzz.sh: the planted bug was not found"; exit 1; }; fi
[ $nfind = 0 ]
