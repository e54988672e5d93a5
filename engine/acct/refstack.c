/*
 * refstack.c — the reference CPI-stack sequences and a thread pool for
 * independent simulations (see refstack.h).
 *
 * Each simulation owns its guest and core; the program is shared read-only
 * (it is immutable once loaded), so jobs need no locking beyond taking the
 * next job from the list.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include "core/core.h"
#include "guest/guest.h"
#include "refstack.h"

static const char *const run_names[REF_RUN_COUNT] = {
	"base", "+fu", "+l1d", "+bpred", "+l1i", "+l2i", "+itlb", "+l2d", "real",
	"inv +l2d", "inv +dtlb", "inv +l1i", "inv +l2i",
};

const char *refstack_run_name(int run)
{
	return run >= 0 && run < REF_RUN_COUNT ? run_names[run] : "?";
}

/* Which components are real in each run (bit = enum acct_comp). */
#define R(c) (1u << (c))
#define R_FRONT4 (R(ACCT_FU) | R(ACCT_L1D) | R(ACCT_BPRED))
static const unsigned real_mask[REF_RUN_COUNT] = {
	[REF_BASE] = 0,
	[REF_FU] = R(ACCT_FU),
	[REF_L1D] = R(ACCT_FU) | R(ACCT_L1D),
	[REF_BPRED] = R_FRONT4,
	[REF_N_L1I] = R_FRONT4 | R(ACCT_L1I),
	[REF_N_L2I] = R_FRONT4 | R(ACCT_L1I) | R(ACCT_L2I),
	[REF_N_ITLB] = R_FRONT4 | R(ACCT_L1I) | R(ACCT_L2I) | R(ACCT_ITLB),
	[REF_N_L2D] = R_FRONT4 | R(ACCT_L1I) | R(ACCT_L2I) | R(ACCT_ITLB) | R(ACCT_L2D),
	[REF_REAL] = 0xff,
	[REF_I_L2D] = R_FRONT4 | R(ACCT_L2D),
	[REF_I_DTLB] = R_FRONT4 | R(ACCT_L2D) | R(ACCT_DTLB),
	[REF_I_L1I] = R_FRONT4 | R(ACCT_L2D) | R(ACCT_DTLB) | R(ACCT_L1I),
	[REF_I_L2I] = R_FRONT4 | R(ACCT_L2D) | R(ACCT_DTLB) | R(ACCT_L1I) | R(ACCT_L2I),
};

void refstack_config(const struct machine_config *real, int run, int with_fu_step, struct machine_config *out)
{
	*out = *real;
	unsigned m = run >= 0 && run < REF_RUN_COUNT ? real_mask[run] : 0xff;
	if (!with_fu_step)
		m |= R(ACCT_FU);   /* the paper: long-latency units real from the base on */
	/* a component the user already made perfect stays perfect */
	out->perfect_l1i |= !(m & R(ACCT_L1I));
	out->perfect_l2i |= !(m & R(ACCT_L2I));
	out->perfect_itlb |= !(m & R(ACCT_ITLB));
	out->perfect_l1d |= !(m & R(ACCT_L1D));
	out->perfect_l2d |= !(m & R(ACCT_L2D));
	out->perfect_dtlb |= !(m & R(ACCT_DTLB));
	out->perfect_bpred |= !(m & R(ACCT_BPRED));
	if (!(m & R(ACCT_FU))) {
		out->mul_latency = real->alu_latency;
		out->div_latency = real->alu_latency;
	}
}

