/*
 * main.c — `ivx` entry point: dispatches to the headless commands in the
 * table below; with no command (or a program path) it will open the
 * explorer. Around the command it makes sure fds 0-2 are open and, at the
 * end, that everything meant for stdout got there (cli_close_stdout).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/suggest.h"

extern const struct cli_command cmd_run_entry;
extern const struct cli_command cmd_disasm_entry;
extern const struct cli_command cmd_cpistack_entry, cmd_refstack_entry;
extern const struct cli_command cmd_explore_entry;
extern const struct cli_command cmd_cost_entry, cmd_compare_entry;
extern const struct cli_command cmd_coproc_entry, cmd_coproc_asm_entry;
extern const struct cli_command cmd_strat_entry;
extern const struct cli_command cmd_sweep_entry;
extern const struct cli_command cmd_profile_entry, cmd_dcpiprof_entry, cmd_dcpistats_entry, cmd_dcpicalc_entry;
extern const struct cli_command cmd_attrib_entry;

static const struct cli_command *const commands[] = {
	&cmd_run_entry,
	&cmd_disasm_entry,
	&cmd_cpistack_entry, &cmd_refstack_entry,
	&cmd_cost_entry, &cmd_compare_entry,
	&cmd_explore_entry,
	&cmd_coproc_entry, &cmd_coproc_asm_entry,
	&cmd_strat_entry,
	&cmd_sweep_entry,
	&cmd_profile_entry, &cmd_dcpiprof_entry, &cmd_dcpistats_entry, &cmd_dcpicalc_entry,
	&cmd_attrib_entry,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
	fprintf(out, "usage: ivx COMMAND [OPTIONS] [PROG] [-- ARGS...]\n"
		     "       ivx [OPTIONS] [PROG] [-- ARGS...]      the full-screen explorer\n"
		     "       ivx -x SCRIPT [OPTIONS] [PROG]         the explorer in batch mode\n\n"
		     "ivx runs statically linked AArch64 Linux programs on a cycle-level\n"
		     "out-of-order core model and shows where the cycles go.\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\nWithout PROG a command uses the built-in default program (%s).\n"
		     "`ivx COMMAND --help` describes a command.\n", ivx_default_program_name);
}

/* The explorer, with argv[0] naming it for option errors. */
static int explore(int argc, char **argv)
{
	argv[0] = (char *)"explore";
	return cmd_explore_entry.main(argc, argv);
}

/* A closed fd 0, 1 or 2 would be reused by the next open(), and output
 * meant for the terminal would land in a user's file: park /dev/null on
 * each, as daemons and coreutils do. Standard output's is opened for
 * reading, so that writing to it still fails (EBADF) and a run whose
 * output went nowhere says so, as `cat file >&-` does. 0, or -1 if one
 * cannot be opened. */
static int open_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int got = open("/dev/null", fd <= 1 ? O_RDONLY : O_WRONLY);
		if (got != fd) {   /* lower fds are open, so only on failure */
			if (got >= 0)
				close(got);
			return -1;
		}
	}
	return 0;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return explore(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (size_t i = 0; i < N_COMMANDS; i++)
				if (!strcmp(commands[i]->name, argv[2])) {
					fputs(commands[i]->help, stdout);
					return 0;
				}
			cli_error("help: no command '%s' (try 'ivx --help')", argv[2]);
			return EXIT_USAGE;
		}
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i]->name, argv[1])) {
			for (int a = 2; a < argc && strcmp(argv[a], "--"); a++)
				if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
					fputs(commands[i]->help, stdout);
					return 0;
				}
			return commands[i]->main(argc - 1, argv + 1);
		}
	/* Not a command: options or a program path open the explorer; a bare
	 * word that is no file is a mistyped command. */
	if (argv[1][0] == '-' || strchr(argv[1], '/') || access(argv[1], F_OK) == 0)
		return explore(argc, argv);
	/* A program of the tree named without its directory (`ivx k3_long_dmiss`)
	 * or a mistyped command: say which, and what was probably meant. */
	static const char *const dirs[] = { "data/bin/kernels/", "data/bin/workloads/" };
	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
		char path[512];
		snprintf(path, sizeof path, "%s%s", dirs[d], argv[1]);
		if (access(path, F_OK) == 0) {
			cli_error("no such file or command: %s (did you mean %s?)", argv[1], path);
			return EXIT_USAGE;
		}
	}
	const char *names[64];
	size_t n = 0;
	for (size_t i = 0; i < N_COMMANDS && n < 64; i++)
		names[n++] = commands[i]->name;
	const char *near = suggest_closest(argv[1], names, n);
	if (near)
		cli_error("no such file or command: %s (did you mean 'ivx %s'?)", argv[1], near);
	else
		cli_error("no such file or command: %s (try 'ivx --help')", argv[1]);
	return EXIT_USAGE;
}

/* The guest's files each hold a host descriptor for the whole run (up to
 * the sandbox's 4096, docs/guest-abi.md), besides ivx's own: a soft limit
 * of 1024, common, would stop a guest that opens many files early and
 * then leave ivx unable to write its outputs. The hard limit is allowed. */
static void raise_fd_limit(void)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &r);
	}
}

int main(int argc, char **argv)
{
	if (open_std_fds() < 0)
		return EXIT_USAGE;   /* silently: stderr may be the closed one */
	raise_fd_limit();
	return cli_close_stdout(dispatch(argc, argv));
}
