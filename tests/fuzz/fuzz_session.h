/*
 * fuzz_session.h — what the explorer harnesses (fuzz_xcmd.c,
 * fuzz_script.c) share: a batch-mode session on the built-in program whose
 * output goes nowhere, a bound on the simulation one input may ask for,
 * and the lines a harness does not run.
 *
 * The bound uses the session's own Ctrl-C hook: forward runs poll it after
 * every slice of `poll-cycles` cycles (1000 here), as do reverse-continue's
 * window search and `time -n`. After FUZZ_POLL_BUDGET polls every poll
 * answers "interrupted", so no command of one input gets more than a slice
 * further, and the script harness also ends the script (x->quit). The
 * product is unchanged: this is what a user pressing Ctrl-C gets. At most
 * FUZZ_MAX_LINES lines of an input run.
 *
 * Lines left out: `source` (it opens any path, /dev/stdin included, and
 * would block or read the host's files) and changing `poll-cycles` (it
 * would defeat the bound). Both are recognised by word, wherever they
 * stand in the line, so `time -n 2 source F` is left out too.
 */
#ifndef IVX_FUZZ_SESSION_H
#define IVX_FUZZ_SESSION_H

#include <stdlib.h>
#include <string.h>
#include "cli/runopts.h"
#include "explorer/explorer.h"
#include "ui_state.h"

#define FUZZ_POLL_CYCLES 1000
#define FUZZ_POLL_BUDGET 6
/* Lines of one input that run: a command that simulates nothing can still
 * cost milliseconds (`restart` rebuilds the core), so the count is bounded
 * too. */
#define FUZZ_MAX_LINES 100

struct fuzz_budget {
	struct explorer *x;
	int polls;          /* polls so far */
	int end_script;     /* also set x->quit once spent */
};

static int fuzz_poll(void *ctx)
{
	struct fuzz_budget *b = ctx;
	if (++b->polls <= FUZZ_POLL_BUDGET)
		return 0;
	if (b->end_script)
		b->x->quit = 1;
	return 1;
}

static inline int fuzz_spent(const struct fuzz_budget *b)
{
	return b->polls > FUZZ_POLL_BUDGET;
}

/* Output is checked for being a string (ASan reads it) and dropped. */
static size_t fuzz_out_bytes;
static void fuzz_out(void *ctx, int kind, const char *text)
{
	fuzz_out_bytes += strlen(text);
}

static void fuzz_guest_out(void *ctx, int fd, const void *buf, size_t len)
{
	fuzz_out_bytes += len;
}

/* A fresh session, as `ivx -x SCRIPT` makes one (cmd_explore.c), or NULL. */
static inline struct explorer *fuzz_session_new(struct fuzz_budget *b, int end_script)
{
	char *argv[] = { (char *)"explore", NULL };
	struct run_options o;
	if (run_options_parse(&o, 1, argv, NULL, NULL) < 0)
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
	x->out = fuzz_out;
	x->guest_out = fuzz_guest_out;
	x->set.poll_cycles = FUZZ_POLL_CYCLES;
	memset(b, 0, sizeof *b);
	b->x = x;
	b->end_script = end_script;
	x->poll_interrupt = fuzz_poll;
	x->poll_ctx = b;
	return x;
}

static inline void fuzz_session_free(struct explorer *x)
{
	ui_state_detach(x);
	explorer_free(x);
}

/* Is `w` (len n) a word the harnesses do not run? */
static inline int fuzz_banned_word(const char *w, size_t n)
{
	if (n == 11 && !memcmp(w, "poll-cycles", 11))
		return 1;
	return n >= 2 && n <= 6 && !memcmp(w, "source", n);   /* `source` and its prefixes */
}

/* Does the line (len n, need not be terminated) hold such a word? Words
 * are split at blanks and double quotes, a superset of how commands split. */
static inline int fuzz_line_banned(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '"' || s[i] == '\r' ||
				 s[i] == '\v' || s[i] == '\f'))
			i++;
		size_t st = i;
		while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '"' || s[i] == '\r' ||
				  s[i] == '\v' || s[i] == '\f'))
			i++;
		if (i > st && fuzz_banned_word(s + st, i - st))
			return 1;
	}
	return 0;
}

#endif
