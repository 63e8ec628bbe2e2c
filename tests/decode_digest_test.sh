#!/usr/bin/env bash
# Every build decodes the same bytes to the same cases: the digests of what fixed
# inputs decode to (tilediff digest) must equal the committed ones, whatever the
# compiler (CI runs this under gcc and under clang).  A reproducer or a corpus file is
# only worth keeping if it means the same case everywhere.  After a deliberate change
# to a generator: tilediff digest > tests/decode-digests.txt, and regenerate the
# corpora (tilediff corpus-seed / corpus-regress).
# Usage: decode_digest_test.sh SOURCE_DIR PATH/TO/tilediff
set -u
src=$1 td=$2
want=$src/tests/decode-digests.txt
got=$(mktemp)
trap 'rm -f "$got"' EXIT
"$td" digest >"$got" || { echo "FAIL: tilediff digest exited $?"; exit 1; }
if diff -u "$want" "$got" >/dev/null; then
  echo "ok: $(wc -l <"$got") contracts decode as committed"
  exit 0
fi
echo "FAIL: these contracts decode fixed inputs differently from tests/decode-digests.txt:"
diff "$want" "$got" | grep '^[<>]' | sed 's/^/  /'
exit 1
