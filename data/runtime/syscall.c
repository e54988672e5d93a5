/*
 * syscall.c — thin wrappers around SVC #0 with Linux AArch64 numbers.
 *
 * Arguments go in x0..x5, the number in x8, the result comes back in x0
 * (negative errno on failure). Each wrapper is a real function, not an
 * inline, so a profile of a workload shows who made the call.
 */
#include "rt.h"

static long sc6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}

long read(int fd, void *buf, size_t n)
{
	return sc6(SYS_read, fd, (long)buf, (long)n, 0, 0, 0);
}

long write(int fd, const void *buf, size_t n)
{
	return sc6(SYS_write, fd, (long)buf, (long)n, 0, 0, 0);
}

void sys_exit(int code)
{
	for (;;)
		sc6(SYS_exit, code, 0, 0, 0, 0, 0);
}

void exit_group(int code)
{
	for (;;)
		sc6(SYS_exit_group, code, 0, 0, 0, 0, 0);
}

long sys_brk(void *addr)
{
	return sc6(SYS_brk, (long)addr, 0, 0, 0, 0, 0);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	return (void *)sc6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, off);
}

long munmap(void *addr, size_t len)
{
	return sc6(SYS_munmap, (long)addr, (long)len, 0, 0, 0, 0);
}

long clock_gettime(int clk, struct timespec *ts)
{
	return sc6(SYS_clock_gettime, clk, (long)ts, 0, 0, 0, 0);
}

long getrandom(void *buf, size_t n, unsigned flags)
{
	return sc6(SYS_getrandom, (long)buf, (long)n, flags, 0, 0, 0);
}
