/* cli.c — helpers shared by the headless commands (see cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "err.h"
#include "program.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;
	fputs("ivx: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

int cli_parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-')
		return -1;
	char *end;   /* decimal or 0x hex: a leading 0 is no octal here */
	errno = 0;
	unsigned long long v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno || end == s)
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

int cli_read_file(const char *path, void **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		cli_error("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		if (cap >= CLI_MAX_FILE) {   /* (/dev/zero would never end) */
			free(buf);
			fclose(f);
			cli_error("%s: larger than %d MB", path, CLI_MAX_FILE >> 20);
			return -1;
		}
		char *bigger = realloc(buf, cap *= 2);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		cli_error("%s: cannot read", path);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}
