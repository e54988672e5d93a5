#!/bin/sh
# check-elf.sh ELF... — fail unless each guest ELF is what ivx can run:
# a static AArch64 ET_EXEC with no interpreter or dynamic section, and no
# instruction naming an FP/SIMD register (b/h/s/d/q/v0-31) or FPCR/FPSR.
# Run by data/data.mk after every link, and by tests/data-repro.sh.
OBJDUMP=${DATA_OBJDUMP:-aarch64-linux-gnu-objdump}
READELF=${DATA_READELF:-aarch64-linux-gnu-readelf}
status=0
for f in "$@"; do
    hdr=$("$READELF" -h "$f") || { status=1; continue; }
    echo "$hdr" | grep -q 'Type:[[:space:]]*EXEC' ||
        { echo "check-elf: $f: not ET_EXEC" >&2; status=1; }
    echo "$hdr" | grep -q 'Machine:[[:space:]]*AArch64' ||
        { echo "check-elf: $f: not AArch64" >&2; status=1; }
    if "$READELF" -l "$f" | grep -Eq '^[[:space:]]*(INTERP|DYNAMIC)'; then
        echo "check-elf: $f: not static (INTERP/DYNAMIC segment)" >&2; status=1
    fi
    # Operand field only: drop symbol references <...> and // comments, then
    # look for a register token. Data words show up as ".word", never match.
    bad=$("$OBJDUMP" -d --no-show-raw-insn "$f" |
        awk -F'\t' '/^ *[0-9a-f]+:\t/ { ops = $3; sub(/[ \t]*\/\/.*/, "", ops);
                    gsub(/<[^>]*>/, "", ops); print $2 "\t" ops }' |
        grep -Ei '(^|[^a-z0-9_.])([bhsdqv]([0-9]|[12][0-9]|3[01])|fpcr|fpsr)([^a-z0-9_]|$)' |
        head -n 3)
    if [ -n "$bad" ]; then
        echo "check-elf: $f: uses FP/SIMD registers, e.g.:" >&2
        echo "$bad" | sed 's/^/    /' >&2
        status=1
    fi
done
exit $status
