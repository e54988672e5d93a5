/*
 * test_sweep.c — what `ivx sweep` is built on (src/cli/sweep_spec.h,
 * src/cli/json.h): a spec expands to the cartesian product of its
 * dimensions with programs varying slowest and commands fastest; each job's
 * command line is exactly what the spec says, in a fixed order; words split
 * like a shell without expansion; every mistake names its line; and the
 * JSON reader takes what ivx writes (and every escape of RFC 8259) and
 * refuses what is not JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/json.h"
#include "cli/sweep_spec.h"

static struct sweep_spec *parse(const char *text, char *err, size_t len)
{
	return sweep_spec_parse("t.spec", text, strlen(text), err, len);
}

/* Job i's command line joined by single blanks. */
static void argv_of(const struct sweep_spec *s, uint64_t i, char *out, size_t len)
{
	int argc = -1;
	const char **av = sweep_spec_argv(s, i, NULL, &argc);
	assert_non_null(av);
	assert_null(av[argc]);
	out[0] = '\0';
	for (int k = 0; k < argc; k++) {
		assert_true(strlen(out) + strlen(av[k]) + 2 < len);
		strcat(out, k ? " " : "");
		strcat(out, av[k]);
	}
	free(av);
}

static const char spec_text[] =
	"# two programs, two configs, an axis, an -o list, two commands\n"
	"[sweep]\n"
	"command = run cpistack\n"
	"options = --max-insns 1k   # a comment after a blank\n"
	"o = core.rob_size = 64, 128, 256\n"
	"[program]\n"
	"path = data/bin/workloads/crc\n"
	"args = 48 'a b' \"c \\\"d\\\"\" e\\ f\n"
	"[program q]\n"
	"path = data/bin/workloads/qsort\n"
	"options = --seed 7\n"
	"[config]\n"
	"[config big]\n"
	"file = data/configs/default.ini\n"
	"o = l2.size = 2M\n"
	"[axis start]\n"
	"cold =\n"
	"warm = --fastforward 5M\n";

/* 2 programs x 2 configs x 3 ROB sizes x 2 starts x 2 commands, the
 * dimensions in expansion order, job numbers as mixed radix. */
static void test_expansion(void **state)
{
	char err[256] = "";
	struct sweep_spec *s = parse(spec_text, err, sizeof err);
	assert_non_null(s);
	assert_int_equal(s->n_jobs, 2 * 2 * 3 * 2 * 2);
	assert_int_equal(s->n_dims, 5);
	const char *names[] = { "program", "config", "core.rob_size", "start", "command" };
	for (int d = 0; d < 5; d++)
		assert_string_equal(s->dims[d].name, names[d]);
	assert_string_equal(s->dims[0].v[0].label, "crc 48 a b c \"d\" e f");   /* default label */
	assert_string_equal(s->dims[0].v[1].label, "q");
	assert_string_equal(s->dims[1].v[0].label, "default");
	assert_string_equal(s->dims[1].v[1].label, "big");
	int idx[5];
	sweep_spec_point(s, 0, idx);
	for (int d = 0; d < 5; d++)
		assert_int_equal(idx[d], 0);
	sweep_spec_point(s, 1, idx);   /* the command varies fastest */
	assert_int_equal(idx[4], 1);
	assert_int_equal(idx[3], 0);
	sweep_spec_point(s, s->n_jobs - 1, idx);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[2], 2);
	sweep_spec_point(s, 24, idx);   /* 3*2*2*2 jobs per program: job 24 is the second's first */
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1] + idx[2] + idx[3] + idx[4], 0);

	char line[512];
	argv_of(s, 0, line, sizeof line);
	assert_string_equal(line, "run --quiet --max-insns 1k -o core.rob_size=64 data/bin/workloads/crc -- 48 a b c \"d\" e f");
	/* program 1 (q), config big, rob 256, warm, cpistack */
	uint64_t j = ((((1 * 2 + 1) * 3 + 2) * 2 + 1) * 2 + 1);
	argv_of(s, j, line, sizeof line);
	assert_string_equal(line, "cpistack --quiet --jobs 1 --max-insns 1k --config data/configs/default.ini "
				  "-o l2.size=2M -o core.rob_size=256 --fastforward 5M --seed 7 data/bin/workloads/qsort");
	int argc;
	const char **av = sweep_spec_argv(s, j, "/tmp/x.json", &argc);
	assert_string_equal(av[4], "--json");
	assert_string_equal(av[5], "/tmp/x.json");
	free(av);
	assert_ptr_equal(sweep_spec_program(s, j), &s->dims[0].v[1]);
	sweep_spec_free(s);
	sweep_spec_free(NULL);
}

