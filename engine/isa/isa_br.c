/*
 * isa_br.c — A64 branches, exception generation and the system space we
 * support at EL0.
 *
 * Branches: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ (direct, target precomputed
 * into u->target) and BR, BLR, RET (any register). A taken branch sets
 * c->pc and returns ISA_TAKEN; a not-taken one returns ISA_NEXT.
 *
 * Exceptions: SVC (any immediate, kept in u->imm) returns ISA_SVC with pc
 * unchanged for the caller to run the system call; BRK, HLT and UDF return
 * ISA_HALT.
 *
 * System: every hint (NOP, YIELD, WFE, WFI, SEV, BTI, PACIASP, AUTIASP, ...)
 * is a no-op, as are the barriers DMB, DSB, ISB, SB; CLREX clears the
 * exclusive monitor. MRS/MSR reach NZCV, TPIDR_EL0, FPCR and FPSR; MRS also
 * reads DCZID_EL0 (64-byte DC ZVA blocks), CTR_EL0 (cpu.ctr_el0),
 * TPIDRRO_EL0 (0), CNTFRQ_EL0 (ISA_CNTFRQ_HZ) and CNTVCT_EL0, whose value
 * the run loop supplies (ISA_ENV) from the simulated clock (CNTVCTSS_EL0
 * is FEAT_ECV, not advertised: unsupported, as qemu's SIGILL). Of the SYS space, DC ZVA zeroes its block and the
 * cache maintenance EL0 may use (DC CVAU/CVAC/CVAP/CIVAC, IC IVAU) is a
 * no-op. Every other system register is unsupported (MIDR_EL1 too: we do
 * not advertise HWCAP_CPUID).
 *
 * Field use: rn the register of BR/BLR/RET/CBZ/TBZ; rd the MRS/MSR
 * register; imm2 the condition mask of B.cond; f0 the bit TBZ/TBNZ test.
 */
#include "isa.h"
#include "isa_internal.h"
#include "mem.h"

/* ---- handlers ---- */

static int h_b(struct cpu *c, const struct uop *u)
{
	c->pc = u->target;
	return ISA_TAKEN;
}

static int h_bl(struct cpu *c, const struct uop *u)
{
	c->x[30] = u->pc + 4;
	c->pc = u->target;
	return ISA_TAKEN;
}

static int h_bcond(struct cpu *c, const struct uop *u)
{
	if (isa_cond_pass(c->nzcv, u->imm2)) {
		c->pc = u->target;
		return ISA_TAKEN;
	}
	return ISA_NEXT;
}

#define DEF_CB(name, test)                                                      \
static int h_##name(struct cpu *c, const struct uop *u)                         \
{                                                                               \
	uint64_t v = c->x[u->rn];                                               \
	if (test) {                                                             \
		c->pc = u->target;                                              \
		return ISA_TAKEN;                                               \
	}                                                                       \
	return ISA_NEXT;                                                        \
}

DEF_CB(cbz64, v == 0)
DEF_CB(cbnz64, v != 0)
DEF_CB(cbz32, (uint32_t)v == 0)
DEF_CB(cbnz32, (uint32_t)v != 0)
DEF_CB(tbz, !((v >> u->f0) & 1))
DEF_CB(tbnz, (v >> u->f0) & 1)

/* BR and RET. */
static int h_br(struct cpu *c, const struct uop *u)
{
	c->pc = c->x[u->rn];
	return ISA_TAKEN;
}

/* The target is read before X30 is written: BLR X30 is legal. */
static int h_blr(struct cpu *c, const struct uop *u)
{
	uint64_t target = c->x[u->rn];
	c->x[30] = u->pc + 4;
	c->pc = target;
	return ISA_TAKEN;
}

static int h_svc(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_SVC;
}

static int h_halt(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_HALT;
}

static int h_nop(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_NEXT;
}

static int h_clrex(struct cpu *c, const struct uop *u)
{
	(void)u;
	c->excl_valid = 0;
	return ISA_NEXT;
}

static int h_mrs_nzcv(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->nzcv;
	return ISA_NEXT;
}

