/*
 * explorer_run.c — moving through the run: forward (step, stepi, continue,
 * until) and backward (reverse-step, reverse-stepi, reverse-continue).
 *
 * Forward runs call core_run in slices of at most `poll_cycles` cycles;
 * between slices the explorer takes snapshots (explorer_snap.c), polls for
 * Ctrl-C and reports progress, so `continue` costs the same as headless
 * timing mode plus a check every slice. Breakpoints ask the core to stop
 * (core_request_stop) at the end of the cycle they hit in.
 *
 * Backward runs never simulate backwards: they restore the nearest
 * snapshot at or before the target and simulate forward to it with
 * breakpoints off (XB_OFF). Because the engine and every observer are
 * deterministic and snapshotted, the state reached is exactly the state
 * first seen at that cycle. reverse-continue searches the snapshot windows
 * from the newest backwards, replaying each with breakpoints recording
 * (XB_RECORD), and goes to the last hit before the current cycle (the
 * first hit of that cycle, as going forward would report it).
 *
 *   forward():     run a slice -> hit?      -> stop BREAK / UNTIL
 *                              -> exited? error? Ctrl-C? target? -> stop
 *                              -> maybe snapshot, next slice
 *   goto_cycle(T): restore the snapshot <= T, replay to T (XB_OFF)
 *
 * The end of the run (the program exited, or a --max-cycles/--max-insns
 * limit): settle() lets the instruments deliver what the headless
 * commands deliver at their end (explorer_end_of_run), after the run's
 * last snapshot, so a state restored from before the end is undrained
 * and arriving there again, by any route, drains it once more the same way.
 *
 * One thing replaying cannot repeat: the guest's changes to the host's
 * directories (guest_host_changes). A replayed write puts the same bytes
 * in the same place again, but a replayed mkdir or rename meets a host
 * that has already seen it, fails, and the run goes another way. So a
 * forward run takes a snapshot soon after such changes (one slice after
 * the last of a burst, or where the run stops), and backward motion
 * refuses to restore a snapshot from before the last change.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/core.h"
#include "isa/disasm.h"
#include "explorer.h"
#include "explorer_break.h"
#include "explorer_snap.h"
#include "explorer_trace.h"
#include "inst_display.h"
#include "instrument.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "isa/uop.h"

#define NO_LIMIT UINT64_MAX

static double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void stopf(struct explorer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stopf(struct explorer *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	explorer_vprintf(x, XOUT_STOP, fmt, ap);
	va_end(ap);
}

/* ---- describing where we are ------------------------------------------- */

static void insn_text(struct explorer *x, uint64_t pc, char *buf, size_t n)
{
	char where[128], dis[96];
	const struct uop *u = program_uop(x->prog, pc);
	explorer_describe(x, pc, where, sizeof where);
	if (u)
		disasm_word(u->word, pc, dis, sizeof dis);
	else
		snprintf(dis, sizeof dis, "?");
	snprintf(buf, n, "0x%llx %s: %s", (unsigned long long)pc, where, dis);
}

/* The one-line position report printed after every stop. */
static void print_position(struct explorer *x)
{
	char ins[256];
	if (x->exited) {
		stopf(x, "cycle %llu, %llu committed, program exited with code %d\n",
		      (unsigned long long)explorer_cycle(x), (unsigned long long)explorer_committed(x),
		      x->exit_code);
		xdisplay_show(x);
		return;
	}
	insn_text(x, explorer_pc(x), ins, sizeof ins);
	stopf(x, "cycle %llu, %llu committed, ROB %d/%d, %s %s\n",
	      (unsigned long long)explorer_cycle(x), (unsigned long long)explorer_committed(x),
	      core_rob_occupancy(x->core), core_rob_size(x->core),
	      core_rob_occupancy(x->core) ? "head" : "next", ins);
	xdisplay_show(x);   /* `display EXPR` */
}

static const char *const stage_names[INSN_STAGE_COUNT] = {
	"fetched", "dispatched", "issued", "completed", "committed", "squashed",
};

/* A misprediction event lasts from the branch's dispatch to the first
 * correct-path dispatch after the redirect, so an I-cache miss at the
 * redirect target is inside it: a cold `bl` shows as "mispredict ended
 * after 258 cycles" when the misprediction itself cost a few. Say how much
 * of it was the redirected fetch waiting on an I-side miss, and why a
 * direct branch mispredicted at all. */
