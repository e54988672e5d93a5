/*
 * legend.c — the letter of each miss event kind (see legend.h).
 */
#include "core/events.h"
#include "explorer/explorer.h"
#include "legend.h"

static const struct {
	int kind;
	char letter;
	const char *name;
} legend[] = {
	{ MISS_L1I, 'i', "L1I" },
	{ MISS_L2I, 'I', "L2I" },
	{ MISS_ITLB, 't', "ITLB" },
	{ MISS_L1D, 'd', "L1D" },
	{ MISS_L2D, 'D', "L2D" },
	{ MISS_DTLB, 'T', "DTLB" },
	{ MISS_MISPREDICT, 'b', "bpred" },
	{ MISS_FU_STALL, 'f', "FU" },
	{ MISS_ROB_FULL, 'R', "ROB full" },
	{ MISS_ROB_EMPTY, 'E', "ROB empty" },
	{ XEV_OVERLAP, 'o', "overlap" },
	{ XEV_INTERVAL, '|', "interval end" },
};

char legend_letter(int kind)
{
	for (unsigned i = 0; i < sizeof legend / sizeof legend[0]; i++)
		if (legend[i].kind == kind)
			return legend[i].letter;
	return '?';
}

const char *legend_name(int kind)
{
	for (unsigned i = 0; i < sizeof legend / sizeof legend[0]; i++)
		if (legend[i].kind == kind)
			return legend[i].name;
	return "?";
}
