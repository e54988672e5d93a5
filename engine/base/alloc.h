/*
 * alloc.h — the engine's allocator, and a way for tests to make it fail.
 *
 * Every allocation in engine/ goes through these functions (heap blocks,
 * and, through ivx_alloc_refuse, the guest memory's host mappings and
 * capstone's buffers), so a test can make the Nth request fail and check
 * that each failure ends in an error code and message, with nothing
 * leaked and no crash: the walk SQLite's test_malloc.c does over its
 * allocator. Outside tests nothing is armed and these are the C library's
 * functions plus one counter increment.
 *
 * The failure point and the request counter are process-wide, not hanging
 * off a handle as the rest of the engine's state does. That is acceptable
 * here because:
 *   - the only writer of the failure point is a test, between simulations;
 *     production code never arms it, so its results cannot depend on it;
 *   - the engine allocates when objects are created, snapshots taken and
 *     tables grown, never per cycle, so counting is off every hot path;
 *   - the counters are atomic, so refstack's worker threads, which share
 *     them, are safe; a walk is only deterministic (request N is the same
 *     request in every run) in single-threaded code, which is where the
 *     tests arm it;
 *   - a handle cannot do this job: the requests to fail include those that
 *     create the handles themselves.
 */
#ifndef IVX_ALLOC_H
#define IVX_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *ivx_malloc(size_t n);
void *ivx_calloc(size_t n, size_t size);
void *ivx_realloc(void *p, size_t n);          /* on failure p is untouched */
void *ivx_aligned_alloc(size_t align, size_t n);   /* n rounded up to align */
char *ivx_strdup(const char *s);
void ivx_free(void *p);                        /* ivx_free(NULL) is a no-op */

/* For memory the engine obtains some other way (mmap): counts one request
 * and returns 1 if the caller must treat it as failed. */
int ivx_alloc_refuse(void);

/* ---- tests only ---------------------------------------------------------- */

/* Make the nth request from now fail (only that one; 1 = the next), and
 * restart the count; 0 disarms. */
void ivx_alloc_fail_at(uint64_t n);
/* Requests since the last ivx_alloc_fail_at. */
uint64_t ivx_alloc_count(void);
/* 1 once the armed request has failed. */
int ivx_alloc_failed(void);

#endif
