/*
 * raw_syscall.h — a system call made directly (SVC #0, Linux AArch64
 * numbers, up to four arguments), for the guest test programs that call
 * what the runtime (data/runtime/rt.h) has no wrapper for. The runtime
 * stays as it is: the shipped workloads are linked from it.
 */
#ifndef IVX_TESTS_RAW_SYSCALL_H
#define IVX_TESTS_RAW_SYSCALL_H

static long sc(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
}

#endif
