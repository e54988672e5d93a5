/*
 * fuzz_xcmd.c — libFuzzer harness: explorer commands typed one per line.
 *
 * Each input line runs with xcmd_execute on one fresh batch session over
 * the built-in program, as if typed at the prompt: an error does not stop
 * the input, but it must come with a one-line message. Before running,
 * the line is also completed with Tab
 * (xcmd_complete at its end), and after the last line the whole screen is
 * composed as text, so the panes render whatever state the commands left.
 * Runs are bounded (fuzz_session.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "explorer/explorer.h"
#include "fuzz_session.h"
#include "ui_state.h"
#include "xcmd/xcmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_budget b;
	struct explorer *x = fuzz_session_new(&b, 0);
	if (!x)
		abort();   /* the built-in program must always load */
	char *line = malloc(XCMD_LINE_MAX + 1);
	if (!line)
		abort();
	size_t at = 0;
	for (int lines = 0; at < size && lines < FUZZ_MAX_LINES && !x->quit && !fuzz_spent(&b); lines++) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t take = len > XCMD_LINE_MAX ? XCMD_LINE_MAX : len;
		memcpy(line, data + at, take);
		line[take] = 0;   /* a NUL byte inside ends the line early */
		at += len + 1;
		if (fuzz_line_banned(line, strlen(line)))
			continue;
		struct xcompletion c;
		xcmd_complete(x, line, strlen(line), &c);
		xcmd_completion_free(&c);
		if (xcmd_execute(x, line, NULL) < 0 && (!x->err[0] || strchr(x->err, '\n')))
			abort();   /* a failed command says why, on one line */
	}
	char *screen = ui_screen_text(x->ui, x, x->set.width, 40, x->set.ascii);
	free(screen);
	free(line);
	fuzz_session_free(x);
	return 0;
}
