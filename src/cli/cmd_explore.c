/*
 * explorer_main.c — `ivx [OPTIONS] [PROG] [-- ARGS]` (the full-screen
 * explorer) and `ivx -x SCRIPT [OPTIONS] [PROG]` (batch mode: the same
 * commands, no terminal, panes printed as text). Also reachable as
 * `ivx explore ...`.
 */
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "base/file.h"
#include "cli.h"
#include "dcpi_opts.h"
#include "explorer/explorer.h"
#include "explorer/inst_dcpi.h"
#include "explorer/instrument.h"
#include "runopts.h"
#include "screen.h"
#include "ui_state.h"
#include "xcmd/xcmd.h"

struct explore_flags {
	const char *script;      /* -x SCRIPT ("-" = stdin) */
	const char *commands[16];/* -ex CMD, run before the script / the screen */
	int n_commands;
	struct dcpi_config sampling; /* --events, --period, ...: sample from the start */
	int sample;
};

static int explore_extra(void *ctx, int argc, char **argv, int i)
{
	struct explore_flags *f = ctx;
	struct ivx_err err = { 0 };
	int used = dcpi_opts_parse(&f->sampling, argc, argv, i, &err);
	if (used < 0)
		cli_error("%s", err.msg);
	if (used) {
		f->sample = 1;
		return used;
	}
	if (!strcmp(argv[i], "-x") || !strcmp(argv[i], "-ex")) {
		if (i + 1 >= argc) {
			cli_error("option %s needs a value", argv[i]);
			return -1;
		}
		if (argv[i][1] == 'x') {
			f->script = argv[i + 1];
		} else {
			if (f->n_commands == 16) {
				cli_error("too many -ex commands");
				return -1;
			}
			f->commands[f->n_commands++] = argv[i + 1];
		}
		return 2;
	}
	return 0;
}

/* Batch mode is interrupted by SIGINT like any command-line program, but a
 * `continue` in it stops cleanly at the next poll first; a second SIGINT
 * ends ivx (status 130). GNU timeout and `kill -INT -PGID` deliver one
 * interrupt twice within microseconds (to the process, then to its group),
 * so a SIGINT within SIGINT_SAME_NS of the first is the same interrupt. */
#define SIGINT_SAME_NS 200000000LL
static volatile sig_atomic_t batch_interrupted;
static struct timespec first_sigint;

static void on_sigint(int sig)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);   /* async-signal-safe */
	if (batch_interrupted) {
		long long since = (now.tv_sec - first_sigint.tv_sec) * 1000000000LL +
				  (now.tv_nsec - first_sigint.tv_nsec);
		if (since >= SIGINT_SAME_NS)
			_exit(130);
		return;
	}
	first_sigint = now;
	batch_interrupted = 1;
}

static int batch_poll(void *ctx)
{
	return batch_interrupted != 0;
}

/* A failed -ex command: one line on stderr, the command as typed but with
 * control characters escaped. */
static void ex_error(struct explorer *x, const char *cmd)
{
	char shown[256];
	explorer_escape(shown, sizeof shown, cmd);
	fprintf(stderr, "ivx: -ex '%s': %s\n", shown, x->err);
}

static int run_batch(struct explorer *x, const struct explore_flags *f)
{
	x->batch = 1;
	x->screen_w = x->set.width;
	x->screen_h = 40;
	x->poll_interrupt = batch_poll;
	x->echo = ui_console_echo;   /* the console pane holds what was printed */
	x->echo_guest = ui_console_echo_guest;
	x->echo_ctx = x->ui;
	cli_catch_signal(SIGINT, on_sigint, SA_RESTART);
	for (int i = 0; i < f->n_commands; i++)
		if (xcmd_execute(x, f->commands[i], NULL) < 0) {
			ex_error(x, f->commands[i]);
			return 1;
		}
	struct ivx_err err = { 0 };
	FILE *in = strcmp(f->script, "-") ? ivx_fopen_input(f->script, &err) : stdin;
	if (!in) {
		cli_error("%s", err.msg);
		return EXIT_INPUT;     /* no script ran: an input error, not a script's */
	}
	int rc = xcmd_run_script(x, in, strcmp(f->script, "-") ? f->script : "<stdin>");
	if (in != stdin)
		fclose(in);
	if (rc < 0) {
		char line[sizeof x->err + 1];
		snprintf(line, sizeof line, "%s\n", x->err);
		explorer_write(x, XOUT_ERROR, line);
	}
	cli_flush_stdout();
	/* as gdb -batch: 1 for a command that failed, else what `quit STATUS`
	 * said (0 without it), whatever the program did (docs/explorer.md) */
	return rc < 0 ? 1 : x->quit ? x->quit_status : 0;
}

