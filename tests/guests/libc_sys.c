/*
 * libc_sys.c — what glibc functions get from system calls ivx answers
 * itself, where the answer is Linux's and does not depend on the host:
 * built with aarch64-linux-gnu-gcc -static by tests/realprog-isa.sh and
 * run with a file on standard input (`< FILE` under qemu-aarch64,
 * `--stdin FILE` under ivx); both must print the same.
 *
 *   clocks     clock_gettime/clock_getres of every Linux clock id, the
 *              CPU clocks of this process and thread, and ids that are no
 *              clock (EINVAL); a NULL timespec (EFAULT); gettimeofday's
 *              time zone is zero
 *   rusage     getrusage of the children (none: zero), a bad `who`
 *   getcpu     sched_getcpu and getcpu (the CPU number is the host's
 *              under qemu: only success is printed)
 *   children   wait, waitpid, waitid with no child: ECHILD; bad options:
 *              EINVAL
 *   altstack   sigaltstack records the stack it is given and hands it
 *              back (it was always "disabled"); too small is ENOMEM, an
 *              unknown flag EINVAL
 *   mapstdin   the --stdin file is a regular file, so it can be mapped:
 *              a private copy of its bytes, zero to the end of the page
 *              (Linux raises SIGBUS beyond it; ivx gives zeros), which
 *              leaves the read offset alone
 *   empty      (argument "empty", with an empty --stdin file) fd 0 is
 *              still a regular file: size 0, seekable, end of file at once
 *   mtime=N    (argument) fd 0's modification time is N, the file's
 *              (gzip stores it; ivx gave 0, on which gzip warns, exit 2)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the encoding of a CPU clock id (Linux's MAKE_PROCESS_CPUCLOCK) */
#define CPUCLOCK(pid, type) ((clockid_t)((~(unsigned)(pid) << 3) | (type)))

static void show(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerrorname_np(errno) : "");
}

static void clocks_case(void)
{
	/* (not 8 and 9, the ALARM clocks: EINVAL on a host without an RTC) */
	static const clockid_t ids[] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 99, -1 };
	struct timespec ts;
	char name[64];
	for (unsigned i = 0; i < sizeof ids / sizeof *ids; i++) {
		/* (raw calls: glibc may answer some ids from the vDSO) */
		snprintf(name, sizeof name, "clock_gettime(%d)", (int)ids[i]);
		show(name, syscall(SYS_clock_gettime, ids[i], &ts));
		snprintf(name, sizeof name, "clock_getres(%d)", (int)ids[i]);
		show(name, syscall(SYS_clock_getres, ids[i], &ts));
	}
	clockid_t self;
	show("clock_getcpuclockid(self)", clock_getcpuclockid(getpid(), &self) ? -1 : 0);
	show("  its clock_gettime", syscall(SYS_clock_gettime, self, &ts));
	show("pthread_getcpuclockid", pthread_getcpuclockid(pthread_self(), &self) ? -1 : 0);
	show("  its clock_gettime", syscall(SYS_clock_gettime, self, &ts));
	show("CPU clock of no process", syscall(SYS_clock_gettime, CPUCLOCK(4000000, 2), &ts));
	show("CPU clock type 3", syscall(SYS_clock_gettime, CPUCLOCK(0, 3), &ts));
	show("clock_gettime(NULL)", syscall(SYS_clock_gettime, CLOCK_REALTIME, NULL));
	show("clock_getres(NULL)", syscall(SYS_clock_getres, CLOCK_REALTIME, NULL));
	struct timeval tv;
	struct timezone tz;
	memset(&tz, 0x55, sizeof tz);
	show("gettimeofday", syscall(SYS_gettimeofday, &tv, &tz));
	printf("  zone %d dst %d\n", tz.tz_minuteswest, tz.tz_dsttime);
	show("gettimeofday(NULL, NULL)", syscall(SYS_gettimeofday, NULL, NULL));
}

