/*
 * cmd_attrib.c — `ivx attrib`: per-instruction cycle attribution on the
 * out-of-order machine by five hardware sampling policies (ROB head,
 * next-committing, dispatch tagging, last-committed, TIP), each compared
 * with the simulator's exact per-instruction cycle stack (the oracle,
 * engine/dcpi/attrib.h).
 *
 * One run: the attributor observes every cycle; the text output gives per
 * policy its error with the randomized-period samples and with a sample
 * at every cycle (policy bias alone), then the hottest instructions with
 * each policy's estimate beside the truth and the truth's causes. --json
 * writes everything, every instruction included. docs/attribution.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "dcpi/attrib.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "isa/disasm.h"
#include "isa/uop.h"
#include "outfile.h"
#include "runopts.h"

struct attrib_flags {
	struct attrib_config cfg;
	const char *json_path;
	uint64_t top;
	int bench;
};

/* "P" or "P:dP" (dP defaults to P/16). */
static int parse_period(struct attrib_flags *f, const char *spec)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", spec);
	char *colon = strchr(buf, ':');
	if (colon)
		*colon = 0;
	uint64_t p, d;
	if (cli_parse_u64(buf, &p) < 0 || !p || (colon && cli_parse_u64(colon + 1, &d) < 0)) {
		cli_error("--period: expected P or P:dP (cycles, P >= 1), got '%s'", spec);
		return -1;
	}
	f->cfg.period = p;
	f->cfg.delta = colon ? d : p / 16;
	return 0;
}

static int attrib_extra(void *ctx, int argc, char **argv, int i)
{
	struct attrib_flags *f = ctx;
	const char *opt = argv[i];
	if (!strcmp(opt, "--bench"))
		return f->bench = 1;
	if (strcmp(opt, "--period") && strcmp(opt, "--json") && strcmp(opt, "--top") && strcmp(opt, "--capacity"))
		return 0;
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", opt);
		return -1;
	}
	const char *v = argv[i + 1];
	if (!strcmp(opt, "--json")) {
		f->json_path = v;
	} else if (!strcmp(opt, "--period")) {
		if (parse_period(f, v) < 0)
			return -1;
	} else {
		uint64_t n;
		if (cli_parse_u64(v, &n) < 0) {
			cli_error("%s: expected a number, got '%s'", opt, v);
			return -1;
		}
		if (n > (1u << 24)) {   /* (16M: far more than a table or a listing needs) */
			cli_error("%s: %s is out of range (at most %u)", opt, v, 1u << 24);
			return -1;
		}
		if (!strcmp(opt, "--top"))
			f->top = n;
		else
			f->cfg.capacity = (uint32_t)n;
	}
	return 2;
}

