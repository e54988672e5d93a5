/*
 * xcmd_time.c — time [-n N] COMMAND: run a command (N times) and report
 * how long it took including a full redraw of the screen after each run
 * (in batch mode: composing a `set width` x `set height` screen as text).
 * For `make bench` and for curiosity.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "explorer/explorer.h"
#include "ui_state.h"
#include "xcmd.h"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void redraw(struct explorer *x)
{
	if (x->redraw) {
		x->redraw(x->redraw_ctx);
	} else {
		char *t = ui_screen_text(x->ui, x, x->set.width, x->set.height ? x->set.height : 40, x->set.ascii);
		free(t);
	}
}

static int time_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	unsigned long long reps = 1;
	const char *cmd = args;
	if (argc >= 3 && !strcmp(argv[1], "-n")) {
		if (xcmd_parse_count(x, argv[2], &reps) < 0)
			return -1;
		cmd = strstr(args, argv[2]) + strlen(argv[2]);
		while (*cmd == ' ')
			cmd++;
	}
	if (!*cmd)
		return explorer_error(x, "usage: time [-n N] COMMAND");
	uint64_t c0 = explorer_cycle(x), replays0 = x->last_replay.count;
	double run = 0, draw = 0, worst = 0;
	unsigned long long done = 0;
	for (; done < reps; done++) {
		/* Ctrl-C ends the series as it ends a continue; the runs so far count. */
		if (done && x->poll_interrupt && x->poll_interrupt(x->poll_ctx))
			break;
		double t0 = now_ms();
		unsigned interrupts = x->interrupts;
		if (xcmd_execute(x, cmd, NULL) < 0)
			return -1;
		double t1 = now_ms();
		redraw(x);
		double t2 = now_ms();
		run += t1 - t0;
		draw += t2 - t1;
		if (t2 - t0 > worst)
			worst = t2 - t0;
		/* a Ctrl-C the command's own run took (a step polls too) ends the
		 * series as well: the key is read once */
		if (x->interrupts != interrupts) {
			done++;
			break;
		}
	}
	uint64_t c1 = explorer_cycle(x);
	/* A forward goto restores a snapshot on the way: only the cycles
	 * simulated again make a rate. */
	int replayed = x->last_replay.count != replays0;
	explorer_printf(x, "time: %.3f ms command + %.3f ms redraw = %.3f ms", run / done, draw / done,
			(run + draw) / done);
	if (done > 1)
		explorer_printf(x, " on average over %llu runs, worst %.3f ms", done, worst);
	if (done < reps)
		explorer_printf(x, " (interrupted after %llu of %llu runs)", done, reps);
	if (c1 > c0 && run > 0 && replayed && done == 1)
		explorer_printf(x, "; %llu cycles ahead, %llu of them simulated (from cycle %llu)",
				(unsigned long long)(c1 - c0), (unsigned long long)x->last_replay.cycles,
				(unsigned long long)x->last_replay.from);
	else if (c1 > c0 && run > 0)
		explorer_printf(x, "; %llu cycles, %.0f cycles/s", (unsigned long long)(c1 - c0),
				(double)(c1 - c0) / (run / 1e3));
	else if (c1 < c0)   /* reverse motion: the rate would mean nothing */
		explorer_printf(x, "; %llu cycles back", (unsigned long long)(c0 - c1));
	explorer_printf(x, "\n");
	return 0;
}

static const struct xcmd time_cmd = {
	.name = "time", .usage = "time [-n N] COMMAND",
	.summary = "run COMMAND (N times) and report its time and a full redraw's",
	.complete = XC_COMMAND, .exec = time_exec,
};
XCMD_REGISTER(time_cmd);
