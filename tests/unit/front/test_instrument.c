/*
 * test_instrument.c — the explorer's table of instruments
 * (src/explorer/instrument.h), with a test instrument registered here the
 * way a real one registers from its own file: it is created once per
 * session, attached to every new core (the first run and each restart)
 * after the explorer's own observers, found by name, freed with the
 * session; its `info` topic joins the built-in ones (lookup, `help info`,
 * completion); its event becomes a catchpoint kind that stops a run where
 * the instrument reports it; its observer's state is part of the
 * snapshots that reverse stepping restores; and it finishes once at each
 * arrival at the end of the run, however it got there.
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
#include "explorer/instrument.h"
#include "xcmd/xcmd.h"
#include "front/session.h"

#define TICK_PERIOD 1000   /* the test instrument's event: every 1000th cycle */

/* Its session object: counts of the table's calls, and the observer. */
struct ticker {
	struct explorer *x;
	int created, attached, freed_at_exit;
	uint64_t cycles;            /* observer state: cycles seen (snapshotted) */
	uint64_t finished;          /* observer state: finish ran (snapshotted) */
	int finishes;               /* finish calls that did something */
	struct core_observer obs;
};
static int tickers_alive;

static void tick_cycle(void *ctx, const struct cycle_record *r)
{
	struct ticker *t = ctx;
	t->cycles++;
	if (r->cycle % TICK_PERIOD == TICK_PERIOD - 1)
		explorer_instrument_event(t->x, "tick", r->head_pc, r->head_seq, 0);
}

static size_t tick_size(void *ctx) { return 2 * sizeof(uint64_t); }
static void tick_save(void *ctx, void *blob)
{
	struct ticker *t = ctx;
	memcpy(blob, &t->cycles, sizeof(uint64_t));
	memcpy((char *)blob + sizeof(uint64_t), &t->finished, sizeof(uint64_t));
}
static void tick_restore(void *ctx, const void *blob)
{
	struct ticker *t = ctx;
	memcpy(&t->cycles, blob, sizeof(uint64_t));
	memcpy(&t->finished, (const char *)blob + sizeof(uint64_t), sizeof(uint64_t));
}

/* as the engine's instruments do: once, recorded in the snapshotted state */
static void ticker_finish(void *self)
{
	struct ticker *t = self;
	if (t->finished)
		return;
	t->finished = 1;
	t->finishes++;
}

static void *ticker_create(struct explorer *x)
{
	struct ticker *t = calloc(1, sizeof *t);
	t->x = x;
	t->created = 1;
	tickers_alive++;
	return t;
}

static int ticker_attach(void *self, struct core *c, struct ivx_err *err)
{
	struct ticker *t = self;
	t->attached++;
	t->cycles = 0;
	t->finished = 0;
	t->obs = (struct core_observer){ .name = "ticker", .ctx = t, .on_cycle = tick_cycle,
					 .state_size = tick_size, .save = tick_save, .restore = tick_restore };
	return core_add_observer(c, &t->obs, err);
}

static void ticker_free(void *self)
{
	tickers_alive--;
	free(self);
}

static int info_ticks(struct explorer *x, int argc, char **argv, const char *rest)
{
	const struct ticker *t = explorer_instrument(x, "ticker");
	explorer_printf(x, "ticker saw %llu cycles\n", (unsigned long long)t->cycles);
	return 0;
}

static const struct xinfo_topic ticker_info[] = {
	{ .name = "ticks", .help = "cycles the test instrument saw", .usage = "info ticks", .exec = info_ticks },
	{ 0 },
};
static const char *const ticker_events[] = { "tick", NULL };

static const struct xinstrument xinst_ticker = {
	.name = "ticker", .summary = "a test instrument", .order = 100,
	.create = ticker_create, .attach = ticker_attach, .finish = ticker_finish, .free = ticker_free,
	.info = ticker_info, .events = ticker_events,
};
XINSTRUMENT_REGISTER(xinst_ticker);

static int setup(void **state)
{
	*state = test_session_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	test_session_free(*state);
	return 0;
}

static int run(struct explorer *x, const char *line)
{
	test_session_clear();
	return xcmd_execute(x, line, NULL);
}

static void the_table_holds_the_accounting_and_the_test_instrument(void **state)
{
	int found = 0;
	for (int i = 0; i < xinstrument_count(); i++) {
		found |= !strcmp(xinstrument_at(i)->name, "acct") << 0;
		found |= !strcmp(xinstrument_at(i)->name, "ticker") << 1;
		if (i)   /* attach order: by `order`, then name */
			assert_true(xinstrument_at(i - 1)->order <= xinstrument_at(i)->order);
	}
	assert_int_equal(found, 3);
	assert_null(explorer_instrument(*state, "no-such-instrument"));
	assert_non_null(explorer_instrument(*state, "acct"));
}

