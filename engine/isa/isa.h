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

/* What the instruction set offers a Linux guest, for the auxiliary vector
 * (AT_HWCAP, AT_HWCAP2): exactly the features implemented, so glibc's
 * IFUNCs pick routines that run. Bit values are the Linux arm64 ABI's. */
uint64_t isa_hwcap(void);
uint64_t isa_hwcap2(void);

/* DCZID_EL0: DC ZVA allowed, blocks of 2^4 words = 64 bytes. */
#define ISA_DCZ_BLOCK   64
#define ISA_DCZID_VALUE 4
/* CTR_EL0 as Linux lets EL0 read it, for 64-byte lines everywhere (the
 * default machine, and what Cortex-A72 reports): DminLine = IminLine =
 * log2(16 words), CWG and ERG 64 bytes, PIPT instruction cache, IDC = DIC
 * = 0 (so libgcc's __clear_cache cleans and invalidates: DC CVAU and IC
 * IVAU, both no-ops here). A guest starts with it; the machine's own
 * comes from isa_ctr_el0. */
#define ISA_CTR_VALUE   0x8444c004ull
/* CTR_EL0 for caches whose smallest instruction and data lines are iline
 * and dline bytes and whose largest line written back is wb_line (CWG, at
 * most the architecture's 2 KB); the rest as in ISA_CTR_VALUE (ERG
 * describes the exclusive monitor, not a cache: 64 bytes). Powers of two
 * from 16 bytes. */
uint64_t isa_ctr_el0(uint32_t iline, uint32_t dline, uint32_t wb_line);
/* CNTFRQ_EL0: the virtual counter ticks once per simulated nanosecond, so
 * CNTVCT_EL0 agrees with clock_gettime (one instruction = 1 ns when running
 * functionally, the core's cycles converted to ns when timing). */
#define ISA_CNTFRQ_HZ   1000000000ull

/* The extension an instruction ivx does not implement belongs to ("SVE
 * (scalable vectors)", "half-precision floating point (FEAT_FP16)", ...),
 * for messages; NULL when unknown. */
const char *isa_extension_of(uint32_t word);

/* Decode `word` found at `pc` into *u. Never fails: an encoding we do not
 * implement yields op_class UOP_UNSUPPORTED and an exec handler that returns
 * ISA_UNSUPPORTED, so only *executing* it stops the run (literal pools in
 * text are fine). */
void isa_decode(uint32_t word, uint64_t pc, struct uop *u);

#endif
