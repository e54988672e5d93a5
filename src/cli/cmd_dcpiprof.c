/*
 * cmd_dcpiprof.c — `ivx dcpiprof`: samples per procedure from the profile
 * database, in the layout of the DCPI paper's Figure 1 (each event's count
 * and %, the first event's cumulative %), largest first. With --truth,
 * each event also gets the simulator's exact share ("true%"), marked "!"
 * where the estimate is off by more than 5% of it (and by half a point).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dcpi_report.h"
#include "outfile.h"

struct prof_flags {
	const char *db, *image, *json_path;
	int truth;
	int by_image;
	uint64_t epoch;
};

/* --images: one row per image (the procedures' counts added up). */
static void fold_images(struct dcpi_report *r)
{
	size_t w = 0;
	for (size_t i = 0; i < r->n; i++) {
		size_t k = 0;
		while (k < w && strcmp(r->rows[k].image, r->rows[i].image))
			k++;
		if (k == w) {
			struct dcpi_proc_row row = r->rows[i];
			const char *base = strrchr(row.image, '/');
			free(row.proc);
			row.proc = strdup(base ? base + 1 : row.image);
			if (!row.proc)
				row.proc = strdup("?");
			r->rows[w++] = row;
			continue;
		}
		for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
			r->rows[k].samples[e] += r->rows[i].samples[e];
			r->rows[k].truth[e] += r->rows[i].truth[e];
			r->rows[k].weighted[e] += r->rows[i].weighted[e];
		}
		free(r->rows[i].image);
		free(r->rows[i].proc);
	}
	r->n = w;
}

static double pct(uint64_t n, uint64_t total)
{
	return total ? 100.0 * (double)n / (double)total : 0.0;
}

/* A row's share of event e in percent (dcpi_report_share; the samples'
 * share itself when every image was sampled at one period). */
static double share_pct(const struct dcpi_report *r, const struct dcpi_proc_row *row, int e)
{
	if (r->mixed_period >> e & 1)
		return 100.0 * dcpi_report_share(r, row, e);
	return pct(row->samples[e], r->samples_total[e]);
}

/* The estimate is "off": more than 5% relative and 0.5 points absolute. */
static int off_mark(double est, double truth)
{
	double d = fabs(est - truth);
	return d > 0.5 && d > 0.05 * truth;
}

static void print_text(const struct dcpi_report *r, const struct prof_flags *f, int first_ev)
{
	printf("Total samples for event type ");
	int k = 0;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (r->sampled >> e & 1)
			printf("%s%s = %llu", k++ ? ", " : "", dcpi_event_name(e),
			       (unsigned long long)r->samples_total[e]);
	printf("\nThe counts given below are the number of samples for each listed event type.\n");
	if (f->truth)
		printf("true%% is the simulator's exact share (cycles: at the head of the issue stage in order, of the ROB out of order); ! marks an estimate off by >5%%.\n");
	int width = 0;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (r->sampled >> e & 1)
			width += 17 + (f->truth ? 9 : 0) + (e == first_ev ? 8 : 0);
	width += 40;
	for (int i = 0; i < width; i++)
		putchar('=');
	putchar('\n');
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		if (!(r->sampled >> e & 1))
			continue;
		printf("%9s %7s", dcpi_event_name(e), "%");
		if (f->truth)
			printf(" %8s", "true%");
		if (e == first_ev)
			printf(" %7s", "cum%");
	}
	printf("  %-24s %s\n", f->by_image ? "image" : "procedure", f->by_image ? "path" : "image");
	double cum = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct dcpi_proc_row *row = &r->rows[i];
		int any = 0;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++)
			any |= (r->sampled >> e & 1) && (row->samples[e] || (f->truth && row->truth[e]));
		if (!any)
			continue;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
			if (!(r->sampled >> e & 1))
				continue;
			double p = share_pct(r, row, e);
			printf("%9llu %6.2f%%", (unsigned long long)row->samples[e], p);
			if (f->truth) {
				double t = pct(row->truth[e], r->truth_total[e]);
				printf(" %6.2f%%%c", t, r->truth_total[e] && r->samples_total[e] && off_mark(p, t) ? '!' : ' ');
			}
			if (e == first_ev) {
				cum += p;
				printf(" %6.2f%%", cum);
			}
		}
		printf("  %-24s %s\n", row->proc, row->image);
	}
}

