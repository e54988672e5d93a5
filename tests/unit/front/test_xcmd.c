/*
 * test_xcmd.c — the explorer's command table (src/xcmd/xcmd.h): every
 * registered command is in the table once, sorted, and found by its name
 * and each alias; a unique prefix finds a command, an ambiguous one lists
 * the candidates, an unknown word says so. Tab completion offers command
 * names, `info` topics, settings and configuration keys, event names, pane
 * and layout names, and the program's symbols, for the word the cursor is
 * in; the second word by the first (`coproc load` programs, `coproc set`
 * keys, `info coproc` topics, a setting's values). Lines run with xcmd_execute report errors without stopping anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <unistd.h>
#include "cli/coproc_load.h"
#include "cli/dcpi_opts.h"
#include "explorer/explorer.h"
#include "xcmd/xcmd.h"
#include "front/session.h"

static int setup(void **state)
{
	*state = test_session_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	test_session_free(*state);
	return 0;
}

static const char *name_of(const char *word)
{
	char err[300];
	const struct xcmd *c = xcmd_lookup(word, err, sizeof err);
	return c ? c->name : NULL;
}

static void lookup_fails(const char *word, const char *msg)
{
	char err[300] = "";
	const struct xcmd *c = xcmd_lookup(word, err, sizeof err);
	if (c)
		fail_msg("'%s' found %s", word, c->name);
	if (strcmp(err, msg))
		fail_msg("'%s': message\n  '%s'\nexpected\n  '%s'", word, err, msg);
}

static void test_table_sorted_and_complete(void **state)
{
	int n = xcmd_count();
	/* The commands of src/xcmd/ are all linked in (whole-archive). */
	static const char *const must[] = { "step", "stepi", "continue", "reverse-step", "break",
					    "catch", "print", "info", "set", "show", "layout",
					    "source", "quit", "help", "time", NULL };
	for (int i = 0; must[i]; i++)
		assert_string_equal(name_of(must[i]), must[i]);
	for (int i = 0; i < n; i++) {
		const struct xcmd *c = xcmd_at(i);
		assert_non_null(c->name);
		assert_non_null(c->usage);
		assert_non_null(c->summary);
		assert_non_null(c->exec);
		if (i > 0)
			assert_true(strcmp(xcmd_at(i - 1)->name, c->name) < 0);   /* sorted, no duplicate */
		/* Every name and every alias finds its own command. */
		assert_ptr_equal(xcmd_lookup(c->name, NULL, 0), c);
		if (c->aliases) {
			char a[128];
			snprintf(a, sizeof a, "%s", c->aliases);
			for (char *w = strtok(a, " "); w; w = strtok(NULL, " "))
				assert_string_equal(name_of(w), c->name);
		}
	}
	assert_null(xcmd_at(n));
	assert_null(xcmd_at(-1));
}

