#!/bin/sh
# icount.sh ELF [ARGS...] — count the guest instructions a program executes,
# using qemu-aarch64's translation and execution logs (no plugins needed).
#
# -d in_asm prints each translated block with its instructions once; -d exec
# with nochain logs every block execution (host block address). Summing the
# block sizes over executions gives the dynamic instruction count. Slow
# (~10-20 s per 100 M instructions) but exact for straight-line blocks;
# a block left early by a fault would be over-counted, which our programs
# never do. Prints "instructions N" on stderr after the program's output.
[ $# -ge 1 ] || { echo "usage: $0 ELF [ARGS...]" >&2; exit 2; }
exec 3>&1
qemu-aarch64 -d in_asm,exec,nochain -D /dev/fd/4 "$@" 4>&1 >&3 3>&- |
awk '/^IN:/ { inblk = 1; n = 0; next }
     inblk && /^0x[0-9a-f]+:/ { n++; next }
     /^Trace / { if (inblk) { size[$3] = n; inblk = 0 } total += size[$3] }
     END { printf "instructions %d\n", total > "/dev/stderr" }'
