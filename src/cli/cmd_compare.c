/*
 * cmd_compare.c — `ivx compare`: two runs side by side, the lesson a
 * teacher builds from "with the miss / without it" or "ROB 32 / ROB 256".
 *
 *   ivx compare [OPTIONS] [SIDE A] / [SIDE B] [-- ARGS_A [/ ARGS_B]]
 *
 * A `/` on its own separates side A from side B, among the options and
 * among the guest's arguments:
 *
 *   ivx compare k3_long_dmiss -- miss 100 / nomiss 100
 *   ivx compare -o core.rob_size=32 / -o core.rob_size=256 k2_branch_miss
 *   ivx compare --config a.ini / --config b.ini PROG -- ARGS
 *   ivx compare crc / interp                    (two programs)
 *
 * What belongs to a side: the machine (--config, -o) only ever to the side
 * it is written on, so `/ -o core.rob_size=256` compares the default
 * machine with the bigger ROB. Everything else (PROG, --max-insns,
 * --seed, --stdin, --fastforward, --start-at, --dir) written on one side
 * only is the same for both; written on both, each side has its own.
 * Guest arguments without a `/` are the same for both. The command's own
 * options (--json, --svg, --method, --timeline, --window) go anywhere.
 *
 * The runs happen one after the other, each a fresh guest and core with
 * the six accounting units attached; then cycles, instructions, CPI,
 * every miss event count and the CPI stacks are printed side by side with
 * the difference, and the extra cycles per event of the kind whose count
 * differs most: Δcycles / Δevents, what one such event costs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "legend.h"
#include "outfile.h"
#include "runopts.h"
#include "svg.h"

#define MAX_TOKENS 256

struct compare_flags {
	const char *json_path, *svg_path;
	int method;                   /* -1: all six */
	int timeline;                 /* --timeline: the SVG shows timelines */
	uint64_t win_lo, win_hi;      /* --window A:B (cycles) */
	int window_set;
};

/* One side as written, then as it runs. */
struct side {
	const char *tok[MAX_TOKENS];  /* its options and PROG */
	int n_tok;
	const char *arg[MAX_TOKENS];  /* its guest arguments */
	int n_arg;
	struct run_options o;
	char label[512];              /* "k3_long_dmiss miss 100 -o core.rob_size=32" */
	/* results */
	struct core_stats st;
	int exited;                   /* the guest exited (with status 0), else a limit stopped it */
	int nothing;                  /* the limit came before an instruction committed */
	struct acct_stack stack[ACCT_METHOD_COUNT];
	struct svg_timeline tl;
	int have_tl;
};

/* Run options that take a value, and those a side shares when only the
 * other one gives them (the machine options are not among them). */
static const char *const value_opts[] = {
	"--stdin", "--dir", "--seed", "--max-insns", "--max-cycles", "--fastforward", "--start-at", "--config", "-o", NULL,
};
static const char *const shared_opts[] = {
	"--stdin", "--dir", "--seed", "--max-insns", "--max-cycles", "--fastforward", "--start-at", NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

static int parse_window(const char *s, struct compare_flags *f)
{
	const char *colon = strchr(s, ':');
	char lo[64];
	if (!colon || (size_t)(colon - s) >= sizeof lo)
		return -1;
	memcpy(lo, s, (size_t)(colon - s));
	lo[colon - s] = 0;
	if (cli_parse_u64(lo, &f->win_lo) < 0 || cli_parse_u64(colon + 1, &f->win_hi) < 0 || f->win_hi <= f->win_lo)
		return -1;
	if (f->win_hi - f->win_lo > XTRACE_CYCLES)
		return -1;
	f->window_set = 1;
	return 0;
}

/* The command's own option at argv[i]: entries used (1 or 2), 0 if it is
 * not one, -1 after an error. */
static int own_option(struct compare_flags *f, int argc, char **argv, int i)
{
	const char *a = argv[i];
	if (!strcmp(a, "--timeline")) {
		f->timeline = 1;
		return 1;
	}
	if (strcmp(a, "--json") && strcmp(a, "--svg") && strcmp(a, "--method") && strcmp(a, "--window"))
		return 0;
	if (i + 1 >= argc) {
		cli_error("compare: option %s needs a value", a);
		return -1;
	}
	const char *v = argv[i + 1];
	if (!strcmp(a, "--json")) {
		f->json_path = v;
	} else if (!strcmp(a, "--svg")) {
		f->svg_path = v;
	} else if (!strcmp(a, "--window")) {
		if (parse_window(v, f) < 0) {
			cli_error("compare: --window '%s': expected A:B, cycles with A < B and at most %d apart", v,
				  XTRACE_CYCLES);
			return -1;
		}
	} else {
		f->method = -1;
		for (int m = 0; m < ACCT_METHOD_COUNT; m++)
			if (!strcmp(v, acct_method_name(m)))
				f->method = m;
		if (f->method < 0) {
			char names[128];
			size_t used = 0;
			for (int m = 0; m < ACCT_METHOD_COUNT; m++)
				used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", m ? ", " : "",
							 acct_method_name(m));
			cli_error("compare: --method '%s': expected one of %s", v, names);
			return -1;
		}
	}
	return 2;
}