/* The smallest spec: one program; the default machine and cpistack. */
static void test_defaults(void **state)
{
	char err[256];
	struct sweep_spec *s = parse("[program]\npath = p\n", err, sizeof err);
	assert_non_null(s);
	assert_int_equal(s->n_jobs, 1);
	assert_int_equal(s->n_dims, 3);
	assert_string_equal(s->dims[1].v[0].label, "default");
	assert_string_equal(s->dims[2].v[0].label, "cpistack");
	char line[128];
	argv_of(s, 0, line, sizeof line);
	assert_string_equal(line, "cpistack --quiet --jobs 1 p");
	sweep_spec_free(s);
}

static void test_words(void **state)
{
	char **w, err[64];
	int n = sweep_split_words("  a 'b c'd \"e\\\"f\\\\\" g\\ h 'x\"y' \"p'q\" # rest", &w, err, sizeof err);
	assert_int_equal(n, 6);
	const char *want[] = { "a", "b cd", "e\"f\\", "g h", "x\"y", "p'q" };
	for (int i = 0; i < n; i++) {
		assert_string_equal(w[i], want[i]);
		free(w[i]);
	}
	free(w);
	assert_int_equal(sweep_split_words("", &w, err, sizeof err), 0);
	free(w);
	assert_int_equal(sweep_split_words("'#' x#y", &w, err, sizeof err), 2);   /* quoted, or inside a word */
	assert_string_equal(w[0], "#");
	assert_string_equal(w[1], "x#y");
	free(w[0]);
	free(w[1]);
	free(w);
	assert_int_equal(sweep_split_words("a 'b", &w, err, sizeof err), -1);
	assert_string_equal(err, "unclosed ' quote");
	assert_int_equal(sweep_split_words("\"b\\\"", &w, err, sizeof err), -1);
	assert_string_equal(err, "unclosed \" quote");
}

/* Each mistake: its line and message. */
static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "[program]\n", "t.spec:1: [program] has no `path =`" },
		{ "", "t.spec: no [program] section: nothing to run" },
		{ "[sweep]\ncommand = run\ncommand = run\n", "t.spec:3: `command =` given twice" },
		{ "[sweep]\ncommand =\n", "t.spec:2: `command =` names no command" },
		{ "[sweep]\ncommand = run run\n[program]\npath = p\n", "t.spec:2: command 'run' is listed twice" },
		{ "[program]\npath = a b\n", "t.spec:2: `path =` takes one path" },
		{ "[program]\npath = a\npath = b\n", "t.spec:3: `path =` given twice" },
		{ "[program]\npath = a\noptions = -- x\n", "t.spec:3: '--' cannot be a sweep option" },
		{ "[program]\npath = a\noptions = --svg s.svg\n", "t.spec:3: '--svg' cannot be a sweep option" },
		{ "[config]\nfile = a b\n", "t.spec:2: `file =` takes one path" },
		{ "[config]\no = rob_size=64\n", "t.spec:2: `o =`: 'rob_size' is not a SECTION.KEY" },
		{ "[config]\no = core.rob_size=\n", "t.spec:2: `o = SECTION.KEY=VALUE` expected" },
		{ "[config]\nfoo = 1\n", "t.spec:2: unknown key 'foo' in [config]" },
		{ "[sweep]\no = core.a=1\no = core.a=2\n", "t.spec:3: a dimension named 'core.a' already exists" },
		{ "[sweep]\no = core.a=1,1\n", "t.spec:2: `o = core.a=...`: '1' is listed twice" },
		{ "[axis bad name]\n", "t.spec:1: [axis NAME]: NAME is letters" },
		{ "[axis a]\n= --x\n", "t.spec:2: an axis value needs a label" },
		{ "[sweep] extra\n", "t.spec:1: a section header is [NAME]" },
		{ "[sweep x]\n", "t.spec:1: [sweep] takes no name" },
		{ "[program]\npath = p\n[config a]\n[config a]\n", "t.spec:4: two configs are labelled 'a'" },
		{ "[program]\npath = p\n[sweep]\nfoo = 1\n", "t.spec:4: unknown key 'foo' in [sweep]" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[256] = "";
		struct sweep_spec *s = parse(cases[i].text, err, sizeof err);
		if (s || strncmp(err, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: want \"%s...\", got \"%s\"", i, cases[i].msg, s ? "(parsed)" : err);
	}
	char err[128];
	const char nul[] = "[program]\npath = p\0x\n";
	assert_null(sweep_spec_parse("t.spec", nul, sizeof nul - 1, err, sizeof err));
	assert_string_equal(err, "t.spec: a NUL byte in the file: not a text spec");
	assert_null(sweep_spec_load("/nonexistent/t.spec", err, sizeof err));
	assert_string_equal(err, "/nonexistent/t.spec: No such file or directory");
}

