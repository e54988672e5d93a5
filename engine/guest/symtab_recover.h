/*
 * symtab_recover.h — where the functions of a stripped ELF are (private to
 * symtab.c).
 *
 * Debian ships its programs stripped. What such a file still says about its
 * functions: the frame description entries of .eh_frame (ehframe.h), one
 * per function compiled with unwind tables, with exact extents; and its BL
 * instructions, whose targets are function entries, which covers code built
 * without unwind tables (busybox is). A call target no FDE covers starts a
 * function that ends where the next known one starts, or its section ends.
 */
#ifndef IVX_SYMTAB_RECOVER_H
#define IVX_SYMTAB_RECOVER_H

#include <libelf.h>
#include <stdint.h>

struct fn_extent {
	uint64_t start, size;
};

/* The recovered functions sorted by start, in *out (ivx_free it); returns
 * how many (0: none, *out NULL), or -1 when out of memory. */
long symtab_recover_functions(Elf *elf, struct fn_extent **out);

#endif