static int push(const char **list, int *n, const char *s)
{
	if (*n >= MAX_TOKENS) {
		cli_error("compare: too many arguments");
		return -1;
	}
	list[(*n)++] = s;
	return 0;
}

/* Split argv at `/` into the two sides. 0, or -1 after an error. */
static int split(int argc, char **argv, struct compare_flags *f, struct side *s)
{
	int side = 0, arg_side = 0, in_args = 0, slashes = 0, arg_slashes = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (in_args) {
			if (!strcmp(a, "/")) {
				if (++arg_slashes > 1) {
					cli_error("compare: more than one / among the guest arguments (expected -- ARGS_A / ARGS_B)");
					return -1;
				}
				arg_side = 1;
			} else if (push(s[arg_side].arg, &s[arg_side].n_arg, a) < 0) {
				return -1;
			}
			continue;
		}
		if (!strcmp(a, "--")) {
			in_args = 1;
			continue;
		}
		if (!strcmp(a, "/")) {
			if (++slashes > 1) {
				cli_error("compare: more than one / among the options (expected [A OPTIONS] / [B OPTIONS])");
				return -1;
			}
			side = 1;
			continue;
		}
		int used = own_option(f, argc, argv, i);
		if (used < 0)
			return -1;
		if (used) {
			i += used - 1;
			continue;
		}
		if (push(s[side].tok, &s[side].n_tok, a) < 0)
			return -1;
		if (in_list(value_opts, a) && i + 1 < argc && push(s[side].tok, &s[side].n_tok, argv[++i]) < 0)
			return -1;
	}
	if (!slashes && !arg_slashes) {
		cli_error("compare: nothing to compare: separate side A from side B with a / "
			  "(e.g. `ivx compare PROG -- miss 100 / nomiss 100` or `-o core.rob_size=32 / -o core.rob_size=256`)");
		return -1;
	}
	if (!slashes) {      /* the same options for both */
		memcpy(s[1].tok, s[0].tok, sizeof s[0].tok);
		s[1].n_tok = s[0].n_tok;
	}
	if (!arg_slashes) {  /* the same arguments for both */
		memcpy(s[1].arg, s[0].arg, sizeof s[0].arg);
		s[1].n_arg = s[0].n_arg;
	}
	return 0;
}

/* Index of PROG among a side's tokens, or -1. */
static int prog_index(const struct side *s)
{
	for (int i = 0; i < s->n_tok; i++) {
		if (in_list(value_opts, s->tok[i]))
			i++;
		else if (s->tok[i][0] != '-' || !s->tok[i][1])
			return i;
	}
	return -1;
}

static int has_option(const struct side *s, const char *name)
{
	for (int i = 0; i < s->n_tok; i++) {
		if (!strcmp(s->tok[i], name))
			return 1;
		if (in_list(value_opts, s->tok[i]))
			i++;
	}
	return 0;
}

/* What one side says and the other does not, except the machine, applies
 * to both: copy it from `from` into `to`. */
static int inherit(struct side *to, const struct side *from)
{
	if (prog_index(to) < 0 && prog_index(from) >= 0 && push(to->tok, &to->n_tok, from->tok[prog_index(from)]) < 0)
		return -1;
	for (int k = 0; shared_opts[k]; k++) {
		if (has_option(to, shared_opts[k]))
			continue;
		for (int i = 0; i < from->n_tok; i++) {
			int val = in_list(value_opts, from->tok[i]);
			if (!strcmp(from->tok[i], shared_opts[k]) && i + 1 < from->n_tok &&
			    (push(to->tok, &to->n_tok, from->tok[i]) < 0 || push(to->tok, &to->n_tok, from->tok[i + 1]) < 0))
				return -1;
			i += val;
		}
	}
	return 0;
}