/* Past SWEEP_MAX_JOBS: refused, not allocated. */
static void test_too_many(void **state)
{
	char text[4096] = "[program]\npath = p\n[sweep]\n";
	for (int k = 0; k < 8; k++) {
		char l[128];
		snprintf(l, sizeof l, "o = core.k%d = 1,2,3,4,5,6,7,8,9,10\n", k);
		strcat(text, l);
	}
	char err[256];
	assert_null(parse(text, err, sizeof err));
	assert_non_null(strstr(err, "expands to more than 10000000 jobs"));
}

static void test_json(void **state)
{
	const char *t = " {\"a\":[1,-2.5e3,true,false,null],\"s\":\"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\","
			"\"o\":{\"n\":0.683182,\"e\":{}} , \"a\":2} ";
	char err[128];
	struct json *d = json_parse(t, strlen(t), err, sizeof err);
	assert_non_null(d);
	const struct json_val *r = json_root(d);
	assert_int_equal(json_type(r), JSON_OBJECT);
	assert_int_equal(json_count(r), 4);
	assert_string_equal(json_key_at(r, 3), "a");
	const struct json_val *a = json_get(r, "a");   /* the first "a" */
	assert_int_equal(json_count(a), 5);
	assert_true(json_number(json_at(a, 1)) == -2500.0);
	assert_string_equal(json_raw(json_at(a, 1)), "-2.5e3");
	assert_true(json_bool(json_at(a, 2)));
	assert_false(json_bool(json_at(a, 3)));
	assert_int_equal(json_type(json_at(a, 4)), JSON_NULL);
	assert_null(json_at(a, 5));
	assert_string_equal(json_string(json_get(r, "s")), "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
	assert_string_equal(json_raw(json_get(json_get(r, "o"), "n")), "0.683182");
	assert_int_equal(json_count(json_get(json_get(r, "o"), "e")), 0);
	assert_null(json_get(json_get(r, "nope"), "x"));   /* lookups chain through NULL */
	assert_null(json_string(json_at(a, 0)));
	assert_null(json_key_at(a, 0));
	json_free(d);
	json_free(NULL);

	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "1e", "\"abc", "\"\\x\"", "\"\\u12g4\"",
		"\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"a\nb\"", "tru", "nul", "{} x", "[1 2]", "{1:2}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		d = json_parse(bad[i], strlen(bad[i]), err, sizeof err);
		if (d)
			fail_msg("accepted bad JSON %zu: %s", i, bad[i]);
		assert_non_null(strstr(err, "offset "));
	}
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_null(json_parse(deep, 200, err, sizeof err));
	assert_non_null(strstr(err, "nested too deeply"));
	assert_non_null((d = json_parse(deep + 40, 120, err, sizeof err)));   /* 60 levels are fine */
	json_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expansion), cmocka_unit_test(test_defaults), cmocka_unit_test(test_words),
		cmocka_unit_test(test_errors),    cmocka_unit_test(test_too_many), cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
