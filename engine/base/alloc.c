/* alloc.c — the engine's allocator with a test-armed failure point (see alloc.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

static _Atomic uint64_t requests;   /* since the last ivx_alloc_fail_at */
static _Atomic uint64_t fail_at;    /* 0 = never */
static _Atomic int failed;

int ivx_alloc_refuse(void)
{
	uint64_t n = atomic_fetch_add_explicit(&requests, 1, memory_order_relaxed) + 1;
	if (__builtin_expect(n != atomic_load_explicit(&fail_at, memory_order_relaxed), 1))
		return 0;
	atomic_store_explicit(&failed, 1, memory_order_relaxed);
	return 1;
}

void *ivx_malloc(size_t n)
{
	return ivx_alloc_refuse() ? NULL : malloc(n);
}

void *ivx_calloc(size_t n, size_t size)
{
	return ivx_alloc_refuse() ? NULL : calloc(n, size);
}

void *ivx_realloc(void *p, size_t n)
{
	return ivx_alloc_refuse() ? NULL : realloc(p, n);
}

void *ivx_aligned_alloc(size_t align, size_t n)
{
	/* C11 wants a multiple of the alignment */
	return ivx_alloc_refuse() ? NULL : aligned_alloc(align, (n + align - 1) / align * align);
}

char *ivx_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = ivx_malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}

void ivx_free(void *p)
{
	free(p);
}

void ivx_alloc_fail_at(uint64_t n)
{
	atomic_store_explicit(&fail_at, 0, memory_order_relaxed);
	atomic_store_explicit(&requests, 0, memory_order_relaxed);
	atomic_store_explicit(&failed, 0, memory_order_relaxed);
	atomic_store_explicit(&fail_at, n, memory_order_relaxed);
}

uint64_t ivx_alloc_count(void)
{
	return atomic_load_explicit(&requests, memory_order_relaxed);
}

int ivx_alloc_failed(void)
{
	return atomic_load_explicit(&failed, memory_order_relaxed);
}
