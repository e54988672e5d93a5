/*
 * isa.h — the A64 integer instruction set: decode and behaviour.
 *
 * Decoding is table driven: a table of (mask, match, decoder) entries is
 * scanned once per *static* instruction, and the decoder fills a struct uop
 * (uop.h) with an exec handler and operands. Execution is then one indirect
 * call per dynamic instruction; handlers are tiny and know nothing of time.
 */
#ifndef IVX_ISA_H
#define IVX_ISA_H

#include <stdint.h>
#include "uop.h"

/* Decode `word` found at `pc` into *u. Never fails: an encoding we do not
 * implement yields op_class UOP_UNSUPPORTED and an exec handler that returns
 * ISA_UNSUPPORTED, so only *executing* it stops the run (literal pools in
 * text are fine). */
void isa_decode(uint32_t word, uint64_t pc, struct uop *u);

#endif
