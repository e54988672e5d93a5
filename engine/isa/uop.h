/*
 * uop.h — the predecoded micro-op.
 *
 * Every static A64 instruction is decoded once (isa_decode) into a `struct
 * uop`. The uop carries two things: what the instruction *does* (the `exec`
 * handler and its operand fields, used by the functional emulator), and what
 * it *is* to a pipeline (operation class, dependence registers, access size,
 * branch kind), which the timing model reads without ever looking at the
 * opcode.
 *
 * Operand indices (rd, rn, rm, ra) index `struct cpu.x[]` directly: 0..30 are
 * X0..X30, CPU_SP is the stack pointer, CPU_ZR reads as zero and CPU_ZR_SINK
 * swallows writes to XZR/WZR. The decoder resolves "register 31" to SP or to
 * the zero register so handlers never test for it.
 *
 * SIMD&FP instructions use rd/rn/rm/ra as indices into `struct cpu.v[]`
 * (0..31) for their vector operands; which fields are V and which are X is
 * up to each handler (FMOV X->D, SCVTF, UMOV mix them).
 *
 * Dependence registers (src[], dst[]) use a separate numbering: REG_X(0..30),
 * REG_SP, REG_NZCV, REG_V(0..31). The zero register is never a dependence.
 * FPCR and FPSR are not dependences: FPSR flags are sticky ORs, which cores
 * rename or accumulate without serialising, and an MSR FPCR is UOP_SYSTEM.
 * An instruction with more registers than src[]/dst[] hold (LD1/ST1 of
 * three or four vectors with write-back) lists the first ones only.
 */
#ifndef IVX_UOP_H
#define IVX_UOP_H

#include <stdint.h>

struct cpu;
struct uop;

/* What an exec handler reports. */
enum isa_result {
	ISA_NEXT = 0,        /* fall through to pc + 4 (caller advances pc) */
	ISA_TAKEN = 1,       /* control transfer: handler has set cpu->pc */
	ISA_SVC = 2,         /* SVC #0: system call requested; pc not advanced */
	ISA_FAULT = 3,       /* memory fault at cpu->fault_addr */
	ISA_HALT = 4,        /* BRK / HLT / UDF: stop the run cleanly */
	ISA_UNSUPPORTED = 5, /* unallocated or unimplemented encoding */
	ISA_ENV = 6,         /* reads a value the environment keeps (CNTVCT_EL0):
	                      * pc not advanced; the run loop writes x[rd] */
};

typedef int (*uop_exec_fn)(struct cpu *cpu, const struct uop *uop);

enum uop_class {
	UOP_NOP,         /* NOP, hints, barriers, PRFM: no result */
	UOP_ALU,         /* single-cycle integer op (incl. moves, flags, csel) */
	UOP_MUL,         /* integer multiply (MADD, SMULH, SMADDL, ...) */
	UOP_DIV,         /* integer divide (UDIV, SDIV): not pipelined */
	UOP_LOAD,        /* any load, incl. pairs, exclusive, acquire, literal */
	UOP_STORE,       /* any store, incl. pairs, exclusive (writes status) */
	UOP_BRANCH,      /* B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR, BLR, RET */
	UOP_SYSTEM,      /* MRS / MSR (NZCV, TPIDR_EL0, FPCR, FPSR, counters) */
	UOP_SYSCALL,     /* SVC: serializing */
	UOP_HALT,        /* BRK / HLT / UDF */
	UOP_UNSUPPORTED, /* executing it stops the run */
	UOP_FP,          /* scalar/vector FP add, sub, mul, compare, convert, min/max, round */
	UOP_FMA,         /* FP fused multiply-add (scalar and vector) */
	UOP_FDIV,        /* FP divide and square root: not pipelined */
	UOP_SIMD,        /* Advanced SIMD integer, permutes, moves between X and V */
	UOP_CLASS_COUNT
};

enum branch_kind {
	BRANCH_NONE,
	BRANCH_COND,          /* B.cond, CBZ, CBNZ, TBZ, TBNZ (direct) */
	BRANCH_UNCOND,        /* B (direct) */
	BRANCH_CALL,          /* BL (direct, writes X30) */
	BRANCH_INDIRECT,      /* BR */
	BRANCH_CALL_INDIRECT, /* BLR */
	BRANCH_RETURN,        /* RET */
};

/* Operand indices into struct cpu.x[] */
#define CPU_SP       31
#define CPU_ZR       32   /* always reads 0 */
#define CPU_ZR_SINK  33   /* writes to XZR land here and are never read */
#define CPU_NREGS    34

/* Dependence register ids */
#define REG_X(n)   ((uint8_t)(n))
#define REG_SP     31
#define REG_NZCV   32
#define REG_V(n)   ((uint8_t)(33 + (n)))
#define REG_COUNT  65
#define REG_NONE   0xff

struct uop {
	uop_exec_fn exec;     /* behaviour; never NULL */
	uint64_t pc;          /* address of this instruction */
	uint64_t target;      /* direct branch target / literal or ADR address */
	int64_t imm;          /* immediate / offset (meaning per handler) */
	uint64_t imm2;        /* second immediate: mask, shift, ... (per handler) */
	uint32_t word;        /* the instruction word */
	uint8_t op_class;     /* enum uop_class */
	uint8_t branch_kind;  /* enum branch_kind */
	uint8_t mem_size;     /* bytes a load/store touches (a pair counts both) */
	uint8_t n_src;        /* used entries of src[] */
	uint8_t n_dst;        /* used entries of dst[] */
	uint8_t wb_base;      /* load/store that writes its address back
				 (pre/post-index): 1 + rn, a dst ready at the
				 address step, not with the data; 0 none */
	uint8_t src[4];       /* dependence registers read (REG_*) */
	uint8_t dst[3];       /* dependence registers written (REG_*) */
	uint8_t rd, rn, rm, ra; /* operand indices into cpu.x[] */
	uint8_t f0, f1, f2, f3; /* handler-specific small fields (cond, shift, extend, size...) */
};

/* Short printable names, for statistics and panes. */
const char *uop_class_name(int op_class);
const char *branch_kind_name(int branch_kind);

#endif