/* Parse a side with the shared option parser, as `compare` with its
 * tokens, then -- and its arguments. */
static int side_parse(struct side *s)
{
	char *argv[2 * MAX_TOKENS + 3];
	int n = 0;
	argv[n++] = (char *)"compare";
	for (int i = 0; i < s->n_tok; i++)
		argv[n++] = (char *)s->tok[i];
	argv[n++] = (char *)"--";
	for (int i = 0; i < s->n_arg; i++)
		argv[n++] = (char *)s->arg[i];
	argv[n] = NULL;
	if (run_options_parse(&s->o, n, argv, NULL, NULL) < 0)
		return -1;
	/* the label: program, arguments, then the machine as written */
	const char *name = s->o.prog_path ? s->o.prog_path : ivx_default_program_name;
	const char *base = strrchr(name, '/');
	size_t used = (size_t)snprintf(s->label, sizeof s->label, "%s", base ? base + 1 : name);
	for (int i = 0; i < s->n_arg && used < sizeof s->label; i++)
		used += (size_t)snprintf(s->label + used, sizeof s->label - used, " %s", s->arg[i]);
	for (int i = 0; i + 1 < s->n_tok && used < sizeof s->label; i++)
		if (!strcmp(s->tok[i], "--config") || !strcmp(s->tok[i], "-o")) {
			used += (size_t)snprintf(s->label + used, sizeof s->label - used, "%s%s %s",
						 used ? ", " : "", s->tok[i], s->tok[i + 1]);
			i++;
		}
	return 0;
}


/* Run one side to the end (or its limits). 0, or -1 after an error
 * line naming the side. */
static int side_run(struct side *s, char name, const struct compare_flags *f)
{
	struct machine_config cfg;
	struct ivx_err err = { 0 };
	if (run_options_config_quiet(&s->o, &cfg, &err) < 0) {
		cli_error("compare: side %c: %s", name, err.msg);
		return -1;
	}
	struct program *prog = cli_load_program(s->o.prog_path);
	if (!prog)
		return -1;
	struct guest *g = run_options_make_guest(prog, &s->o);
	struct core *c = NULL;
	struct acct_set *set = NULL;
	struct xtrace *tr = NULL;
	int rc = -1;
	if (!g)
		goto out;
	guest_set_output(g, cli_drop_output, NULL);
	c = core_new(&cfg, g, &err);
	if (!c || run_options_warm(&s->o, prog, c, &err) < 0)
		goto fail;
	set = acct_set_new_units(&cfg, &err);
	if (!set || core_add_observer(c, acct_set_observer(set), &err) < 0)
		goto fail;
	if (f->timeline) {
		tr = xtrace_new();
		if (!tr)
			ivx_error(&err, IVX_ESYS, "out of memory");
		if (!tr || core_add_observer(c, xtrace_observer(tr), &err) < 0)
			goto fail;
		uint64_t to = s->o.max_cycles && s->o.max_cycles < f->win_hi ? s->o.max_cycles : f->win_hi;
		if (core_run(c, to, s->o.max_insns, &err) < 0)
			goto fail;
		uint32_t w = cfg.fetch_width > cfg.commit_width ? cfg.fetch_width : cfg.commit_width;
		if (cfg.issue_width > w)
			w = cfg.issue_width;
		if (svg_timeline_from_trace(tr, f->win_lo, f->win_hi, (int)cfg.rob_size, (int)w, &s->tl) < 0) {
			cli_error("compare: side %c ran only %llu cycles: nothing in --window %llu:%llu", name,
				  (unsigned long long)core_cycles(c), (unsigned long long)f->win_lo,
				  (unsigned long long)f->win_hi);
			goto out;
		}
		s->have_tl = 1;
		snprintf(s->tl.title, sizeof s->tl.title, "%c: %.200s (cycles %llu-%llu)", name, s->label,
			 (unsigned long long)xcycle(s->tl.lo), (unsigned long long)xcycle(s->tl.hi - 1));
		core_remove_observer(c, tr);   /* the rest runs at full speed */
	}
	if (core_run(c, s->o.max_cycles, s->o.max_insns, &err) < 0)
		goto fail;
	core_stats(c, &s->st);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		acct_get_stack(acct_set_unit(set, m), &s->stack[m]);
	if (s->st.committed == 0 && !core_done(c)) {
		/* a limit the user set is a normal end, even this early */
		cli_error("compare: side %c: no instruction committed before the %s limit (%llu cycles): nothing to compare",
			  name, run_options_limit_hit(&s->o, 0), (unsigned long long)s->st.cycles);
		s->nothing = 1;
		rc = 0;
		goto out;
	}
	if (s->st.committed == 0) {
		cli_error("compare: side %c: the program ended before it committed an instruction", name);
		goto out;
	}
	if (core_done(c) && guest_state(g) == GUEST_EXITED && guest_exit_code(g) != 0) {
		cli_error("compare: side %c (%s): the program exited with status %d (`ivx run` shows its output)", name,
			  s->label, guest_exit_code(g));
		goto out;
	}
	s->exited = core_done(c);
	if (!core_done(c)) {   /* (each side's own limit: a normal end) */
		char then[64];
		snprintf(then, sizeof then, " on side %c", name);
		run_options_note_limit(&s->o, s->st.cycles, s->st.committed, then);
	}
	rc = 0;
	goto out;
fail:
	cli_error("compare: side %c: %s", name, err.msg);
out:
	xtrace_free(tr);
	acct_set_free(set);
	core_free(c);
	guest_free(g);
	program_free(prog);
	return rc;
}

