/*
 * acct_cost.c — the driver tests/acct-cost.sh counts host instructions of:
 * run the timing model on PROG for CYCLES cycles, without observers
 * (units = 0) or with the six accounting units as one set (units = 1).
 * Only core_run is meant to be measured (callgrind --toggle-collect).
 *
 *   acct_cost UNITS CYCLES PROG [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include "acct/acct.h"
#include "core/config.h"
#include "core/core.h"
#include "guest/guest.h"
#include "guest/program.h"

static void drop(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: acct_cost UNITS CYCLES PROG [ARGS...]\n");
		return 2;
	}
	int units = atoi(argv[1]);
	uint64_t cycles = strtoull(argv[2], NULL, 0);
	struct ivx_err err = { 0 };
	struct program *prog = program_load_file(argv[3], &err);
	struct guest_options gopt = { .argc = argc - 3, .argv = argv + 3, .seed = 1, .output = drop };
	struct guest *g = prog ? guest_new(prog, &gopt, &err) : NULL;
	struct machine_config cfg;
	config_defaults(&cfg);
	struct core *c = g ? core_new(&cfg, g, &err) : NULL;
	struct acct_set *set = c && units ? acct_set_new_units(&cfg, &err) : NULL;
	if (!c || (units && (!set || core_add_observer(c, acct_set_observer(set), &err) < 0)) ||
	    core_run(c, cycles, 0, &err) < 0) {
		fprintf(stderr, "acct_cost: %s\n", err.msg);
		return 1;
	}
	printf("%llu cycles, %llu instructions\n", (unsigned long long)core_cycles(c),
	       (unsigned long long)core_committed(c));
	acct_set_free(set);
	core_free(c);
	guest_free(g);
	program_free(prog);
	return 0;
}