static void explain_mispredict(struct explorer *x, const struct xevent *m)
{
	uint64_t lo = 0, hi = 0;
	int kind = -1;
	for (int i = 0; i < xtrace_event_count(x->trace); i++) {
		const struct xevent *e = xtrace_event_at(x->trace, i);
		if (e->start > m->end || e->start < m->start)
			continue;   /* (the ring is in recording order, not by start: scan it all) */
		if (!e->correct_path || (e->kind != MISS_L1I && e->kind != MISS_L2I && e->kind != MISS_ITLB))
			continue;
		uint64_t end = e->ended && e->end < m->end ? e->end : m->end;
		if (end - e->start > hi - lo)
			lo = e->start, hi = end, kind = e->kind;
	}
	const struct uop *u = program_uop(x->prog, m->pc);
	int direct = u && (u->branch_kind == BRANCH_UNCOND || u->branch_kind == BRANCH_CALL);
	if (direct)
		stopf(x, "  a direct %s mispredicts only when it misses the BTB (cold: the BTB learns a target when "
		      "a taken branch commits): fetch went on past it until it executed\n",
		      u->branch_kind == BRANCH_CALL ? "bl" : "b");
	if (kind >= 0 && hi - lo > 0)
		stopf(x, "  of the %llu cycles, the redirected fetch waited %llu on an %s miss (cycles %llu-%llu); "
		      "the misprediction itself: %llu\n", (unsigned long long)(m->end - m->start),
		      (unsigned long long)(hi - lo), xev_name(kind), (unsigned long long)xcycle(lo),
		      (unsigned long long)xcycle(hi) - 1, (unsigned long long)(m->end - m->start - (hi - lo)));
}

/* Fill x->stop for a breakpoint hit and print gdb's kind of line. */
static void report_hit(struct explorer *x, const struct xbreak_hit *h, int reason)
{
	struct xstop *st = &x->stop;
	memset(st, 0, sizeof *st);
	st->reason = reason;
	st->bp = h->bp;
	st->insn_seq = h->seq;
	st->pc = h->pc;
	char ins[256];
	insn_text(x, h->pc, ins, sizeof ins);
	if (h->has_event) {
		st->has_event = 1;
		st->event = h->ev;
		x->caught = h->ev;
		x->has_caught = 1;
		const struct xevent *e = &h->ev;
		char what[128];
		if (e->kind == XEV_INTERVAL)
			snprintf(what, sizeof what, "interval ends: issue stalled in cycles %llu-%llu",
				 (unsigned long long)xcycle(e->start), (unsigned long long)xcycle(e->end) - 1);
		else if (e->kind == XEV_OVERLAP)
			snprintf(what, sizeof what, "overlap: %s miss begins while %s", xev_name(e->cause),
				 e->cause == MISS_L2D || e->cause == MISS_DTLB ? "another long miss is outstanding"
									       : "a long miss blocks the ROB head");
		else if (e->kind >= XEV_INSTRUMENT)
			snprintf(what, sizeof what, "%s", xev_name(e->kind));
		else if (h->phase == MISS_END)
			snprintf(what, sizeof what, "%s ended after %llu cycles", xev_name(e->kind),
				 (unsigned long long)(e->end - e->start));
		else
			snprintf(what, sizeof what, "%s begins", xev_name(e->kind));
		snprintf(st->msg, sizeof st->msg, "Catchpoint %d (%s)%s", h->bp, what,
			 e->correct_path ? "" : " on a wrong path");
		stopf(x, "\n%s, cycle %llu\n", st->msg, (unsigned long long)xcycle(h->cycle));
		if (e->pc)
			stopf(x, "  %s\n", ins);
		if (e->addr && (e->kind == MISS_L1D || e->kind == MISS_L2D || e->kind == MISS_DTLB))
			stopf(x, "  data address 0x%llx\n", (unsigned long long)e->addr);
		if (e->kind == MISS_MISPREDICT && h->phase == MISS_END)
			explain_mispredict(x, e);
	} else if (h->type == XBP_CYCLE) {
		snprintf(st->msg, sizeof st->msg, "Breakpoint %d, cycle %llu", h->bp,
			 (unsigned long long)explorer_cycle(x));
		stopf(x, "\n%s\n", st->msg);
	} else if (reason == STOP_UNTIL) {
		snprintf(st->msg, sizeof st->msg, "reached %.200s", ins);
		stopf(x, "%s (%s in cycle %llu)\n", st->msg, stage_names[h->stage], (unsigned long long)xcycle(h->cycle));
	} else {
		snprintf(st->msg, sizeof st->msg, "Breakpoint %d, %.200s", h->bp, ins);
		stopf(x, "\n%s\n  %s in cycle %llu (seq %llu)\n", st->msg, stage_names[h->stage],
		      (unsigned long long)xcycle(h->cycle), (unsigned long long)h->seq);
	}
}