/* The event kind whose CPI-stack component (of --method, default FMT)
 * differs most in cycles: the event the comparison is about; -1 if no
 * component differs. (The largest count difference alone would pick, at
 * a few repetitions, the handful of extra mispredictions in a run's
 * start-up over the misses being studied.) */
static int most_different(const struct side *s, const struct compare_flags *f)
{
	int m = f->method >= 0 ? f->method : ACCT_FMT, best = -1;
	double most = 0;
	for (int k = 0; k < ACCT_COMP_COUNT; k++) {   /* components are miss kinds 0 .. MISS_FU_STALL */
		double d = fabs((double)s[1].stack[m].comp[k] - (double)s[0].stack[m].comp[k]);
		if (d > most)
			most = d, best = k;
	}
	return best;
}

static int same_work(const struct side *s)
{
	uint64_t a = s[0].st.committed, b = s[1].st.committed, d = a > b ? a - b : b - a;
	return d * 100 <= (a > b ? a : b);
}

/* Whether kind k's count is what differs (by a tenth or more): then
 * B - A cycles over B - A events is what one event costs. Otherwise the
 * events are the same ones, costing differently (a bigger ROB, a slower
 * memory), and each side's charge per event says how. */
static int count_differs(const struct side *s, int k)
{
	if (!same_work(s))   /* within 1% of the same instructions, or the cycles are not the events' */
		return 0;
	uint64_t a = s[0].st.events_correct[k], b = s[1].st.events_correct[k];
	uint64_t d = a > b ? a - b : b - a, big = a > b ? a : b;
	return d > 0 && d * 10 >= big;
}

static double cpi_of(const struct core_stats *st)
{
	return st->committed ? (double)st->cycles / (double)st->committed : 0.0;
}

static double comp_cpi(const struct acct_stack *s, int k)
{
	double n = s->insns ? (double)s->insns : 1.0;
	return k == 0 ? (double)s->base / n : (double)s->comp[k - 1] / n;
}

static void row_u64(const char *name, uint64_t a, uint64_t b)
{
	printf("%-22s %14llu %14llu %+14lld\n", name, (unsigned long long)a, (unsigned long long)b,
	       (long long)(b - a));
}

