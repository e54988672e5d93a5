/*
 * mem.c — guest memory regions, the software TLB's slow paths, and the
 * speculative overlay (see mem.h for the model).
 *
 * Regions are kept sorted by base address in a small array: guests have a
 * handful of them (segments, stack, heap, a few mmaps), so a binary search on
 * a TLB miss is plenty. The TLB is refilled only for accesses that stay
 * inside one page and one region, and never while speculating.
 */
#define _GNU_SOURCE   /* mremap */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/alloc.h"
#include "mem.h"

/* Region buffers are anonymous host mappings: fresh zero pages that cost
 * no memory and no page fault until written. (A calloc that the C library
 * serves from its heap clears every page: megabytes of mostly untouched
 * stack, at every snapshot.) Sizes are page multiples. */
static uint8_t *region_alloc(uint64_t size)
{
	if (ivx_alloc_refuse())
		return NULL;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void region_free(uint8_t *p, uint64_t size)
{
	if (p)
		munmap(p, size);
}

/* Grown pages read as zero. */
static uint8_t *region_resize(uint8_t *p, uint64_t old_size, uint64_t new_size)
{
	if (ivx_alloc_refuse())
		return NULL;
	void *q = mremap(p, old_size, new_size, MREMAP_MAYMOVE);
	return q == MAP_FAILED ? NULL : q;
}

#define EMPTY_PAGE UINT64_MAX
/* Indices of the overlay slots in use, in order of first use, kept after
 * the slots in the same allocation so mem_spec_end clears only those. */
#define SPEC_USED_LIST(m) ((uint16_t *)((m)->spec_slots + MEM_SPEC_SLOTS))
#define DEFAULT_LIMIT (4ull << 30)   /* 4 GiB of guest memory at most */

struct mem *mem_new(void)
{
	struct mem *m = ivx_calloc(1, sizeof *m);
	if (!m)
		return NULL;
	/* the slots, then the indices of the used ones (SPEC_USED_LIST) */
	m->spec_slots = ivx_malloc(MEM_SPEC_SLOTS * (sizeof *m->spec_slots + sizeof(uint16_t)));
	m->tlb_store = ivx_malloc(2 * MEM_TLB_SIZE * sizeof *m->tlb_store);
	m->never_tlb = ivx_malloc(MEM_TLB_SIZE * sizeof *m->never_tlb);
	if (!m->spec_slots || !m->tlb_store || !m->never_tlb) {
		mem_free(m);
		return NULL;
	}
	for (int i = 0; i < MEM_TLB_SIZE; i++)
		m->never_tlb[i].page = EMPTY_PAGE;
	m->rtlb = m->tlb_store;
	m->wtlb = m->tlb_store + MEM_TLB_SIZE;
	for (int i = 0; i < MEM_SPEC_SLOTS; i++)
		m->spec_slots[i].addr8 = EMPTY_PAGE;
	m->mapped_limit = DEFAULT_LIMIT;
	mem_flush_tlb(m);
	return m;
}

void mem_free(struct mem *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n_regions; i++)   /* (mem_new may have failed half way) */
		region_free(m->regions[i].host, m->regions[i].size);
	ivx_free(m->regions);
	ivx_free(m->spec_slots);
	ivx_free(m->tlb_store);
	ivx_free(m->never_tlb);
	ivx_free(m);
}

void mem_flush_tlb(struct mem *m)
{
	for (int i = 0; i < 2 * MEM_TLB_SIZE; i++)
		m->tlb_store[i].page = EMPTY_PAGE;
}

