#!/bin/sh
# make-inputs.sh DIR SCALE — the inputs of the real-program cases
# (data/real/cases), made here rather than downloaded:
#
#   text.txt          SCALE lines of pseudo-random English-like words (awk,
#                     fixed seed: the same bytes on every machine)
#   text.txt.gz/.bz2  text.txt compressed by the built gzip/bzip2 under
#                     qemu-aarch64 (decompression cases)
#   bench.lua         data/real/bench.lua.in with N = 10 * SCALE
#   bench.sql         data/real/bench.sql.in with N = 10 * SCALE
#   bench.sh          data/real/bench.sh.in with N = SCALE (the shells of
#                     data/real/cases-abi)
#
# BIN (environment) is where the programs are (default data/real/out/bin).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
scale=$2
bin=${BIN:-$here/out/bin}
mkdir -p "$dir" || exit 1
awk -v lines="$scale" 'BEGIN {
    split("the of and to in is that it was for on are as with his they at be this from " \
          "have or by one had not but what all were when we there can an your which their " \
          "time cycle miss cache branch interval window penalty dispatch commit", w, " ")
    n = 0; for (k in w) n++
    x = 12345
    for (l = 1; l <= lines; l++) {
        len = 6 + l % 9; line = ""
        for (j = 0; j < len; j++) {
            x = (x * 75 + 74) % 65537      # small enough to be exact in any awk
            line = line (j ? " " : "") w[1 + x % n]
        }
        print l ": " line "."
    }
}' > "$dir/text.txt" || exit 1
n=$((scale * 10))
sed "s/@N@/$n/g" "$here/bench.lua.in" > "$dir/bench.lua" || exit 1
sed "s/@N@/$n/g" "$here/bench.sql.in" > "$dir/bench.sql" || exit 1
sed "s/@N@/$scale/g" "$here/bench.sh.in" > "$dir/bench.sh" || exit 1
if [ -x "$bin/gzip" ]; then
    qemu-aarch64 "$bin/gzip" -n -c "$dir/text.txt" > "$dir/text.txt.gz" || exit 1
fi
if [ -x "$bin/bzip2" ]; then
    qemu-aarch64 "$bin/bzip2" -c "$dir/text.txt" > "$dir/text.txt.bz2" || exit 1
fi
exit 0