/* ---- forward ------------------------------------------------------------ */

/* The limit of the command line the position has reached: *value its
 * value, *unit what it counts; the option's name, or NULL. */
static const char *at_limit(struct explorer *x, uint64_t *value, const char **unit)
{
	if (x->opts.max_insns && explorer_committed(x) >= x->opts.max_insns) {
		*value = x->opts.max_insns, *unit = "instructions";
		return "--max-insns";
	}
	if (x->opts.max_cycles && explorer_cycle(x) >= x->opts.max_cycles) {
		*value = x->opts.max_cycles, *unit = "cycles";
		return "--max-cycles";
	}
	return NULL;
}

static int can_run(struct explorer *x)
{
	uint64_t value;
	const char *unit, *limit = at_limit(x, &value, &unit);
	if (limit)
		return explorer_error(x, "the run is at its %s limit of %llu %s; use reverse commands, or 'restart'",
				      limit, (unsigned long long)value, unit);
	if (x->engine_error)
		return explorer_error(x, "the run stopped with an error (%s); use 'restart' or reverse commands",
				      x->engine_msg);
	if (x->exited)
		return explorer_error(x, "the program has exited; use 'run' or 'restart', or go back with reverse-step");
	return 0;
}

void explorer_end_of_run(struct explorer *x)
{
	uint64_t value;
	const char *unit;
	if (!core_done(x->core) && !at_limit(x, &value, &unit))
		return;
	/* (a final batch is no stop: catchpoints do not see it) */
	xbreaks_set_mode(x->breaks, XB_OFF);
	for (int i = 0; i < x->n_instruments; i++) {
		const struct xinstrument *in = xinstrument_at(i);
		if (in->finish && x->instruments[i])
			in->finish(x->instruments[i]);
	}
	xbreaks_set_mode(x->breaks, XB_STOP);
}

/* After any change of position: exit status, the end of the run,
 * high-water mark, panes. */
static void settle(struct explorer *x)
{
	x->exited = core_done(x->core);
	if (x->exited)
		x->exit_code = guest_exit_code(x->guest);
	explorer_end_of_run(x);
	uint64_t now = explorer_cycle(x);
	if (now > x->high_water)
		x->high_water = now;
	explorer_state_changed(x);
}

/* Run forward until position `to_cycle` or `to_committed` (absolute), a
 * breakpoint, the end, an error or Ctrl-C. `until_mode`: a hit of the
 * internal breakpoint is a STOP_UNTIL. Fills x->stop and prints it. */