void refstack_combine(const uint64_t cycles[REF_RUN_COUNT], const uint64_t insns[REF_RUN_COUNT],
		      struct refstack_stack *normal, struct refstack_stack *inverse)
{
	double cpi[REF_RUN_COUNT];
	for (int r = 0; r < REF_RUN_COUNT; r++)
		cpi[r] = insns[r] ? (double)cycles[r] / (double)insns[r] : 0.0;
	struct refstack_stack s = { .cpi = cpi[REF_REAL], .base = cpi[REF_BASE] };
	s.comp[ACCT_FU] = cpi[REF_FU] - cpi[REF_BASE];
	s.comp[ACCT_L1D] = cpi[REF_L1D] - cpi[REF_FU];
	s.comp[ACCT_BPRED] = cpi[REF_BPRED] - cpi[REF_L1D];
	*normal = s;
	*inverse = s;
	normal->comp[ACCT_L1I] = cpi[REF_N_L1I] - cpi[REF_BPRED];
	normal->comp[ACCT_L2I] = cpi[REF_N_L2I] - cpi[REF_N_L1I];
	normal->comp[ACCT_ITLB] = cpi[REF_N_ITLB] - cpi[REF_N_L2I];
	normal->comp[ACCT_L2D] = cpi[REF_N_L2D] - cpi[REF_N_ITLB];
	normal->comp[ACCT_DTLB] = cpi[REF_REAL] - cpi[REF_N_L2D];
	inverse->comp[ACCT_L2D] = cpi[REF_I_L2D] - cpi[REF_BPRED];
	inverse->comp[ACCT_DTLB] = cpi[REF_I_DTLB] - cpi[REF_I_L2D];
	inverse->comp[ACCT_L1I] = cpi[REF_I_L1I] - cpi[REF_I_DTLB];
	inverse->comp[ACCT_L2I] = cpi[REF_I_L2I] - cpi[REF_I_L1I];
	inverse->comp[ACCT_ITLB] = cpi[REF_REAL] - cpi[REF_I_L2I];
}

/* ---- the pool ------------------------------------------------------------- */

struct pool {
	pthread_mutex_t lock;
	struct refstack_job *jobs;
	int n, next;
};

/* CPU time of the calling thread (a job runs on one thread): other load
 * on the machine does not count, as it would in wall-clock time. */
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_one(struct refstack_job *j)
{
	memset(&j->err, 0, sizeof j->err);
	j->rc = IVX_OK;
	struct guest *g = guest_new(j->prog, &j->gopt, &j->err);
	if (!g) {
		j->rc = j->err.code ? j->err.code : IVX_ESYS;
		return;
	}
	struct core *c = core_new(&j->cfg, g, &j->err);
	if (!c) {
		j->rc = j->err.code ? j->err.code : IVX_ESYS;
		guest_free(g);
		return;
	}
	int rc = j->fastforward ? core_fastforward(c, j->fastforward, &j->err) : IVX_OK;
	for (int i = 0; rc == IVX_OK && i < j->n_obs; i++)
		rc = core_add_observer(c, j->obs[i], &j->err);
	double t0 = now_seconds();
	if (rc == IVX_OK)
		rc = core_run(c, j->max_cycles, j->max_insns, &j->err);
	j->seconds = now_seconds() - t0;
	j->rc = rc;
	core_stats(c, &j->stats);
	j->cycles = j->stats.cycles;
	j->insns = j->stats.committed;
	j->exited = core_done(c) && guest_state(g) == GUEST_EXITED;
	j->exit_code = j->exited ? guest_exit_code(g) : 0;
	core_free(c);
	guest_free(g);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		int i = p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			return NULL;
		run_one(&p->jobs[i]);
	}
}

int refstack_run_jobs(struct refstack_job *jobs, int n, int threads, struct ivx_err *err)
{
	enum { MAX_THREADS = 64 };
	if (threads < 1)
		threads = 1;
	if (threads > n)
		threads = n;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	struct pool p = { .jobs = jobs, .n = n };
	pthread_mutex_init(&p.lock, NULL);
	pthread_t tid[MAX_THREADS];
	int started = 0;
	/* the calling thread is one of the workers */
	for (int t = 1; t < threads; t++) {
		if (pthread_create(&tid[started], NULL, worker, &p) != 0)
			break;
		started++;
	}
	worker(&p);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&p.lock);
	for (int i = 0; i < n; i++)
		if (jobs[i].rc < 0)
			return ivx_error(err, jobs[i].rc, "%s", jobs[i].err.msg);
	return IVX_OK;
}