static void test_lookup(void **state)
{
	/* Exact names win over longer names they prefix. */
	assert_string_equal(name_of("step"), "step");
	assert_string_equal(name_of("reverse-step"), "reverse-step");
	/* Aliases win over prefixes ("s" starts many names). */
	assert_string_equal(name_of("s"), "step");
	assert_string_equal(name_of("si"), "stepi");
	assert_string_equal(name_of("c"), "continue");
	assert_string_equal(name_of("b"), "break");
	assert_string_equal(name_of("i"), "info");
	assert_string_equal(name_of("p"), "print");
	assert_string_equal(name_of("inspect"), "print");
	assert_string_equal(name_of("rs"), "reverse-step");
	assert_string_equal(name_of("rc"), "reverse-continue");
	assert_string_equal(name_of("q"), "quit");
	/* Unique prefixes. */
	assert_string_equal(name_of("adv"), "advance");
	assert_string_equal(name_of("tc"), "tcatch");
	assert_string_equal(name_of("ign"), "ignore");
	assert_string_equal(name_of("reverse-c"), "reverse-continue");
	assert_string_equal(name_of("cond"), "condition");
	/* Ambiguous prefixes list every candidate, in order. */
	lookup_fails("reverse-s", "ambiguous command: reverse-s, could be: reverse-step, reverse-stepi");
	char err[300];
	assert_null(xcmd_lookup("re", err, sizeof err));
	assert_true(!strncmp(err, "ambiguous command: re, could be: ", 33));
	assert_non_null(strstr(err, "refresh"));
	assert_non_null(strstr(err, "restart"));
	assert_non_null(strstr(err, "reverse-continue"));
	/* Unknown words, with control characters shown escaped. */
	lookup_fails("frobnicate", "unknown command: frobnicate (try 'help')");
	lookup_fails("steps", "unknown command: steps (did you mean 'step'? try 'help')");   /* a typo */
	lookup_fails("St", "unknown command: St (try 'help')");   /* case matters */
	lookup_fails("\x1b[2J", "unknown command: \\x1b[2J (try 'help')");
	/* A short buffer gets a cut message, never an overflow. */
	char small[12];
	assert_null(xcmd_lookup("re", small, sizeof small));
	assert_int_equal(strlen(small), sizeof small - 1);
}

/* Complete `line` with the cursor at its end: the candidates, joined by
 * spaces, and where the word starts. */
