/*
 * symtab_recover.c — function extents of a stripped ELF (see
 * symtab_recover.h): FDEs first, then call targets in the gaps they leave.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "ehframe.h"
#include "symtab_recover.h"

struct extents {
	struct fn_extent *v;
	size_t n, cap;
	int oom;
};

static void push(struct extents *e, uint64_t start, uint64_t size)
{
	if (e->oom)
		return;
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 256;
		struct fn_extent *v = ivx_realloc(e->v, cap * sizeof *v);
		if (!v) {
			e->oom = 1;
			return;
		}
		e->v = v, e->cap = cap;
	}
	e->v[e->n++] = (struct fn_extent){ start, size };
}

static void push_fde(void *ctx, uint64_t start, uint64_t size)
{
	push(ctx, start, size);
}

static int by_start(const void *a, const void *b)
{
	const struct fn_extent *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Index of the first extent starting after addr (v sorted by start). */
static size_t first_after(const struct fn_extent *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is addr inside one of the n extents of v (sorted, not overlapping)? */
static int covered(const struct fn_extent *v, size_t n, uint64_t addr)
{
	size_t i = first_after(v, n, addr);
	return i > 0 && addr - v[i - 1].start < v[i - 1].size;
}

struct code_section {
	const uint8_t *bytes;
	uint64_t addr, size;
};

/* The executable sections with contents; NULL with *n 0 when none, -1 out
 * of memory. */
static int code_sections(Elf *elf, struct code_section **out, size_t *n)
{
	*out = NULL, *n = 0;
	Elf_Scn *scn = NULL;
	size_t cap = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf || d->d_size < 4)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			struct code_section *v = ivx_realloc(*out, cap * sizeof *v);
			if (!v)
				return -1;
			*out = v;
		}
		(*out)[(*n)++] = (struct code_section){ d->d_buf, sh.sh_addr, d->d_size };
	}
	return 0;
}

static const struct code_section *section_of(const struct code_section *cs, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (addr - cs[i].addr < cs[i].size)
			return &cs[i];
	return NULL;
}

/* The targets of BL instructions (and the entry point) that lie in code and
 * outside every FDE, sorted and without repeats, appended to *targets. */
static void call_targets(const struct code_section *cs, size_t ncs, uint64_t entry,
                         const struct fn_extent *fdes, size_t nfde, struct extents *targets)
{
	if (section_of(cs, ncs, entry) && !covered(fdes, nfde, entry))
		push(targets, entry, 0);
	for (size_t s = 0; s < ncs; s++) {
		for (uint64_t off = 0; off + 4 <= cs[s].size; off += 4) {
			const uint8_t *b = cs[s].bytes + off;
			uint32_t word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
			if ((word & 0xfc000000u) != 0x94000000u)        /* BL imm26 */
				continue;
			int64_t delta = (int64_t)((uint64_t)(word & 0x03ffffffu) << 38) >> 36;
			uint64_t target = cs[s].addr + off + (uint64_t)delta;
			if (section_of(cs, ncs, target) && !covered(fdes, nfde, target))
				push(targets, target, 0);
		}
	}
	if (targets->n > 1)
		qsort(targets->v, targets->n, sizeof *targets->v, by_start);
	size_t kept = 0;
	for (size_t i = 0; i < targets->n; i++)
		if (kept == 0 || targets->v[kept - 1].start != targets->v[i].start)
			targets->v[kept++] = targets->v[i];
	targets->n = kept;
}

static const Elf_Data *eh_frame(Elf *elf, uint64_t *addr)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(name, ".eh_frame") != 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		*addr = sh.sh_addr;
		return d && d->d_buf ? d : NULL;
	}
	return NULL;
}

long symtab_recover_functions(Elf *elf, struct fn_extent **out)
{
	struct extents fdes = { 0 }, targets = { 0 };
	struct code_section *cs = NULL;
	size_t ncs = 0;
	*out = NULL;
	uint64_t eh_addr = 0;
	const Elf_Data *eh = eh_frame(elf, &eh_addr);
	if (eh)
		ehframe_each_fde(eh->d_buf, eh->d_size, eh_addr, push_fde, &fdes);
	if (fdes.n > 1)
		qsort(fdes.v, fdes.n, sizeof *fdes.v, by_start);
	GElf_Ehdr eh_hdr;
	uint64_t entry = gelf_getehdr(elf, &eh_hdr) ? eh_hdr.e_entry : 0;
	if (fdes.oom || code_sections(elf, &cs, &ncs) < 0)
		goto oom;
	call_targets(cs, ncs, entry, fdes.v, fdes.n, &targets);
	if (targets.oom)
		goto oom;
	/* a call target's function ends at the next FDE or call target, or at
	 * the end of its section */
	size_t nfde = fdes.n;   /* the call targets go after them */
	for (size_t i = 0; i < targets.n; i++) {
		uint64_t start = targets.v[i].start;
		const struct code_section *sec = section_of(cs, ncs, start);
		uint64_t end = sec->addr + sec->size;
		size_t f = first_after(fdes.v, nfde, start);
		if (f < nfde && fdes.v[f].start < end)
			end = fdes.v[f].start;
		if (i + 1 < targets.n && targets.v[i + 1].start < end)
			end = targets.v[i + 1].start;
		push(&fdes, start, end - start);
	}
	if (fdes.oom)
		goto oom;
	ivx_free(targets.v);
	ivx_free(cs);
	if (fdes.n > 1)
		qsort(fdes.v, fdes.n, sizeof *fdes.v, by_start);
	*out = fdes.v;
	return (long)fdes.n;
oom:
	ivx_free(fdes.v);
	ivx_free(targets.v);
	ivx_free(cs);
	return -1;
}
