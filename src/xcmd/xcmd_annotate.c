/*
 * xcmd_annotate.c — `annotate [PROC|ADDR]` (alias `dcpicalc`): dcpicalc's
 * per-instruction estimates for a procedure from the samples the session's
 * DCPI sampler has taken so far, with the simulator's truth beside them
 * (src/explorer/annotate.c does the work; `show annotate` draws the pane).
 */
#include <string.h>
#include "explorer/annotate.h"
#include "explorer/explorer.h"
#include "xcmd.h"

static int annotate_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	int flags = 0, i = 1;
	if (argc > 1 && !strcmp(argv[1], "--total")) {
		flags |= XANN_PCT_TOTAL;
		i++;
	}
	if (argc > i + 1 || (argc > i && argv[i][0] == '-'))
		return explorer_error(x, "usage: %s [--total] [PROC|ADDR]", argv[0]);
	struct xannotation a;
	char msg[512];
	if (xannotate(x, argc > i ? argv[i] : NULL, flags, &a, msg, sizeof msg) < 0)
		return explorer_error(x, "%s", msg);
	for (size_t i = 0; i < a.n; i++)
		explorer_printf(x, "%s\n", a.line[i].text);
	xannotation_free(&a);
	return 0;
}

static const struct xcmd xcmd_annotate = {
	.name = "annotate", .aliases = "dcpicalc", .usage = "annotate [--total] [PROC|ADDR]",
	.summary = "dcpicalc on the samples so far: per instruction %, samples, frequency, CPI, stalls, truth",
	.help =
	"The procedure named, or the one holding ADDR, or (no argument) the one\n"
	"around the pc. Needs the DCPI sampler on (`sampling on`, `restart`, then\n"
	"continue) and the in-order machine (-o core.mode=inorder), where\n"
	"dcpicalc's model holds. Columns, as perf annotate: Percent of the\n"
	"procedure's CYCLES samples, Samples, Freq (estimated executions), then\n"
	"[true executions, estimated CPI, true CPI] (! off by more than 5%), the\n"
	"stall letters (static letter; dynamic candidates with the stall cycles\n"
	"per execution), True: the simulator's cycles per execution by true\n"
	"reason (its two largest, in the same letters), and -> the culprit\n"
	"instructions' addresses; > marks the pc. --total: Percent of all CYCLES\n"
	"samples instead of the procedure's. The pane of the same name shows it\n"
	"live (`show annotate`, `layout annotate`; its keys: Ctrl-X h hottest,\n"
	"Tab next hot, . back to the pc, p percent of procedure/total).\n"
	"docs/dcpicalc.md.",
	.complete = XC_SYMBOL, .exec = annotate_exec,
};
XCMD_REGISTER(xcmd_annotate);
