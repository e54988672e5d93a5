/*
 * dcpi.h — the data-collection half of DCPI (Anderson et al., SOSP 1997,
 * sections 4-5) on the simulated machine.
 *
 * One `struct dcpi` is a whole sampling profiler attached to one core as
 * an observer:
 *
 *   counters   hardware performance counters (CYCLES, IMISS, DMISS,
 *              BRANCHMP, DTBMISS, RETIRED); each overflows after a period
 *              drawn uniformly from [P - dP, P] by its own seeded
 *              generator; with more events than counters, the last
 *              counter is time-multiplexed among the rest;
 *   interrupt  delivered `skid` cycles after the overflow (6 on the
 *              21164); the sample is (pid, pc, event) with pc the
 *              instruction at the in-order head at delivery
 *              (cycle_record.issue_head_pc: the issue head in-order, the
 *              ROB head out-of-order);
 *   driver     a hash table of 4-way buckets of 16-byte entries
 *              (pid, pc, event, count); a miss evicts the entry a mod-4
 *              round-robin counter names into the active one of a pair of
 *              overflow buffers (dcpi_driver.c);
 *   daemon     drains a full buffer at once, and the table at the end
 *              (dcpi_flush), aggregating (pc, event) -> samples;
 *   truth      what only a simulator knows: per pc, the exact cycles it
 *              spent at the in-order head and the exact events it caused.
 *
 * Everything a run changes lives in one block of memory that is the
 * observer's snapshot state, so reverse stepping restores it exactly.
 * Nothing is allocated after dcpi_new. docs/dcpi.md explains the model
 * and the values ivx chose where the paper leaves them open.
 */
#ifndef IVX_DCPI_H
#define IVX_DCPI_H

#include <stddef.h>
#include <stdint.h>
#include "core/core.h"
#include "core/events.h"
#include "base/err.h"

enum dcpi_event {
	DCPI_CYCLES,     /* processor cycles */
	DCPI_IMISS,      /* instruction fetches missing the L1 I-cache (l1i + l2i events) */
	DCPI_DMISS,      /* loads/stores missing the L1 D-cache (l1d + l2d events) */
	DCPI_BRANCHMP,   /* mispredicted branches (correct path) */
	DCPI_DTBMISS,    /* D-TLB misses */
	DCPI_RETIRED,    /* committed instructions */
	DCPI_EVENT_COUNT
};

/* "cycles", "imiss", "dmiss", "branchmp", "dtbmiss", "retired"; "?" if unknown. */
const char *dcpi_event_name(int ev);
int dcpi_event_from_name(const char *name);   /* -1 if unknown */

#define DCPI_MAX_COUNTERS 3     /* the 21164 has three */
#define DCPI_MAX_PENDING 8      /* overflows waiting for their interrupt */
#define DCPI_WAYS 4             /* entries per hash bucket */

struct dcpi_config {
	uint32_t events;            /* bit e: event e is sampled (default CYCLES|IMISS) */
	int counters;               /* hardware counters, 1..DCPI_MAX_COUNTERS (default 2) */
	uint64_t period[DCPI_EVENT_COUNT]; /* P: the longest period */
	uint64_t delta[DCPI_EVENT_COUNT];  /* dP: periods are uniform in [P - dP, P] */
	uint32_t skid;              /* cycles from overflow to interrupt (default 6) */
	uint64_t seed;              /* seeds every counter's generator */
	uint64_t mux_cycles;        /* cycles each multiplexed event holds the shared counter */
	uint32_t table_buckets;     /* hash buckets (power of two; default 4096 = 16K entries) */
	uint32_t buffer_entries;    /* entries per overflow buffer (default 8192) */
	uint32_t daemon_capacity;   /* distinct (pc, event) the daemon can hold (power of two) */
	uint32_t truth_capacity;    /* distinct pcs the truth can hold (power of two; 0: no truth) */
	/* Cost model (cycles): delivery and return, handler on a hash hit,
	 * on a miss, and the daemon per entry it drains. */
	uint32_t cost_intr, cost_hit, cost_miss, cost_drain_entry;
	int charge;                 /* 1: charge handler and daemon cycles to the core */
	uint32_t pid;               /* the sampled process's id (16 bits kept) */
	uint32_t clock_mhz;         /* for samples per simulated second (default 333) */
	int poll;                   /* driven by dcpi_poll instead of observing every
				       cycle: needs no RETIRED (whose overflow only
				       a per-cycle observer can place) */
};

