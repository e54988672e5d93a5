/*
 * test_config.c — the machine description: defaults are the paper's Table 2,
 * the shipped INI files load, every mistake in a file or an override stops
 * with one line naming where and what, and impossible machines are refused
 * with the reason.
 *
 * Run from the top of the tree (as `make unit` does): some tests read
 * data/configs/ and docs/config.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/config.h"

/* Write `text` to a fresh temporary file; its name goes to path. */
static void temp_ini(char *path, size_t n, const char *text)
{
	snprintf(path, n, "/tmp/ivx-test-config-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void expect_msg(const struct ivx_err *err, const char *want)
{
	if (strcmp(err->msg, want))
		fail_msg("message\n  '%s'\nexpected\n  '%s'", err->msg, want);
}

static void expect_msg_has(const struct ivx_err *err, const char *needle)
{
	if (!strstr(err->msg, needle))
		fail_msg("message '%s' lacks '%s'", err->msg, needle);
	assert_null(strchr(err->msg, '\n'));
}

/* Every key has the same value in a and b. */
static void expect_same_config(const struct machine_config *a, const struct machine_config *b)
{
	char va[64], vb[64];
	for (size_t i = 0; config_key_name(i); i++) {
		const char *k = config_key_name(i);
		assert_int_equal(config_get(a, k, va, sizeof va, NULL), IVX_OK);
		assert_int_equal(config_get(b, k, vb, sizeof vb, NULL), IVX_OK);
		if (strcmp(va, vb))
			fail_msg("%s: %s versus %s", k, va, vb);
	}
	assert_int_equal(a->penalty_explicit, b->penalty_explicit);
}

static void set_ok(struct machine_config *c, const char *assignment)
{
	struct ivx_err err = { 0 };
	if (config_set(c, assignment, &err) != IVX_OK)
		fail_msg("-o %s: %s", assignment, err.msg);
}

/* ---- defaults --------------------------------------------------------- */

static void test_defaults_are_table_2(void **state)
{
	(void)state;
	struct machine_config c;
	config_defaults(&c);
	assert_int_equal(c.inorder, 0);
	assert_int_equal(c.rob_size, 128);
	assert_int_equal(c.lsq_size, 64);
	assert_int_equal(c.decode_width, 4);
	assert_int_equal(c.commit_width, 4);
	assert_int_equal(c.fetch_width, 8);
	assert_int_equal(c.issue_width, 8);
	assert_int_equal(c.load_latency, 2);
	assert_int_equal(c.mul_latency, 3);
	assert_int_equal(c.div_latency, 20);
	assert_int_equal(c.l1i.size, 8192);
	assert_int_equal(c.l1i.assoc, 1);
	assert_int_equal(c.l1d.size, 16384);
	assert_int_equal(c.l1d.assoc, 4);
	assert_int_equal(c.l1d.latency, 2);
	assert_int_equal(c.l2.size, 1 << 20);
	assert_int_equal(c.l2.assoc, 8);
	assert_int_equal(c.l2.latency, 9);
	assert_int_equal(c.memory_latency, 250);
	assert_int_equal(c.frontend_depth, 5);
	assert_true(c.bimodal_entries > 0 && c.gshare_entries > 0 && c.chooser_entries > 0);
	assert_int_equal(c.perfect_bpred + c.perfect_l1i + c.perfect_l2i + c.perfect_itlb +
			 c.perfect_l1d + c.perfect_l2d + c.perfect_dtlb, 0);
	assert_int_equal(config_validate(&c, NULL), IVX_OK);
}

static void test_default_penalties_follow_latencies(void **state)
{
	(void)state;
	struct machine_config c;
	config_defaults(&c);
	assert_int_equal(c.penalty_l1i, c.l2.latency);
	assert_int_equal(c.penalty_l2i, c.memory_latency);
	assert_int_equal(c.penalty_itlb, c.itlb.miss_latency);
	assert_int_equal(c.penalty_l1d, c.l2.latency);
	assert_int_equal(c.penalty_l2d, c.memory_latency);
	assert_int_equal(c.penalty_dtlb, c.dtlb.miss_latency);
	assert_int_equal(c.penalty_bpred, c.frontend_depth);
	assert_int_equal(c.penalty_fu, c.div_latency);

	set_ok(&c, "l2.latency=12");
	assert_int_equal(c.penalty_l1i, 12);
	assert_int_equal(c.penalty_l1d, 12);
	/* An explicit penalty stays when its latency changes later. */
	set_ok(&c, "penalty.l1d=4");
	set_ok(&c, "l2.latency=15");
	assert_int_equal(c.penalty_l1d, 4);
	assert_int_equal(c.penalty_l1i, 15);
}

/* ---- the shipped files ------------------------------------------------ */

static void test_default_ini_equals_builtin_defaults(void **state)
{
	(void)state;
	struct machine_config want, c;
	struct ivx_err err = { 0 };
	config_defaults(&want);
	/* Start from a different machine so every key the file sets shows. */
	config_defaults(&c);
	set_ok(&c, "core.mode=inorder");
	set_ok(&c, "core.rob_size=32");
	set_ok(&c, "l1d.size=32K");
	set_ok(&c, "bpred.gshare_history=4");
	set_ok(&c, "perfect.l2d=1");
	set_ok(&c, "wrongpath.memory=0");
	set_ok(&c, "sim.deadlock_cycles=5000");
	if (config_load(&c, "data/configs/default.ini", &err) != IVX_OK)
		fail_msg("%s", err.msg);
	expect_same_config(&c, &want);
}

/* Every key but the penalties is spelled out in default.ini, in its section. */
static void test_default_ini_lists_every_key(void **state)
{
	(void)state;
	FILE *f = fopen("data/configs/default.ini", "r");
	assert_non_null(f);
	char line[256], section[64] = "", seen[8192] = "";
	while (fgets(line, sizeof line, f)) {
		char name[64];
		if (sscanf(line, "[%63[^]]]", section) == 1)
			continue;
		if (sscanf(line, " %63[a-z0-9_] =", name) == 1 && strlen(seen) + 80 < sizeof seen) {
			strcat(seen, " ");
			strcat(seen, section);
			strcat(seen, ".");
			strcat(seen, name);
			strcat(seen, " ");
		}
	}
	fclose(f);
	for (size_t i = 0; config_key_name(i); i++) {
		char want[80];
		if (!strncmp(config_key_name(i), "penalty.", 8))
			continue;
		snprintf(want, sizeof want, " %s ", config_key_name(i));
		if (!strstr(seen, want))
			fail_msg("default.ini does not set %s", config_key_name(i));
	}
}

static void test_inorder_ini_is_a_dual_issue_in_order_machine(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	if (config_load(&c, "data/configs/inorder.ini", &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(c.inorder, 1);
	assert_int_equal(c.issue_width, 2);
	assert_int_equal(c.l1i.size, 8192);
	assert_int_equal(c.l1d.size, 8192);
	assert_int_equal(c.l2.size, 96 * 1024);
	assert_int_equal(c.l2.assoc, 3);
	assert_int_equal(c.penalty_l1d, c.l2.latency);
	assert_int_equal(c.penalty_l2d, c.memory_latency);
	if (config_validate(&c, &err) != IVX_OK)
		fail_msg("%s", err.msg);
}

static void test_docs_describe_every_key(void **state)
{
	(void)state;
	FILE *f = fopen("docs/config.md", "r");
	assert_non_null(f);
	static char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	for (size_t i = 0; config_key_name(i); i++) {
		char want[80];
		snprintf(want, sizeof want, "`%s`", config_key_name(i));
		if (!strstr(text, want))
			fail_msg("docs/config.md does not describe %s", config_key_name(i));
	}
}

/* ---- errors in files -------------------------------------------------- */

static void test_unknown_key_in_file_names_file_and_line(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c, before;
	temp_ini(path, sizeof path, "[core]\nrob_size = 64\n\n; a comment\n[l1d]\nsizee = 32K\n");
	config_defaults(&c);
	before = c;
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:6: unknown key 'l1d.sizee' (did you mean 'l1d.size'?)", path);
	expect_msg(&err, want);
	/* A file with an error changes nothing, not even its good lines. */
	expect_same_config(&c, &before);
	unlink(path);
}

static void test_bad_value_in_file(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[l2]\nsize = 2M\nassoc = eight\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:3: bad value 'eight' for l2.assoc", path);
	expect_msg_has(&err, want);
	assert_int_equal(c.l2.size, 1 << 20);
	unlink(path);
}

static void test_out_of_range_in_file(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[core]\nfetch_width = 0\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:2: value 0 for core.fetch_width out of range 1..64", path);
	expect_msg(&err, want);
	unlink(path);
}

static void test_syntax_error_in_file(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[core]\nrob_size = 64\nlsq_size 32\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:3: syntax error", path);
	expect_msg_has(&err, want);
	unlink(path);
}

/* Lines the INI parser cannot take whole are refused where they are
 * (found by fuzzing: the tail of a long comment was read as a line of
 * its own, and could set a key; a NUL byte hid the rest of a line). */
static void test_long_line_is_refused_at_its_line(void **state)
{
	(void)state;
	char path[64], want[256], text[600];
	struct ivx_err err = { 0 };
	struct machine_config c, before;
	snprintf(text, sizeof text, "[core]\n; %0300d perfect.bpred = 1\nrob_size = 32\n", 0);
	temp_ini(path, sizeof path, text);
	config_defaults(&c);
	before = c;
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:2: line too long", path);
	expect_msg_has(&err, want);
	expect_same_config(&c, &before);
	unlink(path);
}

static void test_nul_byte_is_refused(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite("[core]\nrob_size = 6\0 4\n", 1, 24, f);
	fclose(f);
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:2: a NUL byte", path);
	expect_msg_has(&err, want);
	assert_int_equal(c.rob_size, 128);
	unlink(path);
}

/* Control bytes of the input never reach a message (they could move
 * the terminal's cursor or break the one line). */
static void test_control_bytes_are_not_echoed(void **state)
{
	(void)state;
	char path[64];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[core]\nrob\033[2J_size = 1\r\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	expect_msg_has(&err, "unknown key 'core.rob?[2J_size'");
	for (const char *m = err.msg; *m; m++)
		assert_true((unsigned char)*m >= 0x20 && *m != 0x7f);
	unlink(path);
}

static void test_first_of_several_errors_is_reported(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[core]\nrob = 1\nbogus\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:2: unknown key 'core.rob'", path);
	expect_msg_has(&err, want);
	unlink(path);

	temp_ini(path, sizeof path, "[core]\nbogus\nrob = 1\n");
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:2: syntax error", path);
	expect_msg_has(&err, want);
	unlink(path);
}

/* A key set twice is an error naming both lines (inih would let the last
 * one win silently), also across two [core] sections; the same section
 * twice with other keys is fine. A directory is a read error with its
 * reason. */
static void test_key_set_twice(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	config_defaults(&c);
	temp_ini(path, sizeof path, "[core]\nrob_size = 64\nrob_size = 32\n");
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:3: 'core.rob_size' is set twice (first on line 2)", path);
	expect_msg_has(&err, want);
	unlink(path);
	temp_ini(path, sizeof path, "[core]\nrob_size = 64\n[l1d]\nsize = 32768\n[core]\nROB_SIZE = 32\n");
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:6: 'core.ROB_SIZE' is set twice (first on line 2)", path);
	expect_msg_has(&err, want);
	unlink(path);
	temp_ini(path, sizeof path, "[core]\nrob_size = 64\n[core]\nlsq_size = 32\n");
	assert_int_equal(config_load(&c, path, &err), IVX_OK);
	assert_int_equal(c.rob_size, 64);
	assert_int_equal(c.lsq_size, 32);
	unlink(path);
	assert_int_equal(config_load(&c, "/tmp", &err), IVX_EINPUT);
	expect_msg_has(&err, "/tmp: cannot open: Is a directory");
}

static void test_key_outside_section(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "rob_size = 64\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:1: 'rob_size' is outside any [section]", path);
	expect_msg(&err, want);
	unlink(path);
}

/* The lines a plain INI reader takes in ways a config writer would not
 * guess: each either works as written or says what is wrong with it. */
static void expect_load_error(const char *text, int line, const char *what)
{
	char path[64], want[400];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, text);
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:%d: %s", path, line, what);
	expect_msg(&err, want);
	unlink(path);
}

static void test_unknown_section_is_named_at_its_line(void **state)
{
	(void)state;
	expect_load_error("[core]\nrob_size = 64\n\n[bogus]\nx = 1\n", 4,
			  "unknown section [bogus] (sections: core, units, latency, l1i, l1d, l2, memory, itlb, "
			  "dtlb, bpred, perfect, wrongpath, sim, penalty)");
}

static void test_line_with_no_key(void **state)
{
	(void)state;
	expect_load_error("[core]\n= 64\n", 2, "a line with no key before its '=' (expected key = value)");
	expect_load_error("[core]\n : 64\n", 2, "a line with no key before its '=' (expected key = value)");
}

static void test_indented_line_continues_the_value_above(void **state)
{
	(void)state;
	expect_load_error("[core]\nrob_size = 64\n  lsq_size = 32\n", 3,
			  "an indented line continues the value of 'core.rob_size' (line 2): a value is one line; "
			  "do not indent a key");
	expect_load_error("[core]\nrob_size = 64\nlsq_size = 8\n\n  rob_size = 32\n", 5,
			  "an indented line continues the value of 'core.lsq_size' (line 3): a value is one line; "
			  "do not indent a key");
}

/* "[ core ]" is core (keys are trimmed too), "key: value" is "key = value"
 * (inih's other separator), a UTF-8 BOM is skipped, and the first key
 * after a section may be indented (there is no value above to continue). */
static void test_blanks_in_section_colon_and_bom(void **state)
{
	(void)state;
	char path[64];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "\xef\xbb\xbf[ core ]\n  rob_size: 64\n[\tl2 ]\nsize = 512K\n");
	config_defaults(&c);
	if (config_load(&c, path, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(c.rob_size, 64);
	assert_int_equal(c.l2.size, 512 * 1024);
	unlink(path);
}

static void test_missing_file(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	struct machine_config c;
	config_defaults(&c);
	assert_int_equal(config_load(&c, "/nonexistent/x.ini", &err), IVX_EINPUT);
	expect_msg(&err, "/nonexistent/x.ini: cannot open: No such file or directory");
}

static void test_file_values_apply(void **state)
{
	(void)state;
	char path[64];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path,
		 "[CORE]\nMode = inorder ; trailing comment\nrob_size = 0x40\n"
		 "[l2]\nsize = 512KB\n[perfect]\nl1d = yes\nbpred = on\n");
	config_defaults(&c);
	if (config_load(&c, path, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(c.inorder, 1);
	assert_int_equal(c.rob_size, 64);
	assert_int_equal(c.l2.size, 512 * 1024);
	assert_int_equal(c.perfect_l1d, 1);
	assert_int_equal(c.perfect_bpred, 1);
	assert_int_equal(c.lsq_size, 64);  /* untouched keys keep their values */
	unlink(path);
}

/* config_load_text reads the same INI text from memory (the fuzz harness
 * uses it): same result as the file, messages name the given name, an
 * error leaves the configuration as it was, empty text changes nothing. */
static void test_load_text_equals_load_file(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	struct machine_config from_file, from_text, untouched;
	config_defaults(&from_file);
	config_defaults(&from_text);
	assert_int_equal(config_load(&from_file, "data/configs/inorder.ini", &err), IVX_OK);
	FILE *f = fopen("data/configs/inorder.ini", "r");
	assert_non_null(f);
	char text[8192];
	size_t len = fread(text, 1, sizeof text, f);
	fclose(f);
	assert_true(len > 0 && len < sizeof text);
	assert_int_equal(config_load_text(&from_text, text, len, "inorder", &err), IVX_OK);
	assert_memory_equal(&from_file, &from_text, sizeof from_file);
	assert_int_equal(from_text.inorder, 1);

	config_defaults(&untouched);
	from_text = untouched;
	assert_int_equal(config_load_text(&from_text, "", 0, "empty", &err), IVX_OK);
	assert_memory_equal(&from_text, &untouched, sizeof untouched);

	static const char bad[] = "[core]\nrob_size = 64\nrob_sise = 3\n";
	assert_int_equal(config_load_text(&from_text, bad, sizeof bad - 1, "mem.ini", &err), IVX_EINPUT);
	expect_msg_has(&err, "mem.ini:3: unknown key 'core.rob_sise'");
	assert_memory_equal(&from_text, &untouched, sizeof untouched);
	/* Only len bytes count: the text need not be terminated. */
	static const char cut[] = "[core]\nrob_size = 64\nXXXX";
	assert_int_equal(config_load_text(&from_text, cut, sizeof cut - 5, "cut.ini", &err), IVX_OK);
	assert_int_equal(from_text.rob_size, 64);
}

/* ---- -o overrides ----------------------------------------------------- */

static void test_override_sets_one_key(void **state)
{
	(void)state;
	struct machine_config c;
	config_defaults(&c);
	set_ok(&c, "l1d.size=32K");
	assert_int_equal(c.l1d.size, 32768);
	set_ok(&c, "l2.size=2M");
	assert_int_equal(c.l2.size, 2 << 20);
	set_ok(&c, "core.mode=inorder");
	assert_int_equal(c.inorder, 1);
	set_ok(&c, "core.mode=ooo");
	assert_int_equal(c.inorder, 0);
	set_ok(&c, "perfect.l1d=true");
	assert_int_equal(c.perfect_l1d, 1);
	set_ok(&c, "core.rob_size=010");     /* decimal: a leading zero is no octal */
	assert_int_equal(c.rob_size, 10);
	set_ok(&c, " core.rob_size = 0x100 ");
	assert_int_equal(c.rob_size, 256);
	set_ok(&c, "sim.deadlock_cycles=5000000000");
	assert_true(c.deadlock_cycles == 5000000000ull);
}

static void test_override_unknown_key(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	struct machine_config c, before;
	config_defaults(&c);
	before = c;
	assert_int_equal(config_set(&c, "l1d.sizee=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.sizee=1: unknown key 'l1d.sizee' (did you mean 'l1d.size'?)");
	/* a key without its section, or cut short: the keys it names */
	assert_int_equal(config_set(&c, "rob_size=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o rob_size=1: unknown key 'rob_size' (did you mean 'core.rob_size'?)");
	assert_int_equal(config_set(&c, "mshrs=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o mshrs=1: unknown key 'mshrs' (did you mean 'l1i.mshrs', 'l1d.mshrs', 'l2.mshrs'?)");
	assert_int_equal(config_set(&c, "core.rob=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o core.rob=1: unknown key 'core.rob' (did you mean 'core.rob_size'?)");
	expect_same_config(&c, &before);
	/* Nothing close: no suggestion. */
	assert_int_equal(config_set(&c, "frobnicate.widget=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o frobnicate.widget=1: unknown key 'frobnicate.widget'");
}

static void test_override_bad_values(void **state)
{
	(void)state;
	static const struct { const char *set, *msg; } cases[] = {
		{ "core.rob_size=abc", "-o core.rob_size=abc: bad value 'abc' for core.rob_size: expected a number" },
		{ "core.rob_size=-1", "bad value '-1'" },
		{ "core.rob_size=12x", "bad value '12x'" },
		{ "core.rob_size=", "bad value ''" },
		{ "core.rob_size=0", "value 0 for core.rob_size out of range 1..4096" },
		{ "l1d.size=4G", "out of range" },
		{ "l2.size=128M", "out of range 1..67108864" },
		{ "core.mode=superscalar", "-o core.mode=superscalar: bad value 'superscalar' for core.mode: expected ooo or inorder" },
		{ "perfect.l1d=2", "bad value '2' for perfect.l1d: expected 0/1" },
		{ "norhs", "-o norhs: expected section.key=value" },
		{ "=5", "expected section.key=value" },
	};
	struct machine_config c, before;
	config_defaults(&c);
	before = c;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ivx_err err = { 0 };
		if (config_set(&c, cases[i].set, &err) != IVX_EUSAGE)
			fail_msg("-o %s was accepted", cases[i].set);
		expect_msg_has(&err, cases[i].msg);
	}
	/* a value longer than a value can be (it used to be cut short, the
	 * rest ignored) */
	char long_value[300];
	struct ivx_err err = { 0 };
	snprintf(long_value, sizeof long_value, "perfect.bpred=1%0200d", 0);
	assert_int_equal(config_set(&c, long_value, &err), IVX_EUSAGE);
	expect_msg_has(&err, "-o perfect.bpred=...: value too long");
	expect_same_config(&c, &before);
}

/* ---- the key table ---------------------------------------------------- */

static void test_every_key_round_trips_through_get_and_set(void **state)
{
	(void)state;
	struct machine_config c, d;
	char val[64], assign[160], again[64];
	config_defaults(&c);
	config_defaults(&d);
	for (size_t i = 0; config_key_name(i); i++) {
		const char *k = config_key_name(i);
		assert_non_null(strchr(k, '.'));
		assert_non_null(config_key_help(i));
		assert_true(strlen(config_key_help(i)) > 5);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(k, config_key_name(j));
		assert_int_equal(config_get(&c, k, val, sizeof val, NULL), IVX_OK);
		snprintf(assign, sizeof assign, "%s=%s", k, val);
		set_ok(&d, assign);
		assert_int_equal(config_get(&d, k, again, sizeof again, NULL), IVX_OK);
		assert_string_equal(val, again);
	}
	assert_null(config_key_help(9999));
}

static void test_get_formats_values(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	char v[32];
	config_defaults(&c);
	assert_int_equal(config_get(&c, "l1d.size", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "16K");
	assert_int_equal(config_get(&c, "l2.size", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "1M");
	assert_int_equal(config_get(&c, "core.mode", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "ooo");
	assert_int_equal(config_get(&c, "core.rob_size", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "128");
	assert_int_equal(config_get(&c, "perfect.l1d", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "0");
	c.inorder = 9;   /* garbage in a hand-filled struct prints as a number */
	assert_int_equal(config_get(&c, "core.mode", v, sizeof v, NULL), IVX_OK);
	assert_string_equal(v, "9");
	assert_int_equal(config_get(&c, "l1d.sise", v, sizeof v, &err), IVX_EUSAGE);
	expect_msg(&err, "unknown key 'l1d.sise' (did you mean 'l1d.size'?)");
}

/* ---- validation ------------------------------------------------------- */

static void expect_invalid(const char *assignment, const char *needle)
{
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	set_ok(&c, assignment);
	if (config_validate(&c, &err) == IVX_OK)
		fail_msg("%s validated", assignment);
	assert_int_equal(err.code, IVX_EUSAGE);
	expect_msg_has(&err, needle);
}

static void test_validate_rejects_impossible_machines(void **state)
{
	(void)state;
	expect_invalid("core.rob_size=2", "core.rob_size=2 is smaller than core.decode_width=4");
	expect_invalid("l1d.line=48", "l1d.line=48 is not a power of two");
	expect_invalid("l2.size=768K", "power-of-two number of sets");
	expect_invalid("l2.size=1000", "l2.size=1000 is not a multiple of the line (64)");
	/* one MSHR: a line-crossing access that misses twice waited forever
	 * (a deadlock on sqlite3's first unaligned store); the I-side never
	 * crosses a line, so one is enough there */
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	/* the key's range says so where the value is given ... */
	assert_int_equal(config_set(&c, "l1d.mshrs=1", &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.mshrs=1: value 1 for l1d.mshrs out of range 2..256");
	assert_int_equal(config_set(&c, "l2.mshrs=1", &err), IVX_EUSAGE);
	expect_msg_has(&err, "out of range 2..256");
	/* ... and the check of the whole machine for a configuration made
	 * another way */
	c.l1d.mshrs = 1;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "l1d.mshrs=1 out of range 2..256");
	config_defaults(&c);
	set_ok(&c, "l1i.mshrs=1");
	assert_int_equal(config_validate(&c, &err), IVX_OK);
}

static void test_validate_rejects_bad_geometry(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };

	config_defaults(&c);
	c.l1d.size = 0;  /* as a program might fill the struct by hand */
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "l1d.size");

	config_defaults(&c);
	set_ok(&c, "l1i.size=128");
	set_ok(&c, "l1i.assoc=4");  /* 2 lines of 64 bytes, 4 ways */
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "l1i.assoc=4 exceeds its 2 lines");
	set_ok(&c, "l1i.size=64");   /* one line: said in the singular */
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "l1i.assoc=4 exceeds its 1 line");
	config_defaults(&c);
	set_ok(&c, "dtlb.entries=1");
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "exceeds its 1 entry");

	config_defaults(&c);
	c.l2.mshrs = 0;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "l2.mshrs");

	config_defaults(&c);
	c.issue_width = 0;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "core.issue_width");

	config_defaults(&c);
	c.inorder = 7;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "core.mode");
}

static void test_validate_rejects_bad_tables(void **state)
{
	(void)state;
	expect_invalid("bpred.bimodal_entries=1000", "bpred.bimodal_entries=1000 is not a power of two");
	expect_invalid("bpred.btb_assoc=3", "BTB entries / 3 ways");
	expect_invalid("dtlb.assoc=3", "dtlb: 128 entries / 3 ways");
	expect_invalid("itlb.page=5000", "itlb.page=5000 is not a power of two");
	expect_invalid("sim.deadlock_cycles=100", "sim.deadlock_cycles=100 is not above");
}

/* The deadlock limit is checked against a bound that follows the machine:
 * refused at the bound, accepted one above, and the bound grows with the
 * memory latency (two trips of three per side). */
static void test_deadlock_limit_follows_the_machine(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	uint64_t gap = config_longest_commit_gap(&c);
	assert_true(gap > 2ull * c.memory_latency);   /* a fetch and a data access to memory at least */
	c.deadlock_cycles = gap;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg_has(&err, "without committing");
	c.deadlock_cycles = gap + 1;
	assert_int_equal(config_validate(&c, &err), IVX_OK);
	c.memory_latency += 100;
	assert_int_equal(config_longest_commit_gap(&c), gap + 600);
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	/* every unit's latency counts: an fsqrt behind a non-pipelined FP
	 * divide of 1000 cycles was called a deadlock at a limit the check
	 * had accepted (only div, mul and load were counted) */
	config_defaults(&c);
	uint64_t base_gap = config_longest_commit_gap(&c);
	c.fdiv_latency = 1000;
	assert_true(config_longest_commit_gap(&c) >= base_gap - 2ull * c.div_latency + 2000);
}

/* A check across keys, of a machine built from a file and -o, says where
 * the offending key was last set: the file's line, or the -o assignment;
 * a key left at its default passes the blame to the other key of the
 * check that was set. */
static void test_build_refusal_names_where_the_key_was_set(void **state)
{
	(void)state;
	char path[64], want[256];
	struct ivx_err err = { 0 };
	struct machine_config c;
	temp_ini(path, sizeof path, "[core]\nrob_size = 128\n\n[l1d]\nassoc = 4\n\nsize = 3\n");
	assert_int_equal(config_build(&c, path, NULL, 0, &err), IVX_EUSAGE);
	snprintf(want, sizeof want, "%s:7: l1d.size=3 is not a multiple of the line (64)", path);
	expect_msg(&err, want);

	/* -o after the file: the last setting is the one named */
	const char *size_again[] = { "l1d.size = 5" };
	assert_int_equal(config_build(&c, path, size_again, 1, &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.size = 5: l1d.size=5 is not a multiple of the line (64)");
	const char *no_file[] = { "core.decode_width=2", "l1d.size=3" };
	assert_int_equal(config_build(&c, NULL, no_file, 2, &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.size=3: l1d.size=3 is not a multiple of the line (64)");

	/* l1d.assoc=4 is the file's (line 5), its size of 256 (4 lines) the
	 * -o's: too many ways is blamed on the ways */
	const char *small[] = { "l1d.size=256", "l1d.assoc=8" };
	assert_int_equal(config_build(&c, path, small, 1, &err), IVX_OK);
	assert_int_equal(config_build(&c, path, small, 2, &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.assoc=8: l1d.assoc=8 exceeds its 4 lines");
	/* the blamed key at its default: the other key that was set */
	const char *tiny[] = { "l1d.size=128" };
	assert_int_equal(config_build(&c, NULL, tiny, 1, &err), IVX_EUSAGE);
	expect_msg(&err, "-o l1d.size=128: l1d.assoc=4 exceeds its 2 lines");
	const char *mem[] = { "memory.latency=50000" };
	assert_int_equal(config_build(&c, NULL, mem, 1, &err), IVX_EUSAGE);
	expect_msg_has(&err, "-o memory.latency=50000: sim.deadlock_cycles=100000 is not above");
	unlink(path);

	/* a key error is the file's or the -o's own, as with config_load */
	temp_ini(path, sizeof path, "[l1d]\nsize = 3\nsize = 3\n");
	assert_int_equal(config_build(&c, path, NULL, 0, &err), IVX_EINPUT);
	snprintf(want, sizeof want, "%s:3: 'l1d.size' is set twice (first on line 2)", path);
	expect_msg(&err, want);
	unlink(path);
	const char *bad[] = { "l1d.sise=3" };
	assert_int_equal(config_build(&c, NULL, bad, 1, &err), IVX_EUSAGE);
	expect_msg_has(&err, "-o l1d.sise=3: unknown key");

	/* a struct checked without config_build has nowhere to point */
	config_defaults(&c);
	c.l1d.size = 3;
	assert_int_equal(config_validate(&c, &err), IVX_EUSAGE);
	expect_msg(&err, "l1d.size=3 is not a multiple of the line (64)");
}

/* CTR_EL0 follows the machine's lines, and the default machine's is the
 * value guests always read (the difftests against qemu rely on it). */
static void test_ctr_el0_follows_the_lines(void **state)
{
	(void)state;
	struct machine_config c;
	config_defaults(&c);
	assert_int_equal(config_ctr_el0(&c), 0x8444c004);
	set_ok(&c, "l1i.line=32");
	set_ok(&c, "l1d.line=128");
	set_ok(&c, "l2.line=128");
	/* IminLine log2(8 words), DminLine and CWG log2(32 words), ERG kept */
	assert_int_equal(config_ctr_el0(&c), 0x8545c003);
	set_ok(&c, "l2.line=32");    /* the unified L2's smaller line bounds both */
	assert_int_equal(config_ctr_el0(&c), 0x8543c003);
	set_ok(&c, "l2.line=4096");  /* CWG stops at the architecture's 2 KB */
	set_ok(&c, "l2.size=4M");
	assert_int_equal(config_ctr_el0(&c), 0x8945c003);
}

static void test_validate_accepts_odd_but_working_machines(void **state)
{
	(void)state;
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	set_ok(&c, "l2.size=96K");
	set_ok(&c, "l2.assoc=3");        /* 512 sets */
	set_ok(&c, "dtlb.assoc=128");    /* fully associative */
	set_ok(&c, "core.rob_size=4");   /* exactly the width */
	set_ok(&c, "bpred.gshare_history=0");
	if (config_validate(&c, &err) != IVX_OK)
		fail_msg("%s", err.msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_table_2),
		cmocka_unit_test(test_default_penalties_follow_latencies),
		cmocka_unit_test(test_default_ini_equals_builtin_defaults),
		cmocka_unit_test(test_default_ini_lists_every_key),
		cmocka_unit_test(test_inorder_ini_is_a_dual_issue_in_order_machine),
		cmocka_unit_test(test_load_text_equals_load_file),
		cmocka_unit_test(test_docs_describe_every_key),
		cmocka_unit_test(test_unknown_key_in_file_names_file_and_line),
		cmocka_unit_test(test_bad_value_in_file),
		cmocka_unit_test(test_out_of_range_in_file),
		cmocka_unit_test(test_syntax_error_in_file),
		cmocka_unit_test(test_long_line_is_refused_at_its_line),
		cmocka_unit_test(test_nul_byte_is_refused),
		cmocka_unit_test(test_control_bytes_are_not_echoed),
		cmocka_unit_test(test_first_of_several_errors_is_reported),
		cmocka_unit_test(test_key_outside_section),
		cmocka_unit_test(test_unknown_section_is_named_at_its_line),
		cmocka_unit_test(test_line_with_no_key),
		cmocka_unit_test(test_indented_line_continues_the_value_above),
		cmocka_unit_test(test_blanks_in_section_colon_and_bom),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_file_values_apply),
		cmocka_unit_test(test_override_sets_one_key),
		cmocka_unit_test(test_override_unknown_key),
		cmocka_unit_test(test_override_bad_values),
		cmocka_unit_test(test_every_key_round_trips_through_get_and_set),
		cmocka_unit_test(test_get_formats_values),
		cmocka_unit_test(test_key_set_twice),
		cmocka_unit_test(test_validate_rejects_impossible_machines),
		cmocka_unit_test(test_validate_rejects_bad_geometry),
		cmocka_unit_test(test_validate_rejects_bad_tables),
		cmocka_unit_test(test_deadlock_limit_follows_the_machine),
		cmocka_unit_test(test_validate_accepts_odd_but_working_machines),
		cmocka_unit_test(test_build_refusal_names_where_the_key_was_set),
		cmocka_unit_test(test_ctr_el0_follows_the_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
