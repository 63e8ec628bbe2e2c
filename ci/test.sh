#!/usr/bin/env bash
# tilediff's test suite, as CI runs it (.ci/run calls this).
#  1. gcc, -Werror, CUDA kernels compiled when nvcc is found: every test (contracts at
#     TD_CI_CASES cases per correct kernel), the selftest, the corpora
#  2. clang, -Werror, AddressSanitizer + UndefinedBehaviorSanitizer, with libFuzzer
#     instrumentation: the unit, CLI and contract tests (fewer cases), then a short
#     libFuzzer campaign over every contract's target and the planted-bug campaign
#     (a seeded mutant as the kernel under test must be found and minimised)
#  3. the OSS-Fuzz build script check; with TD_SWEEP=1 the exhaustive binary32 sweeps
#     (rounding, the libm budgets of oracle/budget.c) and the large tier (ctest -L large:
#     kernels over 2^31+ elements, tests/test_large.c)
# Environment: TD_SWEEP=1 adds the exhaustive sweeps; for local iteration TD_SKIP_ASAN=1, TD_SKIP_FUZZ=1,
# TD_CI_CASES (default 300), TD_FUZZ_SECONDS (default 1), TD_FUZZ_RUNS (default 100).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/deps.sh --fuzz --triton
jobs=$(nproc)
start=$SECONDS
cases=${TD_CI_CASES:-300}
# Each stage line gives the wall time so far and the CPU time (user+sys) of all finished
# commands so far: CI machines are shared, and only CPU time compares between runs.
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
stage() {
  times >"$cpu_file"  # (a builtin redirected, not a subshell: a subshell's children times start at 0)
  printf '\n==== %s (%ds; CPU %s)\n' "$*" $((SECONDS - start)) "$(awk 'NR == 2 {
    n = split($0, f, /[ms ]+/); printf "%.0fs", f[1] * 60 + f[2] + f[3] * 60 + f[4] }' "$cpu_file")"
}

stage "gcc build (with CUDA kernels when nvcc is present)"
# CI compiles every CUDA kernel once, for sm_90 (the H200 of ci/device-check.sh): the
# compute_80 PTX a release build adds is a second front-end pass over the same source,
# which checks nothing more and costs a third of the CUDA build.  Their host side is
# compiled without -g: CI never runs a CUDA kernel (no device), the debug info of 137
# launch stubs would serve nobody and costs ~8% of the CUDA build.  The kernel files
# compile in two translation units (cmake/cuda_unity.cmake): nvcc's fixed cost per file
# was ~280 of the ~470 CPU-s of this build; ci/device-check.sh, which runs them, builds
# each file alone.
CC=gcc CXX=g++ ci/build.sh build-ci-gcc -DTD_CI_TEST_CASES="$cases" -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DTD_CUDA_UNITY_BATCHES=2 \
  -DCMAKE_CUDA_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
stage "gcc tests"
(cd build-ci-gcc && ctest --output-on-failure -j"$jobs" -LE "sweep|fuzz|large")

