/*
 * cpu.h — architected state of one AArch64 hart at EL0: the general
 * registers, the 32 SIMD&FP registers V0..V31 with FPCR and FPSR, and the
 * few system registers user space can write, and CTR_EL0, which describes
 * the machine's caches and so is set per machine at setup.
 *
 * A plain value type: copying it is a complete checkpoint of the registers,
 * which is how the timing model recovers from wrong-path execution and how
 * snapshots save it. Memory lives in struct mem (mem.h), referenced here so
 * exec handlers can reach it.
 */
#ifndef IVX_CPU_H
#define IVX_CPU_H

#include <stdint.h>
#include "uop.h"

struct mem;

enum cpu_fault_kind { FAULT_NONE, FAULT_READ, FAULT_WRITE, FAULT_FETCH, FAULT_ALIGN };

/* One 128-bit SIMD&FP register, little-endian lanes: b[0] is the lowest
 * byte, as the B/H/S/D views of the architecture see it. */
union cpu_vreg {
	uint8_t b[16];
	uint16_t h[8];
	uint32_t s[4];
	uint64_t d[2];
	int8_t sb[16];
	int16_t sh[8];
	int32_t ss[4];
	int64_t sd[2];
	float f[4];
	double df[2];
} __attribute__((aligned(16)));

struct cpu {
	uint64_t x[CPU_NREGS];  /* X0..X30, SP, zero, write sink (see uop.h) */
	uint64_t pc;            /* address of the next instruction to execute */
	uint64_t nzcv;          /* flags in bits 31..28 (N Z C V), as MRS NZCV reads them */
	uint64_t tpidr_el0;     /* thread pointer (MRS/MSR TPIDR_EL0) */
	uint64_t excl_addr;     /* exclusive monitor: address of the last LDXR */
	uint32_t excl_size;     /* ... and its size in bytes */
	uint32_t excl_valid;    /* monitor armed */
	uint64_t mem_addr;      /* effective address of the last load/store executed */
	uint64_t fault_addr;    /* with ISA_FAULT: the address that faulted */
	int fault_kind;         /* with ISA_FAULT: enum cpu_fault_kind */
	struct mem *mem;        /* guest memory the handlers access */
	uint32_t fpcr;          /* AHP, DN, FZ, RMode, FZ16 (the writable bits, FPCR_MASK) */
	uint32_t fpsr;          /* QC and the cumulative exception flags (FPSR_MASK) */
	uint64_t ctr_el0;       /* CTR_EL0 as MRS reads it: the machine's cache lines (isa_ctr_el0) */
	union cpu_vreg v[32];   /* V0..V31 */
};

#define NZCV_N (1ull << 31)
#define NZCV_Z (1ull << 30)
#define NZCV_C (1ull << 29)
#define NZCV_V (1ull << 28)

/* FPCR: what user space may set (the trap enables read as zero, as on most
 * cores and in qemu). RMode: 0 nearest, 1 towards +inf, 2 towards -inf,
 * 3 towards zero. */
#define FPCR_AHP   (1u << 26)
#define FPCR_DN    (1u << 25)
#define FPCR_FZ    (1u << 24)
#define FPCR_RMODE_SHIFT 22
#define FPCR_FZ16  (1u << 19)
#define FPCR_MASK  (FPCR_AHP | FPCR_DN | FPCR_FZ | (3u << FPCR_RMODE_SHIFT) | FPCR_FZ16)

/* FPSR: cumulative flags (sticky: set by instructions, cleared only by MSR). */
#define FPSR_IOC   (1u << 0)    /* invalid operation */
#define FPSR_DZC   (1u << 1)    /* divide by zero */
#define FPSR_OFC   (1u << 2)    /* overflow */
#define FPSR_UFC   (1u << 3)    /* underflow */
#define FPSR_IXC   (1u << 4)    /* inexact */
#define FPSR_IDC   (1u << 7)    /* input denormal flushed to zero */
#define FPSR_QC    (1u << 27)   /* saturation (Advanced SIMD) */
#define FPSR_MASK  (FPSR_QC | FPSR_IDC | FPSR_IXC | FPSR_UFC | FPSR_OFC | FPSR_DZC | FPSR_IOC)

#endif