static void an_instrument_is_created_once_and_attached_to_every_core(void **state)
{
	struct explorer *x = *state;
	struct ticker *t = explorer_instrument(x, "ticker");
	assert_non_null(t);
	assert_int_equal(t->created, 1);
	assert_int_equal(t->attached, 1);
	assert_int_equal(run(x, "step 500"), 0);
	assert_int_equal(t->cycles, 500);
	assert_int_equal(explorer_restart(x), 0);
	assert_ptr_equal(explorer_instrument(x, "ticker"), t);   /* the same object */
	assert_int_equal(t->attached, 2);
	assert_int_equal(t->cycles, 0);
	assert_int_equal(run(x, "step 20"), 0);
	assert_int_equal(t->cycles, 20);
}

static void its_info_topic_joins_the_built_in_ones(void **state)
{
	struct explorer *x = *state;
	assert_int_equal(run(x, "step 42"), 0);
	assert_int_equal(run(x, "info ticks"), 0);
	assert_non_null(strstr(session_out, "ticker saw 42 cycles"));
	assert_int_equal(run(x, "info tic"), 0);   /* a unique prefix */
	assert_non_null(strstr(session_out, "ticker saw 42 cycles"));
	assert_int_equal(run(x, "info ticks now"), -1);
	assert_non_null(strstr(x->err, "takes no arguments"));
	assert_int_equal(run(x, "help info"), 0);
	assert_non_null(strstr(session_out, "ticks        cycles the test instrument saw"));
	assert_non_null(strstr(session_out, "stack        the CPI stack of every method"));
	int listed = 0;
	for (int i = 0; xcmd_info_topic_name(i); i++)
		listed += !strcmp(xcmd_info_topic_name(i), "ticks");
	assert_int_equal(listed, 1);
}

static void its_event_is_a_catchpoint_that_stops_where_it_happens(void **state)
{
	struct explorer *x = *state;
	assert_true(xev_from_name("tick") >= XEV_INSTRUMENT);
	assert_string_equal(xev_name(xev_from_name("tick")), "tick");
	assert_int_equal(run(x, "catch tick"), 0);
	assert_int_equal(run(x, "continue"), 0);
	assert_int_equal(x->stop.reason, STOP_BREAK);
	assert_int_equal(explorer_cycle(x), TICK_PERIOD);
	if (!strstr(session_out, "Catchpoint 1 (tick), cycle 1000"))
		fail_msg("%s", session_out);
	assert_int_equal(run(x, "continue"), 0);
	assert_int_equal(explorer_cycle(x), 2 * TICK_PERIOD);
	/* with a condition on the event's fields */
	assert_int_equal(run(x, "delete 1"), 0);
	assert_int_equal(run(x, "catch tick if cycle >= 5000"), 0);
	assert_int_equal(run(x, "continue"), 0);
	assert_int_equal(explorer_cycle(x), 5 * TICK_PERIOD);
}

static void its_observer_state_follows_reverse_stepping(void **state)
{
	struct explorer *x = *state;
	struct ticker *t = explorer_instrument(x, "ticker");
	assert_int_equal(run(x, "step 12345"), 0);
	assert_int_equal(t->cycles, 12345);
	assert_int_equal(run(x, "reverse-step 2345"), 0);
	assert_int_equal(explorer_cycle(x), 10000);
	assert_int_equal(t->cycles, 10000);
}

static void it_finishes_at_each_arrival_at_the_end_of_the_run(void **state)
{
	struct explorer *x = *state;
	struct ticker *t = explorer_instrument(x, "ticker");
	assert_int_equal(run(x, "step 1000"), 0);
	assert_int_equal(t->finishes, 0);
	assert_int_equal(run(x, "continue"), 0);
	assert_int_equal(x->stop.reason, STOP_EXITED);
	assert_int_equal(t->finished, 1);
	assert_int_equal(t->finishes, 1);
	uint64_t end = explorer_cycle(x);
	/* back before the end: the state before finish */
	assert_int_equal(run(x, "reverse-step 10"), 0);
	assert_int_equal(t->finished, 0);
	/* to the end again, by steps: once more */
	assert_int_equal(run(x, "step 5"), 0);
	assert_int_equal(t->finished, 0);
	assert_int_equal(run(x, "step 5"), 0);
	assert_int_equal(explorer_cycle(x), end);
	assert_int_equal(t->finished, 1);
	assert_int_equal(t->finishes, 2);
	/* staying at the end does not finish twice */
	assert_int_equal(run(x, "info ticks"), 0);
	assert_int_equal(t->finishes, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_table_holds_the_accounting_and_the_test_instrument, setup, teardown),
		cmocka_unit_test_setup_teardown(an_instrument_is_created_once_and_attached_to_every_core, setup, teardown),
		cmocka_unit_test_setup_teardown(its_info_topic_joins_the_built_in_ones, setup, teardown),
		cmocka_unit_test_setup_teardown(its_event_is_a_catchpoint_that_stops_where_it_happens, setup, teardown),
		cmocka_unit_test_setup_teardown(its_observer_state_follows_reverse_stepping, setup, teardown),
		cmocka_unit_test_setup_teardown(it_finishes_at_each_arrival_at_the_end_of_the_run, setup, teardown),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (tickers_alive != 0) {
		fprintf(stderr, "%d ticker objects not freed with their sessions\n", tickers_alive);
		failed++;
	}
	return failed;
}
