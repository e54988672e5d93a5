/*
 * strat_mc.c — the Monte Carlo experiment of the paper's section 3.3
 * (Figure 4): how well a compressor estimates how often one tuple p
 * occurs in a randomly permuted stream.
 *
 * A stream of N tuples holds t = round(share * N) copies of p; the other
 * N - t are all distinct (fresh random tuples), so a stratum that p shares
 * holds p and a random fraction of the rest. The positions of p are a
 * uniformly random arrangement (each position is p with probability
 * remaining p's / remaining positions). EST is the sum of the counts of
 * the messages carrying p (r each without C); ERR = |100 (t - EST) / EST|
 * (100 when EST = 0); the result is the mean ERR over the trials.
 * Sketches report their estimate of p instead of messages.
 *
 * With o->ratio, samplers with a counter (CR, H[CR]) use the ratio
 * estimator instead of the sum: the stratum's length, which the counter
 * measures, times p's share of that stratum's messages. This is how the
 * counter gives CR "the same information as P" (section 3.1); the sum
 * of the counts since the previous sample, which section 3.3 states,
 * adds the variance of the random gaps instead.
 */
#include <math.h>
#include "strat.h"
#include "strat_mc.h"

#define P_PC  0x400100ull
#define P_VAL 42ull

struct mc_sink {
	uint64_t est;         /* sum of p's message counts */
	int bits;             /* the strata's index bits */
	uint32_t stratum;     /* p's stratum */
	uint64_t k, sum;      /* messages of p's stratum and the sum of their counts */
	uint64_t i;           /* of which p's */
};

static void mc_sample(void *ctx, const struct strat_msg *m)
{
	struct mc_sink *s = ctx;
	int is_p = m->pc == P_PC && m->val == P_VAL;
	if (is_p)
		s->est += m->count, s->i++;
	/* software knows the hash, so it knows each message's stratum */
	if (is_p || (s->bits ? strat_hash_index(m->pc, m->val, s->bits) : 0) == s->stratum)
		s->k++, s->sum += m->count;
}

/* The ratio estimator for samplers with a counter: the stratum's length
 * (its messages' counts plus what its counter holds at the end) times p's
 * share of the stratum's messages. */
static uint64_t ratio_estimate(const struct strat_comp *c, const struct mc_sink *s)
{
	struct strat_cell cell;
	strat_comp_cell(c, s->stratum, &cell);
	uint64_t len = s->sum + cell.count;
	return s->k ? (uint64_t)llround((double)len * (double)s->i / (double)s->k) : 0;
}

int strat_mc_point(const struct strat_spec *spec, uint64_t n, const struct strat_mc_opts *o, double *mean_err,
		   struct ivx_err *err)
{
	uint64_t t = (uint64_t)llround(o->share * (double)n);
	uint64_t rng = strat_rng_seed(o->seed * 0x10001 + n);
	double sum = 0.0;
	for (uint32_t trial = 0; trial < o->trials; trial++) {
		struct strat_comp *c = strat_comp_new(spec, strat_rng_next(&rng), err);
		if (!c)
			return -1;
		struct mc_sink sk = { 0 };
		const struct strat_stage *st = &spec->stage[0];
		int sampler = st->kind == STRAT_R || st->kind == STRAT_D || st->kind == STRAT_P;
		if (sampler && st->strata > 1) {
			while ((1u << sk.bits) < st->strata)
				sk.bits++;
			sk.stratum = strat_hash_index(P_PC, P_VAL, sk.bits);
		}
		struct strat_sink sink = { &sk, mc_sample, NULL };
		strat_comp_set_sink(c, &sink);
		uint64_t left_p = t;
		for (uint64_t i = 0; i < n; i++) {
			if (strat_rng_below(&rng, n - i) < left_p) {
				left_p--;
				strat_comp_push(c, P_PC, P_VAL);
			} else {
				/* a fresh tuple: a load pc in a 64 KiB text, any value */
				uint64_t x = strat_rng_next(&rng);
				strat_comp_push(c, 0x400000 + ((x & 0x3fff) << 2), strat_rng_next(&rng));
			}
		}
		uint64_t est = strat_comp_is_sketch(c) ? strat_comp_query(c, P_PC, P_VAL) :
			       o->ratio && sampler && st->counter ? ratio_estimate(c, &sk) : sk.est;
		strat_comp_free(c);
		sum += est ? fabs(100.0 * ((double)t - (double)est) / (double)est) : 100.0;
	}
	*mean_err = o->trials ? sum / o->trials : 0.0;
	return 0;
}
