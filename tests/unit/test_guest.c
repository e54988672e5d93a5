/*
 * test_guest.c — the loader refuses bad executables with one clear line, and
 * a running guest stops cleanly (never crashes the host) on faults, stack
 * overflow, unsupported system calls and instructions, traps and limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "elf_builder.h"
#include "guest/guest.h"
#include "isa/mem.h"
#include "guest/program.h"

static char out_buf[256];
static size_t out_len;

static void capture(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx;
	(void)fd;
	if (out_len + len < sizeof out_buf) {
		memcpy(out_buf + out_len, buf, len);
		out_len += len;
	}
}

/* Load `im` (freed here) and expect failure mentioning `needle`. */
static void expect_refused(struct eb_image im, const char *needle)
{
	struct ivx_err err = { 0 };
	struct program *p = program_load_image(im.bytes, im.len, "t.elf", &err);
	free(im.bytes);
	assert_null(p);
	assert_int_equal(err.code, IVX_EINPUT);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_null(strchr(err.msg, '\n'));
}

/* Run the program in im (freed here) to completion (or limit); return
 * guest_run's status. */
static int run_image(struct eb_image im, uint64_t limit, struct ivx_err *err,
		     int *state, int *exit_code, uint64_t *insns)
{
	struct program *p = program_load_image(im.bytes, im.len, "t.elf", err);
	free(im.bytes);
	assert_non_null(p);
	char *argv[] = { "t.elf", "a", "b", NULL };
	struct guest_options opt = { .argc = 3, .argv = argv, .seed = 1, .output = capture };
	struct guest *g = guest_new(p, &opt, err);
	assert_non_null(g);
	out_len = 0;
	int rc = guest_run(g, limit, err);
	*state = guest_state(g);
	*exit_code = guest_exit_code(g);
	*insns = guest_insns(g);
	guest_free(g);
	program_free(p);
	return rc;
}

static int run_code(const uint32_t *code, size_t n, uint64_t limit, struct ivx_err *err,
		    int *state, int *exit_code, uint64_t *insns)
{
	return run_image(eb_build(code, n, 4096), limit, err, state, exit_code, insns);
}

static const uint32_t exit_7[] = { A64_MOVZ_X(0, 7), A64_MOVZ_X(8, 93), A64_SVC0 };

static void a_valid_program_runs_and_exits_with_its_code(void **s)
{
	struct ivx_err err = { 0 };
	int state, code;
	uint64_t n;
	assert_int_equal(run_code(exit_7, 3, 0, &err, &state, &code, &n), IVX_OK);
	assert_int_equal(state, GUEST_EXITED);
	assert_int_equal(code, 7);
	assert_int_equal(n, 3);
}

static void argc_is_on_top_of_the_initial_stack(void **s)
{
	/* ldr x0, [sp]; exit(x0) */
	const uint32_t code[] = { 0xf94003e0u, A64_MOVZ_X(8, 93), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 3, 0, &err, &state, &exit_code, &n), IVX_OK);
	assert_int_equal(exit_code, 3);
}

static void write_goes_to_the_output_sink(void **s)
{
	/* adr x1, msg; mov x0,#1; mov x2,#3; mov x8,#64; svc; mov x0,#0; mov x8,#94; svc; msg: "ok\n" */
	const uint32_t code[] = { 0x10000101u /* adr x1, +32 */, A64_MOVZ_X(0, 1), A64_MOVZ_X(2, 3),
				  A64_MOVZ_X(8, 64), A64_SVC0, A64_MOVZ_X(0, 0), A64_MOVZ_X(8, 94),
				  A64_SVC0, 0x000a6b6fu };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 9, 0, &err, &state, &exit_code, &n), IVX_OK);
	assert_int_equal(out_len, 3);
	assert_memory_equal(out_buf, "ok\n", 3);
}

static void truncated_elf_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	im.len = 40;
	expect_refused(im, "t.elf");
	im = eb_build(exit_7, 3, 0);
	im.len = 100;     /* header intact, program headers cut */
	expect_refused(im, "truncated");
}

static void wrong_machine_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_machine = EM_X86_64;
	expect_refused(im, "wrong machine");
}

static void wrong_class_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_ident[EI_CLASS] = ELFCLASS32;
	expect_refused(im, "class");
}

static void not_an_executable_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_type = ET_DYN;   /* a static-pie: say how to build one that runs */
	expect_refused(im, "build with -static -no-pie");
	im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_type = ET_REL;
	expect_refused(im, "not an executable (e_type 1, need ET_EXEC)");
	im = eb_build(exit_7, 3, 0);
	memcpy(im.bytes, "\x7f" "ELG", 4);
	expect_refused(im, "not an ELF");
}