static char *complete(struct explorer *x, const char *line, size_t *word_start)
{
	static char buf[8192];
	struct xcompletion c;
	xcmd_complete(x, line, strlen(line), &c);
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < c.n; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", c.cands[i]);
	if (word_start)
		*word_start = c.word_start;
	xcmd_completion_free(&c);
	return buf;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static void test_complete_commands(void **state)
{
	struct explorer *x = *state;
	size_t ws = 99;
	assert_string_equal(complete(x, "rev", &ws), "reverse-continue reverse-step reverse-stepi");
	assert_int_equal(ws, 0);
	assert_string_equal(complete(x, "  adv", &ws), "advance");
	assert_int_equal(ws, 2);
	assert_string_equal(complete(x, "zzz", NULL), "");
	/* An empty line offers every command, sorted. */
	char *all = complete(x, "", NULL);
	int n = 1;
	for (char *p = all; *p; p++)
		n += *p == ' ';
	assert_int_equal(n, xcmd_count());
	assert_true(has_word(all, "step") && has_word(all, "quit"));
	/* `help` completes command names. */
	assert_string_equal(complete(x, "help tbr", &ws), "tbreak");
	assert_int_equal(ws, 5);
	/* Arguments of commands that take none get nothing. */
	assert_string_equal(complete(x, "quit q", NULL), "");
}

static void test_complete_info_and_settings(void **state)
{
	struct explorer *x = *state;
	size_t ws;
	assert_string_equal(complete(x, "info br", &ws), "breakpoints");
	assert_int_equal(ws, 5);
	/* built-in and instrument topics alike (the instruments add more) */
	char *s_topics = complete(x, "i s", NULL);
	assert_true(has_word(s_topics, "snapshots") && has_word(s_topics, "stack"));
	assert_false(has_word(s_topics, "breakpoints"));
	char *topics = complete(x, "info ", NULL);
	int n_topics = 0;
	for (int i = 0; xcmd_info_topic_name(i); i++, n_topics++)
		assert_true(has_word(topics, xcmd_info_topic_name(i)));
	assert_true(n_topics >= 10);
	assert_string_equal(complete(x, "set snap", NULL), "snapshot-interval snapshot-memory");
	assert_string_equal(complete(x, "set core.rob", NULL), "core.rob_size");
	assert_string_equal(complete(x, "set l1d.s", NULL), "l1d.size");
	/* Only the first argument is a setting name. */
	assert_string_equal(complete(x, "set width w", NULL), "");
	/* `show`: panes, screen, sfmt and settings. */
	char *show = complete(x, "show ", NULL);
	assert_true(has_word(show, "rob") && has_word(show, "screen") && has_word(show, "sfmt") &&
		    has_word(show, "width"));
	assert_string_equal(complete(x, "layout ti", NULL), "timeline");
	assert_string_equal(complete(x, "focus n", NULL), "next");
	/* Events for catch, then "if", then a condition. */
	assert_string_equal(complete(x, "catch l2", NULL), "l2d l2i");
	assert_string_equal(complete(x, "catch l2d i", NULL), "if");
	assert_string_equal(complete(x, "catch l2d if lat", NULL), "latency");
}

/* The second word comes from a list that depends on the first (the
 * commands' `then` tables): programs after `coproc load`, keys after
 * `coproc set`, an info topic's words, a setting's values, ... */
static void test_complete_second_word(void **state)
{
	struct explorer *x = *state;
	size_t ws;
	/* coproc load: every program data/coproc/ ships (the files there,
	 * one for one), before any file of the current directory */
	char *load = complete(x, "coproc load ", &ws);
	assert_int_equal(ws, 12);
	int shipped = 0;
	for (int i = 0; coproc_shipped_name(i); i++, shipped++) {
		char path[128];
		snprintf(path, sizeof path, "data/coproc/%s.s", coproc_shipped_name(i));
		assert_true(has_word(load, coproc_shipped_name(i)));
		assert_int_equal(access(path, R_OK), 0);
	}
	DIR *d = opendir("data/coproc");
	assert_non_null(d);
	int files = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		files += n > 2 && !strcmp(e->d_name + n - 2, ".s");
	}
	closedir(d);
	assert_int_equal(files, shipped);
	assert_string_equal(complete(x, "coproc load value_t", NULL), "value_topk value_topk_adapt value_topk_even value_topk_first value_topk_ipw value_topk_ring value_topk_young");
	assert_true(has_word(complete(x, "coproc load dat", NULL), "data/"));   /* and files */
	/* coproc set: the keys, with the '=' the command takes */
	char *keys = complete(x, "coproc set ", NULL);
	assert_true(has_word(keys, "buffer=") && has_word(keys, "policy=") && has_word(keys, "tagrate="));
	assert_false(has_word(keys, "data/"));   /* no files here */
	assert_string_equal(complete(x, "coproc set clo", NULL), "clock_div=");
	/* ... and past the '=', a key's values where it has a fixed set, as
	 * `set core.mode in<Tab>` for a machine key; none for a number */
	size_t vs;
	assert_string_equal(complete(x, "coproc set policy=", &vs), "policy=drop policy=replace policy=stall");
	assert_int_equal(vs, 11);
	assert_string_equal(complete(x, "coproc set policy=st", NULL), "policy=stall");
	assert_string_equal(complete(x, "coproc set buffer=", NULL), "");
	assert_string_equal(complete(x, "coproc set nosuch=", NULL), "");
	assert_string_equal(complete(x, "coproc off ", NULL), "");
	/* info TOPIC: the topic's words, a unique prefix of the topic will do */
	assert_string_equal(complete(x, "info coproc ", NULL), "program registers slots");
	assert_string_equal(complete(x, "i cop r", NULL), "registers");
	assert_string_equal(complete(x, "info fmt ", NULL), "sfmt");
	assert_string_equal(complete(x, "info config l1d.l", NULL), "l1d.latency l1d.line");
	assert_string_equal(complete(x, "info rob ", NULL), "");
	assert_string_equal(complete(x, "help info cop", NULL), "coproc");
	/* sampling: the options after on/off, the events after --events */
	char *opts = complete(x, "sampling on ", NULL);
	assert_true(has_word(opts, "--period") && has_word(opts, "--no-truth") && has_word(opts, "--seed"));
	assert_false(has_word(opts, "on"));
	struct dcpi_config dc;
	dcpi_config_defaults(&dc);
	char v[256];
	int n_opts = 0;
	for (int i = 0; dcpi_opts_setting(&dc, i, v, sizeof v); i++, n_opts++) {   /* every option `sampling` lists */
		assert_true(has_word(opts, dcpi_opts_setting(&dc, i, v, sizeof v)));
		assert_string_equal(dcpi_opts_name(i), dcpi_opts_setting(&dc, i, v, sizeof v));
	}
	assert_null(dcpi_opts_name(n_opts));
	int n_words = 0;   /* ... and no other */
	for (const char *w = opts; *w; w += strcspn(w, " "), w += *w == ' ')
		n_words++;
	assert_int_equal(n_words, n_opts);
	assert_string_equal(complete(x, "sampling --events ", NULL), "branchmp cycles dmiss dtbmiss imiss retired");
	/* ... further on: an option's values (in a comma list, the next item), or the options again */
	assert_string_equal(complete(x, "sampling on --events ", NULL), "branchmp cycles dmiss dtbmiss imiss retired");
	assert_string_equal(complete(x, "sampling on --events cycles,im", NULL), "cycles,imiss");
	assert_string_equal(complete(x, "sampling on --period 4096 --sk", NULL), "--skid");
	assert_string_equal(complete(x, "annotate --total --estimator p", NULL), "paper");
	assert_string_equal(complete(x, "coproc load value x", NULL), "");
	/* strat SPEC: the profiles and charge; nothing after off */
	assert_string_equal(complete(x, "strat R256 ", NULL), "call charge edge value");
	assert_string_equal(complete(x, "strat off ", NULL), "");
	/* catch EVENT: its qualifiers beside begin, end and if */
	assert_string_equal(complete(x, "catch sample i", NULL), "if imiss");
	assert_string_equal(complete(x, "catch l2d ", NULL), "begin end if");
	/* set NAME: the values of a setting that takes words; none for a number */
	assert_string_equal(complete(x, "set break-stage ", NULL), "commit complete dispatch fetch issue");
	assert_string_equal(complete(x, "set color ", NULL), "off on");
	assert_string_equal(complete(x, "set dcpicalc-estimator ", NULL), "ivx paper");
	assert_string_equal(complete(x, "set width ", NULL), "");
	/* ... and a machine key's: an enumeration's names, a boolean's on/off */
	assert_string_equal(complete(x, "set core.mode ", NULL), "inorder ooo");
	assert_string_equal(complete(x, "set perfect.l1d o", NULL), "off on");
	assert_string_equal(complete(x, "set core.rob_size ", NULL), "");
	assert_string_equal(config_key_value_word("core.mode", 1), "inorder");
	assert_null(config_key_value_word("core.mode", 2));
	assert_null(config_key_value_word("no.such", 0));
	assert_null(xcmd_setting_value("width", 0));
	assert_string_equal(xcmd_setting_value("charset", 1), "ascii");
	assert_null(xcmd_setting_value("charset", 2));
	/* and the rest: annotate's estimator, export's format then a file, reset's word */
	assert_string_equal(complete(x, "annotate --estimator ", NULL), "ivx paper");
	assert_string_equal(complete(x, "until main ", NULL), "");   /* (until takes no `if`) */
	assert_string_equal(complete(x, "export ", NULL), "png svg");
	assert_true(has_word(complete(x, "export svg dat", NULL), "data/"));
	/* a symbolic link to a directory ends in '/' too */
	char tmp[] = "/tmp/ivx-complete-XXXXXX", link[64], line[96];
	assert_non_null(mkdtemp(tmp));
	snprintf(link, sizeof link, "%s/to-dir", tmp);
	assert_int_equal(symlink(tmp, link), 0);
	snprintf(line, sizeof line, "export svg %s/to", tmp);
	char want[80];
	snprintf(want, sizeof want, "%s/to-dir/", tmp);
	assert_string_equal(complete(x, line, NULL), want);
	unlink(link);
	rmdir(tmp);
	assert_string_equal(complete(x, "reset ", NULL), "stats");
}

