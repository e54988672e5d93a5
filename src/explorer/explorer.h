/*
 * explorer.h — one explorer session: the program, the running core model,
 * what the explorer records about it, breakpoints, snapshots for reverse
 * stepping, settings, and where command output goes.
 *
 * The session is curses-free: the same object serves the full-screen
 * explorer (ui/screen.c owns the terminal and plugs in `out` and
 * `poll_interrupt`) and batch mode (`ivx -x SCRIPT`, output to stdout).
 * Commands (src/xcmd_*.c) operate on it through the functions below.
 *
 * Positions. The explorer's "cycle" is core_cycles(): the number of cycles
 * simulated so far. A stop "at cycle N" shows the state after N cycles, so a
 * hit during the cycle that takes the core from N-1 to N stops at N.
 */
#ifndef IVX_EXPLORER_H
#define IVX_EXPLORER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "core/config.h"
#include "base/err.h"
#include "core/events.h"
#include "cli/runopts.h"

struct program;
struct guest;
struct core;
struct xtrace;
struct xbreaks;
struct xsnaps;
struct ui_state;

/* Cycles are shown 1-based: the cycle that takes the position from N-1 to
 * N is "cycle N", so a stop during cycle N shows position N. Engine cycle
 * numbers (events.h, 0-based) are converted with this for display and for
 * the `cycle`, `start` and `end` of conditions. */
static inline uint64_t xcycle(uint64_t engine_cycle)
{
	return engine_cycle + 1;
}

/* Event kinds the explorer knows: the engine's miss kinds (events.h), two
 * the explorer derives itself, then the instruments' (instrument.h
 * `events`: "sample", ...), numbered in table order. */
#define XEV_INSTRUMENT_MAX 16
enum {
	XEV_OVERLAP = MISS_KIND_COUNT, /* a long miss while another is outstanding,
			       or a frontend miss while a long miss blocks the ROB head */
	XEV_INTERVAL,       /* an interval ends: correct-path issue resumes after a miss */
	XEV_INSTRUMENT,     /* the first instrument event kind */
	XEV_COUNT = XEV_INSTRUMENT + XEV_INSTRUMENT_MAX
};
/* Command-line names ("l2d", "fu-stall", "overlap", "sample", ...); "?"
 * for a kind nobody defines, -1 if unknown. */
const char *xev_name(int kind);
int xev_from_name(const char *name);

/* One recorded event (engine miss event or derived). */
struct xevent {
	int kind;             /* miss kind or XEV_* */
	uint64_t id;          /* engine event id (derived: 0) */
	uint64_t start, end;  /* cycles; end is valid once `ended` */
	int ended;            /* the event is over (derived events: always) */
	uint64_t insn_seq;    /* instruction it belongs to (0: none) */
	uint64_t pc;
	uint64_t addr;
	int correct_path;
	int cause;            /* derived events: the kind of the miss that made it */
	int mispredicted;     /* a mispredicted branch's event (or a code breakpoint's instruction) */
};

enum stop_reason {
	STOP_NONE,            /* nothing has run yet */
	STOP_DONE,            /* the step count was reached */
	STOP_BREAK,           /* a breakpoint or catchpoint hit */
	STOP_UNTIL,           /* `until`/`advance` location reached */
	STOP_EXITED,          /* the program's exit committed */
	STOP_INTERRUPT,       /* Ctrl-C */
	STOP_ERROR,           /* the engine stopped with an error */
	STOP_HISTORY_START,   /* reverse execution reached cycle 0 */
	STOP_LIMIT,           /* --max-insns or --max-cycles reached */
};

struct xstop {
	int reason;           /* enum stop_reason */
	int bp;               /* breakpoint number with STOP_BREAK */
	int has_event;        /* `event` is valid (catchpoint hit) */
	struct xevent event;  /* the event that stopped us */
	uint64_t insn_seq;    /* instruction to highlight (0: none) */
	uint64_t pc;          /* its pc */
	char msg[256];        /* "Catchpoint 2 (l2d miss begins), ..." */
};

