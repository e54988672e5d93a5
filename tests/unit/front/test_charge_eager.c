/*
 * test_charge_eager.c — the explorer's per-event charges (inst_charge.c)
 * against the plain rule they implement, worked out eagerly by an
 * observer of this test's own.
 *
 * The charges read the methods' counts only when the event a component's
 * cycles go to (its owner) changes, and hold the ivx counters' read-outs
 * back in a log; both are meant to give, to the bit, what reading every
 * method's count at every begin and end of an event gives. The reference
 * here does exactly that: at each begin and end of a miss event it reads
 * each method's count of the event's component (acct_component; the
 * sFMT's I-side: its fetch count), and hands what it gained since the
 * last begin or end of that component to the oldest event of the
 * component in progress, or with none in progress to the one that ended
 * last. It is registered as an instrument after the charges, so it sees
 * the accounting units' counts as they do, and its state is snapshotted,
 * so reverse stepping restores it too.
 *
 * On workloads whose events come one after another (muldiv's divider
 * stalls), overlap (ptrchase's loads), mix components (branchy) and sit in
 * the front end (icache), every ended event still in both rings must have
 * the same charge from every method that counts per component (not the
 * naive ones, a fixed penalty, nor the FMT's I-side, read from its row).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "explorer/explorer.h"
#include "explorer/explorer_trace.h"
#include "explorer/inst_acct.h"
#include "explorer/inst_charge.h"
#include "explorer/instrument.h"
#include "xcmd/xcmd.h"
#include "front/session.h"

#define RING 1024
#define TRACK 32

struct ref_state {
	struct {
		uint64_t id;
		int64_t v[ACCT_METHOD_COUNT];
		int ended;
	} ev[RING];
	struct {
		int64_t last[ACCT_METHOD_COUNT];
		uint64_t id[TRACK], seq[TRACK];
		int n;
		uint64_t last_ended;
	} track[ACCT_COMP_COUNT];
};

struct ref {
	struct explorer *x;
	struct core_observer obs;
	const struct acct *unit[ACCT_METHOD_COUNT];
	struct ref_state s;
	uint64_t transitions;
};

/* The methods compared for component comp. */
static int compared(const struct ref *r, int m, int comp)
{
	if (m == ACCT_NAIVE || m == ACCT_NAIVE_NONSPEC || !r->unit[m])
		return 0;
	return !(m == ACCT_FMT && comp <= ACCT_ITLB);
}

static int64_t count_of(const struct ref *r, int m, int comp)
{
	uint64_t pos;
	if (m == ACCT_SFMT && comp <= ACCT_ITLB)
		return (int64_t)acct_fmt_fetch_count(r->unit[m], comp - ACCT_L1I, &pos);
	return (int64_t)acct_component(r->unit[m], comp);
}

static void ref_miss(void *ctx, const struct miss_event *e)
{
	struct ref *r = ctx;
	int comp = xcharge_comp(e->kind);
	if (comp < 0)
		return;
	typeof(&r->s.track[0]) t = &r->s.track[comp];
	uint64_t owner_id = t->n ? 0 : t->last_ended;
	for (int i = 0, best = -1; i < t->n; i++)
		if (best < 0 || t->seq[i] < t->seq[best])
			best = i, owner_id = t->id[i];
	typeof(&r->s.ev[0]) owner = &r->s.ev[owner_id % RING];
	if (!owner_id || owner->id != owner_id)
		owner = NULL;
	for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
		if (!compared(r, m, comp))
			continue;
		int64_t now = count_of(r, m, comp);
		if (owner)
			owner->v[m] += now - t->last[m];
		t->last[m] = now;
	}
	r->transitions++;
	typeof(&r->s.ev[0]) c = &r->s.ev[e->id % RING];
	if (e->phase == MISS_BEGIN) {
		memset(c, 0, sizeof *c);
		c->id = e->id;
		if (t->n < TRACK) {
			t->id[t->n] = e->id;
			t->seq[t->n++] = e->insn_seq;
		}
		return;
	}
	for (int i = 0; i < t->n; i++)
		if (t->id[i] == e->id) {
			t->id[i] = t->id[--t->n];
			t->seq[i] = t->seq[t->n];
			break;
		}
	if (c->id != e->id || c->ended)
		return;
	t->last_ended = e->id;
	c->ended = 1;
}

static size_t ref_size(void *ctx) { return sizeof(struct ref_state); }
static void ref_save(void *ctx, void *blob) { memcpy(blob, &((struct ref *)ctx)->s, sizeof(struct ref_state)); }
static void ref_restore(void *ctx, const void *blob) { memcpy(&((struct ref *)ctx)->s, blob, sizeof(struct ref_state)); }

