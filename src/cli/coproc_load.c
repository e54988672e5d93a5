/*
 * coproc_load.c — co-processor programs by name or file (coproc_load.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "coproc_load.h"

static int exists(const char *p)
{
	return access(p, R_OK) == 0;
}

const char *coproc_shipped_name(int i)
{
	static const char *const names[] = { "value", "value_topk", "value_topk_ipw", "value_topk_ring", "value_topk_adapt", "value_topk_even", "value_topk_first", "value_topk_young", "edge", "callstack" };
	return i >= 0 && i < (int)(sizeof names / sizeof names[0]) ? names[i] : NULL;
}

static int is_file_name(const char *name)
{
	size_t nl = strlen(name);
	return strchr(name, '/') || (nl > 2 && !strcmp(name + nl - 2, ".s"));
}

void coproc_load_shown(const char *name, const char *path, char *out, size_t len)
{
	if (is_file_name(name))
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "data/coproc/%s.s", name);
}

/* coproc_read_host_file, keeping the path of each file read. */
static int read_noting(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err)
{
	struct coproc_included *inc = ctx;
	int rc = coproc_read_host_file(NULL, path, text, len, err);
	char *copy = rc == 0 && inc->n < COPROC_MAX_FILES ? strdup(path) : NULL;
	if (copy)
		inc->path[inc->n++] = copy;
	return rc;
}

void coproc_included_free(struct coproc_included *inc)
{
	for (int i = 0; i < inc->n; i++)
		free(inc->path[i]);
	inc->n = 0;
}

int coproc_load_program(const char *name, struct coproc_prog *out, char *path, size_t path_len,
			struct ivx_err *err)
{
	struct coproc_included inc;
	int rc = coproc_load_program_noting(name, out, path, path_len, &inc, err);
	coproc_included_free(&inc);
	return rc;
}

int coproc_load_program_noting(const char *name, struct coproc_prog *out, char *path, size_t path_len,
			       struct coproc_included *inc, struct ivx_err *err)
{
	inc->n = 0;
	char buf[PATH_MAX];
	char looked[2][PATH_MAX + 16] = { "", "" };   /* the data directories beside the binary */
	if (is_file_name(name)) {
		snprintf(buf, sizeof buf, "%s", name);
	} else {
		int found = 0;
		for (const char *c = name; *c; c++)
			if (!(('a' <= *c && *c <= 'z') || ('0' <= *c && *c <= '9') || *c == '_' || *c == '-'))
				return ivx_error(err, IVX_EUSAGE, "'%s' is not a program name or a file", name);
		snprintf(buf, sizeof buf, "data/coproc/%s.s", name);
		found = exists(buf);
		char exe[PATH_MAX - 64];
		ssize_t n = found ? -1 : readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n > 0) {
			exe[n] = 0;
			char *slash = strrchr(exe, '/');
			if (slash)
				*slash = 0;
			const char *ups[] = { "..", "../.." };
			for (int i = 0; i < 2 && !found; i++) {
				snprintf(buf, sizeof buf, "%s/%s/data/coproc/%s.s", exe, ups[i], name);
				found = exists(buf);
				/* (for the message: the directory without its ..) */
				char up[PATH_MAX], real[PATH_MAX];
				snprintf(up, sizeof up, "%s/%s", exe, ups[i]);
				snprintf(looked[i], sizeof looked[i], "%s/data/coproc/", realpath(up, real) ? real : up);
			}
		}
		if (!found) {
			/* a shipped name whose file is not where ivx looks: say where */
			char listed[sizeof COPROC_SHIPPED + 2];
			snprintf(listed, sizeof listed, " %s,", COPROC_SHIPPED);
			char word[80];
			snprintf(word, sizeof word, " %s,", name);
			if (strstr(listed, word))
				return ivx_error(err, IVX_EINPUT,
						 "the shipped program '%s' is not in data/coproc/ (looked for %s.s in "
						 "data/coproc/%s%s%s%s); give its file", name, name,
						 looked[0][0] ? ", " : "", looked[0], looked[1][0] ? " and " : "", looked[1]);
			return ivx_error(err, IVX_EUSAGE,
					 "no co-processor program '%s' (shipped: " COPROC_SHIPPED "; or give a file)",
					 name);
		}
	}
	/* (its .include files are found beside it, wherever it was found) */
	int rc = coproc_asm_file(buf, read_noting, inc, out, err);
	if (path)
		snprintf(path, path_len, "%s", buf);
	return rc;
}
