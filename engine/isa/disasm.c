/*
 * disasm.c — capstone wrapper (see disasm.h).
 *
 * Capstone handles are not safe to share, so each thread opens its own on
 * first use. A thread-specific key's destructor closes it when the thread
 * exits (refstack's workers come and go); the main thread's stays open until
 * the process ends, still reachable from its thread-local variable.
 */
#include <capstone/capstone.h>
#include <pthread.h>
#include <stdio.h>
#include "disasm.h"

static __thread csh handle;
static __thread int opened;   /* 1 = open, -1 = capstone refused */

static pthread_once_t close_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t close_key;
static int close_key_ok;

static void close_handle(void *h)
{
	csh dying = (csh)h;
	cs_close(&dying);
}

static void close_key_create(void)
{
	close_key_ok = pthread_key_create(&close_key, close_handle) == 0;
}

static int open_handle(void)
{
	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK)
		return -1;
	pthread_once(&close_key_once, close_key_create);
	if (close_key_ok)
		pthread_setspecific(close_key, (void *)handle);
	return 1;
}

const char *disasm_word(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	if (!opened)
		opened = open_handle();
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
