/*
 * dt_run.c — run an emulator on a test ELF, capture stdout and stderr, and
 * kill it when it overruns its time limit (a miscompiled branch in the
 * emulator under test can loop forever).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "dt.h"

struct dt_buf { uint8_t *p; size_t n, cap; };

static int dt_buf_read(struct dt_buf *b, int fd)
{
	if (b->cap - b->n < 65536) {
		size_t cap = b->cap ? b->cap * 2 : 262144;
		uint8_t *p = realloc(b->p, cap + 1);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	ssize_t r = read(fd, b->p + b->n, b->cap - b->n);
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	b->n += (size_t)r;
	return r > 0;
}

static double dt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int dt_run(char *const argv[], int timeout_s, struct dt_result *res)
{
	int out[2], err[2];
	memset(res, 0, sizeof *res);
	if (pipe2(out, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(out[0]); close(out[1]); close(err[0]); close(err[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);   /* its own group, so a timeout kills its children too */
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);

	struct dt_buf ob = { 0 }, eb = { 0 };
	struct pollfd pf[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
	int open_fds = 2, timed_out = 0, failed = 0;
	double deadline = dt_now() + timeout_s;
	while (open_fds > 0) {
		int ms = (int)((deadline - dt_now()) * 1000);
		if (ms <= 0) {
			timed_out = 1;
			break;
		}
		int n = poll(pf, 2, ms);
		if (n < 0 && errno != EINTR) {
			failed = 1;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int r = dt_buf_read(i ? &eb : &ob, pf[i].fd);
			if (r < 0)
				failed = 1;
			if (r <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
		if (failed)
			break;
	}
	if (timed_out || failed) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	for (int i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		res->status = -1;
	else if (WIFEXITED(st))
		res->status = WEXITSTATUS(st);
	else
		res->status = 128 + WTERMSIG(st);
	res->out = ob.p;
	res->out_len = ob.n;
	if (!eb.p)
		eb.p = malloc(1);
	if (eb.p)
		eb.p[eb.n] = 0;
	res->err = (char *)eb.p;
	return failed ? -1 : 0;
}

void dt_result_free(struct dt_result *res)
{
	free(res->out);
	free(res->err);
	res->out = NULL;
	res->err = NULL;
}
