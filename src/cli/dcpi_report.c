/*
 * dcpi_report.c — per-procedure aggregation of a profile database epoch
 * (see dcpi_report.h).
 */
#define _GNU_SOURCE     /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dcpi/dcpi_db.h"
#include "dcpi_report.h"
#include "outfile.h"
#include "guest/program.h"
#include "guest/symtab.h"

struct image_syms {
	const char *path;
	struct program *prog;              /* NULL: symbols unavailable */
};

static void on_bad_file(void *ctx, const char *msg)
{
	struct dcpi_report *r = ctx;
	r->bad_files++;
	cli_error("%s (skipped)", msg);
}

static struct dcpi_proc_row *row_for(struct dcpi_report *r, const char *image, const char *proc, size_t *hint)
{
	if (*hint < r->n && !strcmp(r->rows[*hint].proc, proc) && !strcmp(r->rows[*hint].image, image))
		return &r->rows[*hint];
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->rows[i].proc, proc) && !strcmp(r->rows[i].image, image))
			return &r->rows[*hint = i];
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct dcpi_proc_row *t = realloc(r->rows, cap * sizeof *t);
		if (!t)
			return NULL;
		r->rows = t;
		r->cap = cap;
	}
	struct dcpi_proc_row *row = &r->rows[r->n];
	memset(row, 0, sizeof *row);
	row->image = strdup(image);
	row->proc = strdup(proc);
	if (!row->image || !row->proc) {
		free(row->image);
		free(row->proc);
		return NULL;
	}
	*hint = r->n++;
	return row;
}

static int image_matches(const char *path, const char *want)
{
	if (!want)
		return 1;
	const char *base = strrchr(path, '/');
	return !strcmp(path, want) || !strcmp(base ? base + 1 : path, want);
}

static struct program *load_symbols(const char *path)
{
	if (!strcmp(path, "[unknown]"))
		return NULL;
	if (!strcmp(path, "[builtin]"))
		return cli_load_program(NULL);
	struct ivx_err err = { 0 };
	struct program *p = program_load_file(path, &err);
	if (!p)
		cli_error("%s: no symbols (%s); its samples go to [unknown]", path, err.msg);
	return p;
}

struct changed_ctx {
	const char *epoch, *want;
};

static void warn_if_changed(void *ctx, const char *path, const struct dcpi_image_id *then)
{
	const struct changed_ctx *c = ctx;
	struct dcpi_image_id now;
	struct ivx_err err = { 0 };
	if (!image_matches(path, c->want))
		return;
	if (dcpi_image_id(path, &now, &err) < 0)
		cli_error("warning: %s: the image of %s's runs is gone or unreadable", path, c->epoch);
	else if (now.size != then->size || now.hash != then->hash)
		cli_error("warning: %s has changed since %s's runs of it (%llu bytes then, %llu now, or other contents): "
			  "its samples may not match its code", path, c->epoch, (unsigned long long)then->size,
			  (unsigned long long)now.size);
}

void dcpi_warn_changed_images(const char *epoch, const char *want)
{
	struct changed_ctx c = { epoch, want };
	struct ivx_err err = { 0 };
	if (dcpi_db_image_each(epoch, warn_if_changed, &c, &err) < 0)
		cli_error("warning: %s", err.msg);
}

/* The mean sampling period of p's runs (period events over samples,
 * times cycles over enabled cycles to undo multiplexing); 0 without
 * samples. */
static double mean_period(const struct dcpi_profile *p)
{
	if (!p->total || !p->enabled_cycles)
		return 0;
	return (double)p->period_events / (double)p->total * ((double)p->cycles / (double)p->enabled_cycles);
}

/* Note a samples profile's period: an event whose images' mean periods
 * differ by more than 10% (the randomization moves a mean by at most
 * ΔP / P, 1/16 by default) is mixed; and the runs its CYCLES samples
 * cover. */
static void note_period(struct dcpi_report *r, const struct dcpi_profile *p)
{
	if (!strcmp(p->path, "[unknown]"))
		return;   /* (the program's runs, counted with the program) */
	if (p->event == DCPI_CYCLES)
		r->sample_runs += p->runs;
	double m = mean_period(p);
	if (m <= 0)
		return;
	if (r->period[p->event] <= 0)
		r->period[p->event] = m;
	else if (fabs(m - r->period[p->event]) > 0.1 * r->period[p->event])
		r->mixed_period |= 1u << p->event;
}

double dcpi_report_share(const struct dcpi_report *r, const struct dcpi_proc_row *row, int e)
{
	if (r->mixed_period >> e & 1)
		return r->weighted_total[e] > 0 ? row->weighted[e] / r->weighted_total[e] : 0;
	return r->samples_total[e] ? (double)row->samples[e] / (double)r->samples_total[e] : 0;
}