/* The sampling options (dcpi_opts.h) turn the DCPI sampler on from the
 * first cycle: the run restarts with it attached. */
static int start_sampling(struct explorer *x, const struct explore_flags *f)
{
	struct xdcpi *xd = explorer_instrument(x, "dcpi");
	struct ivx_err err = { 0 };
	if (!xd || dcpi_config_validate(&f->sampling, &err) < 0) {
		cli_error("%s", xd ? err.msg : "no sampler in this build");
		return -1;
	}
	*xdcpi_settings(xd) = f->sampling;
	xdcpi_settings(xd)->seed = x->opts.seed;   /* (--seed is a run option: ivx profile's too) */
	xdcpi_enable(xd, 1);
	if (explorer_restart(x) < 0) {
		cli_error("%s", x->err);
		return -1;
	}
	return 0;
}

static int explore_main(int argc, char **argv)
{
	struct run_options o;
	struct explore_flags f = { 0 };
	dcpi_config_defaults(&f.sampling);
	if (run_options_parse(&o, argc, argv, explore_extra, &f) < 0)
		return EXIT_USAGE;
	/* Only the character set: curses needs it for line drawing and wide
	 * characters. Numbers (a decimal comma would break expressions and
	 * SVG), messages and sorting stay C's, as in the headless commands. */
	setlocale(LC_CTYPE, "");
	int utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	struct ivx_err err = { 0 };
	if (o.stdin_path && !strcmp(o.stdin_path, "-") && f.script && strcmp(f.script, "-")) {
		/* commands from a file: standard input is the program's, read now
		 * and kept, as every restart and reverse step reads it again */
		void *data;
		size_t len;
		if (cli_read_file_quiet("-", &data, &len, &err) < 0) {
			cli_error("--stdin -: %s", err.msg);
			run_options_free(&o);
			return EXIT_INPUT;
		}
		free(data);
	}
	struct explorer *x = explorer_new(&o, &err);
	if (!x) {
		cli_error("%s", err.msg);
		return EXIT_INPUT;
	}
	if (ui_state_attach(x) < 0) {
		cli_error("out of memory");
		explorer_free(x);
		return EXIT_INPUT;
	}
	x->set.ascii = !utf8;
	if (f.sample && start_sampling(x, &f) < 0) {
		ui_state_detach(x);
		explorer_free(x);
		return EXIT_USAGE;
	}
	int status;
	if (f.script) {
		status = run_batch(x, &f);
	} else {
		for (int i = 0; i < f.n_commands; i++)
			if (xcmd_execute(x, f.commands[i], NULL) < 0)
				ex_error(x, f.commands[i]);
		status = x->quit ? x->quit_status : ui_run(x);
		if (status == 0 && x->quit)
			status = x->quit_status;
	}
	ui_state_detach(x);
	explorer_free(x);
	return status;
}

const struct cli_command cmd_explore_entry = {
	.name = "explore",
	.summary = "the interactive explorer (also: ivx [PROG], ivx -x SCRIPT [PROG])",
	.help =
	"usage: ivx [OPTIONS] [PROG] [-- ARGS...]\n"
	"       ivx -x SCRIPT [OPTIONS] [PROG] [-- ARGS...]\n"
	"       ivx explore [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Open the full-screen explorer on PROG (default: the built-in program),\n"
	"stopped at cycle 0: step the core model cycle by cycle, catch miss events,\n"
	"step backwards, and watch the ROB, the interval timeline, the FMT and the\n"
	"CPI stacks. Type `help` inside; docs/explorer.md is the reference and\n"
	"docs/tutorial.md a first lab.\n\n"
	"  -x SCRIPT           batch mode: run the explorer commands in SCRIPT (- for\n"
	"                      stdin) without a terminal; `show PANE` prints panes as\n"
	"                      text. Stops at the first error with status 1.\n"
	"  -ex CMD             run CMD first (repeatable)\n"
	"Any DCPI sampling option (as for `ivx profile`) turns the sampler on from\n"
	"the first cycle (docs/dcpi.md):\n"
	DCPI_OPTS_HELP
	RUN_OPTIONS_QUIET_HELP
	RUN_OPTIONS_HELP,
	.main = explore_main,
};
