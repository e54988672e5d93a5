/* file.c — opening input files without waiting on a FIFO (see file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file.h"

int ivx_open_input(const char *path, struct ivx_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		ivx_error(err, IVX_EINPUT, "%s: cannot open: %s", path, strerror(e));
		errno = e;
		return IVX_EINPUT;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		ivx_error(err, IVX_EINPUT, "%s: cannot open: %s", path, strerror(e));
		errno = e;
		return IVX_EINPUT;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		close(fd);
		ivx_error(err, IVX_EINPUT, "%s: a %s, not a regular file", path, S_ISFIFO(st.st_mode) ? "FIFO" : "socket");
		errno = ENXIO;
		return IVX_EINPUT;
	}
	/* reads may block as usual (a terminal on --stdin is the user's choice) */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

FILE *ivx_fopen_input(const char *path, struct ivx_err *err)
{
	int fd = ivx_open_input(path, err);
	if (fd < 0)
		return NULL;
	/* (a directory opens, and its first read fails: said here instead,
	 * as for a file that is missing) */
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		ivx_error(err, IVX_EINPUT, "%s: cannot open: Is a directory", path);
		errno = EISDIR;
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		ivx_error(err, IVX_ESYS, "%s: cannot open: %s", path, strerror(e));
		errno = e;
	}
	return f;
}
