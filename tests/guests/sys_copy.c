/*
 * sys_copy.c SRC DST — copy SRC to DST 7 bytes at a time through read,
 * pread + lseek and write, and standard input to DST.stdin through a pipe,
 * 3 bytes in and 2 out at a time (so the pipe holds a growing backlog).
 * tests/guest-syscalls.sh runs it in the explorer while stepping
 * backwards and forwards over those calls: if reverse stepping did not
 * restore descriptor offsets and the pipe's contents exactly, the replayed
 * reads would skip or repeat bytes and the copies would differ from their
 * sources.
 */
#include "rt.h"
#include "raw_syscall.h"

static long open_(const char *p, long flags) { return sc(56, -100, (long)p, flags, 0644); }

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long in = open_(argv[1], 0), out = open_(argv[2], 01 | 0100 | 01000);
	char name[256];
	snprintf(name, sizeof name, "%s.stdin", argv[2]);
	long out2 = open_(name, 01 | 0100 | 01000);
	int pipe_fds[2];
	if (in < 0 || out < 0 || out2 < 0 || sc(59, (long)pipe_fds, 0, 0, 0) < 0)
		return 3;
	char buf[8];
	long n, k = 0, backlog = 0;
	for (;;) {
		if (k++ % 5 == 4) {            /* pread at the offset, then move it */
			long at = sc(62, in, 0, 1, 0);
			n = sc(67, in, (long)buf, 7, at);
			if (n > 0)
				sc(62, in, n, 1, 0);
		} else {
			n = read((int)in, buf, 7);
		}
		if (n <= 0)
			break;
		write((int)out, buf, (size_t)n);
		long m = read(0, buf, 3);
		if (m > 0)
			backlog += write(pipe_fds[1], buf, (size_t)m);
		if (backlog > 0 && (m = read(pipe_fds[0], buf, 2)) > 0) {   /* never an empty pipe */
			backlog -= m;
			write((int)out2, buf, (size_t)m);
		}
	}
	while ((n = read(0, buf, 3)) > 0)
		write(pipe_fds[1], buf, (size_t)n);
	sc(57, pipe_fds[1], 0, 0, 0);
	while ((n = read(pipe_fds[0], buf, 3)) > 0)
		write((int)out2, buf, (size_t)n);
	printf("copied\n");
	return 0;
}