static void test_complete_symbols(void **state)
{
	struct explorer *x = *state;
	size_t ws;
	/* Locations: function symbols, and "cycle". */
	char *b = complete(x, "break ma", &ws);
	assert_true(has_word(b, "main"));
	assert_int_equal(ws, 6);
	for (char *p = b; *p;) {   /* every candidate starts with what was typed */
		assert_true(!strncmp(p, "ma", 2));
		p += strcspn(p, " ");
		p += *p == ' ';
	}
	assert_true(has_word(complete(x, "until _st", NULL), "_start"));
	assert_string_equal(complete(x, "break cyc", NULL), "cycle");
	/* Expressions: variables and any symbol, also after an operator or '('. */
	assert_true(has_word(complete(x, "print ma", NULL), "main"));
	char *p = complete(x, "print (mai", &ws);
	assert_true(has_word(p, "main"));
	assert_int_equal(ws, 7);
	assert_string_equal(complete(x, "print stop_", NULL), "stop_pc stop_seq");
	assert_string_equal(complete(x, "break main if insn", NULL), "insns");
	assert_string_equal(complete(x, "condition 1 mispr", NULL), "mispredicted");
	/* The word is the one the cursor is in, not the line's last. */
	struct xcompletion c;
	xcmd_complete(x, "print ma + 1", 8, &c);
	assert_int_equal(c.word_start, 6);
	int has_main = 0;
	for (int i = 0; i < c.n; i++)
		has_main |= !strcmp(c.cands[i], "main");
	assert_true(has_main);
	xcmd_completion_free(&c);
}

