/*
 * refstack.c — the reference CPI-stack sequences and a thread pool for
 * independent simulations (see refstack.h).
 *
 * Each simulation owns its guest and core; the program is shared read-only
 * (it is immutable once loaded), so jobs need no locking beyond taking the
 * next job from the list. A job publishes how far it has got after every
 * slice of REFSTACK_SLICE cycles, for a caller that watches (a progress
 * line) from its own thread.
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
	pthread_cond_t changed;   /* a job finished (for the watcher) */
	struct refstack_job *jobs;
	int n, next, finished;
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
	if (rc == IVX_OK && j->start_at)
		rc = core_fastforward_until(c, j->start_pc, j->start_at, j->max_insns, &j->err);
	for (int i = 0; rc == IVX_OK && i < j->n_obs; i++)
		rc = core_add_observer(c, j->obs[i], &j->err);
	double t0 = now_seconds();
	/* in slices, publishing the position for a watcher in between */
	while (rc == IVX_OK && !core_done(c)) {
		uint64_t now = core_cycles(c), to = now + REFSTACK_SLICE;
		if (j->max_cycles && j->max_cycles < to)
			to = j->max_cycles;
		rc = core_run(c, to, j->max_insns, &j->err);
		__atomic_store_n(&j->live_cycles, core_cycles(c), __ATOMIC_RELAXED);
		__atomic_store_n(&j->live_insns, core_committed(c), __ATOMIC_RELAXED);
		/* short of the slice: the instruction limit, or an observer's stop */
		if (core_cycles(c) < to || (j->max_cycles && core_cycles(c) >= j->max_cycles))
			break;
	}
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
		pthread_mutex_lock(&p->lock);
		__atomic_store_n(&p->jobs[i].live_done, 1, __ATOMIC_RELAXED);
		p->finished++;
		pthread_cond_signal(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

static void progress_of(const struct pool *p, struct refstack_progress *out)
{
	memset(out, 0, sizeof *out);
	out->total = p->n;
	for (int i = 0; i < p->n; i++) {
		out->done += __atomic_load_n(&p->jobs[i].live_done, __ATOMIC_RELAXED);
		out->cycles += __atomic_load_n(&p->jobs[i].live_cycles, __ATOMIC_RELAXED);
		out->insns += __atomic_load_n(&p->jobs[i].live_insns, __ATOMIC_RELAXED);
	}
}

int refstack_run_jobs(struct refstack_job *jobs, int n, int threads, struct ivx_err *err)
{
	return refstack_run_jobs_watched(jobs, n, threads, NULL, NULL, 0, err);
}

int refstack_run_jobs_watched(struct refstack_job *jobs, int n, int threads, refstack_watch_fn watch,
			      void *ctx, double period, struct ivx_err *err)
{
	enum { MAX_THREADS = 64 };
	if (threads < 1)
		threads = 1;
	if (threads > n)
		threads = n;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	for (int i = 0; i < n; i++)
		jobs[i].live_cycles = jobs[i].live_insns = 0, jobs[i].live_done = 0;
	struct pool p = { .jobs = jobs, .n = n };
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	pthread_t tid[MAX_THREADS];
	int started = 0;
	/* the calling thread is one of the workers, unless it watches */
	for (int t = watch ? 0 : 1; t < threads; t++) {
		if (pthread_create(&tid[started], NULL, worker, &p) != 0)
			break;
		started++;
	}
	if (watch && started > 0) {
		struct refstack_progress pr;
		pthread_mutex_lock(&p.lock);
		while (p.finished < n) {
			struct timespec until;
			clock_gettime(CLOCK_REALTIME, &until);
			long long ns = until.tv_nsec + (long long)(period * 1e9);
			until.tv_sec += (time_t)(ns / 1000000000);
			until.tv_nsec = (long)(ns % 1000000000);
			pthread_cond_timedwait(&p.changed, &p.lock, &until);
			pthread_mutex_unlock(&p.lock);
			progress_of(&p, &pr);
			watch(ctx, &pr);
			pthread_mutex_lock(&p.lock);
		}
		pthread_mutex_unlock(&p.lock);
	} else {
		worker(&p);   /* the caller works too (or alone, if no thread started) */
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.lock);
	for (int i = 0; i < n; i++)
		if (jobs[i].rc < 0)
			return ivx_error(err, jobs[i].rc, "%s", jobs[i].err.msg);
	return IVX_OK;
}