/* Rows sorted by true cycles, largest first (ties: by pc). */
static int by_truth(const void *x, const void *y)
{
	const struct attrib_row *a = x, *b = y;
	uint64_t ta = attrib_row_true(a), tb = attrib_row_true(b);
	if (ta != tb)
		return ta < tb ? 1 : -1;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static struct attrib_row *sorted_rows(const struct attrib *a, size_t *n)
{
	*n = attrib_rows(a);
	struct attrib_row *rows = calloc(*n ? *n : 1, sizeof *rows);
	if (!rows)
		return NULL;
	*n = attrib_rows_copy(a, rows, *n);
	qsort(rows, *n, sizeof *rows, by_truth);
	return rows;
}

static const char *const policy_label[ATTRIB_POLICY_COUNT] = {
	"oldest unretired (ROB head)", "next-committing (PEBS)", "dispatch-tagged (IBS/SPE)", "last-committed",
	"TIP (time-proportional)",
};

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static void print_text(FILE *out, const struct attrib *a, const struct program *prog, const struct attrib_row *rows,
		       size_t n, uint64_t top)
{
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	const struct attrib_config *cfg = attrib_get_config(a);
	uint64_t U = attrib_unit(a), all = st.cycles * U;
	fprintf(out, "%s: %llu cycles, %llu instructions committed, %zu static instructions charged\n",
		program_name(prog), (unsigned long long)st.cycles, (unsigned long long)st.commits, n);
	fprintf(out, "sampling: %llu samples, period uniform in [%llu, %llu] cycles, seed %llu\n\n",
		(unsigned long long)st.sample_cycles, (unsigned long long)(cfg->period - cfg->delta),
		(unsigned long long)cfg->period, (unsigned long long)cfg->seed);
	fprintf(out, "per-instruction error against the oracle     sampled          every cycle\n");
	fprintf(out, "%-9s %-28s %8s %8s %8s %8s\n", "policy", "", "error", "rel.err", "error", "rel.err");
	for (int p = 0; p < ATTRIB_POLICY_COUNT; p++) {
		double e[2][2];
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++)
			attrib_error(a, m, p, &e[m][0], &e[m][1]);
		fprintf(out, "%-9s %-28s %7.2f%% %7.2f%% %7.2f%% %7.2f%%\n", attrib_policy_name(p), policy_label[p],
			100 * e[0][0], 100 * e[0][1], 100 * e[1][0], 100 * e[1][1]);
	}
	fprintf(out, "error: half the summed |estimated - true| share of cycles over instructions;\n"
		     "rel.err: sum |estimated - true| / sum true over instructions with >= 1%% of cycles\n");
	if (st.oracle_unattributed || st.lost)
		fprintf(out, "oracle: %.4f%% of cycles unattributed (end of run or full table)\n",
			100 * share(st.oracle_unattributed + st.lost, all));

	fprintf(out, "\ntrue cycles by cause:");
	for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++)
		if (st.cause_units[k])
			fprintf(out, " %s %.1f%%", attrib_cause_name(k), 100 * share(st.cause_units[k], all));
	fprintf(out, "\n\ntop %llu instructions by true cycles (%% of all cycles; sampled estimates)\n",
		(unsigned long long)(top < n ? top : n));
	fprintf(out, "%-8s %-22s %-24s %6s %6s %6s %6s %6s %6s  %s\n", "pc", "where", "instruction", "true", "head",
		"nci", "disp", "lci", "tip", "true causes (% of the instruction's cycles)");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct attrib_row *r = &rows[i];
		char where[64], text[64];
		program_describe(prog, r->pc, where, sizeof where);
		const struct uop *u = program_uop(prog, r->pc);
		if (u)
			disasm_word(u->word, r->pc, text, sizeof text);
		else
			snprintf(text, sizeof text, "?");
		uint64_t t = attrib_row_true(r);
		fprintf(out, "%-8llx %-22.22s %-24.24s %5.1f%%", (unsigned long long)r->pc, where, text,
			100 * share(t, all));
		for (int p = 0; p < ATTRIB_POLICY_COUNT; p++)
			fprintf(out, " %5.1f%%", 100 * share(r->est[ATTRIB_SAMPLED][p], st.est_units[ATTRIB_SAMPLED][p]));
		fprintf(out, " ");
		for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++)
			if (r->cause[k] * 200 >= t && t)   /* causes of at least 0.5% */
				fprintf(out, " %s %.0f%%", attrib_cause_name(k), 100 * share(r->cause[k], t));
		fprintf(out, "\n");
	}
}