/* Index of the region containing addr, or -1. */
static int find_index(const struct mem *m, uint64_t addr)
{
	int lo = 0, hi = m->n_regions - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const struct mem_region *r = &m->regions[mid];
		if (addr < r->base)
			hi = mid - 1;
		else if (addr - r->base >= r->size)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

const struct mem_region *mem_find(const struct mem *m, uint64_t addr)
{
	int i = find_index(m, addr);
	return i < 0 ? NULL : &m->regions[i];
}

int mem_range_free(const struct mem *m, uint64_t addr, uint64_t len)
{
	if (len == 0 || addr + len < addr)
		return len == 0;
	for (int i = 0; i < m->n_regions; i++) {
		const struct mem_region *r = &m->regions[i];
		if (addr < r->base + r->size && r->base < addr + len)
			return 0;
	}
	return 1;
}

/* Room for one more region. */
static int reserve_region(struct mem *m, struct ivx_err *err)
{
	if (m->n_regions == m->cap_regions) {
		int cap = m->cap_regions ? m->cap_regions * 2 : 16;
		struct mem_region *r = ivx_realloc(m->regions, cap * sizeof *r);
		if (!r)
			return ivx_error(err, IVX_ESYS, "out of host memory for guest regions");
		m->regions = r;
		m->cap_regions = cap;
	}
	return IVX_OK;
}

static int insert_region(struct mem *m, const struct mem_region *nr, struct ivx_err *err)
{
	if (reserve_region(m, err) < 0)
		return err ? err->code : IVX_ESYS;
	int at = 0;
	while (at < m->n_regions && m->regions[at].base < nr->base)
		at++;
	memmove(&m->regions[at + 1], &m->regions[at], (m->n_regions - at) * sizeof *nr);
	m->regions[at] = *nr;
	m->n_regions++;
	return IVX_OK;
}

int mem_map(struct mem *m, uint64_t base, uint64_t size, int prot,
	    const char *name, struct ivx_err *err)
{
	if ((base | size) & (MEM_PAGE_SIZE - 1) || size == 0 || base + size < base)
		return ivx_error(err, IVX_EINPUT, "bad mapping [0x%llx, +0x%llx)",
				 (unsigned long long)base, (unsigned long long)size);
	if (size > m->mapped_limit || m->mapped_bytes + size > m->mapped_limit)
		return ivx_error(err, IVX_EINPUT, "mapping 0x%llx bytes at 0x%llx exceeds the %llu MiB guest memory limit",
				 (unsigned long long)size, (unsigned long long)base,
				 (unsigned long long)(m->mapped_limit >> 20));
	if (!mem_range_free(m, base, size))
		return ivx_error(err, IVX_EINPUT, "mapping at 0x%llx overlaps an existing region",
				 (unsigned long long)base);
	struct mem_region r = { .base = base, .size = size, .prot = prot };
	r.host = region_alloc(size);
	if (!r.host)
		return ivx_error(err, IVX_ESYS, "out of host memory mapping 0x%llx bytes",
				 (unsigned long long)size);
	snprintf(r.name, sizeof r.name, "%s", name ? name : "");
	if (insert_region(m, &r, err) < 0) {
		region_free(r.host, size);
		return err ? err->code : IVX_ESYS;
	}
	m->mapped_bytes += size;
	mem_flush_tlb(m);
	return IVX_OK;
}

int mem_unmap(struct mem *m, uint64_t base, uint64_t size, struct ivx_err *err)
{
	if ((base | size) & (MEM_PAGE_SIZE - 1) || base + size < base)
		return ivx_error(err, IVX_EUSAGE, "unaligned unmap");
	uint64_t end = base + size;
	for (int i = 0; i < m->n_regions; i++) {
		struct mem_region *r = &m->regions[i];
		uint64_t rend = r->base + r->size;
		if (end <= r->base || rend <= base)
			continue;
		uint64_t cut_lo = base > r->base ? base : r->base;
		uint64_t cut_hi = end < rend ? end : rend;
		if (cut_lo == r->base && cut_hi == rend) {         /* whole region */
			region_free(r->host, r->size);
			m->mapped_bytes -= r->size;
			memmove(r, r + 1, (m->n_regions - i - 1) * sizeof *r);
			m->n_regions--;
			i--;
		} else if (cut_lo == r->base) {                    /* head */
			uint64_t keep = rend - cut_hi;
			uint8_t *h = region_alloc(keep);
			if (!h)
				return ivx_error(err, IVX_ESYS, "out of host memory");
			memcpy(h, r->host + (cut_hi - r->base), keep);
			region_free(r->host, r->size);
			m->mapped_bytes -= r->size - keep;
			r->host = h, r->base = cut_hi, r->size = keep;
		} else if (cut_hi == rend) {                       /* tail */
			m->mapped_bytes -= rend - cut_lo;
			region_free(r->host + (cut_lo - r->base), rend - cut_lo);
			r->size = cut_lo - r->base;                /* keep the rest */
		} else {                                           /* middle: split */
			/* (room for the tail first: nothing changes on failure) */
			if (reserve_region(m, err) < 0)
				return err ? err->code : IVX_ESYS;
			r = &m->regions[i];
			struct mem_region tail = *r;
			tail.base = cut_hi;
			tail.size = rend - cut_hi;
			tail.host = region_alloc(tail.size);
			if (!tail.host)
				return ivx_error(err, IVX_ESYS, "out of host memory");
			memcpy(tail.host, r->host + (cut_hi - r->base), tail.size);
			m->mapped_bytes -= cut_hi - cut_lo;
			region_free(r->host + (cut_lo - r->base), rend - cut_lo);
			r->size = cut_lo - r->base;
			insert_region(m, &tail, err);   /* cannot fail: room reserved */
		}
	}
	mem_flush_tlb(m);
	return IVX_OK;
}

int mem_resize(struct mem *m, uint64_t base, uint64_t new_size, struct ivx_err *err)
{
	int i = find_index(m, base);
	if (i < 0 || m->regions[i].base != base || (new_size & (MEM_PAGE_SIZE - 1)))
		return ivx_error(err, IVX_EUSAGE, "no region starts at 0x%llx", (unsigned long long)base);
	struct mem_region *r = &m->regions[i];
	if (new_size > r->size) {
		if (!mem_range_free(m, base + r->size, new_size - r->size))
			return ivx_error(err, IVX_EGUEST, "region at 0x%llx cannot grow", (unsigned long long)base);
		if (m->mapped_bytes + (new_size - r->size) > m->mapped_limit)
			return ivx_error(err, IVX_EGUEST, "guest memory limit reached");
	}
	if (new_size == 0)
		return mem_unmap(m, base, r->size, err);
	uint8_t *h = region_resize(r->host, r->size, new_size);
	if (!h)
		return ivx_error(err, IVX_ESYS, "out of host memory");
	m->mapped_bytes = m->mapped_bytes - r->size + new_size;
	r->host = h;
	r->size = new_size;
	mem_flush_tlb(m);
	return IVX_OK;
}

/* ---- byte copies ------------------------------------------------------ */

static int copy_bytes(struct mem *m, uint64_t addr, uint8_t *buf, size_t n,
		      int check_prot, uint64_t *bad_addr, int to_guest)
{
	while (n > 0) {
		int i = find_index(m, addr);
		int ok = i >= 0 && (to_guest ? mem_writable(m->regions[i].prot) : (m->regions[i].prot & MEM_R));
		if (!ok && (i < 0 || check_prot)) {
			if (bad_addr)
				*bad_addr = addr;
			return -1;
		}
		struct mem_region *r = &m->regions[i];
		uint64_t off = addr - r->base;
		size_t chunk = r->size - off < n ? (size_t)(r->size - off) : n;
		if (to_guest)
			memcpy(r->host + off, buf, chunk);
		else
			memcpy(buf, r->host + off, chunk);
		addr += chunk, buf += chunk, n -= chunk;
	}
	return 0;
}

int mem_read_bytes(struct mem *m, uint64_t addr, void *dst, size_t n, int check_prot, uint64_t *bad_addr)
{
	return copy_bytes(m, addr, dst, n, check_prot, bad_addr, 0);
}

int mem_write_bytes(struct mem *m, uint64_t addr, const void *src, size_t n, int check_prot, uint64_t *bad_addr)
{
	return copy_bytes(m, addr, (uint8_t *)src, n, check_prot, bad_addr, 1);
}

/* ---- speculative overlay --------------------------------------------- */

static struct mem_spec_slot *spec_slot(struct mem *m, uint64_t addr8, int create)
{
	uint32_t h = (uint32_t)((addr8 >> 3) * 0x9e3779b97f4a7c15ull >> 40) & (MEM_SPEC_SLOTS - 1);
	for (int probe = 0; probe < MEM_SPEC_SLOTS; probe++) {
		struct mem_spec_slot *s = &m->spec_slots[(h + probe) & (MEM_SPEC_SLOTS - 1)];
		if (s->addr8 == addr8)
			return s;
		if (s->addr8 == EMPTY_PAGE) {
			if (!create || m->spec_used >= MEM_SPEC_SLOTS * 3 / 4)
				return NULL;
			s->addr8 = addr8;
			s->data = 0;
			s->valid = 0;
			SPEC_USED_LIST(m)[m->spec_used++] = (uint16_t)(s - m->spec_slots);
			return s;
		}
	}
	return NULL;
}

void mem_spec_begin(struct mem *m)
{
	m->spec = 1;
	m->rtlb = m->wtlb = m->never_tlb;
}

void mem_spec_end(struct mem *m)
{
	for (int i = 0; i < m->spec_used; i++)
		m->spec_slots[SPEC_USED_LIST(m)[i]].addr8 = EMPTY_PAGE;
	m->spec_used = 0;
	m->spec = 0;
	m->rtlb = m->tlb_store;
	m->wtlb = m->tlb_store + MEM_TLB_SIZE;
}

/* ---- slow paths ------------------------------------------------------- */

static void tlb_fill(struct mem_tlb_entry *tlb, const struct mem_region *r, uint64_t addr)
{
	uint64_t page = addr >> MEM_PAGE_BITS;
	struct mem_tlb_entry *e = &tlb[page & (MEM_TLB_SIZE - 1)];
	e->page = page;
	e->addend = (uintptr_t)r->host - (uintptr_t)r->base;
}

/* One byte with permission `need` (MEM_R, or MEM_W as mem_writable
 * means it); -1 if unmapped or not permitted. */
static int byte_at(struct mem *m, uint64_t addr, int need, uint8_t **p)
{
	int i = find_index(m, addr);
	if (i < 0 || !(need == MEM_W ? mem_writable(m->regions[i].prot) : (m->regions[i].prot & need)))
		return -1;
	*p = m->regions[i].host + (addr - m->regions[i].base);
	return 0;
}

int mem_load_slow(struct mem *m, uint64_t addr, unsigned size, uint64_t *val)
{
	int i = find_index(m, addr);
	uint64_t v = 0;
	if (i >= 0 && (m->regions[i].prot & MEM_R) && addr - m->regions[i].base + size <= m->regions[i].size) {
		const struct mem_region *r = &m->regions[i];
		memcpy(&v, r->host + (addr - r->base), size);
		if (!m->spec && (addr & (MEM_PAGE_SIZE - 1)) + size <= MEM_PAGE_SIZE)
			tlb_fill(m->tlb_store, r, addr);
	} else {
		for (unsigned b = 0; b < size; b++) {    /* spans regions, or faults */
			uint8_t *p;
			if (byte_at(m, addr + b, MEM_R, &p) < 0)
				return -1;
			v |= (uint64_t)*p << (8 * b);
		}
	}
	if (m->spec && m->spec_used) {
		for (unsigned b = 0; b < size; b++) {
			uint64_t a = addr + b;
			struct mem_spec_slot *s = spec_slot(m, a & ~7ull, 0);
			if (s && (s->valid >> (a & 7) & 1)) {
				uint64_t byte = s->data >> (8 * (a & 7)) & 0xff;
				v = (v & ~(0xffull << (8 * b))) | byte << (8 * b);
			}
		}
	}
	*val = v;
	return 0;
}

int mem_store_slow(struct mem *m, uint64_t addr, unsigned size, uint64_t val)
{
	/* Check every byte first so a faulting store changes nothing. */
	int i = find_index(m, addr);
	int whole = i >= 0 && mem_writable(m->regions[i].prot) &&
		    addr - m->regions[i].base + size <= m->regions[i].size;
	if (!whole)
		for (unsigned b = 0; b < size; b++) {
			uint8_t *p;
			if (byte_at(m, addr + b, MEM_W, &p) < 0)
				return -1;
		}
	if (m->spec) {
		for (unsigned b = 0; b < size; b++) {
			uint64_t a = addr + b;
			struct mem_spec_slot *s = spec_slot(m, a & ~7ull, 1);
			if (!s)
				return -1;     /* overlay full: the wrong path stops here */
			unsigned sh = 8 * (a & 7);
			s->data = (s->data & ~(0xffull << sh)) | ((val >> (8 * b)) & 0xff) << sh;
			s->valid |= 1u << (a & 7);
		}
		return 0;
	}
	if (whole) {
		const struct mem_region *r = &m->regions[i];
		memcpy(r->host + (addr - r->base), &val, size);
		if ((addr & (MEM_PAGE_SIZE - 1)) + size <= MEM_PAGE_SIZE)
			tlb_fill(m->tlb_store + MEM_TLB_SIZE, r, addr);
		return 0;
	}
	for (unsigned b = 0; b < size; b++) {
		uint8_t *p = NULL;
		if (byte_at(m, addr + b, MEM_W, &p) == 0)   /* checked above */
			*p = (uint8_t)(val >> (8 * b));
	}
	return 0;
}

/* ---- copies (snapshots) ----------------------------------------------- */

static const uint8_t zero_page[MEM_PAGE_SIZE];

/* Pagemap entries: the page is in memory, or in swap. A page of a private
 * anonymous mapping that is neither was never written: it reads as zero. */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_SWAPPED (1ull << 62)
#define PAGEMAP_BATCH 512

/* Read the pagemap entries of n pages from p on; 0 if unknown. */
static int backing(int pagemap, const uint8_t *p, uint64_t n, uint64_t *entry)
{
	off_t at = (off_t)((uintptr_t)p / MEM_PAGE_SIZE * sizeof entry[0]);
	return pagemap >= 0 && pread(pagemap, entry, n * sizeof entry[0], at) == (ssize_t)(n * sizeof entry[0]);
}

#define BACKED(e) (((e) & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED)) != 0)

/*
 * Copy region buffer src over dst, page by page, reading neither a page
 * the host never backed (reading one makes the host map it: a page fault
 * each, over megabytes of untouched stack) nor writing a zero page where
 * dst already reads zero. `fresh`: dst is all zero (a new buffer), so only
 * the pages of src that are not all zero are written, and a copy takes no
 * more host memory than the guest has used. The host's page map
 * (`pagemap`, -1 if unreadable: every page is then read) says which pages
 * are backed. Returns the bytes written.
 */
static uint64_t copy_pages(uint8_t *dst, const uint8_t *src, uint64_t size, int fresh, int pagemap)
{
	uint64_t written = 0, pages = size / MEM_PAGE_SIZE;
	uint64_t se[PAGEMAP_BATCH], de[PAGEMAP_BATCH];
	for (uint64_t first = 0; first < pages; first += PAGEMAP_BATCH) {
		uint64_t n = pages - first < PAGEMAP_BATCH ? pages - first : PAGEMAP_BATCH;
		uint8_t *d = dst + first * MEM_PAGE_SIZE;
		const uint8_t *sp = src + first * MEM_PAGE_SIZE;
		int src_known = backing(pagemap, sp, n, se);
		int dst_known = !fresh && backing(pagemap, d, n, de);
		for (uint64_t k = 0; k < n; k++, d += MEM_PAGE_SIZE, sp += MEM_PAGE_SIZE) {
			int src_zero = src_known && !BACKED(se[k]);
			if (fresh) {
				if (!src_zero && memcmp(sp, zero_page, MEM_PAGE_SIZE) != 0) {
					memcpy(d, sp, MEM_PAGE_SIZE);
					written += MEM_PAGE_SIZE;
				}
			} else if (!src_zero) {
				memcpy(d, sp, MEM_PAGE_SIZE);
				written += MEM_PAGE_SIZE;
			} else if (!dst_known || BACKED(de[k])) {
				memset(d, 0, MEM_PAGE_SIZE);
			}
		}
	}
	return written;
}

size_t mem_fixed_bytes(void)
{
	return sizeof(struct mem) + 3 * MEM_TLB_SIZE * sizeof(struct mem_tlb_entry) +
	       MEM_SPEC_SLOTS * (sizeof(struct mem_spec_slot) + sizeof(uint16_t));
}

void mem_unmap_all(struct mem *m)
{
	for (int i = 0; i < m->n_regions; i++)
		region_free(m->regions[i].host, m->regions[i].size);
	m->n_regions = 0;
	m->mapped_bytes = 0;
	mem_flush_tlb(m);
}

int mem_copy(struct mem *dst, const struct mem *src, struct ivx_err *err)
{
	/* Everything that can fail comes first, so a failure leaves dst as
	 * it was: the region array and a fresh buffer for each region dst
	 * has no same-sized buffer for. Only then are dst's buffers taken
	 * over and the pages copied. */
	struct mem_region *regs = NULL;
	if (src->n_regions && !(regs = ivx_calloc(src->n_regions, sizeof *regs)))
		return ivx_error(err, IVX_ESYS, "out of host memory copying guest memory");
	for (int i = 0; i < src->n_regions; i++) {
		regs[i] = src->regions[i];
		regs[i].host = NULL;
		int j = find_index(dst, src->regions[i].base);
		if (j >= 0 && dst->regions[j].base == regs[i].base && dst->regions[j].size == regs[i].size &&
		    dst->regions[j].host)
			continue;
		if (!(regs[i].host = region_alloc(regs[i].size))) {
			for (int k = 0; k < i; k++)
				region_free(regs[k].host, regs[k].size);
			ivx_free(regs);
			return ivx_error(err, IVX_ESYS, "out of host memory copying guest memory");
		}
	}
	uint64_t copied = 0;
	int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	for (int i = 0; i < src->n_regions; i++) {
		int fresh = regs[i].host != NULL;
		if (!fresh) {   /* reuse dst's buffer of the same region and size */
			int j = find_index(dst, src->regions[i].base);
			regs[i].host = dst->regions[j].host;
			dst->regions[j].host = NULL;
		}
		copied += copy_pages(regs[i].host, src->regions[i].host, regs[i].size, fresh, pagemap);
	}
	if (pagemap >= 0)
		close(pagemap);
	for (int i = 0; i < dst->n_regions; i++)
		region_free(dst->regions[i].host, dst->regions[i].size);
	ivx_free(dst->regions);
	dst->regions = regs;
	dst->n_regions = dst->cap_regions = src->n_regions;
	dst->mapped_bytes = src->mapped_bytes;
	dst->copied_bytes = copied;
	dst->mapped_limit = src->mapped_limit;
	dst->spec = src->spec;
	dst->spec_used = src->spec_used;
	memcpy(dst->spec_slots, src->spec_slots, MEM_SPEC_SLOTS * (sizeof *src->spec_slots + sizeof(uint16_t)));
	mem_flush_tlb(dst);
	dst->rtlb = dst->spec ? dst->never_tlb : dst->tlb_store;
	dst->wtlb = dst->spec ? dst->never_tlb : dst->tlb_store + MEM_TLB_SIZE;
	return IVX_OK;
}
