/*
 * dcpi_db.h — the profile database (DCPI section 4.3.3): a directory of
 * epochs, each a subdirectory holding one compact binary file per
 * (image, event). Sample profiles (what the daemon aggregated) and truth
 * profiles (what the simulator knows exactly) are kept in separate files
 * of the same format, told apart by a kind field and the file suffix:
 *
 *   DIR/epoch-0001/crc-1a2b3c4d.cycles.samples
 *   DIR/epoch-0001/crc-1a2b3c4d.cycles.truth
 *
 * A file is written under a temporary name in the same directory and
 * renamed over the old one when complete, so a reader sees the old
 * profile or the new one, never half of one. A run adds to the current
 * (newest) epoch: its counts merge with what the file already holds.
 * The byte layout is in docs/dcpi.md ("Profile files").
 */
#ifndef IVX_DCPI_DB_H
#define IVX_DCPI_DB_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

/* Kinds 3 to 5 carry dcpicalc's truth (dcpi_wait.h): cycles at the issue
 * head waiting for one reason (event = enum issue_wait), taken counts of
 * branches (event 0), and the culprits blamed for one reason's waits
 * (event = enum issue_wait; each record's aux is the culprit's pc, 0 for
 * culprits the run could not keep apart). Version 2 added kind 5, whose
 * records carry aux; version 1 files (kinds 1-4, the same layout) are
 * still read. */
enum { DCPI_KIND_SAMPLES = 1, DCPI_KIND_TRUTH = 2, DCPI_KIND_WAIT = 3, DCPI_KIND_TAKEN = 4, DCPI_KIND_CULPRIT = 5 };
#define DCPI_DB_VERSION 2
#define DCPI_DB_MAX_PATH 4096

struct dcpi_rec {
	uint64_t offset;          /* pc - base */
	uint64_t count;           /* samples (samples file) or exact count (truth file) */
	uint64_t aux;             /* kind 5: the culprit's pc (0: unknown); else 0 */
};

struct dcpi_profile {
	int kind;                 /* DCPI_KIND_* */
	int event;                /* enum dcpi_event */
	char *path;               /* the image's path, as the run named it */
	uint64_t runs;            /* runs merged into it */
	uint64_t cycles;          /* total cycles of those runs */
	uint64_t enabled_cycles;  /* cycles the event held a counter (truth: = cycles) */
	uint64_t period_events;   /* sum of the sampling periods that elapsed (truth: 0) */
	uint64_t total;           /* sum of the counts */
	uint64_t base;            /* load address the offsets are relative to */
	size_t n, cap;
	struct dcpi_rec *rec;     /* sorted by (offset, aux), counts >= 1 (after normalize) */
};

struct dcpi_profile *dcpi_profile_new(int kind, int event, const char *path, struct ivx_err *err);
void dcpi_profile_free(struct dcpi_profile *p);
/* Append a count (any order; dcpi_profile_normalize sorts and merges). */
int dcpi_profile_add(struct dcpi_profile *p, uint64_t offset, uint64_t count, struct ivx_err *err);
/* The same with an aux value (kind 5: the culprit pc); records merge when
 * offset and aux are equal. */
int dcpi_profile_add_aux(struct dcpi_profile *p, uint64_t offset, uint64_t aux, uint64_t count, struct ivx_err *err);
void dcpi_profile_normalize(struct dcpi_profile *p);
/* Add src's runs and counts to dst (same kind, event and base). */
int dcpi_profile_merge(struct dcpi_profile *dst, const struct dcpi_profile *src, struct ivx_err *err);

/* The file's bytes (malloc'd) and back. Decoding checks the magic, the
 * version, the sizes, the checksum and every record; the message says
 * what is wrong ("not an ivx profile", "truncated", "checksum mismatch"). */
int dcpi_profile_encode(const struct dcpi_profile *p, uint8_t **buf, size_t *len, struct ivx_err *err);
int dcpi_profile_decode(const void *buf, size_t len, struct dcpi_profile **out, struct ivx_err *err);
/* Read one file; errors name it: "FILE: reason". */
int dcpi_profile_read(const char *file, struct dcpi_profile **out, struct ivx_err *err);
/* Write atomically (temporary file in the same directory, fsync, rename). */
int dcpi_profile_write(const char *file, const struct dcpi_profile *p, struct ivx_err *err);

/* The current epoch's directory in db_dir (the newest epoch-NNNN). With
 * create, make db_dir and a first epoch when missing; with new_epoch,
 * start the next epoch. out gets the path. */
int dcpi_db_epoch(const char *db_dir, int create, int new_epoch, char *out, size_t n, struct ivx_err *err);
/* Epoch number epoch's directory in db_dir, into out: db_dir's trailing
 * slashes dropped ("db/" gives db/epoch-0001, not db//epoch-0001). The
 * length snprintf returns (>= n: cut). */
int dcpi_db_epoch_path(char *out, size_t n, const char *db_dir, int epoch);
/* The file name (no directory) for p: basename-HASH.EVENT.samples|truth
 * (kinds 3-5: .wait-REASON.truth, .taken.truth, .culprit-REASON.truth). */
int dcpi_db_file_name(const struct dcpi_profile *p, char *out, size_t n);
/* Merge p into its file in epoch_dir (created if absent). A file that is
 * there but unreadable is left alone and reported. */
int dcpi_db_store(const char *epoch_dir, const struct dcpi_profile *p, struct ivx_err *err);

/* Every profile file in epoch_dir (sorted by name). An unreadable one is
 * reported through on_error (one line naming it) and skipped; the others
 * are returned. The error return is for the directory itself. */
typedef void (*dcpi_db_error_fn)(void *ctx, const char *msg);
int dcpi_db_load(const char *epoch_dir, struct dcpi_profile ***out, size_t *n, dcpi_db_error_fn on_error,
		 void *ctx, struct ivx_err *err);
void dcpi_db_free_list(struct dcpi_profile **list, size_t n);

/* ---- the images an epoch's runs profiled ----------------------------------
 *
 * A profile names its image by path; a program rebuilt at that path would
 * match the old samples to the new code. So each epoch keeps, in
 * EPOCH/images, one line per image: "SIZE HASH PATH" (HASH: FNV-1a 64 of
 * the file's bytes, 16 hex digits). Epochs written before it have no such
 * file, and are read as before. */
struct dcpi_image_id {
	uint64_t size;            /* the file's size in bytes */
	uint64_t hash;            /* FNV-1a 64 of its bytes */
};
/* The identity of the file at path. IVX_OK, or an error naming it. */
int dcpi_image_id(const char *path, struct dcpi_image_id *id, struct ivx_err *err);
/* The identity recorded in epoch_dir for path: 1 (in *id), 0 if none is
 * (no such line, or no images file: then *has_file is 0), or an error. */
int dcpi_db_image_lookup(const char *epoch_dir, const char *path, struct dcpi_image_id *id, int *has_file,
			 struct ivx_err *err);
/* Record path's identity in epoch_dir (replacing the file atomically). */
int dcpi_db_image_record(const char *epoch_dir, const char *path, const struct dcpi_image_id *id,
			 struct ivx_err *err);
/* Call fn for each recorded image of epoch_dir (none without the file). */
int dcpi_db_image_each(const char *epoch_dir, void (*fn)(void *ctx, const char *path, const struct dcpi_image_id *id),
		       void *ctx, struct ivx_err *err);
/* 1 if epoch_dir holds no profile file yet, 0 if it holds some, or an error. */
int dcpi_db_epoch_empty(const char *epoch_dir, struct ivx_err *err);

#endif
