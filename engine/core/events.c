/* events.c — names of the miss-event and instruction kinds (see events.h). */
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

static const char *const kind_names[INSN_KIND_COUNT] = {
	[INSN_KIND_OTHER] = "other", [INSN_KIND_ALU] = "alu", [INSN_KIND_MUL] = "mul",
	[INSN_KIND_DIV] = "div", [INSN_KIND_LOAD] = "load", [INSN_KIND_STORE] = "store",
	[INSN_KIND_COND_BRANCH] = "cond-branch", [INSN_KIND_JUMP] = "jump",
	[INSN_KIND_CALL] = "call", [INSN_KIND_INDIRECT] = "indirect",
	[INSN_KIND_RETURN] = "return", [INSN_KIND_SYSCALL] = "syscall",
	[INSN_KIND_FP] = "fp", [INSN_KIND_FDIV] = "fdiv", [INSN_KIND_SIMD] = "simd",
};

const char *insn_kind_name(int kind)
{
	return kind >= 0 && kind < INSN_KIND_COUNT ? kind_names[kind] : "?";
}

int insn_kind_from_name(const char *name)
{
	for (int k = 0; k < INSN_KIND_COUNT; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

static const char *const wait_names[ISSUE_WAIT_COUNT] = {
	"none", "slot", "dep", "dep-long", "dep-l1d", "dep-l2d", "dep-dtlb", "unit", "mem", "serial",
	"full-dmiss", "full-store", "full-other", "frontend", "l1i", "l2i", "itlb", "mispredict",
};

const char *issue_wait_name(int w)
{
	return w >= 0 && w < ISSUE_WAIT_COUNT ? wait_names[w] : "?";
}
