/*
 * event_hash.c — a fingerprint of everything the timing model publishes,
 * so a change meant to make the core faster (skipping idle cycles,
 * trimming a loop) can be checked to change nothing it computes
 * (tests/timing-equiv.sh, tests/tools/timing-fingerprint.sh).
 *
 *   event_hash [-o SECTION.KEY=VAL]... CYCLES PROG [ARGS...]
 *
 * Runs PROG for at most CYCLES cycles (0: to the end) five times, each
 * with a different set of observers, and prints one line per run:
 *
 *   bare     no observers: the run's statistics alone (the core free to
 *            skip whatever it can)
 *   idle     a cycle observer with on_idle_cycles, which expands every
 *            run of idle cycles into the records it stands for
 *   all      on_insn for every event, on_miss for every event, on_cycle
 *            without on_idle_cycles (the core must publish every cycle)
 *   acct     the CPI accounting units and the overlap measurement: their
 *            stacks and counts
 *   acct+    the same with every path tracked (ACCT_SET_ALL_PATHS, as the
 *            explorer's FMT pane has it)
 *
 * Each line holds the cycles, the commits and an FNV-1a hash of what the
 * run's observers saw (and of the core's and memory system's statistics),
 * field by field, so padding never enters it. The five must agree on the
 * cycles and commits; the hashes are compared against another build's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acct/acct.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"

struct hasher {
	uint64_t h;
	uint64_t n_insn, n_miss, n_cycle;
};

static void mix(struct hasher *x, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		x->h ^= (v >> (8 * i)) & 0xff;
		x->h *= 0x100000001b3ull;
	}
}

static void on_insn(void *ctx, const struct insn_event *e)
{
	struct hasher *x = ctx;
	x->n_insn++;
	mix(x, (uint64_t)e->stage);
	mix(x, e->cycle);
	mix(x, e->seq);
	mix(x, e->pc);
	mix(x, (uint64_t)e->kind);
	mix(x, e->word);
	mix(x, (uint64_t)e->taken);
	mix(x, e->next_pc);
	mix(x, e->load_value);
	mix(x, (uint64_t)e->rob_index);
	mix(x, (uint64_t)e->wrong_path);
	mix(x, (uint64_t)e->mispredicted);
	mix(x, (uint64_t)e->icache_miss);
	mix(x, (uint64_t)e->dcache_level);
	mix(x, (uint64_t)e->dtlb_miss);
	mix(x, e->mem_addr);
	mix(x, (uint64_t)e->n_deps);
	for (int k = 0; k < e->n_deps; k++)
		mix(x, e->dep_seq[k]);
}

static void on_miss(void *ctx, const struct miss_event *e)
{
	struct hasher *x = ctx;
	x->n_miss++;
	mix(x, (uint64_t)e->kind);
	mix(x, (uint64_t)e->phase);
	mix(x, e->id);
	mix(x, e->start);
	mix(x, e->end);
	mix(x, e->insn_seq);
	mix(x, e->pc);
	mix(x, e->addr);
	mix(x, (uint64_t)e->correct_path);
}

/* The fixed part of a record (what a run of idle cycles repeats), with
 * its cycle number given. */
static void mix_record(struct hasher *x, const struct cycle_record *r, uint64_t cycle)
{
	x->n_cycle++;
	mix(x, cycle);
	mix(x, (uint64_t)r->fetched);
	mix(x, (uint64_t)r->dispatched);
	mix(x, (uint64_t)r->dispatched_correct);
	mix(x, (uint64_t)r->issued);
	mix(x, (uint64_t)r->committed);
	mix(x, (uint64_t)r->squashed);
	mix(x, (uint64_t)r->issued_correct);
	mix(x, (uint64_t)r->rob_occupancy);
	mix(x, (uint64_t)r->rob_size);
	mix(x, (uint64_t)r->rob_full);
	mix(x, (uint64_t)r->rob_full_wrong_path);
	mix(x, (uint64_t)r->lsq_occupancy);
	mix(x, (uint64_t)r->frontend_occupancy);
	mix(x, (uint64_t)r->fetch_stall);
	mix(x, (uint64_t)r->head_wait);
	mix(x, (uint64_t)r->idle);
	mix(x, r->head_seq);
	mix(x, r->head_pc);
	mix(x, r->dispatch_seq);
	mix(x, r->commit_seq);
	mix(x, (uint64_t)r->wrong_path_in_rob);
	mix(x, (uint64_t)r->long_misses_outstanding);
	mix(x, r->issue_head_pc);
}

static void on_cycle(void *ctx, const struct cycle_record *r)
{
	struct hasher *x = ctx;
	mix_record(x, r, r->cycle);
	mix(x, (uint64_t)r->branches_fetched);
	for (int i = 0; i < r->branches_fetched; i++) {
		mix(x, r->branch_fetched[i].seq);
		mix(x, r->branch_fetched[i].pc);
		mix(x, (uint64_t)r->branch_fetched[i].rob_index);
		mix(x, (uint64_t)r->branch_fetched[i].wrong_path);
	}
}

