/*
 * fuzz_script.c — libFuzzer harness: a batch script (`ivx -x SCRIPT`).
 *
 * The input is the script's text, read by xcmd_run_script from a memory
 * stream on a fresh batch session over the built-in program: line splitting,
 * over-long lines, NUL bytes, comments, the stop at the first error and its
 * "NAME:LINE: message". Lines with `source` or `poll-cycles` are blanked
 * (same length, so line numbers stay); the script is cut after
 * FUZZ_MAX_LINES lines and runs are bounded (fuzz_session.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explorer/explorer.h"
#include "fuzz_session.h"
#include "xcmd/xcmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The first FUZZ_MAX_LINES lines only. */
	int lines = 0;
	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n' && ++lines == FUZZ_MAX_LINES) {
			size = i + 1;
			break;
		}
	if (size == 0)
		return 0;   /* fmemopen needs at least one byte */
	char *text = malloc(size);
	if (!text)
		abort();
	memcpy(text, data, size);
	for (size_t at = 0; at < size;) {
		char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at;
		if (fuzz_line_banned(text + at, len))
			memset(text + at, '#', len);
		at += len + 1;
	}
	struct fuzz_budget b;
	struct explorer *x = fuzz_session_new(&b, 1);
	if (!x)
		abort();
	FILE *f = fmemopen(text, size, "r");
	if (!f)
		abort();
	int rc = xcmd_run_script(x, f, "fuzz.ivx");
	if (rc < 0 && (!x->err[0] || strchr(x->err, '\n')))
		abort();   /* a failed script has one line saying why */
	fclose(f);
	fuzz_session_free(x);
	free(text);
	return 0;
}
