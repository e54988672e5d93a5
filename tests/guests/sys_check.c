/*
 * sys_check.c — a guest that exercises ivx's system calls and its file
 * sandbox with raw SVCs, and says what it saw, one check per line:
 *
 *   ok NAME                    the call behaved as Linux documents
 *   FAIL NAME: got X, want Y   it did not
 *   info NAME: VALUE           a value the test script checks itself
 *                              (getrandom bytes, /proc/self/exe, ...)
 *
 * Built with the project's runtime (data/runtime) by tests/mk/guest.mk;
 * run by tests/guest-syscalls.sh with the directories it prepares:
 *
 *   argv[1]  "openat2" or "walk": how the sandbox resolves paths, which
 *            decides what a symlink inside a grant gives
 *   /data    a read-only grant holding hello.txt, sub/, link_in -> hello.txt,
 *            link_out -> ../secret.txt, link_abs -> /etc/passwd, loop_a <-> loop_b
 *   /out     a read-write grant, empty
 *   secret.txt lies beside the /data directory on the host, outside it.
 */
#include "rt.h"

static long sc(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
	return x0;
}
#define SC0(n)             sc(n, 0, 0, 0, 0, 0, 0)
#define SC1(n, a)          sc(n, (long)(a), 0, 0, 0, 0, 0)
#define SC2(n, a, b)       sc(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define SC3(n, a, b, c)    sc(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SC4(n, a, b, c, d) sc(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

enum {
	NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25, NR_ioctl = 29, NR_faccessat = 48,
	NR_openat = 56, NR_close = 57, NR_getdents64 = 61, NR_lseek = 62, NR_readv = 65,
	NR_writev = 66, NR_pread64 = 67, NR_readlinkat = 78, NR_newfstatat = 79, NR_fstat = 80,
	NR_set_tid_address = 96, NR_futex = 98, NR_set_robust_list = 99, NR_gettimeofday = 169,
	NR_sched_getaffinity = 123, NR_rt_sigaction = 134, NR_rt_sigprocmask = 135, NR_uname = 160,
	NR_getpid = 172, NR_gettid = 178, NR_mremap = 216, NR_mprotect = 226, NR_madvise = 233,
	NR_prlimit64 = 261, NR_statx = 291, NR_rseq = 293, NR_pipe2 = 59, NR_read = 63,
	NR_write = 64, NR_preadv = 69, NR_ppoll = 73, NR_setpgid = 154, NR_getpgid = 155, NR_getsid = 156, NR_setsid = 157,
};
enum {
	NR_xsetxattr = 5, NR_xgetxattr = 8, NR_xfgetxattr = 10, NR_xlistxattr = 11, NR_xflock = 32,
	NR_xstatfs = 43, NR_xfallocate = 47, NR_xpselect6 = 72, NR_xgetitimer = 102,
	NR_xsetitimer = 103, NR_xtimer_create = 107, NR_xsched_getscheduler = 120,
	NR_xsched_setaffinity = 122, NR_xsetpriority = 140, NR_xgetpriority = 141, NR_xsetgid = 144,
	NR_xsetuid = 146, NR_xgetresuid = 148, NR_xgetgroups = 158, NR_xfadvise64 = 223,
	NR_xmsync = 227, NR_xmlock = 228, NR_xmlockall = 230, NR_xmincore = 232,
	NR_xcopy_file_range = 285, NR_xclose_range = 436, NR_xgetsockname = 204, NR_xgetpeername = 205,
};
#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_DIRECTORY 040000
#define ENOENT 2
#define EBADF 9
#define EEXIST 17
#define ENOTTY 25
#define EACCES 13
#define EROFS 30
#define ENOMEM 12
#define EAGAIN 11
#define ENAMETOOLONG 36
#define ENOSYS 38
#define ELOOP 40
#define ENODATA 61
#define ENOTSUP 95
#define ENOTSOCK 88
#define EPERM 1
#define EINVAL 22
#define ETIMEDOUT 110
#define ESRCH 3

static int fails, oks;

static void check(const char *name, long got, long want)
{
	if (got == want) {
		printf("ok %s\n", name);
		oks++;
	} else {
		printf("FAIL %s: got %ld, want %ld\n", name, got, want);
		fails++;
	}
}

static long open_(const char *p, long flags) { return SC4(NR_openat, AT_FDCWD, p, flags, 0644); }

