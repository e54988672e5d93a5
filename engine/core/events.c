/* events.c — names of the miss-event kinds (see events.h). */
#include <string.h>
#include "events.h"

static const char *const miss_names[MISS_KIND_COUNT] = {
	[MISS_L1I] = "l1i", [MISS_L2I] = "l2i", [MISS_ITLB] = "itlb",
	[MISS_L1D] = "l1d", [MISS_L2D] = "l2d", [MISS_DTLB] = "dtlb",
	[MISS_MISPREDICT] = "mispredict", [MISS_FU_STALL] = "fu_stall",
	[MISS_ROB_FULL] = "rob_full", [MISS_ROB_EMPTY] = "rob_empty",
};

const char *miss_kind_name(int kind)
{
	return kind >= 0 && kind < MISS_KIND_COUNT ? miss_names[kind] : "?";
}

int miss_kind_from_name(const char *name)
{
	for (int k = 0; k < MISS_KIND_COUNT; k++) {
		const char *a = miss_names[k], *b = name;
		while (*a && (*a == *b || (*a == '_' && *b == '-')))
			a++, b++;
		if (!*a && !*b)
			return k;
	}
	return -1;
}