static void test_execute(void **state)
{
	struct explorer *x = *state;
	const struct xcmd *c;
	assert_int_equal(xcmd_execute(x, "  # a comment", &c), 0);
	assert_null(c);
	assert_int_equal(xcmd_execute(x, "", &c), 0);
	assert_int_equal(xcmd_execute(x, "p 6 * 7", &c), 0);
	assert_string_equal(c->name, "print");
	assert_non_null(strstr(session_out, "= 42"));
	assert_int_equal(xcmd_execute(x, "s 5", &c), 0);
	assert_string_equal(c->name, "step");
	assert_int_equal(explorer_cycle(x), 5);
	assert_int_equal(xcmd_execute(x, "frobnicate 1", NULL), -1);
	assert_string_equal(x->err, "unknown command: frobnicate (try 'help')");
	assert_int_equal(xcmd_execute(x, "step 0", NULL), -1);
	assert_non_null(strstr(x->err, "expected a count"));
	assert_int_equal(explorer_cycle(x), 5);   /* a failed command did not move */
	char word[100];
	memset(word, 'a', sizeof word - 1);
	word[sizeof word - 1] = 0;
	assert_int_equal(xcmd_execute(x, word, NULL), -1);
	assert_true(!strncmp(x->err, "unknown command: aaaa", 21));
}

static void test_numbers(void **state)
{
	struct explorer *x = *state;
	uint64_t v;
	assert_int_equal(xcmd_parse_uint("123", 1000, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(xcmd_parse_uint("0x1f", 1000, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(xcmd_parse_uint("010", 1000, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(xcmd_parse_uint("1001", 1000, &v), -1);
	assert_int_equal(xcmd_parse_uint("", 1000, &v), -1);
	assert_int_equal(xcmd_parse_uint("12x", 1000, &v), -1);
	assert_int_equal(xcmd_parse_uint("18446744073709551616", UINT64_MAX, &v), -1);
	unsigned long long n;
	assert_int_equal(xcmd_parse_count(x, "7", &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(xcmd_parse_count(x, "0", &n), -1);
	assert_int_equal(xcmd_parse_count(x, "-3", &n), -1);
	assert_string_equal(x->err, "expected a count, got \"-3\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table_sorted_and_complete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_complete_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_complete_info_and_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_complete_second_word, setup, teardown),
		cmocka_unit_test_setup_teardown(test_complete_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_execute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numbers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