static int h_msr_nzcv(struct cpu *c, const struct uop *u)
{
	c->nzcv = c->x[u->rd] & (NZCV_N | NZCV_Z | NZCV_C | NZCV_V);
	return ISA_NEXT;
}

static int h_mrs_tpidr(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->tpidr_el0;
	return ISA_NEXT;
}

static int h_msr_tpidr(struct cpu *c, const struct uop *u)
{
	c->tpidr_el0 = c->x[u->rd];
	return ISA_NEXT;
}

static int h_mrs_fpcr(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->fpcr;
	return ISA_NEXT;
}

static int h_msr_fpcr(struct cpu *c, const struct uop *u)
{
	c->fpcr = (uint32_t)c->x[u->rd] & FPCR_MASK;
	return ISA_NEXT;
}

static int h_mrs_fpsr(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->fpsr;
	return ISA_NEXT;
}

static int h_msr_fpsr(struct cpu *c, const struct uop *u)
{
	c->fpsr = (uint32_t)c->x[u->rd] & FPSR_MASK;
	return ISA_NEXT;
}

/* CTR_EL0: the machine's, set at setup (the decoded uop is shared by every
 * machine that runs the program). */
static int h_mrs_ctr(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->ctr_el0;
	return ISA_NEXT;
}

/* Read-only registers with a fixed value (DCZID_EL0, CNTFRQ_EL0): imm. */
static int h_mrs_const(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_mrs_env(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_ENV;
}

/* DC ZVA: zero the aligned 64-byte block holding x[rd]. The block lies in
 * one page, so once the first store succeeded the others cannot fault;
 * a fault on the first leaves memory untouched. */
static int h_dc_zva(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rd] & ~(uint64_t)(ISA_DCZ_BLOCK - 1);
	c->mem_addr = addr;
	for (unsigned i = 0; i < ISA_DCZ_BLOCK; i += 8) {
		if (mem_store(c->mem, addr + i, 8, 0)) {
			c->fault_addr = addr + i;
			c->fault_kind = FAULT_WRITE;
			return ISA_FAULT;
		}
	}
	return ISA_NEXT;
}

/* ---- decoders ---- */

static void set_branch(struct uop *u, uop_exec_fn fn, int kind)
{
	isa_set(u, fn, UOP_BRANCH);
	u->branch_kind = (uint8_t)kind;
}

void isa_dec_b(uint32_t w, struct uop *u)
{
	int link = w >> 31;
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 25, 0), 26) * 4);
	set_branch(u, link ? h_bl : h_b, link ? BRANCH_CALL : BRANCH_UNCOND);
	if (link)
		isa_dst(u, 30);
}

void isa_dec_bcond(uint32_t w, struct uop *u)
{
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 23, 5), 19) * 4);
	set_branch(u, h_bcond, BRANCH_COND);
	u->imm2 = isa_cond_mask(isa_bits(w, 3, 0));
	isa_src_nzcv(u);
}

void isa_dec_cb(uint32_t w, struct uop *u)
{
	static const uop_exec_fn fns[2][2] = { { h_cbz32, h_cbnz32 }, { h_cbz64, h_cbnz64 } };
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 23, 5), 19) * 4);
	set_branch(u, fns[w >> 31][(w >> 24) & 1], BRANCH_COND);
	u->rn = isa_rzr(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
}

void isa_dec_tb(uint32_t w, struct uop *u)
{
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 18, 5), 14) * 4);
	set_branch(u, ((w >> 24) & 1) ? h_tbnz : h_tbz, BRANCH_COND);
	u->f0 = (uint8_t)(((w >> 31) << 5) | isa_bits(w, 23, 19));
	u->rn = isa_rzr(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
}

/* The pointer-authentication branches (Armv8.3 PAC) as with the keys
 * disabled: authenticating a pointer that was signed the same way (PACIA
 * and the hint-space PACIASP are identity too) gives it back unchanged,
 * so BRAA/BRAAZ/BLRAA/BLRAAZ/RETAA and their B-key forms are BR, BLR and
 * RET; the modifier register is read and ignored. Returns the plain
 * opc (0 BR, 1 BLR, 2 RET), or -1 if w is none of them. */
