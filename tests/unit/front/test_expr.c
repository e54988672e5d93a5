/*
 * test_expr.c — the expression language of `print` and of breakpoint
 * conditions (src/explorer/explorer_expr.h): numbers in decimal and hex,
 * every operator with C's precedence and 64-bit wrap-around, strings,
 * the explorer's variables, guest registers and the program's symbols;
 * and every way an expression can be wrong refused with its message.
 * Evaluated on a batch session over the built-in program.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "explorer/explorer.h"
#include "explorer/explorer_expr.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "isa/cpu.h"
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

/* Parse and evaluate `text` now (no event): the value, or fail the test. */
static struct xval eval_ok(struct explorer *x, const char *text)
{
	char err[256] = "";
	struct xexpr *e = xexpr_parse(x, text, err, sizeof err);
	if (!e)
		fail_msg("'%s' refused: %s", text, err);
	struct xexpr_env env = { .x = x };
	struct xval v;
	if (xexpr_eval(e, &env, &v, err, sizeof err) < 0)
		fail_msg("'%s' failed: %s", text, err);
	xexpr_free(e);
	return v;
}

static int64_t num(struct explorer *x, const char *text)
{
	struct xval v = eval_ok(x, text);
	if (v.is_str)
		fail_msg("'%s' gave the string \"%s\"", text, v.str);
	return v.num;
}

/* `text` must be refused by the parser with exactly `msg`. */
static void parse_fails(struct explorer *x, const char *text, const char *msg)
{
	char err[256] = "";
	struct xexpr *e = xexpr_parse(x, text, err, sizeof err);
	if (e)
		fail_msg("'%s' was accepted", text);
	if (strcmp(err, msg))
		fail_msg("'%s': message\n  '%s'\nexpected\n  '%s'", text, err, msg);
}

/* `text` parses but evaluating it fails with exactly `msg`. */
static void eval_fails(struct explorer *x, const char *text, const char *msg)
{
	char err[256] = "";
	struct xexpr *e = xexpr_parse(x, text, err, sizeof err);
	if (!e)
		fail_msg("'%s' refused: %s", text, err);
	struct xexpr_env env = { .x = x };
	struct xval v;
	int rc = xexpr_eval(e, &env, &v, err, sizeof err);
	xexpr_free(e);
	if (rc == 0)
		fail_msg("'%s' evaluated", text);
	if (strcmp(err, msg))
		fail_msg("'%s': message\n  '%s'\nexpected\n  '%s'", text, err, msg);
}

static void test_numbers(void **state)
{
	struct explorer *x = *state;
	assert_int_equal(num(x, "0"), 0);
	assert_int_equal(num(x, "42"), 42);
	assert_int_equal(num(x, "0x10"), 16);
	assert_int_equal(num(x, "0XfF"), 255);
	assert_int_equal(num(x, "010"), 10);   /* a leading 0 is not octal */
	assert_int_equal(num(x, "  7  "), 7);
	assert_int_equal(num(x, "18446744073709551615"), -1);   /* all 64 bits, read as signed */
	assert_int_equal(num(x, "0xffffffffffffffff"), -1);
}

static void test_operators(void **state)
{
	struct explorer *x = *state;
	assert_int_equal(num(x, "6 * 7"), 42);
	assert_int_equal(num(x, "7 / 2"), 3);
	assert_int_equal(num(x, "-7 / 2"), -3);   /* truncates as in C */
	assert_int_equal(num(x, "7 % 3"), 1);
	assert_int_equal(num(x, "-7 % 3"), -1);
	assert_int_equal(num(x, "5 - 8"), -3);
	assert_int_equal(num(x, "1 << 4"), 16);
	assert_int_equal(num(x, "-1 >> 60"), 15);   /* a logical shift */
	assert_int_equal(num(x, "1 << 64"), 1);     /* shift counts are taken mod 64 */
	assert_int_equal(num(x, "12 & 10"), 8);
	assert_int_equal(num(x, "12 | 3"), 15);
	assert_int_equal(num(x, "12 ^ 10"), 6);
	assert_int_equal(num(x, "-5"), -5);
	assert_int_equal(num(x, "~0"), -1);
	assert_int_equal(num(x, "!0"), 1);
	assert_int_equal(num(x, "!7"), 0);
	assert_int_equal(num(x, "--3"), 3);
	assert_int_equal(num(x, "3 == 3"), 1);
	assert_int_equal(num(x, "3 != 3"), 0);
	assert_int_equal(num(x, "-1 < 0"), 1);      /* signed comparison */
	assert_int_equal(num(x, "2 <= 2"), 1);
	assert_int_equal(num(x, "2 > 3"), 0);
	assert_int_equal(num(x, "3 >= 2"), 1);
	assert_int_equal(num(x, "2 && 3"), 1);
	assert_int_equal(num(x, "0 || 0"), 0);
	/* 64-bit wrap-around, and the one division that overflows. */
	assert_int_equal(num(x, "0x7fffffffffffffff + 1"), INT64_MIN);
	assert_int_equal(num(x, "(-9223372036854775807 - 1) / -1"), INT64_MIN);
	assert_int_equal(num(x, "(-9223372036854775807 - 1) % -1"), 0);
	assert_int_equal(num(x, "-(-9223372036854775807 - 1)"), INT64_MIN);
}

