/* disasm.c — capstone wrapper (see disasm.h). */
#include <capstone/capstone.h>
#include <stdio.h>
#include "disasm.h"

static __thread csh handle;
static __thread int opened;   /* 1 = open, -1 = capstone refused */

const char *disasm_word(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	if (!opened)
		opened = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) == CS_ERR_OK ? 1 : -1;
	if (opened == 1) {
		uint8_t bytes[4] = { word, word >> 8, word >> 16, word >> 24 };
		cs_insn *insn;
		if (cs_disasm(handle, bytes, 4, pc, 1, &insn) == 1) {
			if (insn->op_str[0])
				snprintf(buf, n, "%s %s", insn->mnemonic, insn->op_str);
			else
				snprintf(buf, n, "%s", insn->mnemonic);
			cs_free(insn, 1);
			return buf;
		}
	}
	snprintf(buf, n, ".inst 0x%08x", word);
	return buf;
}