static int forward(struct explorer *x, uint64_t to_cycle, uint64_t to_committed, int until_mode)
{
	struct core *c = x->core;
	struct ivx_err err = { 0 };
	struct xbreak_hit h;
	int reason = STOP_DONE, rc = 0;
	double t_start = now_sec(), t_prog = t_start;
	uint64_t c_start = core_cycles(c);
	uint64_t changes = guest_host_changes(core_guest(c), NULL);
	int pending = 0;        /* a change since the last snapshot (see below) */
	double cps = 0;
	xbreaks_set_mode(x->breaks, XB_STOP);
	xbreaks_run_begin(x->breaks);
	if (xbreaks_attach(x->breaks, c, &err) < 0)
		return explorer_error(x, "%s", err.msg);
	/* the command line's limits end every run forward */
	if (x->opts.max_cycles && x->opts.max_cycles < to_cycle)
		to_cycle = x->opts.max_cycles;
	if (x->opts.max_insns && x->opts.max_insns < to_committed)
		to_committed = x->opts.max_insns;
	/* x->stop keeps describing the previous stop during the run: conditions
	 * may read stop_pc and stop_seq. */
	char cond_err[300] = "";
	for (;;) {
		uint64_t now = core_cycles(c);
		if (now >= to_cycle || core_committed(c) >= to_committed)
			break;
		uint64_t lim = to_cycle - now > x->set.poll_cycles ? now + x->set.poll_cycles : to_cycle;
		uint64_t at_break = xbreaks_next_cycle(x->breaks, now);
		if (at_break < lim)
			lim = at_break;
		rc = core_run(c, lim, to_committed == NO_LIMIT ? 0 : to_committed, &err);
		xbreaks_check_position(x->breaks, c);
		if (now < x->high_water)   /* replayed part: speed is not representative */
			c_start = core_cycles(c), t_start = now_sec();
		if (rc < 0) {
			reason = STOP_ERROR;
			break;
		}
		/* After a change to the host's directories, the earliest point
		 * reverse motion may go back to is the next snapshot: take one
		 * once a slice makes none (a burst, `rm -r`, costs one) or when
		 * the run stops. */
		if (guest_host_changes(core_guest(c), NULL) != changes) {
			changes = guest_host_changes(core_guest(c), NULL);
			pending = 1;
		} else if (pending) {
			pending = 0;
			if (xsnaps_take(x->snaps, c, &err) < 0) {
				reason = STOP_ERROR;
				rc = -1;
				break;
			}
		}
		const char *cerr = xbreaks_take_error(x->breaks);
		if (cerr) {
			reason = STOP_BREAK;
			snprintf(cond_err, sizeof cond_err, "%s", cerr);
			break;
		}
		if (xbreaks_take_hit(x->breaks, &h)) {
			reason = until_mode && h.bp == 0 ? STOP_UNTIL : STOP_BREAK;
			break;
		}
		if (core_done(c)) {
			reason = STOP_EXITED;
			break;
		}
		/* Only a long run adapts the snapshot interval to the snapshots'
		 * cost; short steps keep the dense base interval, which makes
		 * reverse stepping near where the user looks cheap. A run with
		 * no cycle limit (continue, until, stepi) adapts from its first
		 * slice on: at the base interval its first twentieth of a
		 * second would take a snapshot every slice. */
		double t = now_sec();
		if ((to_cycle == NO_LIMIT || t - t_start > 0.05) && t > t_start && core_cycles(c) > c_start)
			cps = (double)(core_cycles(c) - c_start) / (t - t_start);
		if (xsnaps_maybe_take(x->snaps, c, cps, &err) < 0) {
			reason = STOP_ERROR;
			rc = -1;
			break;
		}
		if (x->poll_interrupt && x->poll_interrupt(x->poll_ctx)) {
			reason = STOP_INTERRUPT;
			x->interrupts++;
			break;
		}
		if (x->progress && t - t_prog > 0.2) {
			t_prog = t;
			x->progress(x->progress_ctx, x);
		}
	}
	if (pending && rc >= 0)
		xsnaps_take(x->snaps, c, NULL);    /* (without it, going back is refused further) */
	xsnaps_maybe_take(x->snaps, c, cps, NULL);
	settle(x);
	uint64_t limit_value = 0;
	const char *limit_unit = "", *limit = reason == STOP_DONE && !x->exited ? at_limit(x, &limit_value, &limit_unit) : NULL;
	if (limit)
		reason = STOP_LIMIT;
	memset(&x->stop, 0, sizeof x->stop);
	if (cond_err[0])
		snprintf(x->stop.msg, sizeof x->stop.msg, "%.250s", cond_err);
	if (reason == STOP_ERROR) {
		x->engine_error = 1;
		snprintf(x->engine_msg, sizeof x->engine_msg, "%s", err.msg);
		memset(&x->stop, 0, sizeof x->stop);
		x->stop.reason = STOP_ERROR;
		snprintf(x->stop.msg, sizeof x->stop.msg, "%.250s", err.msg);
		stopf(x, "\nThe run stopped: %s\n", err.msg);
	} else if (reason == STOP_BREAK && x->stop.msg[0]) {
		x->stop.reason = STOP_BREAK;
		stopf(x, "\n%s\n", x->stop.msg);
	} else if (reason == STOP_BREAK || reason == STOP_UNTIL) {
		report_hit(x, &h, reason);
		struct xbp *bp = xbreaks_find(x->breaks, h.bp);
		if (bp && bp->temp) {
			if (bp->num)
				stopf(x, "Temporary %s %d deleted\n",
				      bp->type == XBP_CATCH ? "catchpoint" : "breakpoint", bp->num);
			xbreaks_delete(x->breaks, bp->num);
		}
	} else {
		x->stop.reason = reason;
		if (reason == STOP_EXITED) {
			snprintf(x->stop.msg, sizeof x->stop.msg, "program exited with code %d", x->exit_code);
			stopf(x, "\n[program exited with code %d at cycle %llu]\n", x->exit_code,
			      (unsigned long long)explorer_cycle(x));
		} else if (reason == STOP_INTERRUPT) {
			snprintf(x->stop.msg, sizeof x->stop.msg, "interrupted");
			stopf(x, "\nInterrupted.\n");
		} else if (reason == STOP_LIMIT) {
			snprintf(x->stop.msg, sizeof x->stop.msg, "stopped at the %s limit of %llu %s", limit,
				 (unsigned long long)limit_value, limit_unit);
			stopf(x, "\nStopped at the %s limit of %llu %s.\n", limit, (unsigned long long)limit_value,
			      limit_unit);
		}
		/* A run that ended without its catchpoint hitting says what the
		 * catchpoint saw, so a condition that never holds is noticed. */
		if (reason == STOP_EXITED || reason == STOP_INTERRUPT) {
			char seen[1024];
			xbreaks_run_summary(x->breaks, 0, seen, sizeof seen);
			if (seen[0])
				stopf(x, "%s", seen);
		}
	}
	if (reason != STOP_ERROR)
		print_position(x);
	return 0;
}

