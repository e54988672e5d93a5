/*
 * coproc_source.c — a program's source from the host's files: the file
 * itself and, through coproc_read_host_file, each file it includes.
 *
 * The assembler reads through a coproc_read_fn so that it never opens a
 * file on its own (the fuzz harness gives it one that cannot); this is
 * the one that does, for ivx's commands and the tests.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/alloc.h"
#include "base/file.h"
#include "coproc_prog.h"

/* A program is at most 1024 microinstructions of lines of at most 400
 * characters: a larger file is something else. */
#define MAX_SOURCE (1u << 20)

int coproc_read_host_file(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err)
{
	(void)ctx;
	FILE *f = ivx_fopen_input(path, err);
	if (!f)
		return IVX_EINPUT;
	size_t cap = 1 << 14, n = 0;   /* grown as it fills: the shipped files are a few kB */
	char *buf = ivx_malloc(cap);
	int failed = 0, e = 0;
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap || cap > MAX_SOURCE) {
			failed = ferror(f), e = errno;
			break;
		}
		char *bigger = ivx_realloc(buf, 2 * cap);
		if (!bigger) {
			ivx_free(buf);
			buf = NULL;
		} else {
			buf = bigger, cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return ivx_error(err, IVX_ESYS, "%s: cannot read: out of memory", path);
	if (failed || n > MAX_SOURCE) {
		ivx_free(buf);
		if (failed)
			return ivx_error(err, IVX_EINPUT, "%s: cannot read: %s", path, strerror(e ? e : EIO));
		return ivx_error(err, IVX_EINPUT, "%s: larger than %u MB, not a co-processor program", path,
				 MAX_SOURCE >> 20);
	}
	*text = buf, *len = n;
	return 0;
}

int coproc_asm_file(const char *path, coproc_read_fn *include_read, void *include_ctx, struct coproc_prog *out,
		    struct ivx_err *err)
{
	char *text;
	size_t len;
	int rc = coproc_read_host_file(NULL, path, &text, &len, err);
	if (rc < 0)
		return rc;
	rc = coproc_asm_reading(text, len, path, include_read ? include_read : coproc_read_host_file, include_ctx, out,
				err);
	ivx_free(text);
	return rc;
}
