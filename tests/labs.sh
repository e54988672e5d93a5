#!/bin/sh
# labs.sh IVX [--update] [docs/labs/FILE.md...] — the labs in docs/labs/
# run as written: every transcript in them (```console blocks: `$ `
# shell commands and `(ivx) ` explorer commands with what they print) is
# run and compared with the text (tests/tools/labcheck.py says how).
# --update rewrites the transcripts' outputs instead (review the diff, and
# the prose and tables around them).
cd "$(dirname "$0")/.." || exit 2
IVX=${1:-build/ivx}
[ $# -gt 0 ] && shift
exec python3 tests/tools/labcheck.py "$IVX" "$@"