int explorer_step(struct explorer *x, uint64_t cycles)
{
	if (can_run(x) < 0)
		return -1;
	uint64_t now = explorer_cycle(x);
	return forward(x, cycles > NO_LIMIT - now ? NO_LIMIT : now + cycles, NO_LIMIT, 0);
}

int explorer_stepi(struct explorer *x, uint64_t insns)
{
	if (can_run(x) < 0)
		return -1;
	uint64_t k = explorer_committed(x);
	return forward(x, NO_LIMIT, insns > NO_LIMIT - k ? NO_LIMIT : k + insns, 0);
}

int explorer_continue(struct explorer *x, uint64_t ignore_count)
{
	if (can_run(x) < 0)
		return -1;
	if (ignore_count > 1) {
		struct xbp *bp = x->stop.reason == STOP_BREAK ? xbreaks_find(x->breaks, x->stop.bp) : NULL;
		if (bp) {
			bp->ignore = ignore_count - 1;
			explorer_printf(x, "Will ignore next %llu crossings of breakpoint %d.  Continuing.\n",
					(unsigned long long)bp->ignore, bp->num);
		} else {   /* (as gdb says it) */
			explorer_printf(x, "Not stopped at any breakpoint; argument ignored.\n");
		}
	}
	return forward(x, NO_LIMIT, NO_LIMIT, 0);
}

int explorer_until(struct explorer *x, uint64_t addr)
{
	if (can_run(x) < 0)
		return -1;
	struct xbp bp = { .type = XBP_CODE, .internal = 1, .temp = 1, .enabled = 1, .addr = addr };
	snprintf(bp.where, sizeof bp.where, "*0x%llx", (unsigned long long)addr);
	if (xbreaks_add(x->breaks, &bp) < 0)
		return explorer_error(x, "out of memory");
	int rc = forward(x, NO_LIMIT, NO_LIMIT, 1);
	xbreaks_delete(x->breaks, 0);
	return rc;
}

/* ---- backward ----------------------------------------------------------- */

/* 1 if restoring snapshot sn would replay calls that changed the host's
 * directories (see the top of the file). */
static int replays_host_changes(struct explorer *x, const struct core_snapshot *sn)
{
	return sn && guest_host_changes(core_snapshot_guest(sn), NULL) != guest_host_changes(core_guest(x->core), NULL);
}

static int refuse_going_back(struct explorer *x)
{
	const char *call;
	int found;
	uint64_t n = guest_host_changes(core_guest(x->core), &call);
	uint64_t from = xsnaps_first_with_changes(x->snaps, n, &found);
	if (!found)
		return explorer_error(x, "the program changed the host's directories (%s): going back would make "
				      "that call again against the changed host, and the run would not be the same", call);
	return explorer_error(x, "the program changed the host's directories (%s) before cycle %llu: going back "
			      "further would make that call again against the changed host, and the run would not "
			      "be the same", call, (unsigned long long)from);
}

