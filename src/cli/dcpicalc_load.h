/*
 * dcpicalc_load.h — what `ivx dcpicalc` reads: one procedure's code from
 * its image's ELF (decoded into engine/dcpi's dcc_insn), its samples per
 * event from the newest epoch of a profile database, the truth beside
 * them, and the machine the profile was taken on (EPOCH/machine.ini).
 */
#ifndef IVX_DCPICALC_LOAD_H
#define IVX_DCPICALC_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include "core/config.h"
#include "core/events.h"
#include "dcpi/dcpicalc.h"

struct program;
struct dcpi_profile;

/* The epoch's profiles, and the images they name. */
struct dcpicalc_db {
	char epoch[4200];
	struct dcpi_profile **list;
	size_t n;
	struct machine_config mc;
	int have_machine;              /* machine.ini was there */
	int bad_files;                 /* unreadable files (each reported, then skipped) */
	const char *only;              /* -i: the one image to read (path or file name); NULL: all */
};

/* One true culprit record: instruction i waited `cycles` for `reason`
 * blamed on pc `culprit` (0: culprits the run could not keep apart). */
struct dcpicalc_culprit {
	int reason;                    /* enum issue_wait */
	uint64_t culprit, cycles;
};

struct dcpicalc_proc {
	char *image;                   /* path as the database names it */
	char *name;                    /* procedure */
	size_t n;
	struct dcc_insn *code;
	uint32_t *words;
	uint64_t *samples[5];          /* NULL: event not sampled */
	double period[5];
	uint64_t *t_cycles, *t_retired, *t_taken;      /* NULL: no truth */
	uint64_t *t_wait[ISSUE_WAIT_COUNT];            /* NULL: no wait truth */
	int has_wait;
	/* the culprits of instruction i: t_cul[t_cul_at[i] .. t_cul_at[i + 1]),
	 * by reason then culprit; has_culprits: the profile has culprit truth
	 * (database version 2 on) */
	struct dcpicalc_culprit *t_cul;
	size_t *t_cul_at;
	int has_culprits;
};
/* The culprit with most cycles for instruction i's waits of `reason`:
 * its pc (0 if none known) and, in *cycles, its cycles. */
uint64_t dcpicalc_true_culprit(const struct dcpicalc_proc *pr, size_t i, int reason, uint64_t *cycles);

/* Open epoch `epoch` of db (0: the newest; machine from machine.ini if
 * present, else config defaults). 0, or -1 after an error line. */
int dcpicalc_db_open(struct dcpicalc_db *d, const char *db, int epoch);
void dcpicalc_db_close(struct dcpicalc_db *d);
/* Samples of event `event` (enum dcpi_event) of image `image` (a path as
 * the database names it) in the epoch: what a procedure's share is of. */
uint64_t dcpicalc_image_samples(const struct dcpicalc_db *d, const char *image, int event);
/* Images in the epoch with CYCLES samples, in order (only d->only's, if
 * set); NULL past the end. */
const char *dcpicalc_db_image(const struct dcpicalc_db *d, size_t i);
/* Whether path is the image `want` names (its full path or its file
 * name; want NULL: every image), as dcpiprof's -i. */
int dcpicalc_image_matches(const char *path, const char *want);

/* Fill proc with the code of symbol `s` (or the one containing an
 * address) in program p of image `image`. 0, or -1 after an error line. */
struct symbol;
int dcpicalc_proc_load(const struct dcpicalc_db *d, const char *image, const struct program *p,
		       const struct symbol *s, struct dcpicalc_proc *out);
/* Only the code part of that (name, code, words; no samples): 0, or -1
 * with a one-line message in msg (the explorer's `annotate` uses it). */
int dcpicalc_code_load(const struct program *p, const struct symbol *s, const char *image,
		       struct dcpicalc_proc *out, char *msg, size_t msg_n);
/* Every procedure of every image of the database, loaded in turn (every
 * code symbol once: ELF mapping symbols and aliases of an address left
 * out) and handed to fn, which must not keep it. Stops at fn's first
 * non-zero return and returns it; -1 after an error line if an image or a
 * procedure cannot be loaded; 0 when all were seen. */
int dcpicalc_each_proc(const struct dcpicalc_db *d,
		       int (*fn)(void *ctx, const char *image, struct dcpicalc_proc *pr), void *ctx);
void dcpicalc_proc_free(struct dcpicalc_proc *pr);
uint64_t dcpicalc_proc_samples(const struct dcpicalc_proc *pr);

#endif