static void test_precedence(void **state)
{
	struct explorer *x = *state;
	assert_int_equal(num(x, "2 + 3 * 4"), 14);
	assert_int_equal(num(x, "(2 + 3) * 4"), 20);
	assert_int_equal(num(x, "10 - 3 - 2"), 5);     /* left to right */
	assert_int_equal(num(x, "64 / 4 / 2"), 8);
	assert_int_equal(num(x, "1 << 2 + 1"), 8);     /* + binds tighter than << */
	assert_int_equal(num(x, "1 + 1 < 3"), 1);      /* << and + before < */
	assert_int_equal(num(x, "1 < 2 == 1"), 1);     /* < before == */
	assert_int_equal(num(x, "6 & 3 == 3"), 0);    /* == before & : 6 & (3 == 3) */
	assert_int_equal(num(x, "1 | 2 ^ 3 & 6"), 1); /* & before ^ before | */
	assert_int_equal(num(x, "0 || 1 && 0"), 0);   /* && before || */
	assert_int_equal(num(x, "1 || 0 && 0"), 1);
	assert_int_equal(num(x, "-2 * -3"), 6);       /* unary before binary */
	assert_int_equal(num(x, "!1 + 1"), 1);
	assert_int_equal(num(x, "((((((7))))))"), 7);
	/* The right operand of a short-circuit is not evaluated. */
	assert_int_equal(num(x, "0 && 1 / 0"), 0);
	assert_int_equal(num(x, "1 || *0"), 1);
}

static void test_strings(void **state)
{
	struct explorer *x = *state;
	struct xval v = eval_ok(x, "\"abc\"");
	assert_true(v.is_str);
	assert_string_equal(v.str, "abc");
	assert_int_equal(num(x, "\"abc\" == \"abc\""), 1);
	assert_int_equal(num(x, "\"abc\" != \"abd\""), 1);
	/* At cycle 0 the pc is the entry point, in _start. */
	v = eval_ok(x, "sym");
	assert_true(v.is_str);
	assert_string_equal(v.str, "_start");
	assert_int_equal(num(x, "sym == \"_start\""), 1);
	assert_int_equal(num(x, "sym == _start"), 1);   /* a symbol compares by name */
	assert_int_equal(num(x, "sym != main"), 1);
}

static void test_symbols(void **state)
{
	struct explorer *x = *state;
	const struct symtab *st = program_symbols(x->prog);
	const struct symbol *m = symtab_find(st, "main");
	assert_non_null(m);
	assert_int_equal(num(x, "main"), (int64_t)m->addr);
	assert_int_equal(num(x, "$main"), (int64_t)m->addr);
	assert_int_equal(num(x, "main + 8"), (int64_t)m->addr + 8);
	assert_int_equal(num(x, "_start"), (int64_t)program_entry(x->prog));
}

static void test_variables_and_registers(void **state)
{
	struct explorer *x = *state;
	assert_int_equal(num(x, "cycle"), 0);
	assert_int_equal(num(x, "insns"), 0);
	assert_int_equal(num(x, "pc"), (int64_t)program_entry(x->prog));
	assert_int_equal(num(x, "$pc == pc"), 1);
	/* Run a little so the registers hold something. */
	assert_int_equal(explorer_stepi(x, 200), 0);
	assert_int_equal(num(x, "insns"), (int64_t)explorer_committed(x));
	assert_int_equal(num(x, "cycle"), (int64_t)explorer_cycle(x));
	assert_true(num(x, "cycle") > 0);
	assert_int_equal(num(x, "pc"), (int64_t)explorer_pc(x));
	assert_true(num(x, "rob") >= 0 && num(x, "rob") <= (int64_t)x->cfg_live.rob_size);
	const struct cpu *cpu = guest_cpu_const(x->guest);
	int nonzero = 0;
	for (int r = 0; r <= 30; r++) {
		char t[8];
		snprintf(t, sizeof t, "x%d", r);
		assert_int_equal(num(x, t), (int64_t)cpu->x[r]);
		snprintf(t, sizeof t, "$w%d", r);
		assert_int_equal(num(x, t), (int64_t)(uint32_t)cpu->x[r]);
		nonzero += cpu->x[r] != 0;
	}
	assert_true(nonzero > 0);
	assert_int_equal(num(x, "sp"), (int64_t)cpu->x[CPU_SP]);
	assert_true(num(x, "sp") != 0);
	assert_int_equal(num(x, "lr"), (int64_t)cpu->x[30]);
	assert_int_equal(num(x, "fp"), (int64_t)cpu->x[29]);
	assert_int_equal(num(x, "nzcv"), (int64_t)cpu->nzcv);
	/* Memory: the stack pointer's doubleword, read twice the same. */
	assert_int_equal(num(x, "*sp == *(sp + 0)"), 1);
}

