/*
 * mem.h — guest memory: a sparse 64-bit address space made of regions.
 *
 * Each region (an ELF segment, the stack, the brk heap, an anonymous mmap) is
 * one host buffer with R/W/X permissions. Loads and stores go through a small
 * direct-mapped software TLB of page -> host pointer (one for reads, one for
 * writes), so the common case is a tag compare and a memcpy; everything else
 * (TLB refill, permission checks, accesses that cross a page, faults) is the
 * slow path in mem.c.
 *
 * Speculative (wrong-path) mode: while `mem_spec_begin` is in force, stores
 * go to a small overlay instead of memory and loads see memory with the
 * overlay on top, so a wrong path can run real loads and stores without ever
 * changing architected memory. `mem_spec_end` throws the overlay away. While
 * speculating, the fast paths look at a table that never matches (switching
 * is one pointer, so a misprediction costs no TLB flush) and refills are
 * suppressed, so every access takes the slow path through the overlay.
 *
 * The fields below are visible only so the fast paths can be inlined; use
 * the functions.
 */
#ifndef IVX_MEM_H
#define IVX_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "base/err.h"

#define MEM_PAGE_BITS  12
#define MEM_PAGE_SIZE  (1ull << MEM_PAGE_BITS)
#define MEM_TLB_SIZE   8192
#define MEM_SPEC_SLOTS 1024

enum { MEM_R = 1, MEM_W = 2, MEM_X = 4 };

struct mem_tlb_entry {
	uint64_t page;        /* guest page number, or UINT64_MAX when empty */
	uintptr_t addend;     /* host pointer = addend + guest address */
};

/* A region that is both writable and executable holds code the program
 * decoded once at load: guest stores and checked copies into it fail, so a
 * write can never leave stale decoded instructions behind (see
 * mem_writable). */
struct mem_region {
	uint64_t base;        /* page aligned */
	uint64_t size;        /* page multiple */
	uint8_t *host;        /* size bytes */
	int prot;             /* MEM_R | MEM_W | MEM_X */
	char name[16];        /* "text", "stack", "heap", "mmap", ... */
};

struct mem_spec_slot {
	uint64_t addr8;       /* 8-byte aligned address, or UINT64_MAX when empty */
	uint64_t data;        /* overlay bytes */
	uint8_t valid;        /* bit i: byte i of data is valid */
};

struct mem {
	struct mem_tlb_entry *rtlb;  /* active read TLB: tlb_store, or never_tlb while speculating */
	struct mem_tlb_entry *wtlb;  /* active write TLB: tlb_store + MEM_TLB_SIZE, or never_tlb */
	struct mem_tlb_entry *tlb_store;   /* 2 * MEM_TLB_SIZE entries: read TLB, write TLB */
	struct mem_tlb_entry *never_tlb;   /* MEM_TLB_SIZE entries that never match */
	struct mem_region *regions;  /* sorted by base, non-overlapping */
	int n_regions, cap_regions;
	uint64_t mapped_bytes;       /* sum of region sizes */
	uint64_t copied_bytes;       /* region bytes the last mem_copy into it wrote */
	uint64_t mapped_limit;       /* refuse maps beyond this */
	int spec;                    /* speculative mode in force */
	int spec_used;               /* overlay slots in use */
	struct mem_spec_slot *spec_slots;  /* MEM_SPEC_SLOTS entries */
};

struct mem *mem_new(void);
void mem_free(struct mem *m);

/* Map [base, base+size) with `prot`, zero filled. Fails if it overlaps an
 * existing region or exceeds the mapped-memory limit. */
int mem_map(struct mem *m, uint64_t base, uint64_t size, int prot,
	    const char *name, struct ivx_err *err);
/* Unmap whole pages in [base, base+size); regions are split as needed. */
int mem_unmap(struct mem *m, uint64_t base, uint64_t size, struct ivx_err *err);
/* Grow or shrink the region that starts at `base` to `new_size` bytes. */
int mem_resize(struct mem *m, uint64_t base, uint64_t new_size, struct ivx_err *err);

/* May guest stores go to a region of permissions `prot`? W, and not X:
 * executable memory is the program's decoded code. */