static long slurp(const char *p, char *buf, long n)
{
	long fd = open_(p, O_RDONLY);
	if (fd < 0)
		return fd;
	long r = read((int)fd, buf, (size_t)n - 1);
	SC1(NR_close, fd);
	if (r >= 0)
		buf[r] = 0;
	return r;
}

static void process_checks(void)
{
	long pid = SC0(NR_getpid);
	check("set_tid_address returns the tid", SC1(NR_set_tid_address, 0), SC0(NR_gettid));
	check("getpid is gettid (one thread)", pid, SC0(NR_gettid));
	check("set_robust_list", SC2(NR_set_robust_list, 0, 24), 0);
	check("rseq is ENOSYS", SC4(NR_rseq, 0, 32, 0, 0), -ENOSYS);

	char u[6][65];
	check("uname", SC1(NR_uname, u), 0);
	check("uname sysname is Linux", strcmp(u[0], "Linux"), 0);
	check("uname machine is aarch64", strcmp(u[4], "aarch64"), 0);

	unsigned long lim[2];
	check("prlimit64 RLIMIT_STACK", SC4(NR_prlimit64, 0, 3, 0, lim), 0);
	check("stack limit is 8 MiB", (long)lim[0], 8l << 20);

	unsigned long mask = 0;
	check("sched_getaffinity size", SC3(NR_sched_getaffinity, 0, 8, &mask), 8);
	check("one CPU", (long)mask, 1);

	/* signals: recorded and handed back, never delivered */
	unsigned long act[4] = { 0x1234, 0x4000000, 0, 0 }, old[4] = { 9, 9, 9, 9 };
	check("rt_sigaction set", SC4(NR_rt_sigaction, 10, act, 0, 8), 0);
	check("rt_sigaction get", SC4(NR_rt_sigaction, 10, 0, old, 8), 0);
	check("rt_sigaction remembers the handler", (long)old[0], 0x1234);
	check("rt_sigaction refuses SIGKILL", SC4(NR_rt_sigaction, 9, act, 0, 8), -22);
	unsigned long set = 1ul << 1, oset = 7;
	check("rt_sigprocmask block", SC4(NR_rt_sigprocmask, 0, &set, 0, 8), 0);
	check("rt_sigprocmask get", SC4(NR_rt_sigprocmask, 0, 0, &oset, 8), 0);
	check("rt_sigprocmask remembers the mask", (long)oset, 2);

	int word = 5;
	check("futex wake", SC3(NR_futex, &word, 1, 1), 0);
	check("futex wait on a changed word", SC4(NR_futex, &word, 0, 4, 0), -EAGAIN);

	check("ioctl TCGETS on stdout is ENOTTY", SC3(NR_ioctl, 1, 0x5401, u), -ENOTTY);
	check("ioctl on a closed fd is EBADF", SC3(NR_ioctl, 40, 0x5401, u), -EBADF);

	unsigned char st[128];
	check("fstat stdout", SC2(NR_fstat, 1, st), 0);
	check("stdout is a pipe", (long)(*(unsigned *)(st + 16) & 0170000), 0010000);
	check("fstat stdin", SC2(NR_fstat, 0, st), 0);
	check("stdin is a regular file of the --stdin size", *(long *)(st + 48), 6);
	char in[16];
	check("read stdin", read(0, in, sizeof in), 6);
	check("stdin bytes", memcmp(in, "input\n", 6), 0);

	long t1[2], t2[2];
	check("gettimeofday", SC2(NR_gettimeofday, t1, 0), 0);
	for (volatile int i = 0; i < 1000; i++)
		;
	check("gettimeofday again", SC2(NR_gettimeofday, t2, 0), 0);
	check("simulated time moves forward", t2[0] * 1000000 + t2[1] > t1[0] * 1000000 + t1[1], 1);

	unsigned char rnd[8];
	check("getrandom", getrandom(rnd, 8, 0), 8);
	printf("info getrandom: %02x%02x%02x%02x%02x%02x%02x%02x\n", rnd[0], rnd[1], rnd[2], rnd[3], rnd[4],
	       rnd[5], rnd[6], rnd[7]);

	char exe[256];
	long n = SC4(NR_readlinkat, AT_FDCWD, "/proc/self/exe", exe, sizeof exe - 1);
	check("readlink /proc/self/exe", n > 0, 1);
	exe[n > 0 ? n : 0] = 0;
	printf("info exe: %s\n", exe);
	char cwd[256];
	check("getcwd", SC2(NR_getcwd, cwd, sizeof cwd) > 0, 1);
	printf("info cwd: %s\n", cwd);
}