/* The paper's defaults: CYCLES and IMISS on two counters, CYCLES period
 * uniform in [61440, 65536] (60K-64K), skid 6, 16K-entry table, 8K-entry
 * buffers; see docs/dcpi.md for the values ivx picked. */
void dcpi_config_defaults(struct dcpi_config *c);
int dcpi_config_validate(const struct dcpi_config *c, struct ivx_err *err);
/* "cycles,imiss,..." into a bit mask of events. */
int dcpi_parse_events(const char *list, uint32_t *mask, struct ivx_err *err);
/* "P[:dP]" sets CYCLES's period and every other event's to P/16 (at
 * least 1); "EVENT=P[:dP]" one event's. dP defaults to P/16. */
int dcpi_parse_period(struct dcpi_config *c, const char *spec, struct ivx_err *err);

/* One sample as the interrupt handler sees it, plus what it cannot see. */
struct dcpi_sample {
	int event;                  /* enum dcpi_event */
	uint32_t pid;
	uint64_t pc;                /* delivered pc: the in-order head at delivery */
	uint64_t overflow_cycle;    /* when the counter overflowed */
	uint64_t deliver_cycle;     /* overflow + skid */
	uint64_t cause_pc;          /* the instruction whose event overflowed the
				       counter (CYCLES: the head at the overflow);
				       0 when unknown (RETIRED) */
	int hit;                    /* the driver found the entry in its table */
};
typedef void (*dcpi_sample_fn)(void *ctx, const struct dcpi_sample *s);

struct dcpi;

/* A profiler for core `c` (not owned), added as its observer; it asks the
 * core to count commits (the retired truth), so it must be made before
 * the first cycle. NULL with err on a bad configuration. */
struct dcpi *dcpi_new(const struct dcpi_config *cfg, struct core *c, struct ivx_err *err);
void dcpi_free(struct dcpi *d);
const struct dcpi_config *dcpi_config(const struct dcpi *d);
/* Called at each delivered sample (the explorer's `catch sample`). */
void dcpi_set_sample_hook(struct dcpi *d, dcpi_sample_fn fn, void *ctx);

/* Poll mode (config poll): the caller runs the core until core_cycles
 * reaches dcpi_poll_target (core_run's max_cycles), then calls dcpi_poll,
 * and so on; a miss event that overflows a counter ends core_run early
 * (core_request_stop). The samples are those of the observing mode, at a
 * fraction of the cost, since the core builds no cycle record for it. */
uint64_t dcpi_poll_target(const struct dcpi *d);
void dcpi_poll(struct dcpi *d);

/* The daemon drains the hash table and the partly filled buffer (end of
 * run). Idempotent; sampling may go on afterwards. */
void dcpi_flush(struct dcpi *d);
/* The end of the run: dcpi_flush, once. The flag is part of the
 * snapshotted state, so a run restored to before its end and run to it
 * again drains again, exactly once (the explorer at every arrival at the
 * end, as `ivx profile` at its end). dcpi_finished: it has run. */
void dcpi_finish(struct dcpi *d);
int dcpi_finished(const struct dcpi *d);

struct dcpi_stats {
	uint64_t samples[DCPI_EVENT_COUNT];  /* interrupts delivered, per event */
	uint64_t samples_total;
	uint64_t overflows[DCPI_EVENT_COUNT];
	uint64_t lost;               /* overflows dropped: DCPI_MAX_PENDING waiting */
	uint64_t hits, misses, evictions;
	uint64_t drains, drained_entries, table_flushes;
	uint64_t handler_cycles, daemon_cycles;
	uint64_t cycles;             /* cycles observed */
	uint64_t enabled_cycles[DCPI_EVENT_COUNT]; /* cycles the event held a counter */
	uint64_t period_events[DCPI_EVENT_COUNT];  /* sum of the periods that elapsed */
	uint64_t events[DCPI_EVENT_COUNT];         /* exact events (all cycles, counted or not) */
	uint64_t daemon_lost, truth_lost;          /* entries that found no room */
	uint32_t buffer_fill[2];     /* entries in each overflow buffer */
	int active_buffer;
	uint32_t rr;                 /* the mod-4 eviction counter */
};
void dcpi_get_stats(const struct dcpi *d, struct dcpi_stats *out);
/* Profiling overhead: (handler + daemon cycles) / cycles, in percent. */
double dcpi_overhead_pct(const struct dcpi *d);