static inline int mem_writable(int prot)
{
	return (prot & (MEM_W | MEM_X)) == MEM_W;
}

/* The region containing addr, or NULL. */
const struct mem_region *mem_find(const struct mem *m, uint64_t addr);
/* Is [addr, addr+len) free of any mapping? */
int mem_range_free(const struct mem *m, uint64_t addr, uint64_t len);

/* Byte copies for the loader and system calls. With check_prot, a missing
 * permission fails like a guest access would; without, only unmapped
 * addresses fail. Return 0, or -1 with *bad_addr set. */
int mem_read_bytes(struct mem *m, uint64_t addr, void *dst, size_t n, int check_prot, uint64_t *bad_addr);
int mem_write_bytes(struct mem *m, uint64_t addr, const void *src, size_t n, int check_prot, uint64_t *bad_addr);

void mem_spec_begin(struct mem *m);
void mem_spec_end(struct mem *m);

void mem_flush_tlb(struct mem *m);

/* Make `dst` an exact copy of `src` (regions, contents, overlay). A region
 * that dst has with the same bounds is copied over in place; any other gets
 * a fresh buffer into which only the pages of src that are not all zero
 * are copied: the rest stay untouched zero pages that take no host memory
 * and no page faults (a guest's stack is mostly such pages), which is what
 * makes snapshots cheap. dst->copied_bytes says how much was written. */
int mem_copy(struct mem *dst, const struct mem *src, struct ivx_err *err);
/* Unmap everything (before a mem_copy that should make fresh buffers). */
void mem_unmap_all(struct mem *m);
/* Host bytes a memory object takes besides its regions (TLBs, overlay). */
size_t mem_fixed_bytes(void);

/* Slow paths: return 0 or -1 (fault). */
int mem_load_slow(struct mem *m, uint64_t addr, unsigned size, uint64_t *val);
int mem_store_slow(struct mem *m, uint64_t addr, unsigned size, uint64_t val);

/* The TLB-hit halves of mem_load/mem_store: 0 on a hit, -1 when the slow
 * path is needed. They make no call, so an exec handler that uses them and
 * tail-calls a slow twin on a miss needs no stack frame. */
static inline int mem_load_hit(struct mem *m, uint64_t addr, unsigned size, uint64_t *val)
{
	uint64_t page = addr >> MEM_PAGE_BITS;
	const struct mem_tlb_entry *e = &m->rtlb[page & (MEM_TLB_SIZE - 1)];
	if (__builtin_expect(e->page == page && (addr & (MEM_PAGE_SIZE - 1)) + size <= MEM_PAGE_SIZE, 1)) {
		uint64_t v = 0;
		memcpy(&v, (const void *)(e->addend + (uintptr_t)addr), size);
		*val = v;
		return 0;
	}
	return -1;
}

static inline int mem_store_hit(struct mem *m, uint64_t addr, unsigned size, uint64_t val)
{
	uint64_t page = addr >> MEM_PAGE_BITS;
	const struct mem_tlb_entry *e = &m->wtlb[page & (MEM_TLB_SIZE - 1)];
	if (__builtin_expect(e->page == page && (addr & (MEM_PAGE_SIZE - 1)) + size <= MEM_PAGE_SIZE, 1)) {
		memcpy((void *)(e->addend + (uintptr_t)addr), &val, size);
		return 0;
	}
	return -1;
}

/* Load `size` (1, 2, 4 or 8) bytes, zero-extended. 0 on success, -1 on fault. */
static inline int mem_load(struct mem *m, uint64_t addr, unsigned size, uint64_t *val)
{
	if (__builtin_expect(mem_load_hit(m, addr, size, val) == 0, 1))
		return 0;
	return mem_load_slow(m, addr, size, val);
}

/* Store the low `size` bytes of val. 0 on success, -1 on fault. */
static inline int mem_store(struct mem *m, uint64_t addr, unsigned size, uint64_t val)
{
	if (__builtin_expect(mem_store_hit(m, addr, size, val) == 0, 1))
		return 0;
	return mem_store_slow(m, addr, size, val);
}

#endif