int dcpi_report_load(struct dcpi_report *r, const char *db, int epoch, const char *image)
{
	memset(r, 0, sizeof *r);
	struct ivx_err err = { 0 };
	if (epoch) {
		dcpi_db_epoch_path(r->epoch, sizeof r->epoch, db, epoch);
	} else if (dcpi_db_epoch(db, 0, 0, r->epoch, sizeof r->epoch, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	struct dcpi_profile **list;
	size_t n;
	if (dcpi_db_load(r->epoch, &list, &n, on_bad_file, r, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	dcpi_warn_changed_images(r->epoch, image);
	struct image_syms *syms = NULL;   /* (one per image read: as many as the epoch holds) */
	size_t n_syms = 0, syms_cap = 0;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct dcpi_profile *p = list[i];
		size_t k = 0;
		while (k < r->n_images && strcmp(r->images[k], p->path))
			k++;
		if (k == r->n_images) {
			const char **more = realloc(r->images, (k + 1) * sizeof *more);
			char *copy = strdup(p->path);
			if (more)
				r->images = more;
			if (!more || !copy) {
				free(copy);
				cli_error("out of host memory");
				rc = -1;
				break;
			}
			r->images[r->n_images++] = copy;
		}
		if (!image_matches(p->path, image) || p->kind > DCPI_KIND_TRUTH)
			continue;
		int truth = p->kind == DCPI_KIND_TRUTH;
		if (truth) {
			r->truthed |= 1u << p->event;
			/* each program's runs and cycles are in its CYCLES truth
			 * header: the epoch's are their sums (as the truth of
			 * CYCLES is the sum of the programs' cycles) */
			if (p->event == DCPI_CYCLES) {
				r->cycles += p->cycles;
				r->runs += p->runs;
			}
		} else {
			r->sampled |= 1u << p->event;
			note_period(r, p);
		}
		size_t s = 0;
		while (s < n_syms && strcmp(syms[s].path, p->path))
			s++;
		if (s == n_syms) {
			if (n_syms == syms_cap) {
				size_t cap = syms_cap ? 2 * syms_cap : 16;
				struct image_syms *t = realloc(syms, cap * sizeof *t);
				if (!t) {
					cli_error("out of host memory");
					rc = -1;
					break;
				}
				syms = t;
				syms_cap = cap;
			}
			syms[n_syms++] = (struct image_syms){ p->path, load_symbols(p->path) };
		}
		const struct symtab *st = syms[s].prog ? program_symbols(syms[s].prog) : NULL;
		size_t hint = 0;
		for (size_t k = 0; k < p->n; k++) {
			uint64_t off;
			const struct symbol *sym = st ? symtab_lookup(st, p->base + p->rec[k].offset, &off) : NULL;
			struct dcpi_proc_row *row = row_for(r, p->path, sym ? sym->name : "[unknown]", &hint);
			if (!row) {
				cli_error("out of host memory");
				rc = -1;
				break;
			}
			(truth ? row->truth : row->samples)[p->event] += p->rec[k].count;
			if (!truth) {
				double w = (double)p->rec[k].count * mean_period(p);
				row->weighted[p->event] += w;
				r->weighted_total[p->event] += w;
			}
			(truth ? r->truth_total : r->samples_total)[p->event] += p->rec[k].count;
		}
	}
	for (size_t s = 0; s < n_syms; s++)
		program_free(syms[s].prog);
	free(syms);
	dcpi_db_free_list(list, n);
	return rc;
}

void dcpi_report_free(struct dcpi_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->rows[i].image);
		free(r->rows[i].proc);
	}
	free(r->rows);
	for (size_t i = 0; i < r->n_images; i++)
		free((char *)r->images[i]);
	free(r->images);
	memset(r, 0, sizeof *r);
}

int dcpi_check_output(const struct named_file *out, const char *db, const char *const *images, size_t n)
{
	if (!out->path)
		return 0;
	struct named_file *in = calloc(n + 1, sizeof *in);
	if (!in) {
		cli_error("out of host memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		in[i] = (struct named_file){ "an image the database names", images[i] };
	int rc = outfile_check_within(out, 1, db, "the database") < 0 || outfile_check(out, 1, in, (int)n) < 0 ? -1 : 0;
	free(in);
	return rc;
}

struct sort_by {
	int ev;
	int weighted;          /* images of several periods: by estimated events */
};

static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct dcpi_proc_row *x = a, *y = b;
	const struct sort_by *by = ctx;
	int sort_ev = by->ev;
	if (by->weighted && x->weighted[sort_ev] != y->weighted[sort_ev])
		return x->weighted[sort_ev] > y->weighted[sort_ev] ? -1 : 1;
	if (x->samples[sort_ev] != y->samples[sort_ev])
		return x->samples[sort_ev] > y->samples[sort_ev] ? -1 : 1;
	if (x->truth[sort_ev] != y->truth[sort_ev])
		return x->truth[sort_ev] > y->truth[sort_ev] ? -1 : 1;
	int c = strcmp(x->proc, y->proc);
	return c ? c : strcmp(x->image, y->image);
}

void dcpi_report_sort(struct dcpi_report *r, int ev)
{
	if (r->n > 1)
		qsort_r(r->rows, r->n, sizeof *r->rows, row_cmp, &(struct sort_by){ ev, (int)(r->mixed_period >> ev & 1) });
}