static int write_json(const char *path, const struct attrib *a, const struct program *prog,
		      const struct run_options *ro, const struct attrib_row *rows, size_t n, int complete, int exit_code)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	struct attrib_stats st;
	attrib_get_stats(a, &st);
	const struct attrib_config *cfg = attrib_get_config(a);
	uint64_t U = attrib_unit(a), all = st.cycles * U;
	fprintf(f, "{\"program\":");
	outfile_json_string(f, ro->prog_path ? ro->prog_path : program_name(prog));
	fputc(',', f);
	run_options_json_end(f, ro, complete, exit_code, st.commits);
	fprintf(f, ",\"complete\":%s,\"cycles\":%llu,\"commits\":%llu,\"unit\":%llu,\"period\":%llu,\"delta\":%llu,"
		"\"seed\":%llu,\"samples\":%llu,\"oracle\":{\"unattributed_cycles\":%.4f,\"unattributed_units\":%llu,"
		"\"causes\":{",
		complete ? "true" : "false", (unsigned long long)st.cycles, (unsigned long long)st.commits,
		(unsigned long long)U, (unsigned long long)cfg->period, (unsigned long long)cfg->delta,
		(unsigned long long)cfg->seed, (unsigned long long)st.sample_cycles,
		(double)(st.oracle_unattributed + st.lost) / (double)U,
		(unsigned long long)(st.oracle_unattributed + st.lost));
	for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++)
		fprintf(f, "%s\"%s\":%.4f", k ? "," : "", attrib_cause_name(k), (double)st.cause_units[k] / (double)U);
	fprintf(f, "}},\"policies\":{");
	static const char *const mode_key[ATTRIB_MODE_COUNT] = { "sampled", "every_cycle" };
	for (int p = 0; p < ATTRIB_POLICY_COUNT; p++) {
		fprintf(f, "%s\"%s\":{", p ? "," : "", attrib_policy_name(p));
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
			double tv, rel;
			attrib_error(a, m, p, &tv, &rel);
			char error[64] = "null,\"rel_error\":null";   /* (nothing committed: nothing to compare) */
			if (st.commits)
				snprintf(error, sizeof error, "%.6f,\"rel_error\":%.6f", tv, rel);
			fprintf(f, "%s\"%s\":{\"error\":%s,\"attributed_cycles\":%.4f,"
				"\"attributed_units\":%llu,\"dropped_samples\":%llu}",
				m ? "," : "", mode_key[m], error, (double)st.est_units[m][p] / (double)U,
				(unsigned long long)st.est_units[m][p], (unsigned long long)st.dropped[m][p]);
		}
		fprintf(f, "}");
	}
	fprintf(f, "},\"instructions\":[");
	for (size_t i = 0; i < n; i++) {
		const struct attrib_row *r = &rows[i];
		char where[64];
		program_describe(prog, r->pc, where, sizeof where);
		uint64_t t = attrib_row_true(r);
		char text[64];
		const struct uop *u = program_uop(prog, r->pc);
		if (u)
			disasm_word(u->word, r->pc, text, sizeof text);
		else
			snprintf(text, sizeof text, "?");
		fprintf(f, "%s\n{\"pc\":%llu,\"where\":", i ? "," : "", (unsigned long long)r->pc);
		outfile_json_string(f, where);
		fprintf(f, ",\"instruction\":");
		outfile_json_string(f, text);
		fprintf(f, ",\"true_cycles\":%.4f,\"true_units\":%llu,\"true_share\":%.6f,\"causes\":{",
			(double)t / (double)U, (unsigned long long)t, share(t, all));
		int first = 1;
		for (int k = 0; k < ATTRIB_CAUSE_COUNT; k++)
			if (r->cause[k]) {
				fprintf(f, "%s\"%s\":%.4f", first ? "" : ",", attrib_cause_name(k),
					(double)r->cause[k] / (double)U);
				first = 0;
			}
		fprintf(f, "}");
		for (int m = 0; m < ATTRIB_MODE_COUNT; m++) {
			fprintf(f, ",\"%s_share\":{", mode_key[m]);
			for (int p = 0; p < ATTRIB_POLICY_COUNT; p++)
				fprintf(f, "%s\"%s\":%.6f", p ? "," : "", attrib_policy_name(p),
					share(r->est[m][p], st.est_units[m][p]));
			fprintf(f, "}");
			/* the raw amounts, so profiles of several runs add exactly */
			fprintf(f, ",\"%s_units\":{", mode_key[m]);
			for (int p = 0; p < ATTRIB_POLICY_COUNT; p++)
				fprintf(f, "%s\"%s\":%llu", p ? "," : "", attrib_policy_name(p),
					(unsigned long long)r->est[m][p]);
			fprintf(f, "}");
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n]}\n");
	return outfile_commit_cli(o);
}

/* --bench: the same run without and with the attributor, alternately,
 * three times each; the least CPU time of each (noise on a shared machine
 * only adds time). Prints one line on stderr. */
static int attrib_bench(const struct run_options *o, struct attrib_flags *f, const struct machine_config *mc,
			const struct program *prog)
{
	enum { REPS = 3 };
	double best[2] = { 0, 0 };
	uint64_t cycles = 0;
	for (int rep = 0; rep < REPS; rep++)
		for (int mode = 0; mode < 2; mode++) {
			struct ivx_err err = { 0 };
			struct guest *g = run_options_make_guest(prog, o);
			if (!g)
				return EXIT_INPUT;
			struct core *c = core_new(mc, g, &err);
			struct attrib *a = c && mode ? attrib_attach(&f->cfg, c, &err) : NULL;
			int rc = !c || (mode && !a) ? -1 : 0;
			double t0 = cli_cpu_seconds();
			if (rc == 0)
				rc = core_run(c, o->max_cycles, o->max_insns, &err);
			double t = cli_cpu_seconds() - t0;
			if (rc == 0)
				cycles = core_cycles(c);
			attrib_free(a);
			core_free(c);
			guest_free(g);
			if (rc < 0) {
				cli_error("%s", err.msg);
				return EXIT_GUEST;
			}
			if (!rep || t < best[mode])
				best[mode] = t;
		}
	int timed = best[0] > 0 && best[1] > 0;
	fprintf(stderr, "ivx: bench %s: %llu cycles; timing model %.3f s (%.2f M cycles/s), with attribution %.3f s "
		"(%.2f M cycles/s), time x%.2f\n", program_name(prog), (unsigned long long)cycles, best[0],
		timed ? cycles / best[0] / 1e6 : 0.0, best[1], timed ? cycles / best[1] / 1e6 : 0.0,
		timed ? best[1] / best[0] : 0.0);
	return 0;
}

