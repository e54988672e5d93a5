/*
 * explorer.c — the explorer session: building and rebuilding the engine
 * objects, output, positions and locations (see explorer.h).
 *
 * Observers are added in a fixed order — trace recorder, breakpoints, then
 * the instruments of instrument.h in their order — so within a cycle the
 * trace has recorded an event (and derived overlap/interval from it)
 * before a catchpoint looks at it.
 *
 * Guest output (its writes to fd 1 and 2) goes to the session's output,
 * but only the first time the cycle that produced it is simulated: a
 * replay after reverse stepping does not print it again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "core/core.h"
#include "dcpi/dcpicalc.h"
#include "explorer.h"
#include "explorer_break.h"
#include "explorer_expr.h"
#include "explorer_snap.h"
#include "explorer_trace.h"
#include "instrument.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "guest/symtab.h"

static const char *const xev_names[XEV_COUNT] = {
	[MISS_L1I] = "l1i", [MISS_L2I] = "l2i", [MISS_ITLB] = "itlb",
	[MISS_L1D] = "l1d", [MISS_L2D] = "l2d", [MISS_DTLB] = "dtlb",
	[MISS_MISPREDICT] = "mispredict", [MISS_FU_STALL] = "fu-stall",
	[MISS_ROB_FULL] = "rob-full", [MISS_ROB_EMPTY] = "rob-empty",
	[XEV_OVERLAP] = "overlap", [XEV_INTERVAL] = "interval",
};

const char *xev_name(int kind)
{
	if (kind >= XEV_INSTRUMENT && kind < XEV_COUNT) {
		int i = kind - XEV_INSTRUMENT;
		for (int k = 0; k < xinstrument_count(); k++)
			for (const char *const *e = xinstrument_at(k)->events; e && *e; e++)
				if (i-- == 0)
					return *e;
		return "?";
	}
	return kind >= 0 && kind < XEV_COUNT && xev_names[kind] ? xev_names[kind] : "?";
}

int xev_from_name(const char *name)
{
	for (int k = 0; k < XEV_COUNT; k++) {
		const char *a = xev_name(k), *b = name;
		if (!strcmp(a, "?"))
			continue;
		while (*a && (*a == *b || (*a == '-' && *b == '_')))
			a++, b++;
		if (!*a && !*b)
			return k;
	}
	return -1;
}

/* ---- output ------------------------------------------------------------- */

void explorer_write(struct explorer *x, int kind, const char *text)
{
	if (x->out) {
		x->out(x->out_ctx, kind, text);
	} else {
		if (kind == XOUT_ERROR)
			cli_flush_stdout();   /* keep the order when both go to one file */
		fputs(text, kind == XOUT_ERROR ? stderr : stdout);
		if (x->echo)
			x->echo(x->echo_ctx, kind, text);
	}
}

void explorer_vprintf(struct explorer *x, int kind, const char *fmt, va_list ap)
{
	char buf[4096];
	vsnprintf(buf, sizeof buf, fmt, ap);
	explorer_write(x, kind, buf);
}

void explorer_printf(struct explorer *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	explorer_vprintf(x, XOUT_NORMAL, fmt, ap);
	va_end(ap);
}

void explorer_escape(char *dst, size_t n, const char *src)
{
	size_t used = 0;
	for (; *src && used + 1 < n; src++) {
		unsigned char c = (unsigned char)*src;
		if (c >= 0x20 && c != 0x7f) {
			dst[used++] = (char)c;
		} else if (used + 4 < n) {
			snprintf(dst + used, n - used, "\\x%02x", c);
			used += 4;
		} else {
			break;
		}
	}
	if (n)
		dst[used] = 0;
}

int explorer_error(struct explorer *x, const char *fmt, ...)
{
	/* Messages quote what the user typed: escape it on the way in. */
	char msg[sizeof x->err];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	explorer_escape(x->err, sizeof x->err, msg);
	return -1;
}

static void guest_output(void *ctx, int fd, const void *buf, size_t len)
{
	struct explorer *x = ctx;
	if (!x->core || core_cycles(x->core) < x->high_water)
		return;   /* replaying a cycle already shown */
	x->guest_out_bytes += len;
	if (x->guest_out) {
		x->guest_out(x->out_ctx, fd, buf, len);
	} else {
		if (fd == 2)
			cli_flush_stdout();
		fwrite(buf, 1, len, fd == 2 ? stderr : stdout);
		if (x->echo_guest)
			x->echo_guest(x->echo_ctx, fd, buf, len);
	}
}

/* ---- building the run --------------------------------------------------- */

static void teardown(struct explorer *x)
{
	core_free(x->core);
	x->core = NULL;
	guest_free(x->guest);
	x->guest = NULL;
}