static void *ref_create(struct explorer *x)
{
	struct ref *r = calloc(1, sizeof *r);
	r->x = x;
	return r;
}

static int ref_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct ref *r = self;
	memset(&r->s, 0, sizeof r->s);
	for (int m = 0; m < ACCT_METHOD_COUNT; m++)
		r->unit[m] = xacct_unit(explorer_instrument(r->x, "acct"), m);
	r->obs = (struct core_observer){ .name = "charge-ref", .ctx = r, .on_miss = ref_miss,
					 .state_size = ref_size, .save = ref_save, .restore = ref_restore };
	return core_add_observer(c, &r->obs, err);
}

static void ref_free(void *self)
{
	free(self);
}

static const struct xinstrument xinst_charge_ref = {
	.name = "charge-ref", .summary = "the charges worked out eagerly (a test instrument)", .order = 100,
	.create = ref_create, .attach = ref_attach, .free = ref_free,
};
XINSTRUMENT_REGISTER(xinst_charge_ref);

/* A batch session on one workload (the tests run from the source tree). */
static struct explorer *session_on(const char *prog, const char *arg)
{
	char *argv[] = { (char *)"explore", (char *)prog, (char *)"--", (char *)arg, NULL };
	return test_session_new_args(4, argv);
}

static int run(struct explorer *x, const char *line)
{
	test_session_clear();
	int rc = xcmd_execute(x, line, NULL);
	if (rc < 0)
		fail_msg("%s: %s", line, x->err);
	return rc;
}

/* Every ended event in the recorder's ring whose charges both sides
 * still hold: the same charges. The number compared. */
static int compare_all(struct explorer *x)
{
	const struct ref *r = explorer_instrument(x, "charge-ref");
	int n = 0;
	for (int i = 0; i < xtrace_event_count(x->trace); i++) {
		const struct xevent *e = xtrace_event_at(x->trace, i);
		int comp = xcharge_comp(e->kind);
		int64_t out[ACCT_METHOD_COUNT];
		int known[ACCT_METHOD_COUNT];
		if (comp < 0 || !e->id || xcharge_get(x, e, out, known) < 0)
			continue;
		const typeof(r->s.ev[0]) *c = &r->s.ev[e->id % RING];
		if (c->id != e->id || !c->ended)
			continue;
		const typeof(r->s.track[0]) *t = &r->s.track[comp];
		int gaining = !t->n && t->last_ended == e->id;   /* as xcharge_get adds */
		for (int m = 0; m < ACCT_METHOD_COUNT; m++) {
			if (!compared(r, m, comp) || !known[m])
				continue;
			int64_t want = c->v[m] + (gaining ? count_of(r, m, comp) - t->last[m] : 0);
			if (out[m] != want)
				fail_msg("cycle %llu: event %llu (%s, began at %llu), %s: charged %lld, eagerly %lld",
					 (unsigned long long)explorer_cycle(x), (unsigned long long)e->id,
					 xev_name(e->kind), (unsigned long long)e->start, acct_method_name(m),
					 (long long)out[m], (long long)want);
		}
		n++;
	}
	return n;
}

static void check_workload(const char *prog, const char *arg, int min_compared)
{
	struct explorer *x = session_on(prog, arg);
	if (!x)
		fail_msg("cannot start %s (run from the source tree after make data)", prog);
	const struct ref *r = explorer_instrument(x, "charge-ref");
	int n = 0;
	static const char *const steps[] = {
		"step 20000", "step 25000", "reverse-step 7000", "step 11000", "reset stats", "step 15000",
		"reverse-step 300", "step 40000",
	};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		run(x, steps[i]);
		n += compare_all(x);
	}
	if (n < min_compared)
		fail_msg("%s: only %d events compared (%llu transitions seen)", prog, n,
			 (unsigned long long)r->transitions);
	test_session_free(x);
}

static void muldiv_divider_stalls_one_after_another(void **state)
{
	check_workload("data/bin/workloads/muldiv", "160", 4000);
}

static void ptrchase_overlapping_loads(void **state)
{
	check_workload("data/bin/workloads/ptrchase", "32", 1000);
}

static void branchy_mispredictions_among_other_components(void **state)
{
	check_workload("data/bin/workloads/branchy", "128", 1000);
}

static void icache_front_end_misses(void **state)
{
	check_workload("data/bin/workloads/icache", "100", 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(muldiv_divider_stalls_one_after_another),
		cmocka_unit_test(ptrchase_overlapping_loads),
		cmocka_unit_test(branchy_mispredictions_among_other_components),
		cmocka_unit_test(icache_front_end_misses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