/* pipe2: one process writing to itself and reading it back */
static void pipe_checks(void)
{
	unsigned long ign[4] = { 1 /* SIG_IGN */, 0, 0, 0 };
	SC4(NR_rt_sigaction, 13, ign, 0, 8);      /* SIGPIPE, as Linux would send it */
	int fds[2] = { -1, -1 };
	check("pipe2", SC2(NR_pipe2, fds, 0), 0);
	check("pipe2 gives two new descriptors", fds[0] >= 3 && fds[1] == fds[0] + 1, 1);
	check("write to the pipe", SC3(NR_write, fds[1], "hello", 5), 5);
	check("write more", SC3(NR_write, fds[1], ", pipe", 6), 6);
	char buf[32] = { 0 };
	check("read part of it", SC3(NR_read, fds[0], buf, 4), 4);
	check("read the rest", SC3(NR_read, fds[0], buf + 4, sizeof buf - 4), 7);
	check("in order", memcmp(buf, "hello, pipe", 11), 0);
	unsigned char st[128];
	check("fstat a pipe", SC2(NR_fstat, fds[0], st), 0);
	check("a pipe is a FIFO", (long)(*(unsigned *)(st + 16) & 0170000), 0010000);
	check("lseek on a pipe is ESPIPE", SC3(NR_lseek, fds[0], 0, 0), -29);
	check("read from the write end is EBADF", SC3(NR_read, fds[1], buf, 1), -EBADF);
	check("write to the read end is EBADF", SC3(NR_write, fds[0], "x", 1), -EBADF);
	struct { int fd; short events, revents; } pf[4] = {
		{ fds[0], 1 /* POLLIN */, 7 }, { fds[1], 4 /* POLLOUT */, 7 }, { -1, 1, 7 }, { 50, 1, 7 },
	};
	long zero[2] = { 0, 0 };
	check("ppoll: an empty pipe is not readable", SC4(NR_ppoll, pf, 1, zero, 0), 0);
	check("ppoll: ... its revents are 0", pf[0].revents, 0);
	SC3(NR_write, fds[1], "xy", 2);
	check("ppoll: pipe readable, write end writable, a closed fd", SC4(NR_ppoll, pf, 4, zero, 0), 3);
	check("ppoll: POLLIN", pf[0].revents, 1);
	check("ppoll: POLLOUT", pf[1].revents, 4);
	check("ppoll: a negative fd is ignored", pf[2].revents, 0);
	check("ppoll: a closed fd is POLLNVAL", pf[3].revents, 0x20);
	check("ppoll: drain", SC3(NR_read, fds[0], buf, 2), 2);
	long copy = SC1(NR_dup, fds[1]);
	check("dup the write end", copy > fds[1], 1);
	check("close the write end", SC1(NR_close, fds[1]), 0);
	check("write through the copy", SC3(NR_write, copy, "!", 1), 1);
	check("close the copy", SC1(NR_close, copy), 0);
	check("read what the copy wrote", SC3(NR_read, fds[0], buf, sizeof buf), 1);
	check("no writer left: end of file", SC3(NR_read, fds[0], buf, sizeof buf), 0);
	check("close the read end", SC1(NR_close, fds[0]), 0);

	check("pipe2 O_NONBLOCK|O_CLOEXEC", SC2(NR_pipe2, fds, 04000 | 02000000), 0);
	check("an empty non-blocking pipe is EAGAIN", SC3(NR_read, fds[0], buf, 1), -11);
	check("FD_CLOEXEC is set", SC2(NR_fcntl, fds[0], 1), 1);
	check("dup3 over the read end closes it", SC3(NR_dup3, fds[1], fds[0], 0), fds[0]);
	check("no reader left: EPIPE", SC3(NR_write, fds[1], "x", 1), -32);
	SC1(NR_close, fds[0]);
	SC1(NR_close, fds[1]);
	check("pipe2 with unknown flags is EINVAL", SC2(NR_pipe2, fds, 1), -22);

	/* the guest leads its own process group and session */
	long pid = SC0(NR_getpid);
	check("getpgid(0) is the pid", SC1(NR_getpgid, 0), pid);
	check("getpgid(pid)", SC1(NR_getpgid, pid), pid);
	check("getpgid of another process is ESRCH", SC1(NR_getpgid, 4242), -3);
	check("getsid(0) is the pid", SC1(NR_getsid, 0), pid);
	check("setpgid(0, 0)", SC2(NR_setpgid, 0, 0), 0);
	check("setsid of a group leader is EPERM", SC0(NR_setsid), -1);

	/* int arguments are 32 bits: AT_FDCWD with the register's upper half
	 * clear (how klibc passes it) is still AT_FDCWD */
	long fd = SC4(NR_openat, 0xffffff9cl, "/data/hello.txt", O_RDONLY, 0);
	check("openat with a 32-bit AT_FDCWD", fd >= 0, 1);
	check("a descriptor with junk in the upper half", SC3(NR_read, fd | (1l << 32), buf, 5), 5);
	SC1(NR_close, fd);
}

