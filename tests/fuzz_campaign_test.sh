#!/usr/bin/env bash
# ci/fuzz.sh must not lose what an engine stops on.  Three stand-in libFuzzer targets
# (built here with clang, in place of a contract's target) make the engine stop in the
# ways that a tilediff replay cannot reproduce, and one stand-in engine fails to run:
#   leak     LeakSanitizer reports a leak           -> finding engine-leak, exit 1
#   overflow AddressSanitizer reports a heap overflow -> finding engine-crash, exit 1
#   hang     the input never returns (libFuzzer -timeout) -> finding engine-timeout, exit 1
#   broken   the target exits with an error and saves no input -> ENGINE FAILED, exit 3
# and the triage keeps one minimised reproducer per distinct finding (deduplication).
# The contract named for them is a real one (its seeds and its replay are real): the
# correct kernel passes the replay, so each of these is an engine-only finding.
# Usage: fuzz_campaign_test.sh SRC_DIR TILEDIFF
set -u
src=$1 td=$2
contract=add_example.add_kernel_correctness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset ASAN_OPTIONS UBSAN_OPTIONS TILEDIFF_FUZZ_KERNEL
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat >"$tmp/leak.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static void *volatile sink;
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    char *p = malloc(n + 16); /* never freed */
    memcpy(p, d, n);
    sink = p;
    sink = 0;
    return 0;
}
EOF
cat >"$tmp/overflow.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    char *p = malloc(n + 1);
    memcpy(p, d, n);
    volatile char c = p[n + 1]; /* one past the end */
    (void)c;
    free(p);
    return 0;
}
EOF
cat >"$tmp/hang.c" <<'EOF'
#include <stdint.h>
#include <stddef.h>
#include <unistd.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    (void)d; (void)n;
    for (;;) sleep(1);
}
EOF

# make a build directory whose only target is $1 (a binary), standing for $contract
mkbuild() {
    local b=$tmp/build-$2
    mkdir -p "$b/fuzz"
    ln -s "$(realpath "$td")" "$b/tilediff"
    cp "$1" "$b/fuzz/tdfuzz_standin"
    echo "tdfuzz_standin $contract" >"$b/fuzz/targets.txt"
    echo "$b"
}

# run one scenario: $1 name, $2 stand-in binary, $3 expected exit, $4 expected text
scenario() {
    local b out rc
    b=$(mkbuild "$2" "$1")
    out=$tmp/out-$1
    rc=0
    "$src/ci/fuzz.sh" --build-dir "$b" --seconds-per-target 3 --no-merge --targets "$contract" --out "$out" \
        >"$tmp/$1.log" 2>&1 || rc=$?
    if [ "$rc" != "$3" ]; then fail "$1: ci/fuzz.sh exit $rc, expected $3"; sed 's/^/    /' "$tmp/$1.log"; return; fi
    if ! grep -q -- "$4" "$tmp/$1.log"; then fail "$1: no '$4' in its output"; sed 's/^/    /' "$tmp/$1.log"; return; fi
    echo "ok: $1 -> exit $rc, $(grep -m1 -- "$4" "$tmp/$1.log" | cut -c1-100)"
}

for t in leak overflow hang; do
    clang -g -O1 -fsanitize=fuzzer,address "$tmp/$t.c" -o "$tmp/$t" 2>"$tmp/$t.cc.log" ||
        { cat "$tmp/$t.cc.log"; fail "cannot build the $t stand-in with clang -fsanitize=fuzzer"; }
done
printf '#!/bin/sh\necho "cannot load a library" >&2\nexit 7\n' >"$tmp/broken" && chmod +x "$tmp/broken"

[ -x "$tmp/leak" ] && scenario leak "$tmp/leak" 1 "engine-leak"
[ -x "$tmp/overflow" ] && scenario overflow "$tmp/overflow" 1 "engine-crash"
[ -x "$tmp/hang" ] && scenario hang "$tmp/hang" 1 "engine-timeout"
scenario broken "$tmp/broken" 3 "ENGINE FAILED"

# each engine finding keeps its raw input, and the repro command it prints reproduces it
for t in leak overflow; do
    raw=$tmp/out-$t/findings/$contract.engine-$( [ $t = leak ] && echo leak || echo crash ).raw
    [ -f "$raw" ] || { fail "$t: no raw input kept at $raw"; continue; }
    rc=0
    "$tmp/$t" "$raw" >"$tmp/$t.repro.log" 2>&1 || rc=$?
    [ "$rc" != 0 ] && echo "ok: $t: the kept input reproduces under the stand-in (exit $rc)" ||
        fail "$t: the kept input does not reproduce"
done
# deduplication: a stand-in engine that finds nothing new, over a crashes folder already
# holding every artifact of a 50-case run of a seeded mutant; the campaign must keep one
# minimised reproducer per distinct (class, region, lane class), each replaying to it
mutant=mut_mask_off_by_one
"$td" run $contract --kernel $mutant --cases 50 --artifacts "$tmp/arts" >/dev/null 2>&1
narts=$(ls "$tmp"/arts/*.tdf 2>/dev/null | wc -l)
keys=$(for f in "$tmp"/arts/*.tdf; do "$td" minimize "$f" --kernel $mutant -o "$tmp/k.tdf" 2>&1 |
    sed -n 's/.*same finding: //p'; done | sort -u | wc -l)
printf '#!/bin/sh\necho "stat::number_of_executed_units: 0"\n' >"$tmp/idle" && chmod +x "$tmp/idle"
b=$(mkbuild "$tmp/idle" dedup)
mkdir -p "$tmp/out-dedup/crashes/$contract" && cp "$tmp"/arts/*.tdf "$tmp/out-dedup/crashes/$contract/"
rc=0
"$src/ci/fuzz.sh" --build-dir "$b" --seconds-per-target 1 --no-merge --targets "$contract" --kernel $mutant \
    --out "$tmp/out-dedup" >"$tmp/dedup.log" 2>&1 || rc=$?
nfound=$(ls "$tmp"/out-dedup/findings/*.tdf 2>/dev/null | wc -l)
if [ "$narts" -lt 2 ] || [ "$keys" -lt 1 ] || [ "$keys" -ge "$narts" ]; then
    fail "dedup: the mutant run gave $narts artifacts with $keys distinct findings (need several per finding)"
elif [ "$rc" != 1 ] || [ "$nfound" != "$keys" ]; then
    fail "dedup: exit $rc, $nfound findings kept from $narts artifacts, expected exit 1 and $keys"
    sed 's/^/    /' "$tmp/dedup.log"
else
    echo "ok: dedup: $narts artifacts -> $nfound distinct findings"
    for f in "$tmp"/out-dedup/findings/*.tdf; do
        "$td" repro "$f" >/dev/null 2>&1
        [ $? = 1 ] || fail "dedup: $f does not replay to a finding"
    done
fi
echo "$fails failed"
[ "$fails" = 0 ]