static int pac_branch(uint32_t w)
{
	unsigned opc = isa_bits(w, 24, 21), op3 = isa_bits(w, 15, 10), rn = isa_bits(w, 9, 5);
	unsigned rm = isa_bits(w, 4, 0);
	if (isa_bits(w, 20, 16) != 31 || (op3 & ~1u) != 2)
		return -1;
	if ((opc == 0 || opc == 1) && rm == 31)          /* BRAAZ, BLRAAZ */
		return (int)opc;
	if (opc == 8 || opc == 9)                        /* BRAA, BLRAA: rm is the modifier */
		return (int)opc - 8;
	if (opc == 2 && rn == 31 && rm == 31)            /* RETAA, RETAB */
		return 2;
	return -1;
}

void isa_dec_br_reg(uint32_t w, struct uop *u)
{
	unsigned opc = isa_bits(w, 24, 21);
	int pac = pac_branch(w);
	if (pac >= 0) {
		opc = (unsigned)pac;
		if (opc == 2)
			w = (w & ~(31u << 5)) | (30u << 5);      /* RETAA returns to x30 */
	} else if (isa_bits(w, 20, 16) != 31 || isa_bits(w, 15, 10) != 0 || isa_bits(w, 4, 0) != 0) {
		return;                 /* reserved encodings */
	}
	switch (opc) {
	case 0: set_branch(u, h_br, BRANCH_INDIRECT); break;
	case 1: set_branch(u, h_blr, BRANCH_CALL_INDIRECT); break;
	case 2: set_branch(u, h_br, BRANCH_RETURN); break;
	default: return;        /* ERET, DRPS: not at EL0 */
	}
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (opc == 1)
		isa_dst(u, 30);
}

void isa_dec_exception(uint32_t w, struct uop *u)
{
	unsigned opc = isa_bits(w, 23, 21), op2 = isa_bits(w, 4, 2), ll = isa_bits(w, 1, 0);
	if (op2 != 0)
		return;
	if (opc == 0 && ll == 1) {
		/* SVC. The system call reads X8 and X0..X5 and writes X0; only X8
		 * and X0 are listed, as SVC serialises the pipeline anyway. */
		isa_set(u, h_svc, UOP_SYSCALL);
		isa_src(u, 8);
		isa_dst(u, 0);
	} else if ((opc == 1 || opc == 2) && ll == 0) {     /* BRK, HLT */
		isa_set(u, h_halt, UOP_HALT);
	} else {
		return;                 /* HVC, SMC, DCPS*: not at EL0 */
	}
	u->imm = isa_bits(w, 20, 5);
}

void isa_dec_udf(uint32_t w, struct uop *u)
{
	isa_set(u, h_halt, UOP_HALT);
	u->imm = isa_bits(w, 15, 0);
}

void isa_dec_hint(uint32_t w, struct uop *u)
{
	(void)w;
	isa_set(u, h_nop, UOP_NOP);
}

void isa_dec_barrier(uint32_t w, struct uop *u)
{
	unsigned crm = isa_bits(w, 11, 8);
	switch (isa_bits(w, 7, 5)) {
	case 1:                                 /* DSB nXS */
		if ((crm & 3) == 2)
			isa_set(u, h_nop, UOP_NOP);
		break;
	case 2: isa_set(u, h_clrex, UOP_NOP); break;
	case 4: case 5: case 6: case 7:         /* DSB, DMB, ISB, SB */
		isa_set(u, h_nop, UOP_NOP);
		break;
	default: break;
	}
}

/* o0:op1:CRn:CRm:op2, i.e. instruction bits 19..5 */
#define SYSREG(op0, op1, crn, crm, op2) \
	((((op0) & 1u) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))