static int write_json(const char *path, const struct dcpi_report *r)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	fprintf(f, "{\"epoch\":");
	outfile_json_string(f, r->epoch);
	fprintf(f, ",\"runs\":%llu,\"cycles\":%llu,\"events\":{", (unsigned long long)r->runs,
		(unsigned long long)r->cycles);
	int k = 0;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if ((r->sampled | r->truthed) >> e & 1)
			fprintf(f, "%s\"%s\":{\"samples\":%llu,\"truth\":%llu}", k++ ? "," : "", dcpi_event_name(e),
				(unsigned long long)r->samples_total[e], (unsigned long long)r->truth_total[e]);
	fprintf(f, "},\"procedures\":[");
	for (size_t i = 0; i < r->n; i++) {
		const struct dcpi_proc_row *row = &r->rows[i];
		fprintf(f, "%s{\"procedure\":", i ? "," : "");
		outfile_json_string(f, row->proc);
		fprintf(f, ",\"image\":");
		outfile_json_string(f, row->image);
		fprintf(f, ",\"samples\":{");
		k = 0;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++)
			if (r->sampled >> e & 1)
				fprintf(f, "%s\"%s\":%llu", k++ ? "," : "", dcpi_event_name(e),
					(unsigned long long)row->samples[e]);
		fprintf(f, "},\"share\":{");
		k = 0;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++)
			if (r->sampled >> e & 1)
				fprintf(f, "%s\"%s\":%.6f", k++ ? "," : "", dcpi_event_name(e),
					share_pct(r, row, e) / 100);
		fprintf(f, "},\"truth\":{");
		k = 0;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++)
			if (r->truthed >> e & 1)
				fprintf(f, "%s\"%s\":%llu", k++ ? "," : "", dcpi_event_name(e),
					(unsigned long long)row->truth[e]);
		fprintf(f, "},\"truth_share\":{");
		k = 0;
		for (int e = 0; e < DCPI_EVENT_COUNT; e++)
			if (r->truthed >> e & 1)
				fprintf(f, "%s\"%s\":%.6f", k++ ? "," : "", dcpi_event_name(e),
					pct(row->truth[e], r->truth_total[e]) / 100);
		fprintf(f, "}}");
	}
	fprintf(f, "]}\n");
	return outfile_commit_cli(o);
}

/* Runs that do not match, merged into one epoch: one line each on stderr
 * where the comparison is made. */
static void note_mismatches(const struct dcpi_report *r, int truth)
{
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (r->mixed_period >> e & 1)
			cli_error("note: %s's images were sampled at different mean %s periods: the shares weight each "
				  "image's samples by its own period", r->epoch, dcpi_event_name(e));
	if (truth && r->runs && r->sample_runs && r->runs != r->sample_runs)
		cli_error("note: in %s the samples cover %llu runs, the truth %llu (runs with --no-truth were added): "
			  "true%% is of other runs", r->epoch, (unsigned long long)r->sample_runs,
			  (unsigned long long)r->runs);
}

static int cmd_dcpiprof_main(int argc, char **argv)
{
	struct prof_flags f = { .db = "ivx.db" };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--truth")) {
			f.truth = 1;
			continue;
		}
		if (!strcmp(a, "--images")) {
			f.by_image = 1;
			continue;
		}
		const char **dst = !strcmp(a, "--db") ? &f.db : !strcmp(a, "-i") || !strcmp(a, "--image") ? &f.image :
				   !strcmp(a, "--json") ? &f.json_path : NULL;
		int is_epoch = !strcmp(a, "--epoch");
		if (!dst && !is_epoch) {
			cli_error("dcpiprof: unknown option '%s' (try 'ivx dcpiprof --help')", a);
			return EXIT_USAGE;
		}
		if (i + 1 >= argc) {
			cli_error("option %s needs a value", a);
			return EXIT_USAGE;
		}
		if (dst) {
			*dst = argv[++i];
		} else if (cli_parse_u64(argv[++i], &f.epoch) < 0 || !f.epoch || f.epoch > 9999) {
			cli_error("--epoch: '%s' is not a number from 1 to 9999", argv[i]);
			return EXIT_USAGE;
		}
	}
	struct dcpi_report r;
	if (dcpi_report_load(&r, f.db, (int)f.epoch, f.image) < 0)
		return EXIT_INPUT;
	int status = 0;
	const struct named_file out = { "--json", f.json_path };
	if (dcpi_check_output(&out, f.db, r.images, r.n_images) < 0) {
		dcpi_report_free(&r);
		return EXIT_USAGE;
	}
	if (!r.sampled) {
		cli_error("%s: no samples%s%s", r.epoch, f.image ? " of image " : "", f.image ? f.image : "");
		status = EXIT_INPUT;
	} else {
		if (f.truth && !r.truthed) {
			cli_error("%s: no truth here (profiled with --no-truth); showing the samples only", r.epoch);
			f.truth = 0;
		}
		note_mismatches(&r, f.truth);
		if (f.by_image)
			fold_images(&r);
		int first = __builtin_ctz(r.sampled);
		dcpi_report_sort(&r, first);
		print_text(&r, &f, first);
		if (f.json_path && write_json(f.json_path, &r) < 0)
			status = EXIT_OUTPUT;
	}
	if (r.bad_files && !status)
		status = EXIT_INPUT;
	dcpi_report_free(&r);
	return status;
}

const struct cli_command cmd_dcpiprof_entry = {
	.name = "dcpiprof",
	.summary = "samples per procedure from a profile database (DCPI Figure 1)",
	.help =
	"usage: ivx dcpiprof [--db DIR] [--epoch N] [-i IMAGE] [--images] [--truth] [--json FILE]\n\n"
	"Print the number of samples per procedure, largest first, for every event\n"
	"the database's current epoch (or epoch N) holds: count, % of the event's\n"
	"samples, and the cumulative % of the first event. Procedures come from the\n"
	"image's ELF symbols (its path is in the database).\n\n"
	"  --db DIR        profile database (default ivx.db)\n"
	"  --epoch N       read epoch N instead of the newest\n"
	"  -i, --image IMAGE  only this image (full path or file name)\n"
	"  --images        samples per image instead of per procedure\n"
	"  --truth         add the simulator's exact share per procedure (true%):\n"
	"                  cycles at the in-order head, exact event counts\n"
	"  --json FILE     the table as JSON (docs/dcpi.md)\n"
	"An unreadable profile file is named on stderr and skipped (exit status 2).\n",
	.main = cmd_dcpiprof_main,
};
