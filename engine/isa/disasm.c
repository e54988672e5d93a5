/*
 * disasm.c — capstone wrapper (see disasm.h).
 *
 * Capstone handles are not safe to share, so each thread opens its own on
 * first use. A thread-specific key's destructor closes it when the thread
 * exits (refstack's workers come and go); the main thread's stays open until
 * the process ends, still reachable from its thread-local variable.
 *
 * Capstone allocates through the engine's allocator (CS_OPT_MEM, set once
 * before the first handle opens), so fault-injection tests reach it too. A
 * handle that could not be opened for want of memory is tried again on the
 * next call; one capstone refuses for another reason is given up on.
 */
#include <capstone/capstone.h>
#include <pthread.h>
#include <stdio.h>
#include "base/alloc.h"
#include "disasm.h"

static __thread csh handle;
static __thread int opened;   /* 1 = open, -1 = capstone refused */

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t close_key;
static int close_key_ok;

static void close_handle(void *h)
{
	csh dying = (csh)h;
	cs_close(&dying);
}

static void setup(void)
{
	static cs_opt_mem mem = { .malloc = ivx_malloc, .calloc = ivx_calloc, .realloc = ivx_realloc,
				  .free = ivx_free, .vsnprintf = vsnprintf };
	cs_option(0, CS_OPT_MEM, (size_t)&mem);
	close_key_ok = pthread_key_create(&close_key, close_handle) == 0;
}

/* 1 = open, 0 = out of memory (try again later), -1 = capstone refused. */
static int open_handle(void)
{
	pthread_once(&setup_once, setup);
	cs_err e = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle);
	if (e != CS_ERR_OK)
		return e == CS_ERR_MEM ? 0 : -1;
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
