/*
 * instrument.h — the explorer's table of instruments.
 *
 * An instrument is something that observes the core and has its own
 * state, panes and commands: the CPI accounting units today, then the
 * DCPI sampler, the profiling co-processor and the stratified samplers.
 * Each registers one table entry (as Linux registers a `struct pmu`, or
 * tmux its window modes) from its own file, src/explorer/inst_NAME.c:
 *
 *   create  once per session: the instrument's session-side object
 *   attach  after every (re)start of the run: make fresh engine state for
 *           the new core and add it as the core's observer(s)
 *   finish  the run has reached its end (the program exited, or a limit
 *           of the command line): deliver what the headless command
 *           delivers at its end (the last partial batch, the daemon's
 *           drain, the final harvest), so the numbers agree with it
 *   free    with the session
 *   info    the `info TOPIC` subcommands it adds (text via explorer_printf)
 *   events  the names of the events it lets `catch` stop on ("sample");
 *           it reports one with explorer_instrument_event
 *   panes, commands   the names of its panes (ui/pane_*.c, PANE_REGISTER)
 *           and commands (src/xcmd/xcmd_*.c, XCMD_REGISTER), for `help`
 *
 * Snapshots: whatever an instrument keeps about the run must live in an
 * engine observer with state_size/save/restore (core/events.h), so
 * core_snapshot_save and reverse stepping capture it with the core; the
 * session-side object keeps only settings, which survive a restart.
 * `finish` changes that state, so it must happen once per arrival at the
 * end: the engine records that it ran in the snapshotted state (a second
 * call does nothing), and going back restores the state before it.
 *
 * The linker gathers the entries (section "ivx_instruments"); they are
 * attached in order of `order`, then name, after the explorer's own
 * recorder and breakpoints, so a catchpoint has seen a cycle's events
 * before an instrument's observer runs.
 */
#ifndef IVX_INSTRUMENT_H
#define IVX_INSTRUMENT_H

#include <stdint.h>
#include "base/err.h"

struct core;
struct explorer;

/* One `info TOPIC` subcommand. Lists of them end with a NULL name. */
struct xinfo_topic {
	const char *name;        /* "stack" */
	const char *help;        /* one line for `help info` */
	const char *usage;       /* "info fmt [sfmt]": shown when too many words are given */
	int max_args;            /* words it accepts after the topic */
	/* argv[0] is the topic; `rest` the raw text after it. 0, or -1 with
	 * explorer_error. */
	int (*exec)(struct explorer *x, int argc, char **argv, const char *rest);
	const char *detail;      /* more for `help info NAME`, may be NULL */
	/* What its argument completes to (Tab): the i-th word, NULL past
	 * the end; may be NULL. */
	const char *(*word_at)(int i);
};

struct xinstrument {
	const char *name;        /* "acct": explorer_instrument(x, "acct") */
	const char *summary;     /* one line */
	int order;               /* attach order (smaller first) */
	void *(*create)(struct explorer *x);                 /* NULL: out of memory */
	int (*attach)(void *self, struct core *c, struct ivx_err *err);
	void (*finish)(void *self);                          /* may be NULL */
	void (*free)(void *self);
	const struct xinfo_topic *info;   /* may be NULL */
	const char *const *events;        /* NULL-terminated catchable event names, may be NULL */
	/* NULL while it runs; otherwise what to do so that it does (a
	 * catchpoint on its events cannot hit before). May be NULL. */
	const char *(*idle)(const void *self);
	const char *panes;       /* space-separated pane names, may be NULL */
	const char *commands;    /* space-separated command names, may be NULL */
};

#define XINSTRUMENT_REGISTER(inst) \
	static const struct xinstrument *const inst##_registration \
	__attribute__((used, section("ivx_instruments"), aligned(sizeof(void *)))) = &inst

/* The table in attach order. */
int xinstrument_count(void);
const struct xinstrument *xinstrument_at(int i);

/* The session's object of the instrument `name` (NULL if there is none). */
void *explorer_instrument(const struct explorer *x, const char *name);
/* What the instrument whose event this is needs before the event can
 * happen (its `idle`), or NULL when it runs or the event is the core's. */
const char *explorer_event_idle(const struct explorer *x, const char *event);

/* An instrument's event `name` (one of its `events`) happened during the
 * current cycle at instruction pc (seq: its dynamic number, 0 if none;
 * addr: a data address or 0): catchpoints on it hit as on a derived
 * event, with `cycle`, `pc` and `addr` in their conditions. Cheap when no
 * catchpoint is set. */
void explorer_instrument_event(struct explorer *x, const char *name, uint64_t pc, uint64_t seq,
			       uint64_t addr);
/* ... that happened at engine cycle `cycle`, which may be before the
 * current one: an instrument that takes runs of idle cycles at once (the
 * DCPI sampler) learns of its event when the run is handed over. */
void explorer_instrument_event_at(struct explorer *x, const char *name, uint64_t cycle, uint64_t pc,
				  uint64_t seq, uint64_t addr);

#endif
