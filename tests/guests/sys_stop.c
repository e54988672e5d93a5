/*
 * sys_stop.c — system calls that end a run: argv[1] picks one.
 *
 *   abort     tgkill(self, SIGABRT) with the default action: the run stops
 *   ignored   SIGUSR1 set to SIG_IGN, then sent: nothing happens, exit 0
 *   handler   SIGUSR1 with a handler, then sent: unsupported (no delivery)
 *   futex     FUTEX_WAIT on an unchanged word: would block forever
 *   pipe      a read of an empty pipe whose write end is open: the same
 *   fullpipe  a blocking write of more than a pipe holds: the same
 *   poll      ppoll on an empty pipe without a timeout: the same
 *   clone     an unsupported call: named with its number
 *   mprotect  a page made read-only, then written: a fault naming it
 *   pid       prints getpid() and exits 0: ivx's fixed 1000 is not what
 *             qemu-aarch64 prints (tests/realprogs-harness.sh needs a
 *             program whose output differs)
 *
 * tests/guest-syscalls.sh checks ivx's one-line message and status 2.
 */
#include "rt.h"
#include "raw_syscall.h"

static void handler(int sig) { (void)sig; }

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	long pid = sc(172, 0, 0, 0, 0), tid = sc(178, 0, 0, 0, 0);
	if (!strcmp(what, "abort")) {
		sc(131, pid, tid, 6, 0);
	} else if (!strcmp(what, "ignored")) {
		unsigned long act[4] = { 1 /* SIG_IGN */, 0, 0, 0 };
		sc(134, 10, (long)act, 0, 8);
		printf("tgkill: %ld\n", sc(131, pid, tid, 10, 0));
		return 0;
	} else if (!strcmp(what, "handler")) {
		unsigned long act[4] = { (unsigned long)handler, 0, 0, 0 };
		sc(134, 10, (long)act, 0, 8);
		sc(131, pid, tid, 10, 0);
	} else if (!strcmp(what, "futex")) {
		int word = 3;
		sc(98, (long)&word, 0, 3, 0);
	} else if (!strcmp(what, "pipe") || !strcmp(what, "fullpipe") || !strcmp(what, "poll")) {
		int fds[2];
		static char big[65537];
		sc(59, (long)fds, 0, 0, 0);
		struct { int fd; short events, revents; } pf = { fds[0], 1, 0 };
		if (!strcmp(what, "poll"))
			sc(73, (long)&pf, 1, 0, 0);
		else if (!strcmp(what, "pipe"))
			sc(63, fds[0], (long)big, 1, 0);
		else
			sc(64, fds[1], (long)big, sizeof big, 0);
	} else if (!strcmp(what, "pid")) {
		printf("pid %ld\n", pid);
		return 0;
	} else if (!strcmp(what, "mprotect")) {
		char *p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		p[4096] = 1;
		sc(226, (long)(p + 4096), 4096, PROT_READ, 0);
		p[0] = 2;                 /* still writable */
		*(volatile char *)(p + 4096) = 3;
	} else if (!strcmp(what, "clone")) {
		sc(220, 0, 0, 0, 0);
	}
	printf("still running\n");
	return 1;
}
