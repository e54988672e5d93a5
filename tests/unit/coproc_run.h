/*
 * coproc_run.h — shared by the co-processor's unit tests: assemble a
 * program from a file (or a variant of it), load a guest program, seed
 * the settings, and run a guest program whole with the co-processor and,
 * beside it, the simulator's exact load profile (coproc_truth), as `ivx
 * coproc` does.
 */
#ifndef COPROC_RUN_H
#define COPROC_RUN_H

#include "core_prog.h"
#include "coproc/coproc.h"
#include "coproc/coproc_truth.h"

static inline void coproc_test_assemble_file(const char *path, struct coproc_prog *p)
{
	struct ivx_err err;
	if (coproc_asm_file(path, NULL, NULL, p, &err) < 0)
		fail_msg("%s", err.msg);
}

/* path assembled with its lines that start like one of over[] (NULL-ended)
 * left out and over[] appended (the program's own lines: its .include
 * files are read as they are). An entry is a directive, its first operand
 * and a value (".param slots 8" takes the place of any ".param slots"
 * line); one written "-" and the directive and operand
 * ("-.param buffer_entries") only leaves its line out. */
static inline void coproc_test_assemble_with(const char *path, const char *const *over, struct coproc_prog *p)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	static char src[32768];
	char line[512];
	src[0] = 0;
	while (fgets(line, sizeof line, f)) {
		int replaced = 0;
		for (int i = 0; over[i]; i++) {
			const char *o = over[i][0] == '-' ? over[i] + 1 : over[i];
			const char *sp = strchr(strchr(o, ' ') + 1, ' ');
			size_t n = sp ? (size_t)(sp - o) + 1 : strlen(o);
			replaced |= !strncmp(line, o, n);
		}
		if (!replaced)
			strcat(src, line);
	}
	fclose(f);
	for (int i = 0; over[i]; i++)
		if (over[i][0] != '-')
			strcat(strcat(src, over[i]), "\n");
	struct ivx_err err;
	if (coproc_asm_reading(src, strlen(src), path, coproc_read_host_file, NULL, p, &err) < 0)
		fail_msg("%s", err.msg);
}

/* The guest program at path; the test fails if it cannot be loaded. */
static inline struct program *coproc_test_load(const char *path)
{
	struct ivx_err err;
	struct program *prog = program_load_file(path, &err);
	if (!prog)
		fail_msg("%s: %s", path, err.msg);
	return prog;
}

/* The co-processor's default settings, its LFSR seeded with seed. */
static inline void coproc_test_config(struct coproc_config *cc, uint64_t seed)
{
	struct ivx_err err;
	char s[32];
	coproc_config_defaults(cc);
	snprintf(s, sizeof s, "seed=%llu", (unsigned long long)seed);
	assert_int_equal(coproc_config_set(cc, s, &err), 0);
}

struct coproc_test_run {
	struct crun r;
	struct coproc_truth *truth;
	struct coproc *cp;
};

/* Run prog (argc, argv) to its end with the co-processor running p under
 * cc and the exact profile; the co-processor's last harvest done and the
 * truth summarised. */
static inline void coproc_test_run(struct coproc_test_run *x, struct program *prog, int argc, char **argv,
				   const struct coproc_config *cc, const struct coproc_prog *p)
{
	struct ivx_err err;
	assert_int_equal(crun_start(&x->r, prog, argc, argv, NULL), 0);
	x->truth = coproc_truth_new(x->r.c, TRUTH_LOADS, 0, 0, 0, &err);
	assert_non_null(x->truth);
	assert_int_equal(core_add_observer(x->r.c, coproc_truth_observer(x->truth), &err), 0);
	x->cp = coproc_new(cc, p, x->r.c, &err);
	if (!x->cp)
		fail_msg("%s", err.msg);
	assert_int_equal(core_add_observer(x->r.c, coproc_observer(x->cp), &err), 0);
	if (core_run(x->r.c, 0, 0, &err) != IVX_OK)
		fail_msg("%s", err.msg);
	assert_true(core_done(x->r.c));
	coproc_finish(x->cp);
	coproc_truth_summarise(x->truth);
}

/* Run `muldiv 1` (prg) with the co-processor program at path, its .param
 * lines overridden by `over` (coproc_test_assemble_with), at seed. */
static inline void coproc_test_run_muldiv(struct coproc_test_run *x, struct program *prg, const char *path,
					  const char *const *over, uint64_t seed, const char *setting)
{
	static struct coproc_prog p;   /* (large: not on the stack) */
	coproc_test_assemble_with(path, over, &p);
	char *argv[] = { "muldiv", "1" };
	struct coproc_config cc;
	coproc_test_config(&cc, seed);
	if (setting) {   /* one more KEY=VALUE of the co-processor's settings */
		struct ivx_err err;
		assert_int_equal(coproc_config_set(&cc, setting, &err), 0);
	}
	coproc_test_run(x, prg, 2, argv, &cc, &p);
}

/* Profile entries whose values count more samples than the entry's
 * total: a record counted twice somewhere. */
static inline int coproc_test_overcounted(const struct coproc *cp)
{
	int over = 0;
	for (int i = 0; i < coproc_profile_size(cp); i++) {
		struct coproc_pentry e;
		uint64_t counted = 0;
		if (!coproc_profile_entry(cp, i, &e))
			continue;
		for (int k = 0; k < e.nvals; k++)
			counted += e.val[k].count;
		over += counted > e.total;
	}
	return over;
}

static inline void coproc_test_run_free(struct coproc_test_run *x)
{
	coproc_free(x->cp);
	coproc_truth_free(x->truth);
	crun_free(&x->r);
}

#endif
