/*
 * coproc_asm.c — libFuzzer harness: the co-processor assembler.
 *
 * The input is a program source. coproc_asm must either refuse it with a
 * one-line "fuzz.s:LINE: message", or accept it; an accepted program must
 * have every branch, DFE entry and target register inside its microcode,
 * and every microinstruction must disassemble. Built with clang and
 * libFuzzer by `make fuzz` (branch lib-fuzz), and with gcc plus
 * tests/fuzz/coproc_asm_replay.c in `make test`, which replays
 * tests/fuzz/corpus/coproc_asm and the shipped programs in data/coproc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coproc/coproc_prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct coproc_prog prog;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ivx_err err = { 0 };
	int rc = coproc_asm((const char *)data, size, "fuzz.s", &prog, &err);
	if (rc < 0) {
		unsigned line;
		if (rc != IVX_EINPUT || strchr(err.msg, '\n') || sscanf(err.msg, "fuzz.s:%u: ", &line) != 1 || !line)
			abort();
		return 0;
	}
	if (rc != 0 || prog.n_insns <= 0 || prog.n_insns > COPROC_MAX_UCODE || !prog.classes)
		abort();
	for (int k = 0; k < INSN_KIND_COUNT; k++)
		if (prog.dfe[k] >= prog.n_insns || ((prog.classes >> k & 1) && prog.dfe[k] < 0))
			abort();
	for (int t = 0; t < COPROC_NT; t++)
		if (prog.treg[t] >= prog.n_insns)
			abort();
	for (int a = 0; a < prog.n_insns; a++) {
		const struct cp_uinsn *u = &prog.insn[a];
		if (u->op >= CP_OP_COUNT || u->cond >= CPC_COUNT || u->base >= COPROC_NB)
			abort();
		if (u->tkind == CPT_LABEL && u->target >= prog.n_insns)
			abort();
		char buf[160];
		coproc_disasm_insn(&prog, a, buf, sizeof buf);
		if (!buf[0] || buf[0] == '?')
			abort();
	}
	return 0;
}
