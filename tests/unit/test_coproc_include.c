/*
 * test_coproc_include.c — `.include "FILE"` in co-processor programs: an
 * included file is as if pasted (labels, settings, microcode); its path is
 * relative to the including file; its mistakes are reported on its own
 * lines with the chain of includes; cycles, nesting deeper than 8, files
 * that cannot be read and malformed directives are one-line errors; a
 * program given as text with no reader refuses it.
 *
 * The files are in memory (read_table): nothing here reads the disk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "base/alloc.h"
#include "coproc/coproc_prog.h"

static struct coproc_prog prog, pasted;

struct file {
	const char *path, *text;
};

/* The files a test has, NULL-ended; the last path asked for. */
static const struct file *files;
static char last_read[256];

static int read_table(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err)
{
	(void)ctx;
	snprintf(last_read, sizeof last_read, "%s", path);
	for (const struct file *f = files; f->path; f++)
		if (!strcmp(f->path, path)) {
			*len = strlen(f->text);
			*text = ivx_malloc(*len + 1);
			memcpy(*text, f->text, *len + 1);
			return 0;
		}
	return ivx_error(err, IVX_EINPUT, "%s: cannot open: No such file or directory", path);
}

static int assemble_in(const struct file *table, const char *path, struct ivx_err *err)
{
	files = table;
	const char *src = NULL;
	for (const struct file *f = table; f->path; f++)
		if (!strcmp(f->path, path))
			src = f->text;
	assert_non_null(src);
	return coproc_asm_reading(src, strlen(src), path, read_table, NULL, &prog, err);
}

#define HDR ".name t\n.handler none\n.classes load\n.fields pc value\n.dfe load s\n"   /* lines 1-5 */

