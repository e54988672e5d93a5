/*
 * coproc_load.h — finding and assembling a co-processor program named on
 * the command line or in the explorer: a file (a name with '/' or ending
 * in .s), or a shipped program NAME, looked up as data/coproc/NAME.s
 * under the current directory and then beside the ivx binary
 * (<bin>/../data/coproc, <bin>/../../data/coproc).
 */
#ifndef IVX_COPROC_LOAD_H
#define IVX_COPROC_LOAD_H

#include <stddef.h>
#include "base/err.h"
#include "coproc/coproc_prog.h"

/* The shipped programs (data/coproc/), for messages. */
#define COPROC_SHIPPED "value, value_topk, value_topk_ipw, value_topk_ring, value_topk_adapt, value_topk_even, value_topk_first, value_topk_young, edge, callstack"
/* The same names one by one (the explorer's Tab after `coproc load`):
 * the i-th, NULL past the end. */
const char *coproc_shipped_name(int i);

/* 0, or a negative status with err set ("file:line: message" for an
 * assembly error). `path`, if non-NULL, gets the file it read. */
int coproc_load_program(const char *name, struct coproc_prog *out, char *path, size_t path_len,
			struct ivx_err *err);

/* The files a program's .include lines read, for outfile_check (an output
 * must not overwrite one); coproc_load_files_free frees the paths. */
struct coproc_included {
	int n;
	char *path[COPROC_MAX_FILES];
};
/* coproc_load_program, noting the files it includes in *inc (zeroed
 * first; its paths are kept on failure too). */
int coproc_load_program_noting(const char *name, struct coproc_prog *out, char *path, size_t path_len,
			       struct coproc_included *inc, struct ivx_err *err);
void coproc_included_free(struct coproc_included *inc);
/* The file to name in output, from the `name` given and the `path`
 * coproc_load_program read: the file as the user gave it, and for a
 * shipped NAME data/coproc/NAME.s wherever it was found, so that output
 * does not depend on where ivx is installed. */
void coproc_load_shown(const char *name, const char *path, char *out, size_t len);

#endif