static void test_uses(void **state)
{
	struct explorer *x = *state;
	char err[200];
	struct xexpr *e = xexpr_parse(x, "latency > 100 && kind == \"l2d\"", err, sizeof err);
	assert_non_null(e);
	assert_true(xexpr_uses(e, "latency"));
	assert_true(xexpr_uses(e, "kind"));
	assert_false(xexpr_uses(e, "end"));
	assert_string_equal(xexpr_text(e), "latency > 100 && kind == \"l2d\"");
	xexpr_free(e);
	xexpr_free(NULL);
	int found = 0;
	for (size_t i = 0; xexpr_var_name(i); i++)
		found += !strcmp(xexpr_var_name(i), "latency") || !strcmp(xexpr_var_name(i), "stop_pc");
	assert_int_equal(found, 2);
}

static void test_parse_errors(void **state)
{
	struct explorer *x = *state;
	parse_fails(x, "", "expression expected");
	parse_fails(x, "1 +", "expression expected");
	parse_fails(x, "(1", "missing ')'");
	parse_fails(x, "(1 + 2", "missing ')'");
	parse_fails(x, "1 2", "unexpected \"2\" after expression");
	parse_fails(x, "1)", "unexpected \")\" after expression");
	parse_fails(x, "&main", "unexpected '&' in expression");
	parse_fails(x, "1 + @", "unexpected '@' in expression");
	parse_fails(x, "\"abc", "unterminated string");
	parse_fails(x, "nosuchsymbol", "no symbol \"nosuchsymbol\" in current context");
	parse_fails(x, "x31", "no symbol \"x31\" in current context");
	parse_fails(x, "12ab", "invalid number \"12ab\"");
	parse_fails(x, "0x", "invalid number \"0x\"");
	parse_fails(x, "1k", "invalid number \"1k\"");
	parse_fails(x, "99999999999999999999", "number too large for 64 bits: 99999999999999999999");
	/* Nesting is bounded: 300 parentheses or minus signs are refused. */
	char deep[700];
	memset(deep, '(', 300);
	strcpy(deep + 300, "1");
	memset(deep + 301, ')', 300);
	deep[601] = 0;
	parse_fails(x, deep, "expression nested too deeply");
	memset(deep, '-', 300);
	strcpy(deep + 300, "1");
	parse_fails(x, deep, "expression nested too deeply");
	/* So is a long chain, which would nest as deep in the tree. */
	char chain[2000] = "1";
	for (int i = 0; i < 400; i++)
		strcat(chain, "+1");
	parse_fails(x, chain, "expression nested too deeply");
	/* 200 levels are fine. */
	memset(deep, '(', 200);
	strcpy(deep + 200, "5");
	memset(deep + 201, ')', 200);
	deep[401] = 0;
	assert_int_equal(num(x, deep), 5);
}

static void test_eval_errors(void **state)
{
	struct explorer *x = *state;
	eval_fails(x, "7 / 0", "division by zero");
	eval_fails(x, "7 % (1 - 1)", "division by zero");
	/* a decimal division is C's (and gdb's): infinite, not an error */
	struct xval v = eval_ok(x, "1.0 / 0");
	assert_true(v.is_float && isinf(v.fnum) && v.fnum > 0);
	v = eval_ok(x, "-2 / (0 * 1.0)");
	assert_true(v.is_float && isinf(v.fnum) && v.fnum < 0);
	eval_fails(x, "*0", "cannot access memory at address 0x0");
	eval_fails(x, "-\"a\"", "operator '-' needs a number");
	eval_fails(x, "sym < \"a\"", "strings can only be compared with == and !=");
	eval_fails(x, "sym == 3", "cannot compare a number with a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_numbers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_operators, setup, teardown),
		cmocka_unit_test_setup_teardown(test_precedence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(test_variables_and_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_parse_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eval_errors, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
