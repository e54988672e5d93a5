/*
 * rt.h — the ivx guest runtime: a small freestanding C library for the
 * AArch64 Linux programs in data/workloads.
 *
 * Why our own: the guests must be static ET_EXEC binaries that touch only
 * the handful of system calls ivx emulates, contain no FP/SIMD instructions
 * (ivx models the A64 integer ISA only) and rebuild byte for byte. glibc
 * gives none of that, so the runtime is a few hundred lines we control:
 *
 *   crt0.S    _start: argc/argv/envp from the initial stack -> __rt_start
 *   start.c   __rt_start: calls main, flushes stdout, exit_group(ret)
 *   syscall.c one wrapper per system call (SVC #0, Linux AArch64 numbers)
 *   stdio.c   printf family over a buffered stdout, unbuffered stderr
 *   malloc.c  power-of-two size classes on brk, big blocks on mmap
 *   string.c  mem* and str* functions (GCC itself may call memcpy/memset)
 *   stdlib.c  atoi/strtol/strtoul, exit, abort, the scale argument helper
 *
 * System call wrappers return what the kernel returns: a negative errno on
 * failure. There is no errno variable and no FILE: stdout/stderr are file
 * descriptors 1 and 2. Everything is single threaded.
 *
 * Determinism rule for workloads: output depends only on argv. Never print
 * or hash a pointer (brk and mmap addresses differ between qemu and ivx),
 * never read the clock or getrandom; use struct rt_rng.
 */
#ifndef IVX_RT_H
#define IVX_RT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define RT_NORETURN __attribute__((noreturn))
#define RT_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---- system calls (syscall.c) ------------------------------------------ */

#define SYS_read          63
#define SYS_write         64
#define SYS_exit          93
#define SYS_exit_group    94
#define SYS_clock_gettime 113
#define SYS_brk           214
#define SYS_munmap        215
#define SYS_mmap          222
#define SYS_getrandom     278

#define PROT_READ     1
#define PROT_WRITE    2
#define MAP_PRIVATE   0x02
#define MAP_ANONYMOUS 0x20
#define CLOCK_MONOTONIC 1

struct timespec {
	long tv_sec;
	long tv_nsec;
};

long read(int fd, void *buf, size_t n);
long write(int fd, const void *buf, size_t n);
RT_NORETURN void sys_exit(int code);       /* this thread only */
RT_NORETURN void exit_group(int code);     /* the process, no stdout flush */
long sys_brk(void *addr);                  /* raw brk: returns the new break */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
long munmap(void *addr, size_t len);
long clock_gettime(int clk, struct timespec *ts);
long getrandom(void *buf, size_t n, unsigned flags);

/* mmap's failure value is a small negative number cast to a pointer. */
#define MMAP_FAILED(p) ((uintptr_t)(p) > (uintptr_t)-4096)

/* ---- stdio (stdio.c) ---------------------------------------------------- */

/* Conversions: %d %i %u %x %X %o %s %c %p %%; flags - 0 + space; width and
 * precision as digits or *; length hh h l ll z j t. No floating point. */
int printf(const char *fmt, ...) RT_PRINTF(1, 2);
int vprintf(const char *fmt, va_list ap);
int dprintf(int fd, const char *fmt, ...) RT_PRINTF(2, 3);
int snprintf(char *buf, size_t size, const char *fmt, ...) RT_PRINTF(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int puts(const char *s);
int putchar(int c);
/* Write out buffered stdout; exit() and returning from main do it too. */
void rt_flush(void);

/* ---- memory (malloc.c) -------------------------------------------------- */

void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

/* ---- strings (string.c) ------------------------------------------------- */

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);

/* Workloads are built with -ffreestanding, which turns off GCC's builtin
 * knowledge of these functions. Route them back through the builtins so a
 * memcpy of 8 constant bytes becomes one load/store pair, as in ordinary
 * code; anything else still calls the functions above. string.c defines
 * RT_NO_BUILTINS to get the plain names. */
#ifndef RT_NO_BUILTINS
#define memcpy(d, s, n)  __builtin_memcpy(d, s, n)
#define memmove(d, s, n) __builtin_memmove(d, s, n)
#define memset(d, c, n)  __builtin_memset(d, c, n)
#define memcmp(a, b, n)  __builtin_memcmp(a, b, n)
#define strlen(s)        __builtin_strlen(s)
#endif

/* ---- stdlib (stdlib.c) -------------------------------------------------- */

int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
RT_NORETURN void exit(int code);           /* flush stdout, exit_group */
RT_NORETURN void abort(void);              /* message on stderr, exit 134 */

/* The workload convention: argv[1], when present, is a positive integer
 * scale; otherwise `dflt`. Anything else prints a usage line naming argv[0]
 * and exits with status 2. */
unsigned long rt_arg_scale(int argc, char **argv, unsigned long dflt);

/* Stop with a message and exit status 3 if `cond` is false. Used by
 * workloads to check their own results (a sorted array is sorted, ...). */
#define rt_check(cond, what) \
	do { if (!(cond)) rt_check_failed(what, __LINE__); } while (0)
RT_NORETURN void rt_check_failed(const char *what, int line);

/* ---- deterministic pseudo-random numbers -------------------------------- */

/* xorshift64* : tiny, good enough for data generation, same everywhere. */
struct rt_rng {
	uint64_t s;  /* never zero */
};

static inline void rt_rng_seed(struct rt_rng *r, uint64_t seed)
{
	/* splitmix64 finaliser so small seeds give unrelated streams */
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	r->s = z ? z : 1;
}

static inline uint64_t rt_rng_next(struct rt_rng *r)
{
	uint64_t x = r->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n) for n > 0 (modulo bias is irrelevant here). */
static inline uint64_t rt_rng_below(struct rt_rng *r, uint64_t n)
{
	return (rt_rng_next(r) >> 11) % n;
}

/* Fold one value into a running checksum (FNV-1a style, 64-bit words). */
static inline uint64_t rt_mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

#define RT_CHECKSUM_INIT 0xcbf29ce484222325ull

#endif
