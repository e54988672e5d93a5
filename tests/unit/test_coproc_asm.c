/*
 * test_coproc_asm.c — the co-processor assembler: the shipped programs
 * assemble and list back to source that assembles to the same program;
 * every kind of mistake is reported as "file:line: message" on the right
 * line; settings reach the program.
 *
 * Run from the top of the tree (make unit does); reads data/coproc.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "coproc/coproc_prog.h"

static struct coproc_prog prog, again;

#define HDR ".classes load\n.fields pc value\n.dfe load s\n"   /* lines 1-3 */

static int assemble(const char *src, struct ivx_err *err)
{
	return coproc_asm(src, strlen(src), "t.s", &prog, err);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = malloc(1 << 16);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

/* Two programs are the same when everything but source lines and label
 * names is: what the co-processor is loaded with. */
static void assert_same_program(const struct coproc_prog *x, const struct coproc_prog *y, const char *what)
{
	int same = !strcmp(x->name, y->name) && !strcmp(x->handler, y->handler) && x->classes == y->classes &&
		   x->fields == y->fields && x->n_insns == y->n_insns && !memcmp(x->dfe, y->dfe, sizeof x->dfe) &&
		   !memcmp(x->creg, y->creg, sizeof x->creg) && !memcmp(x->breg, y->breg, sizeof x->breg) &&
		   !memcmp(x->treg, y->treg, sizeof x->treg) && x->iwidth == y->iwidth && x->cwidth == y->cwidth &&
		   x->awidth == y->awidth && x->pc_width == y->pc_width && x->pc_match == y->pc_match &&
		   x->n_params == y->n_params;
	for (int i = 0; same && i < x->n_params; i++)
		same = !strcmp(x->param[i].name, y->param[i].name) && x->param[i].value == y->param[i].value;
	for (int a = 0; same && a < x->n_insns; a++) {
		const struct cp_uinsn *u = &x->insn[a], *v = &y->insn[a];
		same = u->op == v->op && u->dst == v->dst && u->a == v->a && u->b == v->b && u->base == v->base &&
		       u->cond == v->cond && u->tkind == v->tkind && u->target == v->target && u->imm == v->imm;
	}
	if (!same)
		fail_msg("%s: the listing assembles to another program", what);
}

/* Assemble src, list it, assemble the listing: the same program. */
static void round_trip(const char *src, size_t len, const char *name)
{
	struct ivx_err err = { 0 };
	if (coproc_asm_reading(src, len, name, coproc_read_host_file, NULL, &prog, &err) < 0)
		fail_msg("%s", err.msg);
	static char text[1 << 17];
	size_t n = coproc_prog_listing(&prog, name, text, sizeof text);
	assert_true(n < sizeof text);
	if (coproc_asm(text, n, "listing", &again, &err) < 0)
		fail_msg("%s: listing does not assemble: %s\n%s", name, err.msg, text);
	assert_same_program(&prog, &again, name);
}

static void shipped_programs_list_to_source_of_the_same_program(void **state)
{
	(void)state;
	DIR *d = opendir("data/coproc");
	assert_non_null(d);
	int programs = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".s"))
			continue;
		char path[300];
		snprintf(path, sizeof path, "data/coproc/%s", e->d_name);
		size_t len;
		char *src = slurp(path, &len);
		round_trip(src, len, path);
		free(src);
		assert_true(prog.n_insns > 5);
		programs++;
	}
	closedir(d);
	assert_true(programs >= 5);
	/* what the shipped programs do not use: a .target naming
	 * microinstruction 0, a .dfe default (with a class of its own), no
	 * .fields, a large constant, a negative immediate */
	const char *odd = ".name odd\n.handler none\n.classes load store call\n.dfe default a\n.dfe store b\n"
			  ".target t0 a\n.target t1 b\n.const c0 0xffffffffffffffff\n"
			  "a: mov v0, #-5 -> t1\nb: nop -> t0\n";
	round_trip(odd, strlen(odd), "odd.s");
	assert_int_equal(prog.treg[0], 0);
	assert_int_equal(prog.dfe[INSN_KIND_ALU], 0);
	assert_int_equal(prog.dfe[INSN_KIND_STORE], 1);
	assert_int_equal(prog.fields, 0);
}

