/*
 * abi_real.c — guest ABI corners a glibc program reaches, one per
 * argv[1]; built with aarch64-linux-gnu-gcc -static by
 * tests/realprog-isa.sh, which compares each case with qemu-aarch64 or,
 * where ivx deliberately stops the run, checks its one-line message.
 *
 * Compared with qemu (same stdout, status 0):
 *   futex       FUTEX_WAIT with a timeout and sem_timedwait: ETIMEDOUT
 *   cache       __builtin___clear_cache (CTR_EL0, DC CVAU, IC IVAU, DSB,
 *               ISB) and sysconf's L1 line size (a power of two; ivx's
 *               and qemu's machines differ in the value)
 *   tpidrro     mrs TPIDRRO_EL0: 0
 *   pac         Armv8.3 pointer authentication, as ivx runs it (keys
 *               disabled) and qemu (keys enabled) agree when nothing
 *               prints a signed pointer: sign then authenticate gives the
 *               pointer back, XPACI of a plain pointer is itself,
 *               BLRAAZ/BRAA/RETAA branch; built with -march=armv8.3-a
 *               -mbranch-protection=standard, tests/guests/isa_real.c too
 *   excl        a system call between LDXR and STXR clears the exclusive
 *               monitor (the kernel's ERET does): the STXR fails
 * Checked against the machine ivx was given (qemu's CPU has its own):
 *   ctr         mrs CTR_EL0: its value, the line sizes it gives (IminLine,
 *               DminLine, CWG, ERG) and glibc's sysconf of the L1 line,
 *               which follow --config / -o (0x8444c004, 64 bytes each, on
 *               the default machine)
 * Checked against Linux's answer (qemu checks the whole buffer first and
 * returns EFAULT having written nothing):
 *   readpart    read, pread and readv of the --stdin file into a buffer
 *               whose tail is read-only return the bytes copied before
 *               the fault, and the offset moves by as much
 * Stopped by ivx (status 2, one line):
 *   smc         mprotect(RWX) of its own code: self-modifying code
 *   noexec      its code made PROT_READ, then called: a fetch fault
 *               (qemu: SIGSEGV)
 *   jit         mprotect(PROT_EXEC) of an mmap: generated code
 *   cntvctss    mrs CNTVCTSS_EL0 (FEAT_ECV, not advertised): unsupported
 *               (qemu: SIGILL)
 */
#include <errno.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define PAGE 4096ul

__attribute__((noinline, aligned(4096))) int patchme(void) { __asm__ volatile(""); return 1; }
/* alone has a page of its own (fence starts the next one): making it
 * non-executable does not stop main */
__attribute__((noinline, aligned(4096))) int alone(void) { __asm__ volatile(""); return 7; }
__attribute__((noinline, aligned(4096))) int fence(void) { __asm__ volatile(""); return 0; }
int (*volatile fp_patch)(void) = patchme, (*volatile fp_alone)(void) = alone, (*volatile fp_fence)(void) = fence;

static int futex_case(void)
{
	int word = 0;
	struct timespec rel = { 0, 1000000 };
	long r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &rel, 0, 0);
	printf("futex wait 1ms: %ld errno %d\n", r, r ? errno : 0);
	word = 1;
	r = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &rel, 0, 0);
	printf("futex wait, word changed: %ld errno %d\n", r, r ? errno : 0);
	sem_t s;
	sem_init(&s, 0, 0);
	struct timespec abs;
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec += 1000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	int q = sem_timedwait(&s, &abs);
	printf("sem_timedwait: %d errno %d\n", q, q ? errno : 0);
	return 0;
}

static char cache_buf[256];

static int cache_case(void)
{
	__builtin___clear_cache(cache_buf, cache_buf + sizeof cache_buf);
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	printf("clear_cache ok; L1 line a power of two >= 16: %d\n", line >= 16 && !(line & (line - 1)));
	__asm__ volatile("dsb ish\n isb" ::: "memory");
	return 0;
}

static int ctr_case(void)
{
	uint64_t ctr;
	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	/* fields are log2 of 4-byte words */
	printf("ctr_el0 0x%llx: IminLine %u DminLine %u ERG %u CWG %u bytes; sysconf L1 D line %ld\n",
	       (unsigned long long)ctr, 4u << (ctr & 15), 4u << (ctr >> 16 & 15), 4u << (ctr >> 20 & 15),
	       4u << (ctr >> 24 & 15), sysconf(_SC_LEVEL1_DCACHE_LINESIZE));
	return 0;
}

__attribute__((noinline)) static int seven(void) { return 7; }

