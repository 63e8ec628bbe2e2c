#!/usr/bin/env bash
# ci/oss-fuzz/build.sh follows the OSS-Fuzz / ClusterFuzzLite conventions: run it as
# those builders do (clang, libFuzzer, ASan) for one contract and check what lands in
# $OUT: the target, <target>_seed_corpus.zip and <target>.options; then run the target
# on its seed corpus.
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/out" "$tmp/work"
export SRC=$src OUT=$tmp/out WORK=$tmp/work CC=clang CXX=clang++ \
  CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize=fuzzer-no-link" \
  CXXFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize=fuzzer-no-link" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer TILEDIFF_TARGETS='add_example.*'
"$src/ci/oss-fuzz/build.sh" >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; echo "FAIL: build.sh"; exit 1; }
t=tdfuzz_add_example__add_kernel_correctness
fails=0
for f in "$t" "${t}_seed_corpus.zip" "$t.options"; do
  [ -s "$OUT/$f" ] && echo "ok: \$OUT/$f" || { echo "FAIL: no \$OUT/$f"; fails=$((fails + 1)); }
done
unzip -l "$OUT/${t}_seed_corpus.zip" | grep -q tail || { echo "FAIL: seed corpus lacks the boundary-class seeds"; fails=$((fails + 1)); }
mkdir "$tmp/seeds" && (cd "$tmp/seeds" && unzip -q "$OUT/${t}_seed_corpus.zip")
"$OUT/$t" -runs=200 -max_len=256 "$tmp/seeds" >"$tmp/run.log" 2>&1 || { tail -20 "$tmp/run.log"; echo "FAIL: target run"; fails=$((fails + 1)); }
# the targets are one program that reads its contract from its name: under another
# name it refuses, with exit 2 and a message, rather than fuzz some contract
cp "$OUT/$t" "$tmp/not_a_target"
rc=0
"$tmp/not_a_target" -runs=1 >"$tmp/name.log" 2>&1 || rc=$?
if [ "$rc" = 2 ] && grep -q "not the name of a fuzz target" "$tmp/name.log"; then echo "ok: a target under another name refuses (exit 2)"
else tail -5 "$tmp/name.log"; echo "FAIL: a target under another name gave exit $rc"; fails=$((fails + 1)); fi
echo "$fails failed"
[ "$fails" = 0 ]