static void overlapping_segments_are_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_phdr(&im, 1)->p_vaddr = EB_TEXT + 0x80;
	expect_refused(im, "overlap");
}

static void absurd_segments_are_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_phdr(&im, 1)->p_memsz = 1ull << 40;
	expect_refused(im, "absurd");
	im = eb_build(exit_7, 3, 0);
	eb_phdr(&im, 1)->p_vaddr = 0xfffffffffffff000ull;
	expect_refused(im, "absurd");
	im = eb_build(exit_7, 3, 0);
	eb_phdr(&im, 0)->p_filesz = 1 << 20;     /* claims more bytes than the file has */
	eb_phdr(&im, 0)->p_memsz = 1 << 20;
	expect_refused(im, "outside the file");
}

static void entry_outside_code_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_entry = EB_DATA;          /* mapped, but not executable */
	expect_refused(im, "entry point");
	im = eb_build(exit_7, 3, 0);
	eb_ehdr(&im)->e_entry = 0x900000;
	expect_refused(im, "entry point");
}

static void an_entry_in_a_last_partial_word_is_refused(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	uint64_t last = eb_ehdr(&im)->e_entry + 8;
	eb_phdr(&im, 0)->p_memsz = eb_phdr(&im, 0)->p_filesz = last + 3 - EB_TEXT;
	eb_ehdr(&im)->e_entry = last;
	expect_refused(im, "entry point");
}

/* A segment with no bytes in the file may give any offset (found by
 * fuzzing: it was added to the image's address all the same). */
static void a_zero_size_segment_ignores_its_offset(void **s)
{
	struct eb_image im = eb_build(exit_7, 3, 0);
	eb_phdr(&im, 1)->p_offset = 0x8000000000000000ull;
	struct ivx_err err = { 0 };
	int state, code;
	uint64_t n;
	assert_int_equal(run_image(im, 0, &err, &state, &code, &n), IVX_OK);
	assert_int_equal(code, 7);
}

/* An executable segment far larger in memory than in the file: the zero
 * fill is not decoded word by word (1 GiB of it would take 16 GiB of
 * uops); running off the file's code meets a zero word (`udf`, a trap), and a
 * jump far into the fill is a fetch fault that says where it went. */
static void a_huge_zero_filled_code_segment_loads(void **s)
{
	const uint32_t code[] = { A64_NOP };
	struct eb_image im = eb_build(code, 1, 0);
	eb_phdr(&im, 0)->p_memsz = 1u << 30;
	eb_phdr(&im, 1)->p_vaddr = EB_TEXT + (1u << 30) + 0x1000;
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_image(im, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	if (!strstr(err.msg, "trap instruction at pc 0x400104") || !strstr(err.msg, "word 0x00000000"))
		fail_msg("message '%s' does not name the zero word after the code", err.msg);

	const uint32_t jump[] = { A64_B(0x100000) };
	im = eb_build(jump, 1, 0);
	eb_phdr(&im, 0)->p_memsz = 1u << 30;
	eb_phdr(&im, 1)->p_vaddr = EB_TEXT + (1u << 30) + 0x1000;
	assert_int_equal(run_image(im, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	if (!strstr(err.msg, "zero-filled"))
		fail_msg("message '%s' lacks 'zero-filled'", err.msg);
}

static void a_wild_load_stops_with_pc_address_and_symbol(void **s)
{
	const uint32_t code[] = { A64_MOVZ_X(0, 0x1234), A64_LDR_X_X(1, 0), A64_MOVZ_X(8, 93), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 4, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_int_equal(state, GUEST_STOPPED);
	assert_non_null(strstr(err.msg, "unmapped address 0x1234"));
	assert_non_null(strstr(err.msg, "pc 0x400104"));
	assert_int_equal(n, 1);       /* the faulting load did not complete */
}

static void a_store_to_code_is_a_protection_fault(void **s)
{
	/* mov x1, #0x40, lsl #16 (0x400000); str x0, [x1] */
	const uint32_t code[] = { 0xd2a00801u, 0xf9000020u, A64_MOVZ_X(8, 93), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 4, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "write to read-only address 0x400000"));
}

static void a_store_to_code_in_a_writable_segment_is_self_modifying_code(void **s)
{
	/* the same store into a text segment linked RWX: the write would
	 * leave the decoded instruction stale, so the run stops, unsupported */
	const uint32_t code[] = { 0xd2a00801u, 0xf9000020u, A64_MOVZ_X(8, 93), A64_SVC0 };
	struct eb_image im = eb_build(code, 4, 0);
	eb_phdr(&im, 0)->p_flags = PF_R | PF_W | PF_X;
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_image(im, 0, &err, &state, &exit_code, &n), IVX_EUNSUP);
	assert_non_null(strstr(err.msg, "self-modifying code is not supported: write to the program's code at 0x400000"));
	assert_int_equal(n, 1);       /* the store did not complete */
}

static void runaway_recursion_is_a_stack_overflow(void **s)
{
	const uint32_t code[] = { A64_STR_X_PRE_SP_M16(0), A64_B(-1) };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 2, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "stack overflow"));
}

