/*
 * cmd_dcpistats.c — `ivx dcpistats`: how the samples of each procedure vary
 * across several profile databases (runs with different seeds), in the
 * layout of the DCPI paper's Figure 3: the sets' totals, then per
 * procedure the normalized range ((max - min) / sum), sum, share of all
 * samples, N (sets holding the procedure), mean, standard deviation,
 * minimum and maximum, sorted by normalized range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dcpi_report.h"
#include "outfile.h"

#define MAX_SETS 64

struct stat_row {
	const char *proc, *image;     /* borrowed from the first set holding it */
	uint64_t v[MAX_SETS];
	int present[MAX_SETS];
	double sum, mean, sd, min, max, range;
	int n;
};

static int range_cmp(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	if (x->range != y->range)
		return x->range > y->range ? -1 : 1;
	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return strcmp(x->proc, y->proc);
}

static int cmd_dcpistats_main(int argc, char **argv)
{
	const char *json_path = NULL, *dbs[MAX_SETS];
	int n_db = 0, ev = DCPI_CYCLES;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--event")) {
			if (i + 1 >= argc) {
				cli_error("option %s needs a value", argv[i]);
				return EXIT_USAGE;
			}
			if (argv[i][2] == 'j') {
				json_path = argv[++i];
			} else if ((ev = dcpi_event_from_name(argv[++i])) < 0) {
				cli_error("--event: unknown event '%s'", argv[i]);
				return EXIT_USAGE;
			}
		} else if (argv[i][0] == '-') {
			cli_error("dcpistats: unknown option '%s' (try 'ivx dcpistats --help')", argv[i]);
			return EXIT_USAGE;
		} else if (n_db == MAX_SETS) {
			cli_error("dcpistats: at most %d databases", MAX_SETS);
			return EXIT_USAGE;
		} else {
			dbs[n_db++] = argv[i];
		}
	}
	if (!n_db) {
		cli_error("dcpistats: name at least one database (usage: ivx dcpistats [--event E] [--json FILE] DB...)");
		return EXIT_USAGE;
	}
	static struct dcpi_report rep[MAX_SETS];
	int status = 0, loaded = 0;
	for (int s = 0; s < n_db; s++, loaded++) {
		if (dcpi_report_load(&rep[s], dbs[s], 0, NULL) < 0) {
			status = EXIT_INPUT;
			break;
		}
		if (rep[s].bad_files)
			status = EXIT_INPUT;
		if (!(rep[s].sampled >> ev & 1)) {
			cli_error("%s: no %s samples", rep[s].epoch, dcpi_event_name(ev));
			status = EXIT_INPUT;
			loaded++;
			break;
		}
	}
	const struct named_file out = { "--json", json_path };
	for (int s = 0; s < loaded && status == 0; s++)
		if (dcpi_check_output(&out, dbs[s], rep[s].images, rep[s].n_images) < 0)
			status = EXIT_USAGE;
	struct stat_row *rows = NULL;
	size_t n_rows = 0;
	if (status == 0) {
		for (int s = 0; s < n_db; s++)
			n_rows += rep[s].n;
		rows = calloc(n_rows ? n_rows : 1, sizeof *rows);
		if (!rows) {
			cli_error("out of host memory");
			status = EXIT_INPUT;
		}
		n_rows = 0;
	}
	uint64_t total = 0;
	for (int s = 0; s < n_db && !status; s++) {
		total += rep[s].samples_total[ev];
		for (size_t i = 0; i < rep[s].n; i++) {
			const struct dcpi_proc_row *pr = &rep[s].rows[i];
			if (!pr->samples[ev])
				continue;
			size_t k = 0;
			while (k < n_rows && (strcmp(rows[k].proc, pr->proc) || strcmp(rows[k].image, pr->image)))
				k++;
			if (k == n_rows) {
				rows[n_rows].proc = pr->proc;
				rows[n_rows++].image = pr->image;
			}
			rows[k].v[s] = pr->samples[ev];
			rows[k].present[s] = 1;
		}
	}
	for (size_t k = 0; k < n_rows; k++) {
		struct stat_row *r = &rows[k];
		r->min = INFINITY;
		r->max = 0;
		for (int s = 0; s < n_db; s++) {
			if (!r->present[s])
				continue;
			double v = (double)r->v[s];
			r->n++;
			r->sum += v;
			r->min = v < r->min ? v : r->min;
			r->max = v > r->max ? v : r->max;
		}
		r->mean = r->sum / r->n;
		double ss = 0;
		for (int s = 0; s < n_db; s++)
			if (r->present[s])
				ss += ((double)r->v[s] - r->mean) * ((double)r->v[s] - r->mean);
		r->sd = r->n > 1 ? sqrt(ss / (r->n - 1)) : 0.0;
		r->range = r->sum > 0 ? (r->max - r->min) / r->sum : 0.0;
	}
	if (!status) {
		qsort(rows, n_rows, sizeof *rows, range_cmp);
		printf("Number of samples of type %s\n", dcpi_event_name(ev));
		for (int s = 0; s < n_db; s++)
			printf("set %d = %llu%s", s + 1, (unsigned long long)rep[s].samples_total[ev],
			       s % 4 == 3 || s == n_db - 1 ? "\n" : "    ");
		printf("TOTAL %llu\n\n", (unsigned long long)total);
		printf("Statistics calculated using the sample counts for each procedure from %d different sample set(s)\n",
		       n_db);
		for (int i = 0; i < 104; i++)
			putchar('=');
		printf("\n%8s %12s %7s %3s %12s %10s %10s %10s  %s\n", "range%", "sum", "sum%", "N", "mean", "std-dev",
		       "min", "max", "procedure");
		for (size_t k = 0; k < n_rows; k++) {
			const struct stat_row *r = &rows[k];
			/* (one set: no deviation to speak of, not a deviation of 0) */
			char sd[32] = "-";
			if (r->n > 1)
				snprintf(sd, sizeof sd, "%.2f", r->sd);
			printf("%7.2f%% %12.2f %6.2f%% %3d %12.2f %10s %10.0f %10.0f  %s\n", 100 * r->range, r->sum,
			       total ? 100 * r->sum / (double)total : 0.0, r->n, r->mean, sd, r->min, r->max, r->proc);
		}
	}
	if (!status && json_path) {
		struct outfile *o = outfile_open_cli(json_path);
		if (!o) {
			status = EXIT_OUTPUT;
		} else {
			FILE *f = outfile_stream(o);
			fprintf(f, "{\"event\":\"%s\",\"sets\":[", dcpi_event_name(ev));
			for (int s = 0; s < n_db; s++) {
				fprintf(f, "%s{\"db\":", s ? "," : "");
				outfile_json_string(f, dbs[s]);
				fprintf(f, ",\"samples\":%llu}", (unsigned long long)rep[s].samples_total[ev]);
			}
			fprintf(f, "],\"total\":%llu,\"procedures\":[", (unsigned long long)total);
			for (size_t k = 0; k < n_rows; k++) {
				const struct stat_row *r = &rows[k];
				fprintf(f, "%s{\"procedure\":", k ? "," : "");
				outfile_json_string(f, r->proc);
				fprintf(f, ",\"image\":");
				outfile_json_string(f, r->image);
				fprintf(f, ",\"range\":%.6f,\"sum\":%.0f,\"share\":%.6f,\"n\":%d,\"mean\":%.4f,\"stddev\":",
					r->range, r->sum, total ? r->sum / (double)total : 0.0, r->n, r->mean);
				if (r->n > 1)
					fprintf(f, "%.4f", r->sd);
				else
					fputs("null", f);
				fprintf(f, ",\"min\":%.0f,\"max\":%.0f,\"counts\":[", r->min, r->max);
				for (int s = 0; s < n_db; s++)
					fprintf(f, "%s%llu", s ? "," : "", (unsigned long long)r->v[s]);
				fprintf(f, "]}");
			}
			fprintf(f, "]}\n");
			if (outfile_commit_cli(o) < 0)
				status = EXIT_OUTPUT;
		}
	}
	free(rows);
	for (int s = 0; s < loaded && s < n_db; s++)
		dcpi_report_free(&rep[s]);
	return status;
}

const struct cli_command cmd_dcpistats_entry = {
	.name = "dcpistats",
	.summary = "variation of per-procedure samples across databases (DCPI Figure 3)",
	.help =
	"usage: ivx dcpistats [--event E] [--json FILE] DB...\n\n"
	"Compare the current epochs of several profile databases (say, runs of one\n"
	"program with different --seed): per procedure the normalized range\n"
	"((max - min) / sum), the sum and its share of all samples, N (sets that\n"
	"hold the procedure), mean, standard deviation, minimum and maximum of its\n"
	"samples of event E (default cycles), sorted by normalized range.\n\n"
	"  --event E       cycles, imiss, dmiss, branchmp, dtbmiss or retired\n"
	"  --json FILE     the table as JSON (docs/dcpi.md)\n",
	.main = cmd_dcpistats_main,
};