static int build(struct explorer *x, struct ivx_err *err)
{
	void *in = NULL;
	size_t in_len = 0;
	/* the explorer's own standard input is the terminal, or a -x - script;
	 * with -x FILE it was read and kept before the first build */
	if (x->opts.stdin_path && !strcmp(x->opts.stdin_path, "-") && !cli_stdin_kept())
		return ivx_error(err, IVX_EUSAGE, "--stdin -: the explorer reads its commands from standard input "
				 "(the terminal, or -x -); give the program's input as a file, or the commands as "
				 "-x SCRIPT");
	if (x->opts.stdin_path && cli_read_file_quiet(x->opts.stdin_path, &in, &in_len, err) < 0) {
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		return ivx_error(err, err->code, "--stdin %s", why);   /* (as the headless commands say it) */
	}
	struct guest_options go = {
		.stdin_data = in, .stdin_len = in_len, .output = guest_output, .output_ctx = x,
	};
	char cwd[4096];
	run_options_guest(&x->opts, &go, cwd, sizeof cwd);
	x->guest = guest_new(x->prog, &go, err);
	free(in);
	if (!x->guest)
		return -1;
	x->core = core_new(&x->cfg, x->guest, err);
	if (!x->core)
		return -1;
	x->cfg_live = x->cfg;
	x->cfg_pending = 0;
	xtrace_reset(x->trace);
	xsnaps_clear(x->snaps);
	xsnaps_configure(x->snaps, x->set.snap_interval, x->set.snap_budget);
	if (core_count_commits(x->core, err) < 0 ||
	    core_add_observer(x->core, xtrace_observer(x->trace), err) < 0 ||
	    xbreaks_attach(x->breaks, x->core, err) < 0)
		return -1;
	for (int i = 0; i < x->n_instruments; i++)
		if (xinstrument_at(i)->attach(x->instruments[i], x->core, err) < 0)
			return -1;
	if (run_options_warm(&x->opts, x->prog, x->core, err) < 0)   /* --fastforward, --start-at */
		return -1;
	x->exited = 0;
	x->exit_code = 0;
	x->engine_error = 0;
	x->engine_msg[0] = 0;
	x->high_water = 0;
	x->guest_out_bytes = 0;
	memset(&x->stop, 0, sizeof x->stop);
	x->has_caught = 0;
	return xsnaps_take(x->snaps, x->core, err);
}

static int load_config(struct explorer *x, struct ivx_err *err)
{
	return config_build(&x->cfg, x->opts.config_path, x->opts.overrides, x->opts.n_overrides, err);
}

static void default_settings(struct xsettings *s)
{
	s->width = 100;
	s->height = 0;
	s->ascii = 0;
	s->color = 1;
	s->break_stage = INSN_DISPATCH;
	s->catch_wrong_path = 0;
	s->snap_interval = 5000;
	s->snap_budget = 256ull << 20;
	s->poll_cycles = 20000;
	s->timeline_scale = 1;
	s->dcpicalc_estimator = DCC_EST_PAPER;
}

struct explorer *explorer_new(struct run_options *opts, struct ivx_err *err)
{
	struct explorer *x = calloc(1, sizeof *x);
	if (!x) {
		ivx_error(err, IVX_ESYS, "out of memory");
		run_options_free(opts);
		return NULL;
	}
	x->opts = *opts;
	memset(opts, 0, sizeof *opts);
	default_settings(&x->set);
	if (x->opts.prog_path)
		x->prog = program_load_file(x->opts.prog_path, err);
	else
		x->prog = program_load_image(ivx_default_program,
					     (size_t)(ivx_default_program_end - ivx_default_program),
					     ivx_default_program_name, err);
	if (!x->prog)
		goto fail;
	if (load_config(x, err) < 0)
		goto fail;
	x->trace = xtrace_new();
	x->breaks = xbreaks_new(x);
	x->snaps = xsnaps_new();
	int n = xinstrument_count();
	x->instruments = calloc((size_t)(n ? n : 1), sizeof *x->instruments);
	if (!x->trace || !x->breaks || !x->snaps || !x->instruments) {
		ivx_error(err, IVX_ESYS, "out of memory");
		goto fail;
	}
	for (; x->n_instruments < n; x->n_instruments++) {
		x->instruments[x->n_instruments] = xinstrument_at(x->n_instruments)->create(x);
		if (!x->instruments[x->n_instruments]) {
			ivx_error(err, IVX_ESYS, "out of memory");
			goto fail;
		}
	}
	xtrace_set_sink(x->trace, xbreaks_on_event, x->breaks);
	if (build(x, err) < 0)
		goto fail;
	return x;
fail:
	explorer_free(x);
	return NULL;
}

void explorer_free(struct explorer *x)
{
	if (!x)
		return;
	teardown(x);
	xsnaps_free(x->snaps);
	xbreaks_free(x->breaks);
	xtrace_free(x->trace);
	for (int i = 0; i < x->n_instruments; i++)
		xinstrument_at(i)->free(x->instruments[i]);
	free(x->instruments);
	program_free(x->prog);
	run_options_free(&x->opts);
	free(x);
}

int explorer_restart(struct explorer *x)
{
	struct ivx_err err = { 0 };
	teardown(x);
	if (build(x, &err) < 0) {
		teardown(x);
		x->engine_error = 1;
		snprintf(x->engine_msg, sizeof x->engine_msg, "%s", err.msg);
		return explorer_error(x, "%s", err.msg);
	}
	xbreaks_program_restarted(x->breaks);
	memset(&x->last_replay, 0, sizeof x->last_replay);
	explorer_state_changed(x);
	return 0;
}

int explorer_restart_noting(struct explorer *x, const char **with)
{
	*with = x->cfg_pending ? " with the new configuration" : "";
	return explorer_restart(x);
}

/* ---- positions and locations -------------------------------------------- */

uint64_t explorer_cycle(const struct explorer *x)
{
	return x->core ? core_cycles(x->core) : 0;
}

uint64_t explorer_committed(const struct explorer *x)
{
	return x->core ? core_committed(x->core) : 0;
}

uint64_t explorer_pc(const struct explorer *x)
{
	struct rob_view rv;
	if (x->core && core_rob_entry(x->core, 0, &rv) == 0)
		return rv.pc;
	return x->guest ? guest_cpu_const(x->guest)->pc : 0;
}

const char *explorer_describe(const struct explorer *x, uint64_t addr, char *buf, size_t n)
{
	return symtab_describe(program_symbols(x->prog), addr, buf, n);
}

void explorer_state_changed(struct explorer *x)
{
	if (x->changed)
		x->changed(x->changed_ctx);
}