static int pac_case(void)
{
	uint64_t p = (uint64_t)(uintptr_t)seven, q = p, mod = 0x1234, r;
	__asm__ volatile(".arch armv8.3-a\n pacia %0, %1\n autia %0, %1" : "+r"(q) : "r"(mod));
	printf("pacia then autia: %s\n", q == p ? "the pointer" : "changed");
	q = p;
	__asm__ volatile(".arch armv8.3-a\n paciza %0\n autiza %0" : "+r"(q));
	printf("paciza then autiza: %s\n", q == p ? "the pointer" : "changed");
	q = p;
	__asm__ volatile(".arch armv8.3-a\n xpaci %0" : "+r"(q));
	printf("xpaci of a plain pointer: %s\n", q == p ? "the pointer" : "changed");
	q = p;
	__asm__ volatile(".arch armv8.3-a\n paciza %1\n blraaz %1\n mov %w0, w0"
			 : "=r"(r), "+r"(q) : : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",
			   "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x30", "memory");
	printf("blraaz: %d\n", (int)r);
	return 0;
}

static int readpart_case(void)
{
	char *p = mmap(0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(p + PAGE, PAGE, PROT_READ);
	char *head = p + PAGE - 6;
	long r = read(0, head, 100);
	printf("read %ld [%.6s] offset %ld\n", r, head, (long)lseek(0, 0, SEEK_CUR));
	r = pread(0, p + PAGE - 3, 100, 0);
	printf("pread %ld [%.3s] offset %ld\n", r, p + PAGE - 3, (long)lseek(0, 0, SEEK_CUR));
	char a[2];
	struct iovec iov[2] = { { a, 2 }, { p + PAGE - 1, 10 } };
	r = readv(0, iov, 2);
	printf("readv %ld [%.2s%c] offset %ld\n", r, a, p[PAGE - 1], (long)lseek(0, 0, SEEK_CUR));
	errno = 0;
	r = read(0, p + PAGE, 10);
	printf("read into the read-only page %ld errno %d offset %ld\n", r, errno, (long)lseek(0, 0, SEEK_CUR));
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (!strcmp(what, "futex"))
		return futex_case();
	if (!strcmp(what, "pac"))
		return pac_case();
	if (!strcmp(what, "readpart"))
		return readpart_case();
	if (!strcmp(what, "cache"))
		return cache_case();
	if (!strcmp(what, "ctr"))
		return ctr_case();
	if (!strcmp(what, "tpidrro")) {
		uint64_t v = 1;
		__asm__ volatile("mrs %0, tpidrro_el0" : "=r"(v));
		printf("tpidrro_el0 %llu\n", (unsigned long long)v);
		return 0;
	}
	if (!strcmp(what, "excl")) {
		static uint64_t word __attribute__((aligned(16))) = 5;
		uint64_t v;
		uint32_t f;
		__asm__ volatile("ldxr %0, [%2]\n mov x8, #172\n svc #0\n stxr %w1, %0, [%2]"
				 : "=&r"(v), "=&r"(f) : "r"(&word) : "x0", "x8", "memory");
		printf("stxr after svc: status %u\n", f);
		__asm__ volatile("ldxr %0, [%2]\n stxr %w1, %0, [%2]" : "=&r"(v), "=&r"(f) : "r"(&word) : "memory");
		printf("stxr alone: status %u\n", f);
		return 0;
	}
	if (!strcmp(what, "smc")) {
		uint32_t *p = (uint32_t *)patchme;
		if (mprotect((void *)((uintptr_t)p & ~(PAGE - 1)), PAGE, PROT_READ | PROT_WRITE | PROT_EXEC))
			return 9;
		p[0] = 0x52800540;   /* mov w0, #42 */
		p[1] = 0xd65f03c0;   /* ret */
		__builtin___clear_cache((char *)p, (char *)(p + 2));
		printf("%d\n", fp_patch());
		return 0;
	}
	if (!strcmp(what, "noexec")) {
		int r = mprotect((void *)((uintptr_t)alone & ~(PAGE - 1)), PAGE, PROT_READ);
		printf("mprotect %d\n", r);
		fflush(stdout);
		printf("alone() = %d (should have faulted)\n", fp_alone());
		return fp_fence();
	}
	if (!strcmp(what, "reexec")) {
		void *page = (void *)((uintptr_t)alone & ~(PAGE - 1));
		int r = mprotect(page, PAGE, PROT_READ);
		r |= mprotect(page, PAGE, PROT_READ | PROT_EXEC);
		printf("mprotect %d, alone() = %d\n", r, fp_alone());
		return 0;
	}
	if (!strcmp(what, "jit")) {
		uint32_t *p = mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p[0] = 0x52800540;
		p[1] = 0xd65f03c0;
		printf("mprotect %d\n", mprotect(p, PAGE, PROT_READ | PROT_EXEC));
		__builtin___clear_cache((char *)p, (char *)(p + 2));
		printf("%d\n", ((int (*)(void))p)());
		return 0;
	}
	if (!strcmp(what, "cntvctss")) {
		uint64_t v;
		__asm__ volatile("mrs %0, s3_3_c14_c0_6" : "=r"(v));
		printf("%llu\n", (unsigned long long)(v != 0));
		return 0;
	}
	fprintf(stderr, "abi_real: unknown case '%s'\n", what);
	return 1;
}
