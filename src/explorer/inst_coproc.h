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
const struct coproc_config *xcoproc_config(const struct xcoproc *xc);

#endif
