/*
 * ehframe.h — function extents from an ELF's .eh_frame section.
 *
 * A stripped binary (every Debian package ships its programs stripped) has
 * no symbol table, but it keeps .eh_frame, the unwind tables a C++ throw or
 * a backtrace needs: one frame description entry (FDE) per function, with
 * the function's first address and length. symtab.c turns them into
 * functions named sub_ADDR so profiles, disassembly and error messages can
 * still say which function an address is in.
 */
#ifndef IVX_EHFRAME_H
#define IVX_EHFRAME_H

#include <stddef.h>
#include <stdint.h>

typedef void ehframe_fde_fn(void *ctx, uint64_t start, uint64_t size);

/* Call fn for every FDE of the .eh_frame section sec[0..len), which the
 * program sees at address vaddr (pc-relative pointers are relative to it).
 * FDEs of discarded code (start or length 0) are skipped. Stops quietly at
 * the terminator, the section's end or the first malformed or unsupported
 * record; returns how many times fn was called. */
size_t ehframe_each_fde(const uint8_t *sec, size_t len, uint64_t vaddr,
                        ehframe_fde_fn *fn, void *ctx);

#endif