if [ "${TD_SKIP_ASAN:-0}" != 1 ]; then
  stage "clang + ASan/UBSan + libFuzzer build"
  # the sanitizers look for memory and UB errors, which need every code path, not many
  # cases: a tenth of the gcc stage's cases per correct kernel (mutants still run until
  # killed), 3 of them with every lane in MPFR (the MPFR path run on every contract's
  # spec; the shadow/MPFR agreement itself is the gcc stage's 25 cases: at 25 of 30
  # cases, MPFR under ASan was 60% of this stage's test_contracts CPU time, measured
  # 2026-12-02), and every target's libFuzzer campaign below
  # Line tables only (-gline-tables-only, as OSS-Fuzz builds): the sanitizers' and
  # libFuzzer's stack traces keep function, file and line, and the 245 fuzz targets
  # shrink from 41 to 32 MB each.  lld: each of those ~270 links took ~1 CPU-second with
  # GNU ld (a third of this stage), ~0.3 with lld (measured 2026-12-02).
  asan_dbg="-O2 -gline-tables-only -DNDEBUG"
  CC=clang CXX=clang++ ci/build.sh build-ci-asan -DTD_SANITIZE=ON -DTD_CUDA=OFF -DTD_FUZZ_ENGINE=libfuzzer \
    -DTD_BENCH=OFF -DTD_CI_TEST_CASES=$((cases / 10 > 20 ? cases / 10 : 20)) -DTD_CI_TEST_MPFR_CASES=3 \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$asan_dbg" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$asan_dbg" \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
    -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld
  stage "clang + ASan/UBSan tests"
  (cd build-ci-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j"$jobs" -LE "sweep|fuzz|selftest|rounding|build|audit|large" -E decode_digest_test)
  if [ "${TD_SKIP_FUZZ:-0}" != 1 ]; then
    stage "libFuzzer campaign over every target"
    # two halves of the targets at once (one per core), every other target each, so
    # that both end together (halves by initial letter left one core idle for the
    # last ~20 targets); the corpora are not merged (a smoke run: what CI keeps is a
    # finding, not coverage); each target stops at 1 s (which libFuzzer counts as 2) or
    # TD_FUZZ_RUNS executions, whichever comes first: every target started, its seeds
    # replayed and about a hundred mutations run, the fast ones in a fraction of a second
    # (100, not 300: with 307 targets the stage took 259 s; 100 stops a third sooner on
    # the targets the 2 s cap ended, measured on seven of them 2026-12-02)
    fz() { ci/fuzz.sh --build-dir build-ci-asan --seconds-per-target "${TD_FUZZ_SECONDS:-1}" \
      --max-runs "${TD_FUZZ_RUNS:-100}" --no-merge "$@"; }
    fz --shard 0/2 --out build-ci-asan/fuzz-out-1 >build-ci-asan/fuzz-1.log 2>&1 &
    f1=$!
    rc2=0
    fz --shard 1/2 --out build-ci-asan/fuzz-out-2 >build-ci-asan/fuzz-2.log 2>&1 || rc2=$?
    rc1=0
    wait $f1 || rc1=$?
    cat build-ci-asan/fuzz-1.log build-ci-asan/fuzz-2.log
    [ $rc1 = 0 ] && [ $rc2 = 0 ] || { echo "the libFuzzer campaign found something (exit $rc1 / $rc2)"; exit 1; }
    stage "planted bug: a mutant as the kernel under test must be found"
    ci/fuzz.sh --build-dir build-ci-asan --seconds-per-target 30 --targets add_example.add_kernel_correctness \
      --kernel mut_last_program_skipped --expect-finding --out build-ci-asan/fuzz-planted
    f=$(ls build-ci-asan/fuzz-planted/findings/*.tdf | head -1)
    rc=0
    build-ci-gcc/tilediff repro "$f" >build-ci-asan/fuzz-planted/repro.txt || rc=$?
    [ "$rc" = 1 ] || { echo "the planted bug's minimised reproducer $f did not replay to a finding (exit $rc)"; exit 1; }
    echo "the minimised reproducer $f replays: $(grep -m1 -o 'FINDING.*' build-ci-asan/fuzz-planted/repro.txt)"
  fi
fi

stage "OSS-Fuzz build script"
# (-j: the campaign test's stand-in targets run while the OSS-Fuzz build links)
(cd build-ci-gcc && ctest --output-on-failure -j"$jobs" -L fuzz)
# The exhaustive binary32 sweeps (label "sweep": every one of the 2^32 inputs through every
# cast and the libm budgets, about 4 minutes on 2 cores) are their own job, run with
# TD_SWEEP=1: with 245 contracts the rest of this script fills CI's 25 minutes.  Every run
# keeps their dense samples (test_budget, the rounding tests in the gcc stage).
if [ "${TD_SWEEP:-0}" = 1 ]; then
  stage "exhaustive sweeps (rounding, libm budgets) and the large tier (kernels over 2^31+ elements)"
  (cd build-ci-gcc && ctest --output-on-failure -L "sweep|large")
fi
stage "done"
