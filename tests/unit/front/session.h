/*
 * session.h — a batch explorer session for the front-end unit tests, made
 * as `ivx -x SCRIPT` makes one (src/cli/cmd_explore.c) on the built-in
 * program, with its output collected in memory instead of printed. Fixed
 * width and height: nothing depends on the terminal.
 */
#ifndef IVX_TEST_SESSION_H
#define IVX_TEST_SESSION_H

#include <stdlib.h>
#include <string.h>
#include "cli/runopts.h"
#include "explorer/explorer.h"
#include "ui_state.h"

/* Everything the session printed since the last test_session_clear. */
static char session_out[1 << 16];
static size_t session_out_len;

static void session_collect(void *ctx, int kind, const char *text)
{
	size_t n = strlen(text);
	if (session_out_len + n >= sizeof session_out)
		n = sizeof session_out - 1 - session_out_len;
	memcpy(session_out + session_out_len, text, n);
	session_out_len += n;
	session_out[session_out_len] = 0;
}

static void session_drop_guest(void *ctx, int fd, const void *buf, size_t len)
{
}

static inline void test_session_clear(void)
{
	session_out_len = 0;
	session_out[0] = 0;
}

/* A batch session on the program `argv` names (argv[0] is the command's
 * name, as for `ivx explore`); NULL if it cannot load. */
static inline struct explorer *test_session_new_args(int argc, char **argv)
{
	struct run_options o;
	if (run_options_parse(&o, argc, argv, NULL, NULL) < 0)
		return NULL;
	struct ivx_err err = { 0 };
	struct explorer *x = explorer_new(&o, &err);
	if (!x)
		return NULL;
	if (ui_state_attach(x) < 0) {
		explorer_free(x);
		return NULL;
	}
	x->batch = 1;
	x->set.ascii = 1;
	x->screen_w = x->set.width;
	x->screen_h = 40;
	x->out = session_collect;
	x->guest_out = session_drop_guest;
	test_session_clear();
	return x;
}

/* NULL only if the built-in program cannot load (a broken build). */
static inline struct explorer *test_session_new(void)
{
	char *argv[] = { (char *)"explore", NULL };
	return test_session_new_args(1, argv);
}

static inline void test_session_free(struct explorer *x)
{
	ui_state_detach(x);
	explorer_free(x);
}

#endif
