#!/usr/bin/env bash
# --jobs N: `run`, `certify` and `selftest` give the same results and reports for any N,
# only their timings (seconds, started) differ.  Each command runs with --jobs 1 and
# --jobs 2 on a correct kernel and on a mutant (findings, reproducers, repro commands)
# and the outputs are compared byte for byte after the timing fields are blanked.
# A kernel that crashes or hangs: every case runs in a worker process, the parent reports
# the case its worker died in as a finding (exit 1) with its reproducer, the same for
# --jobs 1 and 2, and goes on after a crash (findings already made are kept).
# Usage: jobs_test.sh TILEDIFF PLUGIN_DIR (where libtdtest_crash.so and libtdtest_hang.so are)
set -u
T=$1 plugins=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1; shift
    if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
same() { cmp -s "$1" "$2" || { diff "$1" "$2" | head -20; return 1; }; }
cd "$tmp" || exit 3

# run: reproducers go to one folder (their names are content hashes), outputs to two
for j in 1 2; do
    "$T" run 'add_*' --cases 40 --jobs $j --artifacts art >run$j.txt 2>&1
    echo "exit $?" >>run$j.txt
    "$T" run add_example.add_kernel_correctness --kernel mut_last_program_skipped --cases 40 --jobs $j \
        --artifacts art >mut$j.txt 2>&1
    echo "exit $?" >>mut$j.txt
    "$T" run add_example.add_kernel_correctness --kernel mut_last_program_skipped --cases 40 --jobs $j --json \
        --artifacts art >json$j.txt 2>&1
done
check "run: same output for --jobs 1 and 2 (correct kernels)" same run1.txt run2.txt
check "run: same output for --jobs 1 and 2 (a mutant: findings)" same mut1.txt mut2.txt
check "run: the mutant is found (exit 1)" grep -q '^exit 1$' mut2.txt
check "run --json: same output for --jobs 1 and 2" same json1.txt json2.txt

# certify: report.json without its timings and output folder
blank() { sed -E 's/"seconds":[0-9.eE+-]+/"seconds":0/g; s/"started":"[^"]*"/"started":""/g; s#/c[12]/#/c/#g; s#c[12]/#c/#g' "$1"; }
for j in 1 2; do
    "$T" certify --contracts 'add_*' --cases 25 --jobs $j --out c$j >/dev/null 2>&1
    echo "exit $?" >cert$j.rc
    "$T" certify --contracts add_example.add_kernel_correctness --kernel 'mut_*' --cases 25 --jobs $j --out m$j \
        >/dev/null 2>&1
    echo "exit $?" >mcert$j.rc
    blank c$j/report.json >cert$j.json
    blank m$j/report.json | sed 's#m[12]/#m/#g' >mcert$j.json
done
check "certify: same report.json for --jobs 1 and 2" same cert1.json cert2.json
check "certify: same exit status" same cert1.rc cert2.rc
check "certify with mutants: same report.json for --jobs 1 and 2" same mcert1.json mcert2.json
check "certify with mutants: exit 1" grep -q 'exit 1' mcert2.rc
check "certify: the report has rows" grep -q '"id":"add_example.add_kernel_correctness"' cert2.json

# selftest: the matrices without the SECONDS column
for j in 1 2; do
    "$T" selftest --contracts 'add_example*' --cases 30 --budget 5 --jobs $j 2>&1 |
        sed -E 's/ [0-9]+\.[0-9]{3} / T /' >st$j.txt
done
check "selftest: same matrices for --jobs 1 and 2" same st1.txt st2.txt
check "selftest: mutants listed" grep -q 'mut_last_program_skipped' st2.txt

for j in 1 2; do
    "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_crash.so" --cases 20 --jobs $j \
        --artifacts crashart$j >crash$j.raw 2>&1
    echo "exit $?" >crash$j.rc
    sed "s#crashart$j/#crashart/#g" crash$j.raw >crash$j.txt
    cat crash$j.rc >>crash$j.txt
    ls crashart$j >crashfiles$j.txt 2>&1
    "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_hang.so" --cases 10 --timeout 1 \
        --jobs $j --artifacts hang$j >hang$j.txt 2>&1
    echo "exit $?" >>hang$j.txt
    sed -i "s#hang$j/#hang/#g" hang$j.txt
    ls hang$j >hangfiles$j.txt 2>&1
done
check "run: a crashing kernel, the same reproducers for --jobs 1 and 2" same crashfiles1.txt crashfiles2.txt
check "run: a crashing kernel, the same exit status for --jobs 1 and 2" same crash1.rc crash2.rc
check "run: a crashing kernel is a finding: exit 1" grep -q '^exit 1$' crash2.rc
check "run: the crash is reported with its case" grep -q 'crash: the process .* during case [0-9]' crash2.raw
check "run: the crash's reproducer is written and its repro command printed" \
    sh -c "grep -q 'repro: .*tilediff repro --kernels .*libtdtest_crash.so crashart2/add_example.add_kernel_correctness\..*\.tdf' crash2.raw && test -s \"\$(ls crashart2/*.tdf | head -1)\""
check "run: the run went on after the crash (all 20 cases counted)" grep -q ': 20 cases' crash2.raw
# under a sanitizer each dying worker writes its own report (pids, addresses) into the
# output; without one the whole output is compared
if ! grep -q '^==[0-9]*==' crash1.raw crash2.raw; then
    check "run: a crashing kernel, the same output for --jobs 1 and 2" same crash1.txt crash2.txt
fi
"$T" repro --kernels "$plugins/libtdtest_crash.so" "$(ls crashart2/*.tdf | head -1)" >crashrepro.txt 2>&1
check "run: the crash's reproducer replays the crash (tilediff repro dies with it)" test $? != 0
check "run: a hanging kernel, the same output for --jobs 1 and 2" same hang1.txt hang2.txt
check "run: the hang is reported once" test "$(grep -c 'hang: the kernel made no progress' hang2.txt)" = 1
check "run: a hang is a finding: exit 1" grep -q '^exit 1$' hang2.txt
check "run: the hang's reproducer is named" grep -q 'repro: .*tilediff repro --kernels .*hang/add_example' hang2.txt
check "run: the same reproducers for --jobs 1 and 2 (the hang's)" same hangfiles1.txt hangfiles2.txt

"$T" run add_example.add_kernel_correctness --jobs 0 >/dev/null 2>&1
check "--jobs 0 is bad usage (exit 2)" test $? = 2
"$T" certify --jobs x >/dev/null 2>&1
check "certify --jobs x is bad usage (exit 2)" test $? = 2

[ $fails = 0 ] && echo "all --jobs checks passed" || echo "$fails --jobs checks failed"
exit $((fails > 0))