static void on_idle(void *ctx, const struct cycle_record *r, uint64_t n)
{
	struct hasher *x = ctx;
	for (uint64_t i = 0; i < n; i++) {
		mix_record(x, r, r->cycle + i);
		mix(x, 0);   /* no branches fetched in an idle cycle */
	}
}

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

enum run_kind { RUN_BARE, RUN_IDLE, RUN_ALL, RUN_ACCT, RUN_ACCT_ALL, RUN_COUNT };
static const char *const run_names[RUN_COUNT] = { "bare", "idle", "all", "acct", "acct+" };

static int run(int kind, const struct machine_config *cfg, uint64_t cycles, int argc, char **argv)
{
	struct ivx_err err = { 0 };
	struct hasher x = { .h = 0xcbf29ce484222325ull };
	struct program *prog = program_load_file(argv[0], &err);
	struct guest_options gopt = { .argc = argc, .argv = argv, .seed = 1, .output = drop };
	struct guest *g = prog ? guest_new(prog, &gopt, &err) : NULL;
	struct core *c = g ? core_new(cfg, g, &err) : NULL;
	struct acct_set *set = NULL;
	struct core_observer o = { .name = "event_hash", .ctx = &x };
	int rc = c ? IVX_OK : IVX_EUSAGE;
	if (kind == RUN_IDLE) {
		o.on_cycle = on_cycle;
		o.on_idle_cycles = on_idle;
	} else if (kind == RUN_ALL) {
		o.on_insn = on_insn;
		o.on_miss = on_miss;
		o.on_cycle = on_cycle;
	}
	if (rc == IVX_OK && (kind == RUN_IDLE || kind == RUN_ALL))
		rc = core_add_observer(c, &o, &err);
	if (rc == IVX_OK && (kind == RUN_ACCT || kind == RUN_ACCT_ALL)) {
		set = acct_set_new_opts(cfg, ACCT_SET_OVERLAP | (kind == RUN_ACCT_ALL ? ACCT_SET_ALL_PATHS : 0),
					&err);
		rc = set ? core_add_observer(c, acct_set_observer(set), &err) : IVX_EUSAGE;
	}
	if (rc == IVX_OK)
		rc = core_run(c, cycles, 0, &err);
	if (rc < 0 && rc != IVX_EGUEST) {
		fprintf(stderr, "event_hash: %s\n", err.msg);
		return 1;
	}
	/* a guest fault ends the run like an exit: its position is hashed */
	mix(&x, (uint64_t)rc);
	struct core_stats st;
	core_stats(c, &st);
	const uint64_t *w = &st.cycles;
	for (size_t i = 0; i < sizeof st / sizeof *w; i++)
		mix(&x, w[i]);
	if (set) {
		/* the five methods by name (a method added later leaves the
		 * hashes of these as they were) */
		static const int methods[] = { ACCT_NAIVE, ACCT_NAIVE_NONSPEC, ACCT_POWER5, ACCT_FMT, ACCT_SFMT };
		for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
			const struct acct *a = acct_set_unit(set, methods[i]);
			if (!a)
				continue;
			struct acct_stack s;
			uint64_t n[ACCT_COMP_COUNT];
			acct_get_stack(a, &s);
			acct_event_counts(a, n);
			mix(&x, s.cycles);
			mix(&x, s.insns);
			for (int k = 0; k < ACCT_COMP_COUNT; k++) {
				mix(&x, s.comp[k]);
				mix(&x, n[k]);
			}
		}
		struct acct_overlap_stats ov;
		acct_overlap_get(acct_set_overlap(set), &ov);
		const uint64_t *v = (const uint64_t *)(const void *)&ov;
		for (size_t i = 0; i < sizeof ov / sizeof *v; i++)
			mix(&x, v[i]);
	}
	printf("%-5s cycles %llu commits %llu insn-events %llu miss-events %llu records %llu hash %016llx\n",
	       run_names[kind], (unsigned long long)st.cycles, (unsigned long long)st.committed,
	       (unsigned long long)x.n_insn, (unsigned long long)x.n_miss, (unsigned long long)x.n_cycle,
	       (unsigned long long)x.h);
	acct_set_free(set);
	core_free(c);
	guest_free(g);
	program_free(prog);
	return 0;
}

int main(int argc, char **argv)
{
	struct machine_config cfg;
	struct ivx_err err = { 0 };
	config_defaults(&cfg);
	int i = 1;
	for (; i + 1 < argc && !strcmp(argv[i], "-o"); i += 2)
		if (config_set(&cfg, argv[i + 1], &err) < 0) {
			fprintf(stderr, "event_hash: %s\n", err.msg);
			return 2;
		}
	if (argc - i < 2) {
		fprintf(stderr, "usage: event_hash [-o SECTION.KEY=VAL]... CYCLES PROG [ARGS...]\n");
		return 2;
	}
	uint64_t cycles = strtoull(argv[i], NULL, 0);
	for (int k = 0; k < RUN_COUNT; k++)
		if (run(k, &cfg, cycles, argc - i - 1, argv + i + 1))
			return 1;
	return 0;
}
