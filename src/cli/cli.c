/* cli.c — helpers shared by the headless commands (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "progress.h"
#include "base/err.h"
#include "base/file.h"
#include "guest/program.h"
/* --bench under callgrind (the bench scripts' BENCH_TOOL=callgrind): the
 * client requests are a few no-op instructions on the host. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CLI_HAVE_CALLGRIND 1
#endif
#endif

void cli_error(const char *fmt, ...)
{
	/* Messages quote the user's arguments, which may hold any byte: a
	 * newline would split the line, an ESC would drive the terminal.
	 * Control characters go out as \xNN, as the explorer shows them. */
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fputs("ivx: ", stderr);
	for (const char *c = msg; *c; c++) {
		unsigned char b = (unsigned char)*c;
		if (b < 0x20 || b == 0x7f)
			fprintf(stderr, "\\x%02x", b);
		else
			fputc(b, stderr);
	}
	fputc('\n', stderr);
}

void cli_error_guest_status(int status)
{
	cli_error("the program exited with status %d (`ivx run` shows its output)", status);
}

void cli_drop_output(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

struct program *cli_load_program(const char *path)
{
	struct ivx_err err = { 0 };
	struct program *p;
	if (path)
		p = program_load_file(path, &err);
	else
		p = program_load_image(ivx_default_program,
				       (size_t)(ivx_default_program_end - ivx_default_program),
				       ivx_default_program_name, &err);
	if (!p)
		cli_error("%s", err.msg);
	return p;
}

int cli_scan_u64(const char *s, uint64_t *out, const char **end)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	char *stop;
	errno = 0;
	unsigned long long v = strtoull(s, &stop, hex ? 16 : 10);
	if (errno == ERANGE)
		return -1;
	*out = v;
	*end = stop;
	return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	if (!s || cli_scan_u64(s, &v, &end) < 0)
		return -1;
	uint64_t mul = 1;
	if (*end == 'k' || *end == 'K')
		mul = 1000, end++;
	else if (*end == 'M')
		mul = 1000000, end++;
	else if (*end == 'G')
		mul = 1000000000, end++;
	if (*end || (mul > 1 && v > UINT64_MAX / mul))
		return -1;
	*out = v * mul;
	return 0;
}

/* Read all of f (closed here unless it is stdin; path names it in
 * messages). */
static int read_stream(FILE *f, const char *path, void **data, size_t *len, struct ivx_err *err)
{
	/* one byte of room past the limit tells "exactly CLI_MAX_FILE" from
	 * "more" (/dev/zero would never end) */
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		if (n > CLI_MAX_FILE) {
			free(buf);
			if (f != stdin)
				fclose(f);
			return ivx_error(err, IVX_EINPUT, "%s: larger than %d MB", path, CLI_MAX_FILE >> 20);
		}
		size_t bigger_cap = cap < CLI_MAX_FILE ? 2 * cap : (size_t)CLI_MAX_FILE + 1;
		char *bigger = realloc(buf, bigger_cap);
		if (!bigger)
			free(buf);
		buf = bigger;
		cap = bigger_cap;
	}
	int read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
	if (f != stdin)
		fclose(f);
	if (!buf)
		return ivx_error(err, IVX_ESYS, "%s: cannot read: out of memory", path);
	if (read_errno) {
		free(buf);
		return ivx_error(err, IVX_EINPUT, "%s: cannot read: %s", path, strerror(read_errno));
	}
	*data = buf;
	*len = n;
	return 0;
}

/* ivx's own standard input, read to its end the first time a path "-"
 * asks for it and kept: every run this process makes (a restart, a
 * reference run beside the measured one) must see the same bytes, and a
 * pipe can be read only once. Process-wide, as the descriptor is. */
static struct { void *data; size_t len; int read; } own_stdin;

int cli_read_file_quiet(const char *path, void **data, size_t *len, struct ivx_err *err)
{
	if (strcmp(path, "-")) {
		FILE *f = ivx_fopen_input(path, err);
		return f ? read_stream(f, path, data, len, err) : IVX_EINPUT;
	}
	if (!own_stdin.read) {
		int rc = read_stream(stdin, "standard input", &own_stdin.data, &own_stdin.len, err);
		if (rc < 0)
			return rc;
		own_stdin.read = 1;
	}
	*data = malloc(own_stdin.len ? own_stdin.len : 1);
	if (!*data)
		return ivx_error(err, IVX_ESYS, "standard input: cannot read: out of memory");
	memcpy(*data, own_stdin.data, own_stdin.len);
	*len = own_stdin.len;
	return 0;
}

int cli_stdin_kept(void)
{
	return own_stdin.read;
}


void cli_catch_signal(int sig, void (*handler)(int), int flags)
{
	struct sigaction old, sa = { .sa_handler = handler, .sa_flags = flags };
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(sig, &sa, NULL);
}

/* ---- the process's standard output ---------------------------------------- */

/* Why the first failed write to fd 1 / fd 2 failed (an errno), for
 * cli_close_stdout: stdio forgets it once a failed flush drops its buffer.
 * Process-wide, as the fds are; main thread only. */
static int stdout_errno, stderr_errno;

double cli_cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_bench_reps(int reps)
{
#ifdef CLI_HAVE_CALLGRIND
	if (RUNNING_ON_VALGRIND)
		return 1;   /* instruction counts do not vary: one run says it */
#endif
	return reps;
}

double cli_bench_start(void)
{
#ifdef CLI_HAVE_CALLGRIND
	CALLGRIND_ZERO_STATS;
#endif
	return cli_cpu_seconds();
}

double cli_bench_stop(double t0, const char *what)
{
	double t = cli_cpu_seconds() - t0;
#ifdef CLI_HAVE_CALLGRIND
	CALLGRIND_DUMP_STATS_AT(what);
#else
	(void)what;
#endif
	return t;
}

int cli_flush_stdout(void)
{
	if (fflush(stdout) == 0)
		return 0;
	if (!stdout_errno)
		stdout_errno = errno;
	return -1;
}

void cli_guest_output(void *ctx, int fd, const void *buf, size_t len)
{
	int *failed = fd == 2 ? &stderr_errno : &stdout_errno;
	const char *p = buf;
	progress_hide();   /* the guest's text gets a line of its own */
	while (len) {
		ssize_t w = write(fd == 2 ? 2 : 1, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!*failed)
				*failed = w < 0 ? errno : EIO;
			return;
		}
		p += w;
		len -= (size_t)w;
	}
}

int cli_close_stdout(int status)
{
	int fail = status ? status : EXIT_OUTPUT;
	int why = stdout_errno;
	int bad = why || ferror(stdout);
	errno = 0;
	if (fclose(stdout) != 0) {   /* flushes; close() may fail late (NFS) */
		bad = 1;
		if (!why)
			why = errno;
	}
	if (bad) {
		if (why)
			cli_error("error writing standard output: %s", strerror(why));
		else
			cli_error("error writing standard output");
		return fail;
	}
	/* as coreutils: a failing stderr cannot say so, but fails the run */
	if (stderr_errno || fflush(stderr) != 0 || ferror(stderr))
		return fail;
	return status;
}
