#!/usr/bin/env bash
# ci/fuzz-parallel.sh's orchestration, with a stand-in afl-fuzz first on PATH (a real
# AFL++ build of the targets takes minutes; what this checks is the script): one -M
# and N-1 -S instances with distinct names and power schedules on one sync directory,
# and the exit code of each outcome:
#   clean -> 0, a crash input -> 1, a hang input -> 1, an instance that fails -> 3,
#   a contract with no target -> 2.
# Usage: fuzz_parallel_test.sh SRC_DIR
set -u
src=$1
contract=add_example.add_kernel_correctness
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

mkdir -p "$tmp/bin" "$tmp/build/fuzz"
# the stand-in engine: records its arguments, makes the instance's folders, and does
# what STANDIN_MODE says (crash: the main instance saves a crash; hang: the first
# secondary saves a hang; fail: the first secondary cannot start)
cat >"$tmp/bin/afl-fuzz" <<'EOF'
#!/bin/sh
o="" name=""
args="$*"
while [ $# -gt 0 ]; do
  case "$1" in
    -o) o=$2; shift 2 ;;
    -M|-S) name=$2; shift 2 ;;
    --) shift; break ;;
    *) shift ;;
  esac
done
[ -x "$1" ] || { echo "no target $1"; exit 1; }
mkdir -p "$o/$name/crashes" "$o/$name/hangs" "$o/$name/queue"
echo "$args" >>"$o/args.log"
case "$STANDIN_MODE.$name" in
  crash.main) echo x >"$o/$name/crashes/id:000000,sig:06" ;;
  hang.sec1) echo x >"$o/$name/hangs/id:000000" ;;
  fail.sec1) echo "PROGRAM ABORT : stand-in cannot start"; exit 1 ;;
esac
exit 0
EOF
chmod +x "$tmp/bin/afl-fuzz"
printf '#!/bin/sh\nexit 0\n' >"$tmp/build/fuzz/tdfuzz_standin" && chmod +x "$tmp/build/fuzz/tdfuzz_standin"
echo "tdfuzz_standin $contract" >"$tmp/build/fuzz/targets.txt"

# run: $1 mode, $2 expected exit, $3 expected text; extra arguments go to the script
run() {
    local mode=$1 want=$2 pat=$3 rc=0
    shift 3
    rm -rf "$tmp/sync"
    STANDIN_MODE=$mode PATH="$tmp/bin:$PATH" "$src/ci/fuzz-parallel.sh" --build-dir "$tmp/build" \
        --sync "$tmp/sync" --seconds 1 "$@" >"$tmp/out" 2>&1 || rc=$?
    if [ "$rc" != "$want" ] || ! grep -q -- "$pat" "$tmp/out"; then
        fail "$mode: exit $rc (want $want), output lacks '$pat'"; sed 's/^/    /' "$tmp/out"
    else
        echo "ok: $mode -> exit $rc: $(grep -m1 -- "$pat" "$tmp/out")"
    fi
}

run clean 0 "done: 0 crash inputs" --target $contract --instances 3
if [ -f "$tmp/sync/args.log" ]; then
    m=$(grep -c -- '-M main' "$tmp/sync/args.log")
    s=$(grep -o -- '-S sec[0-9]*' "$tmp/sync/args.log" | sort -u | wc -l)
    p=$(grep -o -- '-p [a-z]*' "$tmp/sync/args.log" | sort -u | wc -l)
    o=$(grep -o -- "-o [^ ]*" "$tmp/sync/args.log" | sort -u | wc -l)
    [ "$m" = 1 ] && [ "$s" = 2 ] && [ "$p" = 2 ] && [ "$o" = 1 ] &&
        echo "ok: one -M, two -S with distinct power schedules, one sync directory" ||
        fail "instances: $m -M, $s distinct -S, $p distinct schedules, $o sync directories"
else
    fail "the stand-in engine never ran"
fi
run crash 1 "1 crash inputs" --target $contract --instances 2
run hang 1 "1 hang inputs" --target $contract --instances 2
run fail 3 "ENGINE FAILED" --target $contract --instances 2
run clean 2 "no AFL++ target" --target no_such.contract --instances 2
run clean 2 "positive integer" --target $contract --instances 0
echo "$fails failed"
[ "$fails" = 0 ]