static int attrib_run(const struct run_options *o, struct attrib_flags *f)
{
	struct machine_config mc;
	if (run_options_config(o, &mc) < 0)
		return EXIT_USAGE;
	if (mc.inorder)
		fprintf(stderr, "ivx: attrib: note: core.mode=inorder; the policies are meant for the out-of-order machine\n");
	struct ivx_err err = { 0 };
	f->cfg.seed = o->seed;
	f->cfg.commit_width = mc.commit_width;
	if (attrib_config_validate(&f->cfg, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	struct program *prog = cli_load_program(o->prog_path);
	if (!prog)
		return EXIT_INPUT;
	if (f->bench) {
		int st = attrib_bench(o, f, &mc, prog);
		program_free(prog);
		return st;
	}
	struct guest *g = run_options_make_guest(prog, o);
	if (!g) {
		program_free(prog);
		return EXIT_INPUT;
	}
	int status = EXIT_GUEST;
	struct attrib_row *rows = NULL;
	struct attrib *a = NULL;
	struct core *c = core_new(&mc, g, &err);
	if (!c)
		goto out;
	if (run_options_warm(o, prog, c, &err) < 0)   /* --fastforward, --start-at */
		goto out;
	if (!(a = attrib_attach(&f->cfg, c, &err)))
		goto out;
	int rc = core_run(c, o->max_cycles, o->max_insns, &err);
	cli_flush_stdout();
	if (rc < 0)
		goto out;
	int exited = core_done(c) && guest_state(g) == GUEST_EXITED;
	if (exited && guest_exit_code(g) != 0) {
		/* a failed run gives no attribution (docs/outputs.md) */
		cli_error_guest_status(guest_exit_code(g));
		goto out;
	}
	if (!exited && core_committed(c))
		run_options_note_limit(o, core_cycles(c), core_committed(c), "; the attribution covers them");
	attrib_finish(a);
	size_t n;
	if (!(rows = sorted_rows(a, &n))) {
		ivx_error(&err, IVX_ESYS, "out of host memory");
		goto out;
	}
	if (core_committed(c))
		print_text(stdout, a, prog, rows, n, f->top);
	else   /* a limit the user set is a normal end, even this early */
		cli_error("no instruction committed before the %s limit (%llu cycles): nothing to attribute",
			  run_options_limit_hit(o, 0), (unsigned long long)core_cycles(c));
	status = 0;   /* the guest exited, or the user's limit: a normal end */
	if (f->json_path && write_json(f->json_path, a, prog, o, rows, n, exited, exited ? guest_exit_code(g) : 0) < 0)
		status = EXIT_OUTPUT;
	err.msg[0] = 0;
out:
	if (err.msg[0])
		cli_error("%s", err.msg);
	free(rows);
	attrib_free(a);
	core_free(c);
	guest_free(g);
	program_free(prog);
	return err.code == IVX_EUSAGE ? EXIT_USAGE : status;
}

static int cmd_attrib_main(int argc, char **argv)
{
	struct run_options o;
	struct attrib_flags f = { .top = 10 };
	attrib_config_defaults(&f.cfg);
	if (run_options_parse(&o, argc, argv, attrib_extra, &f) < 0)
		return EXIT_USAGE;
	const struct named_file outputs[] = { { "--json", f.json_path } };
	int status = run_options_check_outputs(&o, outputs, 1) < 0 ? EXIT_USAGE : attrib_run(&o, &f);
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_attrib_entry = {
	.name = "attrib",
	.summary = "per-instruction cycle attribution: sampling policies vs the exact oracle",
	.help =
	"usage: ivx attrib [--period P[:dP]] [--top N] [--json FILE] [RUN OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Run PROG on the timing model and attribute its cycles to static instructions\n"
	"as five hardware sampling policies would: the oldest unretired instruction\n"
	"(ROB head, ivx's DCPI sampler), the next-committing one (PEBS-like), the one\n"
	"tagged at dispatch (IBS/SPE-like), the last-committed one, and TIP's\n"
	"time-proportional commit-stage rules. Each is compared with the oracle: the\n"
	"cycles each instruction is responsible for at commit, computed every cycle\n"
	"and split by cause (base, l1i, l2i, itlb, l1d, l2d, dtlb, bpred, fu, other).\n"
	"Errors are given with randomized-period samples and with a sample at every\n"
	"cycle (the policy's bias alone). docs/attribution.md explains the rules.\n\n"
	"  --period P[:dP]     sample every P - dP .. P cycles, uniformly (default\n"
	"                      1024:64; dP defaults to P/16); --seed seeds it\n"
	"  --top N             instructions listed (default 10)\n"
	"  --capacity N        table slots (power of two, default 65536): up to 3/4 of\n"
	"                      them hold distinct instructions\n"
	"  --json FILE         everything as JSON, every instruction included\n"
	RUN_OPTIONS_QUIET_HELP
	"  --bench             time the run without and with the attributor (best of\n"
	"                      three each, CPU time) and print the ratio; no report\n"
	RUN_OPTIONS_HELP,
	.main = cmd_attrib_main,
};