int explorer_can_go_back(struct explorer *x, uint64_t cycle)
{
	return replays_host_changes(x, xsnaps_find_cycle(x->snaps, cycle)) ? refuse_going_back(x) : 0;
}

/* Make the state that of position `cycle` (<= the current one, or ahead on
 * the already-simulated run), silently. 0 or -1 (x->err). Going ahead, a
 * snapshot between here and the target is restored too: `goto` forward
 * (and staying put after an interrupted reverse-continue) then costs one
 * snapshot window, not the whole way, and nothing long runs without a
 * Ctrl-C check. */
static int replay_to(struct explorer *x, uint64_t cycle)
{
	struct ivx_err err = { 0 };
	struct core *c = x->core;
	int found;
	uint64_t snap = xsnaps_before(x->snaps, cycle + 1, &found);
	if (cycle < core_cycles(c) || (found && snap > core_cycles(c))) {
		if (explorer_can_go_back(x, cycle) < 0)
			return -1;
		if (xsnaps_restore_cycle(x->snaps, c, cycle, &err) < 0)
			return explorer_error(x, "%s", err.msg);
	}
	x->last_replay.from = core_cycles(c);
	x->last_replay.cycles = cycle > core_cycles(c) ? cycle - core_cycles(c) : 0;
	x->last_replay.count++;
	xbreaks_set_mode(x->breaks, XB_OFF);
	int rc = core_run_to_cycle(c, cycle, &err);
	xbreaks_set_mode(x->breaks, XB_STOP);
	x->engine_error = 0;
	settle(x);
	if (rc < 0) {
		x->engine_error = 1;
		snprintf(x->engine_msg, sizeof x->engine_msg, "%s", err.msg);
		return explorer_error(x, "%s", err.msg);
	}
	return 0;
}

int explorer_goto_cycle(struct explorer *x, uint64_t cycle)
{
	if (cycle > x->high_water)
		return explorer_error(x, "cycle %llu has not been reached yet (use step or continue)",
				      (unsigned long long)cycle);
	if (replay_to(x, cycle) < 0)
		return -1;
	memset(&x->stop, 0, sizeof x->stop);
	x->stop.reason = STOP_DONE;
	print_position(x);
	return 0;
}

static int no_history(struct explorer *x)
{
	return explorer_error(x, "No more reverse-execution history.");
}

/* Arrived at cycle 0 because the history ran out. */
static void at_history_start(struct explorer *x)
{
	memset(&x->stop, 0, sizeof x->stop);
	x->stop.reason = STOP_HISTORY_START;
	snprintf(x->stop.msg, sizeof x->stop.msg, "No more reverse-execution history.");
	stopf(x, "\nNo more reverse-execution history.\n");
}

int explorer_reverse_step(struct explorer *x, uint64_t cycles)
{
	uint64_t now = explorer_cycle(x);
	if (now == 0)
		return no_history(x);
	uint64_t target = cycles >= now ? 0 : now - cycles;
	if (replay_to(x, target) < 0)
		return -1;
	memset(&x->stop, 0, sizeof x->stop);
	if (cycles > now)
		at_history_start(x);
	else
		x->stop.reason = STOP_DONE;
	print_position(x);
	return 0;
}

int explorer_reverse_stepi(struct explorer *x, uint64_t insns)
{
	struct ivx_err err = { 0 };
	struct core *c = x->core;
	uint64_t now = explorer_cycle(x), k = explorer_committed(x);
	if (now == 0)
		return no_history(x);
	uint64_t want = insns >= k ? 0 : k - insns;   /* committed count to go back to */
	/* The latest position <= now with at most `want` committed: replay from
	 * a snapshot with at most `want` committed until the count exceeds it. */
	if (replays_host_changes(x, xsnaps_find_committed(x->snaps, want)))
		return refuse_going_back(x);
	if (xsnaps_restore_committed(x->snaps, c, want, &err) < 0)
		return explorer_error(x, "%s", err.msg);
	xbreaks_set_mode(x->breaks, XB_OFF);
	uint64_t target = core_cycles(c);
	int rc = 0;
	while (core_cycles(c) < now && rc == 0) {
		rc = core_run(c, core_cycles(c) + 1, 0, &err);
		if (core_committed(c) > want)
			break;
		target = core_cycles(c);
	}
	xbreaks_set_mode(x->breaks, XB_STOP);
	if (rc < 0)
		return explorer_error(x, "%s", err.msg);
	if (replay_to(x, target) < 0)
		return -1;
	memset(&x->stop, 0, sizeof x->stop);
	if (target == 0 && insns > k)
		at_history_start(x);
	else
		x->stop.reason = STOP_DONE;
	print_position(x);
	return 0;
}

