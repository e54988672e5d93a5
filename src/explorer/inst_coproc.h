/*
 * inst_coproc.h — the explorer's profiling co-processor instrument: the
 * program loaded with `coproc load`, its settings, and the engine
 * co-processor observing the current run (for the coproc pane and the
 * coproc command).
 */
#ifndef IVX_INST_COPROC_H
#define IVX_INST_COPROC_H

#include "base/err.h"
#include "coproc/coproc.h"

struct explorer;
struct xcoproc;

/* The session's co-processor on the current run, NULL when no program is loaded. */
const struct coproc *xcoproc_engine(const struct xcoproc *xc);
/* Load (prog non-NULL, copied) or unload (NULL) a program; `path` names it.
 * Takes effect at the next restart. A program the settings cannot run
 * (coproc_check) is an error, and the old one stays. */
int xcoproc_set_program(struct xcoproc *xc, const struct coproc_prog *prog, const char *path, struct ivx_err *err);
/* A -C style setting, at the next restart. 0 or -1 with err (a bad one,
 * or one the loaded program cannot run with: the settings stay). */
int xcoproc_configure(struct xcoproc *xc, const char *assignment, struct ivx_err *err);
const char *xcoproc_path(const struct xcoproc *xc);
int xcoproc_has_program(const struct xcoproc *xc);   /* loaded (running after the next restart) */

/* A slot of value_topk.s (ours; a program with a `ways` parameter): its
 * ways are CAM entries slot + slots x (way + 1), each with its count at
 * w1 and what it inherited at w3; the top way is the one counting most. */
struct xcoproc_topk {
	int ways;            /* ways in use */
	uint64_t value;      /* the top way's value (0: no way in use) */
	uint64_t own;        /* its own hits: count less inherited */
	uint64_t count;      /* its count */
};
/* 1 and *out for a program with ways, 0 for any other. */
int xcoproc_topk_slot(const struct coproc *cp, int slot, struct xcoproc_topk *out);
const struct coproc_config *xcoproc_config(const struct xcoproc *xc);
/* The settings the loaded program runs with: xcoproc_config raised to the
 * sizes its .param lines ask for (coproc_config_for). */
void xcoproc_running_config(const struct xcoproc *xc, struct coproc_config *out);

#endif