static void print_text(const struct side *s, const struct compare_flags *f)
{
	printf("A: %s\nB: %s\n\n", s[0].label, s[1].label);
	printf("%-22s %14s %14s %14s\n", "", "A", "B", "B - A");
	row_u64("instructions", s[0].st.committed, s[1].st.committed);
	row_u64("cycles", s[0].st.cycles, s[1].st.cycles);
	printf("%-22s %14.4f %14.4f %+14.4f\n", "CPI", cpi_of(&s[0].st), cpi_of(&s[1].st),
	       cpi_of(&s[1].st) - cpi_of(&s[0].st));
	printf("miss events (correct path)\n");
	for (int k = 0; k < MISS_KIND_COUNT; k++) {
		char name[32];
		snprintf(name, sizeof name, "  %c %s", legend_letter(k), legend_name(k));
		row_u64(name, s[0].st.events_correct[k], s[1].st.events_correct[k]);
	}
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		if (f->method >= 0 && m != f->method)
			continue;
		char head[64];
		snprintf(head, sizeof head, "CPI stack, %s", acct_method_label(m));
		printf("\n%-22s %14s %14s %14s\n", head, "A", "B", "B - A");
		for (int k = 0; k <= ACCT_COMP_COUNT; k++) {
			double a = comp_cpi(&s[0].stack[m], k), b = comp_cpi(&s[1].stack[m], k);
			if (k && a == 0 && b == 0)
				continue;
			char name[32];
			snprintf(name, sizeof name, "  %c %s", k ? legend_letter(k - 1) : '=', k ? legend_name(k - 1) : "base");
			double d = fabs(b - a) < 5e-5 ? 0.0 : b - a;   /* no "-0.0000" */
			printf("%-22s %14.4f %14.4f %+14.4f\n", name, a, b, d);
		}
	}
	int64_t dc = (int64_t)(s[1].st.cycles - s[0].st.cycles);
	int64_t di = (int64_t)(s[1].st.committed - s[0].st.committed);
	int k = most_different(s, f);
	printf("\n");
	int m = f->method >= 0 ? f->method : ACCT_FMT;
	if (k < 0) {
		printf("No CPI-stack component differs: B - A = %+lld cycles.\n", (long long)dc);
	} else if (count_differs(s, k)) {
		int64_t de = (int64_t)(s[1].st.events_correct[k] - s[0].st.events_correct[k]);
		printf("Extra cycles per event: %s differs most (%s stack %+.4f CPI, %+lld events);\n"
		       "B - A = %+lld cycles, %.1f cycles per %s event.\n", legend_name(k), acct_method_label(m),
		       comp_cpi(&s[1].stack[m], k + 1) - comp_cpi(&s[0].stack[m], k + 1), (long long)de, (long long)dc,
		       (double)dc / (double)de, legend_name(k));
	} else {
		uint64_t ea = s[0].st.events_correct[k], eb = s[1].st.events_correct[k];
		double pa = ea ? (double)s[0].stack[m].comp[k] / (double)ea : 0, pb = eb ? (double)s[1].stack[m].comp[k] / (double)eb : 0;
		printf("Cycles per event: %s differs most (%s stack %+.4f CPI; %llu and %llu events):\n"
		       "%s charges %.1f cycles per %s event in A, %.1f in B (%+.1f); B - A = %+lld cycles.\n",
		       legend_name(k), acct_method_label(m), comp_cpi(&s[1].stack[m], k + 1) - comp_cpi(&s[0].stack[m], k + 1),
		       (unsigned long long)ea, (unsigned long long)eb, acct_method_label(m), pa, legend_name(k), pb, pb - pa,
		       (long long)dc);
	}
	if (di && same_work(s))
		printf("(the runs commit different numbers of instructions, %+lld: part of the cycle difference is theirs)\n",
		       (long long)di);
	else if (di)
		printf("(the second run commits %+lld instructions against the first, over 1%%: their cycles differ\n"
		       "for that too, so compare the CPI stacks, which are per instruction, and the charges per event)\n",
		       (long long)di);
}