static void an_included_file_is_as_if_pasted(void **state)
{
	(void)state;
	static const struct file table[] = {
		{ "progs/t.s", HDR "s: lookup i0, pc -> miss other\ncnt: .include \"lib/count.s\"\n   mov v1, c3 -> cnt\n" },
		{ "progs/lib/count.s", "; counts\n.const c3 9\n   inc [b1 + i0] -> nsat DONE\nother: mov i4, 3 -> s\n" },
		{ NULL, NULL },
	};
	struct ivx_err err = { 0 };
	if (assemble_in(table, "progs/t.s", &err) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(last_read, "progs/lib/count.s");   /* beside the including file */
	const char *whole = HDR "s: lookup i0, pc -> miss other\ncnt:\n.const c3 9\n   inc [b1 + i0] -> nsat DONE\n"
			    "other: mov i4, 3 -> s\n   mov v1, c3 -> cnt\n";
	if (coproc_asm(whole, strlen(whole), "whole.s", &pasted, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(prog.n_insns, 4);
	assert_int_equal(prog.creg[3], 9);
	for (int a = 0; a < prog.n_insns; a++) {
		struct cp_uinsn u = prog.insn[a], v = pasted.insn[a];
		u.line = v.line = 0;
		assert_memory_equal(&u, &v, sizeof u);
	}
	assert_int_equal(prog.insn[0].target, 2);   /* a label of the included file, used before it */
	assert_int_equal(prog.insn[2].target, 0);   /* ... and the program's, used in it */
	assert_int_equal(prog.insn[3].target, 1);   /* a label on the .include's line: its first microinstruction */
	assert_string_equal(coproc_prog_label_at(&prog, 1), "cnt");
	/* each microinstruction's line is in its own file */
	assert_int_equal(prog.insn[0].line, 6);
	assert_int_equal(prog.insn[1].line, 3);
	assert_int_equal(prog.insn[2].line, 4);
	assert_int_equal(prog.insn[3].line, 8);
	char list[4096];
	coproc_prog_listing(&prog, "t.s", list, sizeof list);
	assert_non_null(strstr(list, "other:       mov i4, #3 -> s"));
}

static void paths_are_relative_to_the_including_file(void **state)
{
	(void)state;
	static const struct file table[] = {
		{ "a/t.s", HDR "s: nop\n.include \"./b/../b/one.s\"\n" },
		{ "a/b/one.s", ".include \"../../c/two.s\" ; the next\n" },
		{ "c/two.s", "  nop -> DONE\n" },
		{ NULL, NULL },
	};
	struct ivx_err err = { 0 };
	if (assemble_in(table, "a/t.s", &err) < 0)
		fail_msg("%s", err.msg);
	assert_string_equal(last_read, "c/two.s");
	assert_int_equal(prog.n_insns, 2);
}

static void a_mistake_in_an_included_file_names_its_line_and_the_includes(void **state)
{
	(void)state;
	static const struct file table[] = {
		{ "t.s", HDR "s: nop\n\n.include \"lib/a.s\"\n" },
		{ "lib/a.s", "  nop\n.include \"b.s\"\n" },
		{ "lib/b.s", "; b\n  frob v1\n" },
		{ NULL, NULL },
	};
	struct ivx_err err = { 0 };
	assert_int_equal(assemble_in(table, "t.s", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "lib/b.s:2: unknown operation 'frob' (included from lib/a.s:2, from t.s:8)");
	/* and the checks after the last line: a setting first given elsewhere */
	static const struct file twice[] = {
		{ "t.s", HDR ".include \"p.s\"\n.param slots 2\ns: nop\n" },
		{ "p.s", ".param slots 1\n" },
		{ NULL, NULL },
	};
	assert_int_equal(assemble_in(twice, "t.s", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "t.s:7: parameter 'slots' set twice (first at p.s:1)");
	static const struct file undefined[] = {
		{ "t.s", HDR "s: nop\n.include \"p.s\"\n" },
		{ "p.s", "\n  nop -> nowhere\n" },
		{ NULL, NULL },
	};
	assert_int_equal(assemble_in(undefined, "t.s", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "p.s:2: undefined label 'nowhere' (included from t.s:7)");
}

static void cycles_depth_and_unreadable_files_are_refused(void **state)
{
	(void)state;
	struct ivx_err err = { 0 };
	static const struct file cycle[] = {
		{ "t.s", HDR "s: nop\n.include \"a.s\"\n" },
		{ "a.s", ".include \"sub/../t.s\"\n" },
		{ NULL, NULL },
	};
	assert_int_equal(assemble_in(cycle, "t.s", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "a.s:1: .include \"sub/../t.s\": an include cycle (t.s is being included already) "
				     "(included from t.s:7)");
	/* nine files deep: d1 ... d9, each including the next */
	static const struct file deep[] = {
		{ "t.s", HDR "s: nop\n.include \"d1\"\n" },
		{ "d1", ".include \"d2\"\n" }, { "d2", ".include \"d3\"\n" }, { "d3", ".include \"d4\"\n" },
		{ "d4", ".include \"d5\"\n" }, { "d5", ".include \"d6\"\n" }, { "d6", ".include \"d7\"\n" },
		{ "d7", ".include \"d8\"\n" }, { "d8", ".include \"d9\"\n" }, { "d9", "  nop\n" },
		{ NULL, NULL },
	};
	assert_int_equal(assemble_in(deep, "t.s", &err), IVX_EINPUT);
	assert_non_null(strstr(err.msg, "d8:1: .include \"d9\": includes nested more than 8 deep (included from d7:1, "));
	assert_null(strchr(err.msg, '\n'));
	static const struct file eight[] = {   /* d8 as the deepest is fine */
		{ "t.s", HDR "s: nop\n.include \"d1\"\n" },
		{ "d1", ".include \"d2\"\n" }, { "d2", ".include \"d3\"\n" }, { "d3", ".include \"d4\"\n" },
		{ "d4", ".include \"d5\"\n" }, { "d5", ".include \"d6\"\n" }, { "d6", ".include \"d7\"\n" },
		{ "d7", ".include \"d8\"\n" }, { "d8", "  nop\n" },
		{ NULL, NULL },
	};
	if (assemble_in(eight, "t.s", &err) < 0)
		fail_msg("%s", err.msg);
	static const struct file missing[] = { { "x/t.s", HDR "s: nop\n .include \"nosuch.s\"\n" }, { NULL, NULL } };
	assert_int_equal(assemble_in(missing, "x/t.s", &err), IVX_EINPUT);
	assert_string_equal(err.msg, "x/t.s:7: cannot include \"nosuch.s\": x/nosuch.s: cannot open: No such file or "
				     "directory");
}

static void a_malformed_include_is_refused_on_its_line(void **state)
{
	(void)state;
	static const struct { const char *line, *msg; } bad[] = {
		{ ".include lib/a.s", "t.s:7: usage: .include \"FILE\"" },
		{ ".include", "t.s:7: usage: .include \"FILE\"" },
		{ ".include \"\"", "t.s:7: usage: .include \"FILE\"" },
		{ ".include \"a.s", "t.s:7: usage: .include \"FILE\"" },
		{ ".include \"a.s\" nop", "t.s:7: unexpected text after .include \"a.s\"" },
		{ ".include \"a\tb\"", "t.s:7: .include: the file name holds byte 0x09" },
		{ ".include \"sub/..\"", "t.s:7: .include \"sub/..\": not a file name, or too long" },
	};
	static struct file table[] = { { "t.s", NULL }, { "a.s", "  nop\n" }, { NULL, NULL } };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char src[256];
		snprintf(src, sizeof src, HDR "s: nop\n%s\n", bad[i].line);
		table[0].text = src;
		struct ivx_err err = { 0 };
		int rc = assemble_in(table, "t.s", &err);
		if (rc != IVX_EINPUT || strcmp(err.msg, bad[i].msg))
			fail_msg("case %zu: rc %d, got \"%s\", want \"%s\"", i, rc, err.msg, bad[i].msg);
	}
	/* with no reader (a program given as text) */
	const char *text = HDR "s: nop\n.include \"a.s\"\n";
	struct ivx_err err = { 0 };
	assert_int_equal(coproc_asm(text, strlen(text), "t.s", &prog, &err), IVX_EINPUT);
	assert_string_equal(err.msg, "t.s:7: .include \"a.s\": this program was given as text, with no files to include");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_included_file_is_as_if_pasted),
		cmocka_unit_test(paths_are_relative_to_the_including_file),
		cmocka_unit_test(a_mistake_in_an_included_file_names_its_line_and_the_includes),
		cmocka_unit_test(cycles_depth_and_unreadable_files_are_refused),
		cmocka_unit_test(a_malformed_include_is_refused_on_its_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
