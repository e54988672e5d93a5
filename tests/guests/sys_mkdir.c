/*
 * sys_mkdir.c DIR — walk a 4 MB array a page at a time (one L2 D-cache
 * miss each), then make DIR/a and DIR/b; exit 3 if either mkdir fails.
 * tests/guest-syscalls.sh runs it in the explorer and asks `info cost` for
 * the walk's last misses: the runs that measure one must not make the
 * mkdirs (the real run would then find the directories there and fail),
 * and once the real run has made them, a miss before them cannot be
 * measured at all (that needs replaying them).
 */
#include "rt.h"

__attribute__((noinline)) static long mkdir_(const char *path)
{
	register long x8 __asm__("x8") = 34;   /* mkdirat */
	register long x0 __asm__("x0") = -100; /* AT_FDCWD */
	register long x1 __asm__("x1") = (long)path;
	register long x2 __asm__("x2") = 0755;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
}

static volatile char big[4 << 20];

__attribute__((noinline)) static long walk(void)
{
	long sum = 0;
	for (unsigned long i = 0; i < sizeof big; i += 4096)
		sum += big[i];
	return sum;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char a[256], b[256];   /* (made first: the mkdirs follow the walk closely) */
	snprintf(a, sizeof a, "%s/a", argv[1]);
	snprintf(b, sizeof b, "%s/b", argv[1]);
	long sum = walk();
	if (mkdir_(a) < 0 || mkdir_(b) < 0)
		return 3;
	printf("made (%ld)\n", sum);
	return 0;
}
