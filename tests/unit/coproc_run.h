/*
 * coproc_run.h — shared by the co-processor's unit tests: assemble a
 * program from a file, and run a guest program whole with the
 * co-processor and, beside it, the simulator's exact load profile
 * (coproc_truth), as `ivx coproc` does.
 */
#ifndef COPROC_RUN_H
#define COPROC_RUN_H

#include "core_prog.h"
#include "coproc/coproc.h"
#include "coproc/coproc_truth.h"

static inline void coproc_test_assemble_file(const char *path, struct coproc_prog *p)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	static char buf[16384];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	struct ivx_err err;
	if (coproc_asm(buf, n, path, p, &err) < 0)
		fail_msg("%s", err.msg);
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

static inline void coproc_test_run_free(struct coproc_test_run *x)
{
	coproc_free(x->cp);
	coproc_truth_free(x->truth);
	crun_free(&x->r);
}

#endif