static void memory_checks(void)
{
	char *p = mmap(0, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap anonymous", MMAP_FAILED(p), 0);
	p[4096] = 'x';
	check("mprotect read-only", SC3(NR_mprotect, p + 4096, 4096, PROT_READ), 0);
	check("the protected page keeps its bytes", p[4096], 'x');
	check("mprotect back", SC3(NR_mprotect, p + 4096, 4096, PROT_READ | PROT_WRITE), 0);
	p[4096] = 'y';
	check("writable again", p[4096], 'y');
	check("mprotect of an unmapped range", SC3(NR_mprotect, 0x10000, 4096, PROT_READ), -ENOMEM);
	check("madvise", SC3(NR_madvise, p, 4096, 4), 0);
	p[0] = 'a';
	p[3 * 4096 - 1] = 'z';
	char *q = (char *)SC4(NR_mremap, p, 3 * 4096, 8 * 4096, 1);
	check("mremap grows (may move)", MMAP_FAILED(q), 0);
	check("mremap keeps the contents", q[0] == 'a' && q[4096] == 'y' && q[3 * 4096 - 1] == 'z', 1);
	q[8 * 4096 - 1] = 'e';
	check("mremap of length 0 is EINVAL (it crashed ivx unmapped)",
	      SC4(NR_mremap, 0x7f0000100000, 0, 4096, 1), -EINVAL);
	check("munmap", munmap(q, 8 * 4096), 0);
	/* a MAP_FIXED mapping where the next one would go: later ones go
	 * above it (every later mmap was ENOMEM) */
	char *n1 = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *fx = mmap(n1 + 2 * 4096, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | 0x10 /* MAP_FIXED */, -1, 0);
	check("MAP_FIXED above the last mapping", fx == n1 + 2 * 4096, 1);
	char *n2 = mmap(0, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("an mmap after it", MMAP_FAILED(n2), 0);
	check("...does not overlap it", n2 >= fx + 4 * 4096 || n2 + 65536 <= fx, 1);
	long b = sys_brk(0);
	check("brk grows", sys_brk((void *)(b + 100000)), b + 100000);
	((char *)b)[99999] = 1;
	check("brk shrinks", sys_brk((void *)b), b);
}

/* What opening p gives: fd >= 0 (closed again) is reported as 0. */
static long try_open(const char *p, long flags)
{
	long fd = open_(p, flags);
	if (fd >= 0)
		SC1(NR_close, fd);
	return fd >= 0 ? 0 : fd;
}

static void file_checks(int walk)
{
	char buf[256];
	check("read a granted file", slurp("/data/hello.txt", buf, sizeof buf), 12);
	check("its contents", strcmp(buf, "hello world\n"), 0);
	check("relative to the working directory", slurp("hello.txt", buf, sizeof buf), 12);
	check("dot-dot that stays inside", slurp("/data/sub/../hello.txt", buf, sizeof buf), 12);

	/* escapes: nothing outside a grant exists */
	check("escape: dot-dot above the grant", try_open("/data/../secret.txt", O_RDONLY), -ENOENT);
	check("escape: relative dot-dots", try_open("../../../../../secret.txt", O_RDONLY), -ENOENT);
	check("escape: an absolute host path", try_open("/etc/passwd", O_RDONLY), -ENOENT);
	/* "/" holds the grants: it exists (stat, mkdir -p) but cannot be opened */
	check("escape: the root", try_open("/", O_RDONLY | O_DIRECTORY), -EACCES);
	check("escape: dot-dots through a subdirectory", try_open("/data/sub/../../secret.txt", O_RDONLY), -ENOENT);
	check("escape: a symlink pointing out", try_open("/data/link_out", O_RDONLY), walk ? -ELOOP : -ENOENT);
	check("escape: an absolute symlink", try_open("/data/link_abs", O_RDONLY), walk ? -ELOOP : -ENOENT);
	check("a symlink loop", try_open("/data/loop_a", O_RDONLY), -ELOOP);
	check("a symlink inside the grant", try_open("/data/link_in", O_RDONLY), walk ? -ELOOP : 0);
	static char longp[5000];
	memset(longp, 'a', sizeof longp - 1);
	memcpy(longp, "/data/", 6);
	check("a path longer than PATH_MAX", try_open(longp, O_RDONLY), -ENAMETOOLONG);
	long dfd = SC4(NR_openat, AT_FDCWD, "/data/sub", O_RDONLY | O_DIRECTORY, 0);
	check("open a granted directory", dfd >= 0, 1);
	long r = SC4(NR_openat, dfd, "../../secret.txt", O_RDONLY, 0);
	check("escape: dot-dots from a directory fd", r, -ENOENT);
	r = SC4(NR_openat, dfd, "../hello.txt", O_RDONLY, 0);
	check("a directory fd's relative path inside", r >= 0, 1);
	SC1(NR_close, r);
	SC1(NR_close, dfd);

	/* read-only grant */
	check("no writing under a read-only grant", try_open("/data/hello.txt", O_WRONLY), -EROFS);
	check("no creating under a read-only grant", try_open("/data/new.txt", O_WRONLY | O_CREAT), -EROFS);
	check("no truncating under a read-only grant", try_open("/data/hello.txt", O_RDONLY | O_TRUNC), -EROFS);
	check("O_CREAT of an existing file just opens it", try_open("/data/hello.txt", O_RDONLY | O_CREAT), 0);
	check("faccessat W_OK read-only", SC4(NR_faccessat, AT_FDCWD, "/data/hello.txt", 2, 0), -EROFS);
	check("faccessat R_OK", SC4(NR_faccessat, AT_FDCWD, "/data/hello.txt", 4, 0), 0);
	check("faccessat outside", SC4(NR_faccessat, AT_FDCWD, "/etc/passwd", 0, 0), -ENOENT);

	/* offsets, pread, readv, lseek, stat */
	long fd = open_("/data/hello.txt", O_RDONLY);
	check("open for reading", fd >= 0, 1);
	check("lseek SEEK_END is the size", SC3(NR_lseek, fd, 0, 2), 12);
	check("lseek SEEK_SET", SC3(NR_lseek, fd, 6, 0), 6);
	check("read from the offset", read((int)fd, buf, 5), 5);
	check("...the right bytes", memcmp(buf, "world", 5), 0);
	check("pread ignores the offset", SC4(NR_pread64, fd, buf, 5, 0), 5);
	check("...and reads at its own", memcmp(buf, "hello", 5), 0);
	check("the offset did not move", SC3(NR_lseek, fd, 0, 1), 11);
	check("lseek past the largest offset is EINVAL", SC3(NR_lseek, fd, 0x7fffffffffffffffL, 2), -EINVAL);
	long far_iov[2] = { (long)buf, 5 };
	check("...and preadv there", SC4(NR_preadv, fd, far_iov, 1, 0x7ffffffffffffffeL), -EINVAL);
	SC3(NR_lseek, fd, 0, 0);
	char a3[3], b9[9];
	long iov[4] = { (long)a3, 3, (long)b9, 9 };
	check("readv", SC3(NR_readv, fd, iov, 2), 12);
	check("readv scatters", memcmp(a3, "hel", 3) == 0 && memcmp(b9, "lo world\n", 9) == 0, 1);
	unsigned char st[128];
	check("fstat a file", SC2(NR_fstat, fd, st), 0);
	check("fstat size", *(long *)(st + 48), 12);
	check("newfstatat", SC4(NR_newfstatat, AT_FDCWD, "/data/hello.txt", st, 0), 0);
	check("newfstatat size", *(long *)(st + 48), 12);
	check("newfstatat outside", SC4(NR_newfstatat, AT_FDCWD, "/etc/passwd", st, 0), -ENOENT);
	check("atime is reported as mtime", *(long *)(st + 72) == *(long *)(st + 88), 1);
	unsigned char stx[256];
	check("statx", sc(NR_statx, AT_FDCWD, (long)"/data/hello.txt", 0, 0x7ff, (long)stx, 0), 0);
	check("statx size", *(long *)(stx + 40), 12);
	long fd2 = SC1(NR_dup, fd);
	check("dup gives the lowest free fd", fd2, fd + 1);
	check("dup3", SC3(NR_dup3, fd, 30, 0), 30);
	check("fcntl F_DUPFD", SC3(NR_fcntl, fd, 0, 20), 20);
	check("fcntl F_GETFL", SC3(NR_fcntl, fd, 3, 0), O_RDONLY);
	char *m = mmap(0, 4096, PROT_READ, MAP_PRIVATE, (int)fd, 0);
	check("mmap of a file", MMAP_FAILED(m), 0);
	check("mmap'ed bytes", memcmp(m, "hello world\n", 12) == 0 && m[12] == 0, 1);
	check("close", SC1(NR_close, fd), 0);
	check("read after close is EBADF", read((int)fd, buf, 1), -EBADF);
	check("the dup still reads", SC4(NR_pread64, fd2, buf, 5, 6), 5);
	SC1(NR_close, fd2);
	SC1(NR_close, 20);
	SC1(NR_close, 30);

	/* directory listing: print the names in order for the script */
	dfd = open_("/data", O_RDONLY | O_DIRECTORY);
	char names[512] = "";
	int count = 0;
	for (;;) {
		char d[1024];
		long n = SC3(NR_getdents64, dfd, d, sizeof d);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			unsigned short reclen = *(unsigned short *)(d + off + 16);
			const char *name = d + off + 19;
			if (strcmp(name, ".") && strcmp(name, "..")) {
				strcat(names, " ");
				strcat(names, name);
				count++;
			}
			off += reclen;
		}
	}
	SC1(NR_close, dfd);
	check("getdents64 lists the grant's entries", count, 7);

	/* the read-write grant */
	fd = open_("/out/made.txt", O_WRONLY | O_CREAT | O_TRUNC);
	check("create under a read-write grant", fd >= 0, 1);
	check("write", write((int)fd, "abc", 3), 3);
	long wiov[4] = { (long)"de", 2, (long)"f\n", 2 };
	check("writev", SC3(NR_writev, fd, wiov, 2), 4);
	SC1(NR_close, fd);
	fd = open_("/out/made.txt", O_WRONLY | O_APPEND);
	check("append", write((int)fd, "tail\n", 5), 5);
	SC1(NR_close, fd);
	check("read it back", slurp("/out/made.txt", buf, sizeof buf), 12);
	check("what was written", strcmp(buf, "abcdef\ntail\n"), 0);
	check("O_EXCL on an existing file", try_open("/out/made.txt", O_WRONLY | O_CREAT | 0200), -EEXIST);
}

/* Calls ordinary libc functions make (nice, alarm, select, getgroups,
 * mlock, xattrs, ...): a single-threaded unprivileged process's answers. */
static void libc_call_checks(void)
{
	long ts[2] = { 0, 1000 };
	int word = 0;
	check("futex wait with a timeout is ETIMEDOUT", SC4(NR_futex, &word, 0, 0, ts), -ETIMEDOUT);
	unsigned long rd = 1;           /* fd 0: a file, always ready */
	check("pselect6 with a timeout", sc(NR_xpselect6, 1, (long)&rd, 0, 0, (long)ts, 0), 1);
	check("pselect6 leaves fd 0 in the set", (long)rd, 1);
	check("pselect6 of nothing with a timeout", sc(NR_xpselect6, 0, 0, 0, 0, (long)ts, 0), 0);
	long it[4] = { 0, 0, 5, 0 }, old[4];
	check("setitimer (alarm 5)", SC3(NR_xsetitimer, 0, it, 0), 0);
	check("getitimer", SC2(NR_xgetitimer, 0, old), 0);
	check("the alarm counts down from 5 s", old[2] == 4 && old[3] > 0, 1);
	it[2] = 0;
	check("setitimer disarms, handing back the old value", SC3(NR_xsetitimer, 0, it, old), 0);
	check("timer_create is ENOSYS", SC3(NR_xtimer_create, 1, 0, old), -ENOSYS);
	check("statfs is ENOSYS", SC2(NR_xstatfs, "/data", old), -ENOSYS);
	check("copy_file_range is ENOSYS", sc(NR_xcopy_file_range, 0, 0, 1, 0, 1, 0), -ENOSYS);
	check("getpeername of stdin is ENOTSOCK (bash asks)", SC3(NR_xgetpeername, 0, old, old + 2), -ENOTSOCK);
	check("getsockname of a closed fd is EBADF", SC3(NR_xgetsockname, 40, old, old + 2), -EBADF);
	char v[8];
	check("getxattr is ENODATA", SC4(NR_xgetxattr, "/data/hello.txt", "user.x", v, 8), -ENODATA);
	check("getxattr of a missing file is ENOENT", SC4(NR_xgetxattr, "/data/nope", "user.x", v, 8), -ENOENT);
	check("fgetxattr of a closed fd is EBADF", SC4(NR_xfgetxattr, 40, "user.x", v, 8), -EBADF);
	check("listxattr lists nothing", SC3(NR_xlistxattr, "/data/hello.txt", v, 8), 0);
	check("setxattr is ENOTSUP", sc(NR_xsetxattr, (long)"/data/hello.txt", (long)"user.x", (long)v, 1, 0, 0), -ENOTSUP);
	check("flock LOCK_EX", SC2(NR_xflock, 0, 2), 0);
	check("flock of nothing is EINVAL", SC2(NR_xflock, 0, 0), -EINVAL);
	check("fadvise64", SC4(NR_xfadvise64, 0, 0, 0, 2), 0);
	check("fallocate is EOPNOTSUPP (glibc writes instead)", SC4(NR_xfallocate, 0, 0, 0, 10), -ENOTSUP);
	check("getpriority: nice 0", SC2(NR_xgetpriority, 0, 0), 20);
	check("setpriority raises nice", SC3(NR_xsetpriority, 0, 0, 5), 0);
	check("getpriority: nice 5", SC2(NR_xgetpriority, 0, 0), 15);
	check("setpriority cannot lower it", SC3(NR_xsetpriority, 0, 0, 0), -EACCES);
	check("sched_getscheduler: SCHED_OTHER", SC1(NR_xsched_getscheduler, 0), 0);
	unsigned long cpus = 1;
	check("sched_setaffinity to CPU 0", SC3(NR_xsched_setaffinity, 0, 8, &cpus), 0);
	cpus = 2;
	check("sched_setaffinity without CPU 0", SC3(NR_xsched_setaffinity, 0, 8, &cpus), -EINVAL);
	unsigned groups[4];
	check("getgroups: none", SC2(NR_xgetgroups, 4, groups), 0);
	unsigned ids[3] = { 7, 7, 7 };
	check("getresuid", SC3(NR_xgetresuid, &ids[0], &ids[1], &ids[2]), 0);
	check("getresuid: 0, 0, 0", ids[0] | ids[1] | ids[2], 0);
	check("setuid to itself", SC1(NR_xsetuid, 0), 0);
	check("setuid to another", SC1(NR_xsetuid, 1000), -EPERM);
	check("setgid to another", SC1(NR_xsetgid, 5), -EPERM);
	char *p = mmap(0, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("msync", SC3(NR_xmsync, p, 4096, 4), 0);
	check("mlock", SC2(NR_xmlock, p, 8192), 0);
	check("mlock of unmapped memory", SC2(NR_xmlock, 0x10000, 4096), -ENOMEM);
	check("mlockall", SC1(NR_xmlockall, 1), 0);
	unsigned char vec[2] = { 9, 9 };
	check("mincore", SC3(NR_xmincore, p, 8192, vec), 0);
	check("mincore: both pages resident", vec[0] == 1 && vec[1] == 1, 1);
	long fd = open_("/data/hello.txt", O_RDONLY);
	check("tgkill(0, 0, 0) is EINVAL", SC3(131, 0, 0, 0), -EINVAL);
	check("tkill(-1, 0) is EINVAL", SC2(130, -1, 0), -EINVAL);
	check("tgkill of another thread is ESRCH", SC3(131, SC0(NR_getpid), 4242, 0), -ESRCH);
	check("close_range closes what it covers", SC3(NR_xclose_range, fd, fd, 0), 0);
	check("... so close is EBADF", SC1(NR_close, fd), -EBADF);
}

int main(int argc, char **argv)
{
	int walk = argc > 1 && !strcmp(argv[1], "walk");
	process_checks();
	pipe_checks();
	memory_checks();
	file_checks(walk);
	libc_call_checks();
	printf("%d ok, %d failed\n", oks, fails);
	return fails ? 1 : 0;
}