static void a_frame_larger_than_the_stack_is_a_stack_overflow(void **s)
{
	/* sub sp, sp, #0xfff, lsl #12 (16 MiB, twice the stack); str x0, [sp]:
	 * the store lands far below the guard, but sp went there first */
	const uint32_t code[] = { 0xd17fffffu, 0xf90003e0u, A64_MOVZ_X(8, 93), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 4, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "guest stack overflow: write to 0x7fffef0"));
}

static void a_wild_store_below_the_stack_is_no_stack_overflow(void **s)
{
	/* mov x1, #0x7fff, lsl #32 (0x7fff00000000, far below the stack);
	 * str x0, [x1]: sp is where it was, so this is a plain fault */
	const uint32_t code[] = { 0xd2cfffe1u, 0xf9000020u, A64_MOVZ_X(8, 93), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 4, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "guest fault: write to unmapped address 0x7fff00000000 (unmapped)"));
}

static void an_unsupported_syscall_is_named(void **s)
{
	const uint32_t code[] = { A64_MOVZ_X(8, 220), A64_SVC0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 2, 0, &err, &state, &exit_code, &n), IVX_EUNSUP);
	assert_non_null(strstr(err.msg, "system call 220 (clone)"));
	assert_non_null(strstr(err.msg, "pc 0x400104"));
}

static void an_unsupported_instruction_shows_capstone_text(void **s)
{
	const uint32_t code[] = { A64_NOP, 0xd4000002 /* hvc #0: not at EL0 */ };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 2, 0, &err, &state, &exit_code, &n), IVX_EUNSUP);
	assert_non_null(strstr(err.msg, "0xd4000002"));
	assert_non_null(strstr(err.msg, "hvc #0"));
}

static void brk_stops_cleanly(void **s)
{
	const uint32_t code[] = { A64_BRK0 };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 1, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "trap"));
}

static void an_instruction_limit_stops_a_runaway_loop(void **s)
{
	const uint32_t code[] = { A64_NOP, A64_B(-1) };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 2, 1001, &err, &state, &exit_code, &n), IVX_OK);
	assert_int_equal(state, GUEST_RUNNING);
	assert_int_equal(n, 1001);
}

static void falling_off_the_code_is_a_fetch_fault(void **s)
{
	const uint32_t code[] = { A64_NOP };
	struct ivx_err err = { 0 };
	int state, exit_code;
	uint64_t n;
	assert_int_equal(run_code(code, 1, 0, &err, &state, &exit_code, &n), IVX_EGUEST);
	assert_non_null(strstr(err.msg, "instruction fetch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_valid_program_runs_and_exits_with_its_code),
		cmocka_unit_test(argc_is_on_top_of_the_initial_stack),
		cmocka_unit_test(write_goes_to_the_output_sink),
		cmocka_unit_test(truncated_elf_is_refused),
		cmocka_unit_test(wrong_machine_is_refused),
		cmocka_unit_test(wrong_class_is_refused),
		cmocka_unit_test(not_an_executable_is_refused),
		cmocka_unit_test(overlapping_segments_are_refused),
		cmocka_unit_test(absurd_segments_are_refused),
		cmocka_unit_test(entry_outside_code_is_refused),
		cmocka_unit_test(an_entry_in_a_last_partial_word_is_refused),
		cmocka_unit_test(a_zero_size_segment_ignores_its_offset),
		cmocka_unit_test(a_huge_zero_filled_code_segment_loads),
		cmocka_unit_test(a_wild_load_stops_with_pc_address_and_symbol),
		cmocka_unit_test(a_store_to_code_is_a_protection_fault),
		cmocka_unit_test(a_store_to_code_in_a_writable_segment_is_self_modifying_code),
		cmocka_unit_test(runaway_recursion_is_a_stack_overflow),
		cmocka_unit_test(a_frame_larger_than_the_stack_is_a_stack_overflow),
		cmocka_unit_test(a_wild_store_below_the_stack_is_no_stack_overflow),
		cmocka_unit_test(an_unsupported_syscall_is_named),
		cmocka_unit_test(an_unsupported_instruction_shows_capstone_text),
		cmocka_unit_test(brk_stops_cleanly),
		cmocka_unit_test(an_instruction_limit_stops_a_runaway_loop),
		cmocka_unit_test(falling_off_the_code_is_a_fetch_fault),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
