/* xcmd_quit.c — quit [STATUS]: leave the explorer (or end a batch script),
 * with STATUS as ivx's exit status, as gdb's `quit EXPR` (a grader's
 * script ends with `quit exitcode` to pass the program's status on). */
#include "explorer/explorer.h"
#include "explorer/explorer_expr.h"
#include "xcmd.h"

static int quit_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	(void)argv;
	int status = 0;
	if (argc > 1) {
		struct xval v;
		if (xexpr_eval_arg(x, args, &v) < 0)
			return -1;
		if (v.is_str || v.is_float)
			return explorer_error(x, "quit: the status is a whole number (0 to 255, or exitcode)");
		status = (int)(v.num & 0xff);   /* (as exit() keeps it: -1 is 255) */
	}
	x->quit = 1;
	x->quit_status = status;
	return 0;
}

static const struct xcmd quit_cmd = {
	.name = "quit", .aliases = "q exit", .usage = "quit [STATUS]",
	.flags = XCMD_NO_RUN,
	.summary = "leave the explorer; with STATUS (an expression: `quit exitcode`) exit with it",
	.exec = quit_exec,
};
XCMD_REGISTER(quit_cmd);
