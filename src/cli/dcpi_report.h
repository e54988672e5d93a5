/*
 * dcpi_report.h — samples and truth per procedure, read from one epoch
 * of a profile database (dcpiprof and dcpistats share it).
 *
 * Each record's pc is resolved to the procedure containing it through the
 * image's ELF symbols (the database records the image's path); pcs with
 * no symbol go to "[unknown]". Unreadable profile files are reported on
 * stderr, one line each naming the file, and skipped.
 */
#ifndef IVX_DCPI_REPORT_H
#define IVX_DCPI_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include "dcpi/dcpi.h"

struct dcpi_proc_row {
	char *image;                       /* the image's path */
	char *proc;                        /* procedure name */
	uint64_t samples[DCPI_EVENT_COUNT];
	uint64_t truth[DCPI_EVENT_COUNT];  /* exact counts (cycles: at the in-order head) */
	double weighted[DCPI_EVENT_COUNT]; /* samples x their image's mean period: estimated events */
};

struct dcpi_report {
	struct dcpi_proc_row *rows;
	size_t n, cap;
	uint64_t samples_total[DCPI_EVENT_COUNT];
	uint64_t truth_total[DCPI_EVENT_COUNT];
	uint64_t runs, cycles;             /* summed over the images' CYCLES truth profiles */
	uint32_t sampled;                  /* bit e: the epoch holds samples of event e */
	uint32_t truthed;                  /* bit e: ... and truth of event e */
	uint32_t mixed_period;             /* bit e: images sampled e at different mean periods */
	double weighted_total[DCPI_EVENT_COUNT];
	double period[DCPI_EVENT_COUNT];   /* the first image's mean period of each event */
	uint64_t sample_runs;              /* runs in the images' CYCLES samples headers */
	int bad_files;                     /* unreadable profile files (reported) */
	const char **images;               /* every image the epoch names, -i or not */
	size_t n_images;
	char epoch[4200];                  /* the epoch directory read */
};

/* Read epoch `epoch` (0: the newest) of db, keeping images matching
 * `image` (full path or basename; NULL: all). 0, or -1 after an error
 * line (no database, no such epoch). */
int dcpi_report_load(struct dcpi_report *r, const char *db, int epoch, const char *image);
void dcpi_report_free(struct dcpi_report *r);
/* A row's share of event e's samples, 0..1. When the images were sampled
 * at different mean periods (mixed_period), a sample of one stands for
 * more events than one of another: each image's samples are weighted by
 * its own mean period, so the share estimates the share of events. */
double dcpi_report_share(const struct dcpi_report *r, const struct dcpi_proc_row *row, int e);
/* One warning line on stderr for each image recorded in epoch (matching
 * want, as -i; NULL: all) whose file is no longer the one profiled. */
void dcpi_warn_changed_images(const char *epoch, const char *want);
/* 0 if the output (--json FILE) is outside the database db and none of
 * the n images the database names; else -1 after one line on stderr.
 * Also outfile_check's checks: it can be written. */
struct named_file;
int dcpi_check_output(const struct named_file *out, const char *db, const char *const *images, size_t n);
/* Sort rows by samples of event ev (by estimated events when its images
 * were sampled at several periods; then truth, then name), largest first. */
void dcpi_report_sort(struct dcpi_report *r, int ev);

#endif