/* The last sample delivered (part of the snapshot state): 1, or 0 if none yet. */
int dcpi_last_sample(const struct dcpi *d, struct dcpi_sample *out);

/* The counters, for the sampler pane. */
struct dcpi_counter_view {
	int event;                  /* the event counting now */
	int n_mux;                  /* events sharing this counter (1: not multiplexed) */
	uint64_t value;             /* events counted in this period */
	uint64_t period;            /* this period's length */
	uint64_t to_overflow;       /* events left */
};
int dcpi_counter_count(const struct dcpi *d);
int dcpi_counter_at(const struct dcpi *d, int i, struct dcpi_counter_view *out);
/* Overflows waiting for delivery: event and delivery cycle. */
int dcpi_pending_count(const struct dcpi *d);
int dcpi_pending_at(const struct dcpi *d, int i, int *event, uint64_t *deliver_cycle, uint64_t *cause_pc);

/* The driver's table: bucket count, and the entries in use in bucket b. */
uint32_t dcpi_table_buckets(const struct dcpi *d);
int dcpi_bucket_used(const struct dcpi *d, uint32_t b);
/* Entry w of bucket b: 0 if empty. */
struct dcpi_entry {
	uint64_t pc;
	uint16_t pid;
	uint8_t event;
	uint8_t pad;
	uint32_t count;
};
int dcpi_bucket_entry(const struct dcpi *d, uint32_t b, int w, struct dcpi_entry *out);
/* Entry i of overflow buffer `buf` (0 or 1), i < buffer_fill. */
int dcpi_buffer_entry(const struct dcpi *d, int buf, uint32_t i, struct dcpi_entry *out);

/* The daemon's profile: (pc, event) -> samples, in no particular order. */
size_t dcpi_profile_size(const struct dcpi *d);
int dcpi_profile_at(const struct dcpi *d, size_t i, uint64_t *pc, int *event, uint64_t *samples);

/* The truth: per pc, exact events; the cycles at the in-order head and
 * the RETIRED count come from the core's per-pc counters
 * (core_head_cycles_at, core_commits_at), which cover every pc of the
 * program's code, so a caller that wants every pc with cycles walks the
 * code with dcpi_truth_cycles_at; the table below holds the pcs that
 * caused an event (cycles filled in from the core). */
struct dcpi_truth {
	uint64_t pc;
	uint64_t cycles;
	uint32_t ev[4];             /* IMISS, DMISS, BRANCHMP, DTBMISS */
};
size_t dcpi_truth_size(const struct dcpi *d);
int dcpi_truth_at(const struct dcpi *d, size_t i, struct dcpi_truth *out);
/* The exact count of event ev at pc (CYCLES and RETIRED from the core). */
uint64_t dcpi_truth_count(const struct dcpi *d, const struct dcpi_truth *t, int ev);
/* Cycles with pc at the head (0 without truth). */
uint64_t dcpi_truth_cycles_at(const struct dcpi *d, uint64_t pc);

/* ---- the driver's table on its own (dcpi_driver.c), for tests ---- */

/* A table of nbuckets x 4 entries and two buffers of buf_entries, in
 * caller-provided memory (dcpi_driver_bytes of it). */
struct dcpi_driver {
	struct dcpi_entry *table;   /* nbuckets * DCPI_WAYS */
	struct dcpi_entry *buf[2];
	uint32_t nbuckets, buf_entries;
	uint32_t *fill;             /* [2] */
	uint32_t *active;           /* which buffer takes evictions */
	uint32_t *rr;               /* mod-4 eviction counter */
};
uint32_t dcpi_driver_bucket(uint32_t nbuckets, uint32_t pid, uint64_t pc, int event);
enum { DCPI_HIT, DCPI_MISS_FREE, DCPI_MISS_EVICT };
/* Record one sample: DCPI_HIT, DCPI_MISS_FREE (an empty way took it) or
 * DCPI_MISS_EVICT (way *rr % 4 went to the active buffer). When that
 * buffer fills, *full gets its index (else -1): the caller drains it and
 * calls dcpi_driver_drained. */
int dcpi_driver_record(struct dcpi_driver *dr, uint32_t pid, uint64_t pc, int event, int *full);
void dcpi_driver_drained(struct dcpi_driver *dr, int buf);

#endif
