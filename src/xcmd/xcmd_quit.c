/* xcmd_quit.c — quit: leave the explorer (or end a batch script). */
#include "explorer/explorer.h"
#include "xcmd.h"

static int quit_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (argc > 1)
		return explorer_error(x, "%s takes no arguments", argv[0]);
	x->quit = 1;
	return 0;
}

static const struct xcmd quit_cmd = {
	.name = "quit", .aliases = "q exit", .usage = "quit",
	.flags = XCMD_NO_RUN,
	.summary = "leave the explorer",
	.exec = quit_exec,
};
XCMD_REGISTER(quit_cmd);
