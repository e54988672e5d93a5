/*
 * xcmd_annotate.c — `annotate [--total] [--estimator paper|ivx] [PROC|ADDR]`
 * (alias `dcpicalc`): dcpicalc's per-instruction estimates for a procedure
 * from the samples the session's DCPI sampler has taken so far, with the
 * simulator's truth beside them (src/explorer/annotate.c does the work;
 * `show annotate` draws the pane, with the `dcpicalc-estimator` setting).
 */
#include <string.h>
#include "dcpi/dcpicalc.h"
#include "explorer/annotate.h"
#include "explorer/explorer.h"
#include "xcmd.h"

static int annotate_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	int flags = 0, i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *est = NULL;
		if (!strcmp(argv[i], "--total"))
			flags |= XANN_PCT_TOTAL;
		else if (!strcmp(argv[i], "--estimator")) {
			if (++i == argc)
				return explorer_error(x, "%s: --estimator needs a value (paper or ivx)", argv[0]);
			est = argv[i];
		} else if (!strncmp(argv[i], "--estimator=", 12))
			est = argv[i] + 12;
		else
			return explorer_error(x, "usage: %s [--total] [--estimator paper|ivx] [PROC|ADDR]", argv[0]);
		if (est) {
			int e = dcc_estimator_parse(est);
			if (e < 0)
				return explorer_error(x, "%s: unknown estimator '%s' (paper or ivx)", argv[0], est);
			flags = (flags & ~(XANN_EST_PAPER | XANN_EST_IVX)) | (e == DCC_EST_IVX ? XANN_EST_IVX : XANN_EST_PAPER);
		}
	}
	if (argc > i + 1)
		return explorer_error(x, "usage: %s [--total] [--estimator paper|ivx] [PROC|ADDR]", argv[0]);
	struct xannotation a;
	char msg[512];
	if (xannotate(x, argc > i ? argv[i] : NULL, flags, &a, msg, sizeof msg) < 0)
		return explorer_error(x, "%s", msg);
	for (size_t k = 0; k < a.n; k++)
		explorer_printf(x, "%s\n", a.line[k].text);
	xannotation_free(&a);
	return 0;
}

static const struct xcmd_then annotate_then[] = {
	{ .after = "--estimator", .words = "paper ivx" },
	{ 0 },
};

static const struct xcmd xcmd_annotate = {
	.name = "annotate", .aliases = "dcpicalc", .usage = "annotate [--total] [--estimator paper|ivx] [PROC|ADDR]",
	.summary = "dcpicalc on the samples so far: per instruction %, samples, frequency, CPI, stalls, truth",
	.help =
	"The procedure named, or the one holding ADDR, or (no argument) the one\n"
	"around the pc. Needs the DCPI sampler on (`sampling on`, then continue)\n"
	"and the in-order machine (-o core.mode=inorder), where\n"
	"dcpicalc's model holds. Columns, as perf annotate: Percent of the\n"
	"procedure's CYCLES samples, Samples, Freq (estimated executions), then\n"
	"[true executions, estimated CPI, true CPI] (! off by more than 5%), the\n"
	"stall letters (static letter; dynamic candidates with the stall cycles\n"
	"per execution), True: the simulator's cycles per execution by true\n"
	"reason (its two largest, in the same letters), and -> the culprit\n"
	"instructions' addresses; > marks the pc. --total: Percent of all CYCLES\n"
	"samples instead of the procedure's. --estimator paper|ivx: the\n"
	"frequency estimator, as for `ivx dcpicalc` (default: the setting\n"
	"`set dcpicalc-estimator`, paper unless set; ivx's also takes a\n"
	"procedure's calls from its call sites in the procedures with samples).\n"
	"The pane of the same name shows it live, by the setting's estimator\n"
	"(`show annotate`, `layout annotate`; its keys: Ctrl-X h hottest,\n"
	"Tab next hot, . back to the pc, p percent of procedure/total).\n"
	"docs/dcpicalc.md.",
	.complete = XC_SYMBOL, .then = annotate_then, .exec = annotate_exec,
};
XCMD_REGISTER(xcmd_annotate);