static void json_side(FILE *out, const struct side *s, const struct compare_flags *f)
{
	fprintf(out, "{\"label\":");
	outfile_json_string(out, s->label);
	fprintf(out, ",\"program\":");
	outfile_json_string(out, s->o.prog_path ? s->o.prog_path : ivx_default_program_name);
	fprintf(out, ",\"args\":[");
	for (int i = 0; i < s->n_arg; i++) {
		fprintf(out, "%s", i ? "," : "");
		outfile_json_string(out, s->arg[i]);
	}
	fprintf(out, "],");
	run_options_json_end(out, &s->o, s->exited, 0, s->st.committed);
	fprintf(out, ",\"seed\":%llu", (unsigned long long)s->o.seed);
	fprintf(out, ",\"instructions\":%llu,\"cycles\":%llu,", (unsigned long long)s->st.committed,
		(unsigned long long)s->st.cycles);
	if (s->nothing)   /* (nothing to stack: no CPI, "methods" empty) */
		fprintf(out, "\"cpi\":null,\"events\":{");
	else
		fprintf(out, "\"cpi\":%.6f,\"events\":{", cpi_of(&s->st));
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		fprintf(out, "%s\"%s\":%llu", k ? "," : "", miss_kind_name(k), (unsigned long long)s->st.events_correct[k]);
	fprintf(out, "},\"methods\":{");
	int first = 1;
	for (int m = 0; m < ACCT_METHOD_COUNT && !s->nothing; m++) {
		if (f->method >= 0 && m != f->method)
			continue;
		fprintf(out, "%s\"%s\":{\"cpi\":%.6f,\"components\":{\"base\":%.6f", first ? "" : ",",
			acct_method_name(m), s->stack[m].insns ? (double)s->stack[m].cycles / (double)s->stack[m].insns : 0.0,
			comp_cpi(&s->stack[m], 0));
		for (int k = 0; k < ACCT_COMP_COUNT; k++)
			fprintf(out, ",\"%s\":%.6f", acct_comp_name(k), comp_cpi(&s->stack[m], k + 1));
		fprintf(out, "}}");
		first = 0;
	}
	fprintf(out, "}}");
}

static int write_json(const char *path, const struct side *s, const struct compare_flags *f)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *out = outfile_stream(o);
	fprintf(out, "{\"a\":");
	json_side(out, &s[0], f);
	fprintf(out, ",\"b\":");
	json_side(out, &s[1], f);
	if (s[0].nothing || s[1].nothing) {
		fprintf(out, ",\"diff\":null}\n");
		return outfile_commit_cli(o);
	}
	fprintf(out, ",\"diff\":{\"instructions\":%lld,\"cycles\":%lld,\"cpi\":%.6f,\"events\":{",
		(long long)(s[1].st.committed - s[0].st.committed), (long long)(s[1].st.cycles - s[0].st.cycles),
		cpi_of(&s[1].st) - cpi_of(&s[0].st));
	for (int k = 0; k < MISS_KIND_COUNT; k++)
		fprintf(out, "%s\"%s\":%lld", k ? "," : "", miss_kind_name(k),
			(long long)(s[1].st.events_correct[k] - s[0].st.events_correct[k]));
	fprintf(out, "}");
	int k = most_different(s, f), m = f->method >= 0 ? f->method : ACCT_FMT;
	if (k >= 0) {
		fprintf(out, ",\"most_different\":\"%s\",\"method\":\"%s\"", miss_kind_name(k), acct_method_name(m));
		if (count_differs(s, k))
			fprintf(out, ",\"cycles_per_event\":%.4f", (double)(int64_t)(s[1].st.cycles - s[0].st.cycles) /
				(double)(int64_t)(s[1].st.events_correct[k] - s[0].st.events_correct[k]));
		for (int i = 0; i < 2; i++)
			if (s[i].st.events_correct[k])
				fprintf(out, ",\"charged_per_event_%c\":%.4f", 'a' + i,
					(double)s[i].stack[m].comp[k] / (double)s[i].st.events_correct[k]);
	}
	fprintf(out, "}}\n");
	return outfile_commit_cli(o);
}

static int write_svg(const char *path, const struct side *s, const struct compare_flags *f)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *out = outfile_stream(o);
	if (f->timeline) {
		struct svg_timeline tl[2] = { s[0].tl, s[1].tl };
		svg_timeline_doc(out, tl, 2);
	} else {
		struct svg_stacks *st = calloc(2, sizeof *st);
		if (!st) {
			outfile_discard(o);
			cli_error("out of memory");
			return -1;
		}
		for (int i = 0; i < 2; i++) {
			snprintf(st[i].label, sizeof st[i].label, "%c: %.120s", 'A' + i, s[i].label);
			for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
				st[i].s[m] = s[i].stack[m];
				st[i].have[m] = f->method < 0 || m == f->method;
			}
		}
		char title[64];
		snprintf(title, sizeof title, "CPI stacks, A and B (CPI %.3f and %.3f)", cpi_of(&s[0].st), cpi_of(&s[1].st));
		svg_cpistack_doc(out, title, st, 2);
		free(st);
	}
	return outfile_commit_cli(o);
}