/* Explorer settings (`set NAME VALUE`). */
struct xsettings {
	int width, height;        /* `show` render size in batch mode */
	int ascii;                /* ASCII drawing instead of UTF-8 */
	int color;                /* use colour on the screen (NO_COLOR turns it off) */
	int break_stage;          /* insn_stage at which code breakpoints hit */
	int catch_wrong_path;     /* catchpoints also fire for wrong-path events */
	uint64_t snap_interval;   /* cycles between snapshots (minimum) */
	uint64_t snap_budget;     /* bytes of snapshots kept at most */
	uint64_t poll_cycles;     /* cycles between Ctrl-C polls during continue */
	int timeline_scale;       /* cycles per timeline column: 1, 2, 4 or 8 */
	int console_lines;        /* rows of the console pane, 0: its share of the layout */
	int dcpicalc_estimator;   /* enum dcc_estimator of `annotate` and its pane (paper: 0) */
};

/* Where output goes: text is one or more complete lines. */
enum xout_kind { XOUT_NORMAL, XOUT_ERROR, XOUT_STOP };
typedef void (*xout_fn)(void *ctx, int kind, const char *text);

struct explorer {
	/* what runs */
	struct run_options opts;       /* parsed command line (owned) */
	struct program *prog;          /* owned */
	struct machine_config cfg;     /* configuration used by the next restart */
	struct machine_config cfg_live;/* configuration of the running core */
	int cfg_pending;               /* cfg differs from cfg_live */
	/* the run */
	struct guest *guest;           /* owned */
	struct core *core;             /* owned */
	struct xtrace *trace;          /* timeline, events, counts (an observer) */
	struct xbreaks *breaks;        /* breakpoints and catchpoints (an observer) */
	struct xsnaps *snaps;          /* snapshots for reverse execution */
	void **instruments;            /* the instruments' objects, by xinstrument_at() index
					  (instrument.h; explorer_instrument finds one by name) */
	int n_instruments;
	int exited;                    /* the program's exit has committed */
	int exit_code;
	int engine_error;              /* the core returned an error: no more forward runs */
	char engine_msg[512];
	struct xstop stop;             /* why the last run stopped */
	/* the event of the last catchpoint hit, kept after later stops
	 * (`info cost` after stepping past its end) */
	struct xevent caught;
	int has_caught;
	/* settings and front end */
	struct xsettings set;
	struct ui_state *ui;           /* the front end's panes and layout: created, owned and
					  freed by the front end (ui_state_attach), NULL without one */
	void (*changed)(void *ctx);    /* the engine state changed: panes must update (may be NULL) */
	void *changed_ctx;
	xout_fn out;
	void *out_ctx;
	/* The guest's writes to fd 1/2 (NULL: straight to stdout/stderr). */
	void (*guest_out)(void *ctx, int fd, const void *buf, size_t len);
	/* Batch mode: what goes to stdout/stderr goes to these too, so that the
	 * console pane (`show console`, `show screen`) holds what the screen's
	 * would (NULL: nothing). */
	xout_fn echo;
	void (*echo_guest)(void *ctx, int fd, const void *buf, size_t len);
	void *echo_ctx;
	int (*poll_interrupt)(void *ctx); /* non-zero: the user pressed Ctrl-C */
	void *poll_ctx;
	void (*progress)(void *ctx, struct explorer *x); /* called while a long run goes on */
	void *progress_ctx;
	void (*redraw)(void *ctx);     /* repaint the whole screen now (NULL in batch mode) */
	void *redraw_ctx;
	int quit;                      /* `quit` was given */
	int quit_status;               /* `quit STATUS`: ivx's exit status, 0..255 */
	unsigned interrupts;           /* runs Ctrl-C stopped so far (a `source`d
					  script stops at one, on the screen) */
	int screen_w, screen_h;        /* the screen's size (batch: what `show screen` uses) */
	int redraw_all;                /* `refresh`: repaint the terminal from scratch */
	int batch;                     /* no terminal */
	int source_depth;              /* nested `source` files */
	const char *scripts_open[10];  /* the scripts being read, outermost first
					  (`export` must not write over one) */
	int n_scripts_open;
	char err[512];                 /* message of the last failed command */
	int err_located;               /* script lines x->err names: "FILE:LINE: " and
					  each "sourced from" after it (0: none) */
	uint64_t guest_out_bytes;      /* guest output captured so far */
	uint64_t high_water;           /* furthest cycle simulated: replays below it are silent */
	struct {                       /* the last silent replay (goto, reverse motion), for */
		uint64_t from, cycles; /* `info snapshots` and `time`: where it began, how */
		uint64_t count;        /* far; and how many replays so far */
	} last_replay;
};

