#!/bin/sh
# run-units.sh BIN... — run each cmocka unit-test binary, report totals.
pass=0 fail=0
for t in "$@"; do
    if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t" >&2; fi
done
echo "unit test binaries: $pass passed, $fail failed"
[ "$fail" = 0 ]
