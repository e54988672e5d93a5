#!/bin/sh
# data-repro.sh — are the committed guest ELFs exactly what the sources and
# data/data.mk produce?
#
# Rebuilds everything `make data` builds into a temporary directory (same
# rules, only DATA_OUT/DATA_OBJ differ), checks both trees hold the same
# files, and cmp's each pair. Fails naming the first difference; for the
# MANIFEST (text, and it records the compiler version) it shows the diff.
# Byte-for-byte equality needs the same toolchain as the committed build
# (see the "# compiler:" line of data/bin/MANIFEST).
cd "$(dirname "$0")/.." || exit 1
CC=${DATA_CC:-aarch64-linux-gnu-gcc}
if ! command -v "$CC" > /dev/null 2>&1; then
    echo "data-repro: FAIL: $CC not found (apt-get install gcc-aarch64-linux-gnu)"
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# A make started from a make recipe inherits MAKEFLAGS (jobserver fds it
# cannot use); start clean.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! make --no-print-directory -s -j2 data DATA_OUT="$tmp/bin" DATA_OBJ="$tmp/obj" \
        > "$tmp/log" 2>&1; then
    cat "$tmp/log"
    echo "data-repro: FAIL: rebuilding data/bin failed"
    exit 1
fi

export LC_ALL=C
(cd data/bin && find . -type f | sort) > "$tmp/committed"
(cd "$tmp/bin" && find . -type f | sort) > "$tmp/rebuilt"
if ! cmp -s "$tmp/committed" "$tmp/rebuilt"; then
    first=$(diff "$tmp/committed" "$tmp/rebuilt" | grep '^[<>]' | head -n 1)
    case $first in
        "<"*) echo "data-repro: FAIL: data/bin/${first#< ./} is committed but not built by make data" ;;
        *)    echo "data-repro: FAIL: make data builds ${first#> ./}, which is not in data/bin" ;;
    esac
    exit 1
fi

n=0
while read -r f; do
    f=${f#./}
    if ! cmp "data/bin/$f" "$tmp/bin/$f" > "$tmp/cmp" 2>&1; then
        echo "data-repro: FAIL: data/bin/$f differs from a fresh build: $(cat "$tmp/cmp")"
        if [ "$f" = MANIFEST ]; then
            diff "data/bin/$f" "$tmp/bin/$f" | sed 's/^/    /'
        fi
        exit 1
    fi
    n=$((n + 1))
done < "$tmp/committed"

# The link rule already ran check-elf.sh on the fresh build; run it on the
# committed files too, in case they were replaced by hand.
if ! data/tools/check-elf.sh $(sed -n 's|^\./\(.*/.*\)|data/bin/\1|p' "$tmp/committed"); then
    echo "data-repro: FAIL: committed ELFs fail data/tools/check-elf.sh"
    exit 1
fi
echo "data-repro: $n files identical to a fresh build"