/* Create the session: load the program (prog_path NULL = embedded default),
 * the configuration (with -o overrides) and start the core at cycle 0.
 * Takes ownership of `opts`. NULL after filling err. */
struct explorer *explorer_new(struct run_options *opts, struct ivx_err *err);
void explorer_free(struct explorer *x);

/* Throw the run away and start again at cycle 0 with `cfg` (breakpoints
 * and settings stay). 0 or -1 (x->err). */
int explorer_restart(struct explorer *x);
/* explorer_restart for a command that reports it: *with is then " with
 * the new configuration" when a pending `set` of the machine took effect
 * in it, else "". */
int explorer_restart_noting(struct explorer *x, const char **with);

/* Output. explorer_error formats x->err (control characters escaped, see
 * explorer_escape) and returns -1, for commands to
 * `return explorer_error(x, ...)`. */
void explorer_printf(struct explorer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void explorer_vprintf(struct explorer *x, int kind, const char *fmt, va_list ap);
void explorer_write(struct explorer *x, int kind, const char *text);  /* any length */
int explorer_error(struct explorer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copy src to dst (n bytes, always terminated) with control characters as
 * \xHH, so text from a script cannot drive the terminal it is shown on. */
void explorer_escape(char *dst, size_t n, const char *src);

/* Current position. */
uint64_t explorer_cycle(const struct explorer *x);
uint64_t explorer_committed(const struct explorer *x);
/* The pc the explorer calls "the pc": the ROB head's, or the next fetch pc
 * when the ROB is empty. */
uint64_t explorer_pc(const struct explorer *x);

/* "name+0x10" for addr ("0x..." without symbols). */
const char *explorer_describe(const struct explorer *x, uint64_t addr, char *buf, size_t n);
/* Parse a code location: "*EXPR", "SYMBOL", "SYMBOL+OFF", "0xADDR". */
int explorer_parse_addr(struct explorer *x, const char *s, uint64_t *addr);

/* ---- running (explorer_run.c) -------------------------------------------
 * Each returns 0 after a stop (x->stop says why; the stop message has been
 * printed) or -1 with x->err when nothing could run (program exited, bad
 * argument, engine error before anything ran). */
int explorer_step(struct explorer *x, uint64_t cycles);
int explorer_stepi(struct explorer *x, uint64_t insns);
int explorer_continue(struct explorer *x, uint64_t ignore_count);
int explorer_until(struct explorer *x, uint64_t addr);
int explorer_goto_cycle(struct explorer *x, uint64_t cycle);
int explorer_reverse_step(struct explorer *x, uint64_t cycles);
int explorer_reverse_stepi(struct explorer *x, uint64_t insns);
int explorer_reverse_continue(struct explorer *x);
/* If the position is the run's end (the program has exited, or a limit of
 * the command line is reached), the instruments deliver what they still
 * hold, as the headless commands do at their end (instrument.h `finish`;
 * once per arrival). Called after every change of position. */
void explorer_end_of_run(struct explorer *x);
/* 0 if the state of `cycle` (before the current one) can be rebuilt from
 * a snapshot without replaying a change to the host's directories, else
 * -1 with x->err saying from which cycle on it can. */
int explorer_can_go_back(struct explorer *x, uint64_t cycle);

/* Tell the front end (x->changed) that the engine state changed. */
void explorer_state_changed(struct explorer *x);

#endif
