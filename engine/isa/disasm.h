/*
 * disasm.h — one A64 instruction to text, via capstone. Used for listings,
 * error messages ("capstone's text for it") and the explorer's panes.
 */
#ifndef IVX_DISASM_H
#define IVX_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* Write "mnemonic operands" for `word` at `pc` into buf (".inst 0x%08x" when
 * capstone does not know it) and return buf. Thread-safe: each thread keeps
 * its own capstone handle, opened on first use and closed when the thread
 * exits. */
const char *disasm_word(uint32_t word, uint64_t pc, char *buf, size_t n);

#endif