static void rusage_case(void)
{
	struct rusage ru;
	memset(&ru, 0x55, sizeof ru);
	show("getrusage(RUSAGE_CHILDREN)", getrusage(RUSAGE_CHILDREN, &ru));
	printf("  user %ld.%06ld system %ld.%06ld maxrss %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
	       (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_maxrss);
	show("getrusage(RUSAGE_SELF)", getrusage(RUSAGE_SELF, &ru));
	show("getrusage(RUSAGE_THREAD)", getrusage(RUSAGE_THREAD, &ru));
	show("getrusage(5)", getrusage(5, &ru));
}

static void getcpu_case(void)
{
	unsigned cpu = 77, node = 77;
	show("sched_getcpu >= 0", sched_getcpu() >= 0 ? 0 : -1);
	show("getcpu", syscall(SYS_getcpu, &cpu, &node, NULL));
	printf("  set %d %d\n", cpu != 77, node != 77);
	show("getcpu(NULL, NULL)", syscall(SYS_getcpu, NULL, NULL, NULL));
}

static void children_case(void)
{
	int st;
	siginfo_t si;
	show("wait", wait(&st));
	show("waitpid(-1, WNOHANG)", waitpid(-1, &st, WNOHANG));
	show("waitpid(12345)", waitpid(12345, &st, 0));
	show("waitpid(bad options)", waitpid(-1, &st, 0x100));
	show("waitid(P_ALL, WEXITED)", waitid(P_ALL, 0, &si, WEXITED));
	show("waitid(P_ALL, 0)", waitid(P_ALL, 0, &si, 0));
	show("waitid(idtype 9)", waitid(9, 0, &si, WEXITED));
	show("wait3", wait3(&st, WNOHANG, NULL));
}

static void altstack_case(void)
{
	stack_t old, ss = { .ss_sp = malloc(65536), .ss_size = 65536 };
	memset(&old, 0x55, sizeof old);
	show("sigaltstack(NULL, &old)", sigaltstack(NULL, &old));
	printf("  flags %d size %zu\n", old.ss_flags, old.ss_size);
	show("sigaltstack(64 KiB)", sigaltstack(&ss, NULL));
	show("sigaltstack(NULL, &old)", sigaltstack(NULL, &old));
	printf("  flags %d size %zu same %d\n", old.ss_flags, old.ss_size, old.ss_sp == ss.ss_sp);
	ss.ss_size = 100;
	show("sigaltstack(100 bytes)", sigaltstack(&ss, NULL));
	ss.ss_size = 65536;
	ss.ss_flags = 99;
	show("sigaltstack(flags 99)", sigaltstack(&ss, NULL));
	ss.ss_flags = SS_DISABLE;
	show("sigaltstack(SS_DISABLE, &old)", sigaltstack(&ss, &old));
	printf("  old flags %d size %zu\n", old.ss_flags, old.ss_size);
	show("sigaltstack(NULL, &old)", sigaltstack(NULL, &old));
	printf("  flags %d size %zu\n", old.ss_flags, old.ss_size);
}

static void mapstdin_case(void)
{
	struct stat st;
	show("fstat(0)", fstat(0, &st));
	printf("  regular %d size %lld\n", S_ISREG(st.st_mode), (long long)st.st_size);
	const char *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 0, 0);
	show("mmap(0) read-only", m == MAP_FAILED ? -1 : 0);
	if (m != MAP_FAILED)
		printf("  [%.*s] zero after %d\n", (int)st.st_size, m, m[st.st_size] == 0 && m[4095] == 0);
	char *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, 0);
	show("mmap(0) private writable", w == MAP_FAILED ? -1 : 0);
	if (w != MAP_FAILED) {
		w[0] = '#';
		printf("  copy [%c] mapping before [%c]\n", w[0], m != MAP_FAILED ? m[0] : '?');
	}
	const char *s = mmap(NULL, 4096, PROT_READ, MAP_SHARED, 0, 0);
	show("mmap(0) shared read-only", s == MAP_FAILED ? -1 : 0);
	char buf[8] = { 0 };
	show("read after the mappings", read(0, buf, 5));
	printf("  [%s]\n", buf);
}

static void empty_case(void)
{
	struct stat st;
	show("fstat(0)", fstat(0, &st));
	printf("  regular %d fifo %d size %lld\n", S_ISREG(st.st_mode), S_ISFIFO(st.st_mode), (long long)st.st_size);
	show("lseek(0, 0, SEEK_END)", (int)lseek(0, 0, SEEK_END));
	char c;
	show("read", (int)read(0, &c, 1));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strncmp(argv[1], "mtime=", 6)) {
		struct stat st;
		show("fstat(0)", fstat(0, &st));
		printf("  mtime is the file's: %d\n", (long long)st.st_mtime == atoll(argv[1] + 6));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "empty")) {
		empty_case();
		return 0;
	}
	clocks_case();
	rusage_case();
	getcpu_case();
	children_case();
	altstack_case();
	mapstdin_case();
	return 0;
}