/* h is the hit the run is stopped at (met again while replaying). */
static int is_current_stop(const struct explorer *x, const struct xbreak_hit *h)
{
	const struct xstop *st = &x->stop;
	if (st->reason != STOP_BREAK || !st->has_event || !h->has_event || st->bp != h->bp)
		return 0;
	const struct xevent *a = &st->event, *b = &h->ev;
	return a->kind == b->kind && a->id == b->id && a->start == b->start && a->insn_seq == b->insn_seq &&
	       a->pc == b->pc && a->ended == b->ended;
}

static int skip_current_stop(void *ctx, const struct xbreak_hit *h)
{
	return is_current_stop(ctx, h);
}

int explorer_reverse_continue(struct explorer *x)
{
	struct ivx_err err = { 0 };
	struct core *c = x->core;
	uint64_t now = explorer_cycle(x), end = now;
	if (now == 0)
		return no_history(x);
	/* Hits before this position count, but not the hit we stopped at:
	 * one on an event of an earlier cycle (a sample inside a run of idle
	 * cycles, met where the run was handed over) is found again before
	 * the stop's cycle. (Not a window from the event's start: a `catch X
	 * end` stop's event began many cycles back, and the hits since then
	 * are earlier hits.) */
	while (end > 0) {
		int found;
		uint64_t start = xsnaps_before(x->snaps, end, &found);
		if (!found)
			break;
		if (replays_host_changes(x, xsnaps_find_cycle(x->snaps, start))) {
			/* no hit back to here, and no going further: stay put */
			if (end != now && replay_to(x, now) < 0)
				return -1;
			return refuse_going_back(x);
		}
		if (xsnaps_restore_cycle(x->snaps, c, start, &err) < 0)
			return explorer_error(x, "%s", err.msg);
		if (xbreaks_attach(x->breaks, c, &err) < 0)
			return explorer_error(x, "%s", err.msg);
		/* Replay [start, end) recording the position after each hit. */
		struct xbreak_hit h, last;
		uint64_t last_pos = 0;
		int have = 0, rc = 0;
		xbreaks_set_mode(x->breaks, XB_RECORD);
		xbreaks_set_skip(x->breaks, skip_current_stop, x);
		while (core_cycles(c) < end && rc == 0) {
			rc = core_run(c, core_cycles(c) + 1, 0, &err);
			xbreaks_check_position(x->breaks, c);
			if (xbreaks_take_hit(x->breaks, &h) && core_cycles(c) < now) {
				last = h;
				last_pos = core_cycles(c);
				have = 1;
			}
		}
		xbreaks_set_skip(x->breaks, NULL, NULL);
		xbreaks_set_mode(x->breaks, XB_STOP);
		if (rc < 0)
			return explorer_error(x, "%s", err.msg);
		if (have) {
			if (replay_to(x, last_pos) < 0)
				return -1;
			report_hit(x, &last, STOP_BREAK);
			print_position(x);
			return 0;
		}
		end = start;
		if (x->poll_interrupt && x->poll_interrupt(x->poll_ctx)) {
			/* Searching far back can take a while: give up, stay put. */
			if (replay_to(x, now) < 0)
				return -1;
			memset(&x->stop, 0, sizeof x->stop);
			x->stop.reason = STOP_INTERRUPT;
			x->interrupts++;
			snprintf(x->stop.msg, sizeof x->stop.msg, "interrupted");
			stopf(x, "\nInterrupted: no hit found back to cycle %llu.\n", (unsigned long long)end);
			print_position(x);
			return 0;
		}
		if (x->progress)
			x->progress(x->progress_ctx, x);
	}
	if (replay_to(x, 0) < 0)
		return -1;
	at_history_start(x);
	print_position(x);
	return 0;
}