static void settings_reach_the_program(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	const char *src = ".name t\n.handler none\n.classes load store\n.fields pc addr\n"
			  ".dfe load a\n.dfe default b\n.const c3 0x10\n.base b2 100\n.target t1 b\n"
			  ".iwidth 5\n.cwidth 12\n.pcfilter 3 5\n.param slots 8\n"
			  "a: add v0, pc, #4 -> DONE\nb: st [b2 + i1], addr -> t1\n   rand i2, c3 -> nsat INTERRUPT\n";
	if (assemble(src, &err) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(prog.name, "t");
	assert_string_equal(prog.handler, "none");
	assert_int_equal(prog.classes, (1u << INSN_KIND_LOAD) | (1u << INSN_KIND_STORE));
	assert_int_equal(prog.fields, CPF_PC | CPF_ADDR);
	assert_int_equal(prog.dfe[INSN_KIND_LOAD], 0);
	assert_int_equal(prog.dfe[INSN_KIND_STORE], 1);
	assert_int_equal(prog.creg[3], 16);
	assert_int_equal(prog.breg[2], 100);
	assert_int_equal(prog.treg[1], 1);
	assert_int_equal(prog.iwidth, 5);
	assert_int_equal(prog.cwidth, 12);
	assert_int_equal(prog.pc_width, 3);
	assert_int_equal(prog.pc_match, 5);
	assert_int_equal(coproc_prog_param(&prog, "slots", 0), 8);
	assert_int_equal(coproc_prog_param(&prog, "nope", 7), 7);
	assert_int_equal(prog.n_insns, 3);
	assert_int_equal(prog.insn[0].op, CP_ADD);
	assert_int_equal(prog.insn[0].imm, 4);
	assert_int_equal(prog.insn[0].tkind, CPT_DONE);
	assert_int_equal(prog.insn[1].tkind, CPT_TREG);
	assert_int_equal(prog.insn[2].cond, CPC_NSAT);
	assert_int_equal(prog.insn[2].tkind, CPT_INTERRUPT);
}

/* Numbers are decimal or 0x hex: a leading zero is not C's octal, and a
 * 64-bit pattern may be written either way. */
static void numbers_are_decimal_or_hex(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	const char *src = HDR ".param slots 0100\n.const c1 0777\n.const c2 0xFFFFFFFFFFFFFFFF\n"
			  ".const c3 18446744073709551615\n"
			  "s: mov v0, 010\n mov v1, #08\n mov v2, -9223372036854775808\n mov v3, 0X1f\n";
	if (assemble(src, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(coproc_prog_param(&prog, "slots", 0), 100);
	assert_int_equal(prog.creg[1], 777);
	assert_true(prog.creg[2] == UINT64_MAX);
	assert_true(prog.creg[3] == UINT64_MAX);
	assert_int_equal(prog.insn[0].imm, 10);
	assert_int_equal(prog.insn[1].imm, 8);
	assert_true(prog.insn[2].imm == INT64_MIN);
	assert_int_equal(prog.insn[3].imm, 31);
}

struct bad {
	const char *src;
	const char *msg;   /* the whole message, file:line included */
};

static const struct bad bad[] = {
	{ "", "t.s:1: the program has no microinstructions" },
	{ HDR "s: frob v0 -> DONE\n", "t.s:4: unknown operation 'frob'" },
	{ HDR "s: add v0, v1\n", "t.s:4: add: expected ',' after operand 2" },
	{ HDR "s: add v0, v1, v2, v3\n", "t.s:4: add: unexpected ',' after the operands" },
	{ HDR "s: mov c0, v1\n", "t.s:4: 'c0' cannot be written (destinations are v0-v7 and i0-i7)" },
	{ HDR "s: mov v0, v9\n", "t.s:4: 'v9' is not a source operand (v0-v7, i0-i7, c0-c15, a record field or a number)" },
	{ HDR "s: add v0, #1, #2\n", "t.s:4: at most one immediate per microinstruction" },
	{ HDR "s: ld v0, [b7 + i0]\n", "t.s:4: 'b7' is not a base register (b0-b3)" },
	{ HDR "s: ld v0, b0 + i0\n", "t.s:4: expected a data-array operand [bN + index]" },
	{ HDR "s: nop -> maybe DONE\n", "t.s:4: unknown branch condition 'maybe'" },
	{ HDR "s: nop -> nowhere\n", "t.s:4: undefined label 'nowhere'" },
	{ HDR "s: nop ->\n", "t.s:4: '->' needs a target" },
	{ HDR "s: nop -> z DONE x\n", "t.s:4: unexpected 'x' after the branch target" },
	{ HDR "s: nop\ns: nop\n", "t.s:5: label 's' defined twice" },
	{ HDR "s: nop $\n", "t.s:4: unexpected character '$'" },
	{ HDR "s: nop\n.frob 1\n", "t.s:5: unknown directive '.frob'" },
	{ HDR ".classes alu\ns: nop\n", "t.s:4: class 'alu' cannot be tagged (load, store, cond-branch, jump, call, indirect, "
	  "return, branch, mul, div, fp, fdiv, simd)" },
	{ HDR ".classes nothing\ns: nop\n", "t.s:4: unknown instruction class 'nothing'" },
	{ HDR ".fields colour\ns: nop\n", "t.s:4: unknown record field 'colour' (pc, value, addr, target, taken)" },
	{ HDR ".iwidth 40\ns: nop\n", "t.s:4: .iwidth: '40' is not a width of 1..32 bits" },
	{ HDR ".pcfilter 2 9\ns: nop\n", "t.s:4: .pcfilter: match '9' does not fit in 2 bits" },
	{ HDR ".const x0 1\ns: nop\n", "t.s:4: 'x0' is not a constant (c0-c15) register" },
	{ HDR ".param slots 1\n.param slots 2\ns: nop\n", "t.s:5: parameter 'slots' set twice (first at line 4)" },
	{ HDR ".param buffer_entrys 128\ns: nop\n",
	  "t.s:4: unknown parameter 'buffer_entrys': nothing reads it (docs/coproc.md lists the parameters)" },
	{ HDR "s: nop -> t2\n", "t.s:4: a branch to t2, which no .target sets" },
	{ HDR "s: mov v0, pc -> lt\n", "t.s:4: '-> lt' needs a target after the condition (a label cannot be named lt)" },
	{ HDR ".handler edge\ns: nop\n", "t.s:1: the edge handler profiles cond-branch records: .classes must have cond-branch" },
	{ HDR ".handler magic\ns: nop\n", "t.s:4: unknown handler 'magic' (value, edge, callstack, none)" },
	{ ".classes load store\n.fields pc\n.dfe load s\ns: nop -> DONE\n",
	  "t.s:1: class store is tagged (.classes) but has no .dfe routine" },
	{ "\n\n.classes load store\n.fields pc\n.dfe load s\ns: nop -> DONE\n",
	  "t.s:3: class store is tagged (.classes) but has no .dfe routine" },
	{ ".fields pc\n.dfe load s\ns: nop\n", "t.s:1: no .classes: the program would never receive a record" },
	{ ".classes load\n.fields pc\n.dfe load s\ns: nop\n\n  mov v0, addr\n",
	  "t.s:6: the microcode reads 'addr' but .fields does not collect it" },
	{ HDR "s: nop -> end\nend:\n", "t.s:5: label 'end' marks no microinstruction" },
	/* a label at the end marks nothing even when nothing uses it */
	{ HDR "s: nop\nend: ; the end\n", "t.s:5: label 'end' marks no microinstruction" },
	/* a reference longer than any label is refused, not cut to a label's length */
	{ HDR "s: nop -> yyyyyyyyyyyyyyyyyyyyyyyzzz\nyyyyyyyyyyyyyyyyyyyyyyy: nop\n",
	  "t.s:4: label 'yyyyyyyyyyyyyyyyyyyyyyyzzz' is too long (at most 23 characters)" },
	{ ".classes load\n.fields pc\n.dfe load yyyyyyyyyyyyyyyyyyyyyyyy\nyyyyyyyyyyyyyyyyyyyyyyy: nop\n",
	  "t.s:3: label 'yyyyyyyyyyyyyyyyyyyyyyyy' is too long (at most 23 characters)" },
	{ HDR ".target t0 yyyyyyyyyyyyyyyyyyyyyyyyyy\ns: nop\n",
	  "t.s:4: label 'yyyyyyyyyyyyyyyyyyyyyyyyyy' is too long (at most 23 characters)" },
	/* condition names are not labels */
	{ HDR "s: nop\nz: nop\n", "t.s:5: 'z' is a branch condition and cannot be a label name" },
	{ HDR "s: nop\nnsat: nop\n", "t.s:5: 'nsat' is a branch condition and cannot be a label name" },
	/* numbers that do not fit 64 bits */
	{ HDR "s: mov v0, 0x1ffffffffffffffff\n", "t.s:4: '0x1ffffffffffffffff' does not fit in 64 bits" },
	{ HDR "s: mov v0, 99999999999999999999999\n", "t.s:4: '99999999999999999999999' does not fit in 64 bits" },
	{ HDR "s: mov v0, #-9223372036854775809\n", "t.s:4: '#-9223372036854775809' does not fit in 64 bits" },
	{ HDR ".const c0 18446744073709551616\ns: nop\n", "t.s:4: '18446744073709551616' does not fit in 64 bits" },
	{ HDR ".param slots 0x10000000000000000\ns: nop\n", "t.s:4: '0x10000000000000000' does not fit in 64 bits" },
	{ HDR "s: mov v0, 0x\n", "t.s:4: '0x' is not a source operand (v0-v7, i0-i7, c0-c15, a record field or a number)" },
	/* every directive that sets one thing sets it once */
	{ HDR ".const c3 1\n.const c3 2\ns: nop\n", "t.s:5: .const c3 set twice (first at line 4)" },
	{ HDR ".base b1 1\n.base b1 2\ns: nop\n", "t.s:5: .base b1 set twice (first at line 4)" },
	{ HDR ".target t0 s\n.target t0 s\ns: nop\n", "t.s:5: .target t0 set twice (first at line 4)" },
	{ HDR ".name a\n.name b\ns: nop\n", "t.s:5: .name set twice (first at line 4)" },
	{ HDR ".handler none\n.handler none\ns: nop\n", "t.s:5: .handler set twice (first at line 4)" },
	{ HDR ".dfe load s\ns: nop\n", "t.s:4: .dfe load set twice (first at line 3)" },
	{ HDR ".dfe branch s\n.dfe call s\ns: nop\n", "t.s:5: .dfe call set twice (first at line 4)" },
	{ HDR ".dfe default s\n.dfe default s\ns: nop\n", "t.s:5: .dfe default set twice (first at line 4)" },
	{ HDR ".iwidth 8\n.iwidth 9\ns: nop\n", "t.s:5: .iwidth set twice (first at line 4)" },
	{ HDR ".pcfilter 1 0\n.pcfilter 1 1\ns: nop\n", "t.s:5: .pcfilter set twice (first at line 4)" },
	/* parameters out of their ranges */
	{ HDR ".param slots 0\ns: nop\n", "t.s:4: parameter 'slots': 0 is outside 1..1024" },
	{ HDR ".param slots -5\ns: nop\n", "t.s:4: parameter 'slots': -5 is outside 1..1024" },
	{ HDR ".param ways 100\ns: nop\n", "t.s:4: parameter 'ways': 100 is outside 0..64" },
	{ HDR ".param hi_permille 5000\ns: nop\n", "t.s:4: parameter 'hi_permille': 5000 is outside 0..1000" },
	{ HDR ".param confident -1\ns: nop\n", "t.s:4: parameter 'confident': -1 is outside 1..1000000000000" },
	{ HDR ".param buffer_entries -1\ns: nop\n", "t.s:4: parameter 'buffer_entries': -1 is outside 1..4096" },
	{ HDR ".param buffer_entries 5000\ns: nop\n", "t.s:4: parameter 'buffer_entries': 5000 is outside 1..4096" },
	{ HDR ".param cam_entries 70000\ns: nop\n", "t.s:4: parameter 'cam_entries': 70000 is outside 1..1024" },
	{ HDR ".param depth 2000000000\ns: nop\n", "t.s:4: parameter 'depth': 2000000000 is outside 1..65536" },
	{ HDR ".param key_shift 99\ns: nop\n", "t.s:4: parameter 'key_shift': 99 is outside 0..63" },
	{ HDR ".param spread -1\ns: nop\n", "t.s:4: parameter 'spread': -1 is outside 0..1000000000000" },
	{ HDR "DONE: nop\n", "t.s:4: 'DONE' is a reserved target name" },
	{ HDR "s: nop\n.dfe load\n", "t.s:5: usage: .dfe CLASS|default LABEL" },
};

static void every_mistake_is_reported_on_its_line(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ivx_err err = { 0 };
		int rc = assemble(bad[i].src, &err);
		if (rc != IVX_EINPUT || strcmp(err.msg, bad[i].msg))
			fail_msg("case %zu: rc %d, got \"%s\", want \"%s\"", i, rc, err.msg, bad[i].msg);
	}
}

static void too_long_and_binary_input_is_refused(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	char big[1000];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	assert_int_equal(assemble(big, &err), IVX_EINPUT);
	assert_string_equal(err.msg, "t.s:1: line longer than 400 characters");
	const char bin[] = { 'n', 'o', 'p', ' ', (char)0x01, '\n' };
	assert_int_equal(coproc_asm(bin, sizeof bin, "t.s", &prog, &err), IVX_EINPUT);
	assert_string_equal(err.msg, "t.s:1: unexpected byte 0x01");
	/* NUL anywhere (after a word, inside one, first on a line, in a
	 * comment), control bytes and malformed UTF-8 in comments */
	static const struct { const char *src; size_t len; const char *msg; } bytes[] = {
		{ HDR "s: nop\0 -> DONE\n", sizeof HDR "s: nop\0 -> DONE\n" - 1, "t.s:4: unexpected byte 0x00" },
		{ HDR "s: mov v0,\0 pc\n", sizeof HDR "s: mov v0,\0 pc\n" - 1, "t.s:4: unexpected byte 0x00" },
		{ HDR "s: mov v0, p\0c\n", sizeof HDR "s: mov v0, p\0c\n" - 1, "t.s:4: unexpected byte 0x00" },
		{ HDR "\0s: nop\n", sizeof HDR "\0s: nop\n" - 1, "t.s:4: unexpected byte 0x00" },
		{ HDR "s: nop ; a\0b\n", sizeof HDR "s: nop ; a\0b\n" - 1, "t.s:4: unexpected byte 0x00" },
		{ HDR "s: nop ; \x01\x02\n", sizeof HDR "s: nop ; \x01\x02\n" - 1, "t.s:4: unexpected byte 0x01" },
		{ HDR "s: nop ; \x7f\n", sizeof HDR "s: nop ; \x7f\n" - 1, "t.s:4: unexpected byte 0x7f" },
		{ HDR "s: nop ; \xff\xfe\n", sizeof HDR "s: nop ; \xff\xfe\n" - 1, "t.s:4: unexpected byte 0xff" },
		{ HDR "s: nop ; caf\xc3\n", sizeof HDR "s: nop ; caf\xc3\n" - 1, "t.s:4: unexpected byte 0xc3" },
	};
	for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
		int rc = coproc_asm(bytes[i].src, bytes[i].len, "t.s", &prog, &err);
		if (rc != IVX_EINPUT || strcmp(err.msg, bytes[i].msg))
			fail_msg("bytes case %zu: rc %d, got \"%s\", want \"%s\"", i, rc, err.msg, bytes[i].msg);
	}
	/* UTF-8 text in a comment is text */
	const char *utf8 = HDR "s: nop -> DONE ; caf\xc3\xa9 \xe2\x80\x94 \xe2\x86\x92\n";
	if (assemble(utf8, &err) < 0)
		fail_msg("%s", err.msg);
}

/* A program saved by an editor that starts files with a UTF-8 byte-order
 * mark, or ends lines with CRLF, is the same program; a BOM anywhere else
 * is a stray byte. */
static void bom_and_crlf_are_text(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	struct coproc_prog plain;
	if (assemble(HDR "s: nop -> DONE\n", &err) < 0)
		fail_msg("%s", err.msg);
	plain = prog;
	const char *edited = "\xef\xbb\xbf.classes load\r\n.fields pc value\r\n.dfe load s\r\ns: nop -> DONE\r\n";
	if (assemble(edited, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(prog.n_insns, plain.n_insns);
	assert_memory_equal(&prog.insn[0], &plain.insn[0], sizeof prog.insn[0]);
	assert_int_equal(assemble(HDR "\xef\xbb\xbfs: nop -> DONE\n", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "t.s:4: unexpected byte 0xef");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shipped_programs_list_to_source_of_the_same_program),
		cmocka_unit_test(settings_reach_the_program),
		cmocka_unit_test(numbers_are_decimal_or_hex),
		cmocka_unit_test(every_mistake_is_reported_on_its_line),
		cmocka_unit_test(too_long_and_binary_input_is_refused),
		cmocka_unit_test(bom_and_crlf_are_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
