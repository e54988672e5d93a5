/*
 * malloc.c — a deliberately simple allocator for guest programs.
 *
 * Small blocks (up to 64 KB with header) come in power-of-two size classes
 * carved from a heap grown with brk; a freed block goes on its class's free
 * list and is reused as is (no splitting, no coalescing). Bigger blocks get
 * their own anonymous mmap and are unmapped on free. Every block starts with
 * a 16-byte header, so user pointers stay 16-byte aligned:
 *
 *     [ tag | magic ][ user data ... ]
 *
 * tag < CLASS_COUNT is a size class; otherwise it is the mmap length. The
 * magic catches frees of foreign pointers and double frees, which abort.
 * Both system calls are used on purpose: workloads exercise brk and mmap in
 * the emulator.
 */
#include "rt.h"

#define HDR          16
#define CLASS_MIN    16u            /* class 0 block, header included */
#define CLASS_COUNT  13             /* 16 B .. 64 KB */
#define HEAP_STEP    (256u << 10)   /* grow brk at least this much */
#define MAGIC_LIVE   0x6976786d616c6c63ull  /* "ivxmallc" */
#define MAGIC_FREE   0x6976786672656564ull  /* "ivxfreed" */

struct hdr {
	uint64_t tag;
	uint64_t magic;
};

struct free_block {
	struct free_block *next;
};

static struct free_block *free_list[CLASS_COUNT];
static uintptr_t heap_cur, heap_end;  /* carve from [heap_cur, heap_end) */

static int class_of(size_t total)
{
	int c = 0;

	while ((CLASS_MIN << c) < total)
		c++;
	return c;
}

static void *heap_carve(size_t size)
{
	if (!heap_end) {
		heap_cur = ((uintptr_t)sys_brk(0) + 15) & ~(uintptr_t)15;
		heap_end = heap_cur;
	}
	if (heap_cur + size > heap_end) {
		uintptr_t want = (heap_cur + size + HEAP_STEP - 1) & ~(uintptr_t)(HEAP_STEP - 1);
		if ((uintptr_t)sys_brk((void *)want) < want)
			return NULL;
		heap_end = want;
	}
	void *p = (void *)heap_cur;
	heap_cur += size;
	return p;
}

void *malloc(size_t n)
{
	struct hdr *h;

	if (n > ((size_t)1 << 40))
		return NULL;
	size_t total = n + HDR;
	if (total <= (CLASS_MIN << (CLASS_COUNT - 1))) {
		int c = class_of(total);
		if (free_list[c]) {
			h = (struct hdr *)free_list[c];
			free_list[c] = free_list[c]->next;
		} else {
			h = heap_carve(CLASS_MIN << c);
			if (!h)
				return NULL;
		}
		h->tag = (uint64_t)c;
	} else {
		size_t len = (total + 4095) & ~(size_t)4095;
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (MMAP_FAILED(p))
			return NULL;
		h = p;
		h->tag = len;
	}
	h->magic = MAGIC_LIVE;
	return h + 1;
}

static struct hdr *header_of(void *p, const char *who)
{
	struct hdr *h = (struct hdr *)p - 1;

	if (h->magic != MAGIC_LIVE) {
		dprintf(2, "%s: bad or freed pointer\n", who);
		abort();
	}
	return h;
}

static size_t capacity(const struct hdr *h)
{
	return (h->tag < CLASS_COUNT ? (size_t)CLASS_MIN << h->tag : h->tag) - HDR;
}

void free(void *p)
{
	if (!p)
		return;
	struct hdr *h = header_of(p, "free");
	h->magic = MAGIC_FREE;
	uint64_t tag = h->tag;
	if (tag < CLASS_COUNT) {
		struct free_block *b = (struct free_block *)h;
		/* the link overwrites tag, not magic, so double frees are caught;
		 * malloc rewrites tag when it hands the block out again */
		b->next = free_list[tag];
		free_list[tag] = b;
	} else {
		munmap(h, tag);
	}
}

void *calloc(size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	void *p = malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	if (!n) {
		free(p);
		return NULL;
	}
	size_t cap = capacity(header_of(p, "realloc"));
	if (n <= cap)
		return p;
	void *q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, cap);
	free(p);
	return q;
}