#define SYSREG_NZCV      SYSREG(3, 3, 4, 2, 0)
#define SYSREG_TPIDR_EL0 SYSREG(3, 3, 13, 0, 2)
#define SYSREG_FPCR      SYSREG(3, 3, 4, 4, 0)
#define SYSREG_FPSR      SYSREG(3, 3, 4, 4, 1)
#define SYSREG_DCZID_EL0 SYSREG(3, 3, 0, 0, 7)
#define SYSREG_CNTFRQ    SYSREG(3, 3, 14, 0, 0)
#define SYSREG_CNTVCT    SYSREG(3, 3, 14, 0, 2)
#define SYSREG_CTR_EL0   SYSREG(3, 3, 0, 0, 1)
#define SYSREG_TPIDRRO   SYSREG(3, 3, 13, 0, 3)

void isa_dec_sysreg(uint32_t w, struct uop *u)
{
	int read = (w >> 21) & 1;
	unsigned reg = isa_bits(w, 19, 5);
	uint32_t rt = isa_bits(w, 4, 0);
	if (reg == SYSREG_NZCV)
		isa_set(u, read ? h_mrs_nzcv : h_msr_nzcv, UOP_SYSTEM);
	else if (reg == SYSREG_TPIDR_EL0)
		isa_set(u, read ? h_mrs_tpidr : h_msr_tpidr, UOP_SYSTEM);
	else if (reg == SYSREG_FPCR)
		isa_set(u, read ? h_mrs_fpcr : h_msr_fpcr, UOP_SYSTEM);
	else if (reg == SYSREG_FPSR)
		isa_set(u, read ? h_mrs_fpsr : h_msr_fpsr, UOP_SYSTEM);
	else if (read && reg == SYSREG_DCZID_EL0) {
		isa_set(u, h_mrs_const, UOP_SYSTEM);
		u->imm = ISA_DCZID_VALUE;
	} else if (read && reg == SYSREG_CNTFRQ) {
		isa_set(u, h_mrs_const, UOP_SYSTEM);
		u->imm = ISA_CNTFRQ_HZ;
	} else if (read && reg == SYSREG_CTR_EL0) {
		isa_set(u, h_mrs_ctr, UOP_SYSTEM);
	} else if (read && reg == SYSREG_TPIDRRO) {
		isa_set(u, h_mrs_const, UOP_SYSTEM);   /* Linux: 0 until a thread sets it */
		u->imm = 0;
	} else if (read && reg == SYSREG_CNTVCT)
		isa_set(u, h_mrs_env, UOP_SYSTEM);
	else
		return;
	if (read) {
		u->rd = isa_rsink(rt);
		isa_dst(u, u->rd);
		if (reg == SYSREG_NZCV)
			isa_src_nzcv(u);
	} else {
		u->rd = isa_rzr(rt);
		isa_src(u, u->rd);
		if (reg == SYSREG_NZCV)
			isa_dst_nzcv(u);
	}
}

/* SYS (op0 = 1) at EL0: the DC and IC operations user space may issue. */
void isa_dec_sys(uint32_t w, struct uop *u)
{
	unsigned op = isa_bits(w, 18, 5);      /* op1:CRn:CRm:op2 */
	uint32_t rt = isa_bits(w, 4, 0);
	if (isa_bits(w, 21, 19) != 1)
		return;                         /* SYSL and the rest */
#define SYSOP(op1, crn, crm, op2) (((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))
	switch (op) {
	case SYSOP(3, 7, 4, 1):                 /* DC ZVA */
		isa_set(u, h_dc_zva, UOP_STORE);
		u->mem_size = ISA_DCZ_BLOCK;
		break;
	case SYSOP(3, 7, 11, 1):                /* DC CVAU */
	case SYSOP(3, 7, 10, 1):                /* DC CVAC */
	case SYSOP(3, 7, 12, 1):                /* DC CVAP */
	case SYSOP(3, 7, 13, 1):                /* DC CVADP */
	case SYSOP(3, 7, 14, 1):                /* DC CIVAC */
	case SYSOP(3, 7, 5, 1):                 /* IC IVAU */
		isa_set(u, h_nop, UOP_NOP);
		break;
	default:
		return;
	}
#undef SYSOP
	u->rd = isa_rzr(rt);
	isa_src(u, u->rd);
}