static int cmd_compare_main(int argc, char **argv)
{
	struct compare_flags f = { .method = -1, .win_lo = 0, .win_hi = 200 };
	struct side *s = calloc(2, sizeof *s);
	int status = EXIT_USAGE, parsed = 0;
	if (!s) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	if (split(argc, argv, &f, s) < 0 || inherit(&s[0], &s[1]) < 0 || inherit(&s[1], &s[0]) < 0)
		goto out;
	if (side_parse(&s[0]) < 0)
		goto out;
	parsed = 1;
	if (side_parse(&s[1]) < 0)
		goto out;
	parsed = 2;
	if (f.window_set && !f.timeline) {
		cli_error("compare: --window chooses the cycles --timeline draws; give --timeline --svg FILE too");
		goto out;
	}
	if (f.timeline && !f.svg_path) {
		cli_error("compare: --timeline draws into the --svg FILE; give --svg FILE too");
		goto out;
	}
	const struct named_file outputs[] = { { "--json", f.json_path }, { "--svg", f.svg_path } };
	if (run_options_check_outputs(&s[0].o, outputs, 2) < 0 || run_options_check_outputs(&s[1].o, outputs, 2) < 0)
		goto out;
	status = EXIT_GUEST;
	if (side_run(&s[0], 'A', &f) < 0 || side_run(&s[1], 'B', &f) < 0)
		goto out;
	int nothing = s[0].nothing || s[1].nothing;   /* (said on stderr: no table, no picture) */
	if (!nothing)
		print_text(s, &f);
	status = 0;
	if (f.json_path && write_json(f.json_path, s, &f) < 0)
		status = EXIT_OUTPUT;
	if (!nothing && f.svg_path && write_svg(f.svg_path, s, &f) < 0)
		status = EXIT_OUTPUT;
out:
	for (int i = 0; i < parsed; i++)
		run_options_free(&s[i].o);
	for (int i = 0; i < 2; i++)
		svg_timeline_release(&s[i].tl);
	free(s);
	return status;
}

const struct cli_command cmd_compare_entry = {
	.name = "compare",
	.summary = "two runs side by side: cycles, events, CPI stacks, cycles per event",
	.help =
	"usage: ivx compare [OPTIONS] [SIDE A] / [SIDE B] [-- ARGS_A [/ ARGS_B]]\n\n"
	"Run two variants one after the other and print side by side their\n"
	"instructions, cycles, CPI, miss event counts and CPI stacks (the six\n"
	"methods, or --method), the difference B - A, and a line on the event\n"
	"whose component of the FMT stack (or --method's) differs most in cycles:\n"
	"B - A cycles over B - A events, what one such event costs, when its\n"
	"count differs; each side's charge per event when it does not. A `/` on\n"
	"its own separates the sides:\n\n"
	"  ivx compare k3_long_dmiss -- miss 100 / nomiss 100\n"
	"  ivx compare -o core.rob_size=32 / -o core.rob_size=256 PROG -- ARGS\n"
	"  ivx compare --config a.ini / --config b.ini PROG\n"
	"  ivx compare PROG_A / PROG_B -- ARGS\n\n"
	"--config and -o belong to the side they are written on. PROG and the\n"
	"other run options written on one side only apply to both; written on\n"
	"both, each side has its own. Guest arguments without a / are the same\n"
	"for both. The program's own output is discarded.\n\n"
	"  --method NAME       one CPI stack: naive, naive_nonspec, power5, fmt, sfmt, ivx\n"
	"  --json FILE         everything as JSON\n"
	"  --svg FILE          the two runs' CPI stacks as bars on one scale\n"
	"  --timeline          ... instead, the two runs' timelines (with --svg)\n"
	"  --window A:B        the cycles the timelines show, A+1 to B as the explorer\n"
	"                      numbers them (default 0:200, at most 1024 cycles;\n"
	"                      with --start-at, cycle 0 is where LOC is reached)\n"
	RUN_OPTIONS_QUIET_HELP
	RUN_OPTIONS_HELP,
	.main = cmd_compare_main,
};
