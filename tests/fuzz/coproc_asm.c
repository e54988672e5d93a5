/*
 * coproc_asm.c — libFuzzer harness: the co-processor assembler.
 *
 * The input is a program source. coproc_asm_reading must either refuse it
 * with a one-line "fuzz.s:LINE: message" (or "FILE:LINE: message (included
 * from ..." for a line of an included file), or accept it; an accepted program must
 * have every branch, DFE entry and target register inside its microcode,
 * and every microinstruction must disassemble. Built with clang and
 * libFuzzer by `make fuzz` (branch lib-fuzz), and with gcc plus
 * tests/fuzz/coproc_asm_replay.c in `make test`, which replays
 * tests/fuzz/corpus/coproc_asm, the shipped programs in data/coproc and
 * their listings in tests/coproc-listings.
 *
 * `.include` never reads the host's files here: every file it names is
 * the input itself (read_input), so the harness stays self-contained and
 * still drives the include paths: nesting, the depth limit, a file
 * including itself, and errors named by an included file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "coproc/coproc_prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct coproc_prog prog;

struct input {
	const uint8_t *data;
	size_t size;
};

/* Every included file is the input again. */
static int read_input(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err)
{
	const struct input *in = ctx;
	(void)path;
	*text = ivx_malloc(in->size ? in->size : 1);
	if (!*text)
		return ivx_error(err, IVX_ESYS, "out of memory");
	memcpy(*text, in->data, in->size);
	*len = in->size;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ivx_err err = { 0 };
	struct input in = { data, size };
	int rc = coproc_asm_reading((const char *)data, size, "fuzz.s", read_input, &in, &prog, &err);
	if (rc < 0) {
		unsigned line;
		if (rc != IVX_EINPUT || strchr(err.msg, '\n'))
			abort();
		/* (a message cut at its buffer's end may have lost the chain:
		 * nested includes' names grow with the depth) */
		if ((sscanf(err.msg, "fuzz.s:%u: ", &line) != 1 || !line) && !strstr(err.msg, " (included from ") &&
		    strlen(err.msg) < sizeof err.msg - 1)
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
