/*
 * dcpicalc_truth.h — what `ivx profile` adds to the database for dcpicalc:
 * the wait-reason and taken truth of engine/dcpi/dcpi_wait.c (one truth
 * file per reason, one of taken counts) and the machine the run used
 * (EPOCH/machine.ini), so dcpicalc schedules code for the same machine.
 */
#ifndef IVX_DCPICALC_TRUTH_H
#define IVX_DCPICALC_TRUTH_H

#include <stdint.h>
#include "core/config.h"
#include "dcpi/dcpi_wait.h"

struct program;
/* Store w's truth for the program's image (path `image`) into epoch. 0,
 * or -1 after an error line. */
int dcpicalc_truth_store(const char *epoch, const struct dcpi_wait *w, const struct program *prog,
			 const char *image, uint64_t cycles);
/* Write mc as epoch's machine.ini, for every run stored (with truth or
 * not). fresh: the epoch held no profile before this run; an older epoch
 * without machine.ini (runs stored before every run wrote one) is left
 * without. 0, or -1 after an error line. */
int dcpicalc_machine_store(const char *epoch, const struct machine_config *mc, int fresh);
/* 0 if epoch's machine.ini (if any) describes mc; else -1 after one line
 * naming the first key that differs: runs of two machines do not merge. */
int dcpicalc_machine_check(const char *epoch, const struct machine_config *mc);
/* Write mc as an INI file config_load reads back, whole or not at all.
 * 0 or -1 (errno). */
int dcpicalc_write_machine(const char *file, const struct machine_config *mc);

#endif
