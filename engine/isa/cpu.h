/*
 * cpu.h — architected state of one AArch64 hart (user mode, integer only).
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
};

#define NZCV_N (1ull << 31)
#define NZCV_Z (1ull << 30)
#define NZCV_C (1ull << 29)
#define NZCV_V (1ull << 28)

#endif
