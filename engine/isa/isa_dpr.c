/*
 * isa_dpr.c — A64 data processing with register operands: logical and
 * add/subtract (shifted register), add/subtract (extended register),
 * ADC/SBC, CCMP/CCMN, CSEL/CSINC/CSINV/CSNEG and the 1-source group (RBIT,
 * REV*, CLZ, CLS). The 2- and 3-source groups (divide, variable shifts,
 * CRC32, multiplies) are in isa_muldiv.c.
 *
 * Handlers are specialised per width, per flag setting and per shift type
 * (the families are stamped out by the macros below) so that none of them
 * tests an encoding field at run time; only the amounts (f0, f1) and the
 * condition mask (imm2) are data.
 *
 * Field use: rd/rn/rm/ra operands; f0 shift amount (shifted register) or
 * extend width complement (extended register: 64 - bits kept); f1 the
 * extended-register left shift; imm2 the condition mask (isa_cond_mask);
 * f0 the fallback NZCV nibble of CCMP/CCMN; imm the CCMP immediate.
 */
#include "isa_internal.h"

/* ---- shifted operands ---- */

#define SH64_LSL(v, s) ((v) << (s))
#define SH64_LSR(v, s) ((v) >> (s))
#define SH64_ASR(v, s) ((uint64_t)((int64_t)(v) >> (s)))
#define SH64_ROR(v, s) (((v) >> (s)) | ((v) << ((64 - (s)) & 63)))
#define SH32_LSL(v, s) ((uint32_t)((v) << (s)))
#define SH32_LSR(v, s) ((uint32_t)(v) >> (s))
#define SH32_ASR(v, s) ((uint32_t)((int32_t)(uint32_t)(v) >> (s)))
#define SH32_ROR(v, s) (((uint32_t)(v) >> (s)) | (uint32_t)((uint32_t)(v) << ((32 - (s)) & 31)))

/* ---- logical (shifted register) ---- */

#define DEF_LOGIC1(op, expr, sh)                                                \
static int h_##op##_##sh##64(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t a = c->x[u->rn], b = SH64_##sh(c->x[u->rm], u->f0);            \
	c->x[u->rd] = (expr);                                                   \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##op##_##sh##32(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint32_t a = (uint32_t)c->x[u->rn], b = SH32_##sh(c->x[u->rm], u->f0);  \
	c->x[u->rd] = (uint32_t)(expr);                                         \
	return ISA_NEXT;                                                        \
}

#define DEF_LOGICS1(op, expr, sh)                                               \
static int h_##op##_##sh##64(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t a = c->x[u->rn], b = SH64_##sh(c->x[u->rm], u->f0);            \
	uint64_t r = (expr);                                                    \
	c->nzcv = isa_nz64(r);                                                  \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##op##_##sh##32(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint32_t a = (uint32_t)c->x[u->rn], b = SH32_##sh(c->x[u->rm], u->f0);  \
	uint32_t r = (uint32_t)(expr);                                          \
	c->nzcv = isa_nz32(r);                                                  \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}

#define DEF_LOGIC(def, op, expr) \
	def(op, expr, LSL) def(op, expr, LSR) def(op, expr, ASR) def(op, expr, ROR)

DEF_LOGIC(DEF_LOGIC1, and, a & b)
DEF_LOGIC(DEF_LOGIC1, bic, a & ~b)
DEF_LOGIC(DEF_LOGIC1, orr, a | b)
DEF_LOGIC(DEF_LOGIC1, orn, a | ~b)
DEF_LOGIC(DEF_LOGIC1, eor, a ^ b)
DEF_LOGIC(DEF_LOGIC1, eon, a ^ ~b)
DEF_LOGIC(DEF_LOGICS1, ands, a & b)
DEF_LOGIC(DEF_LOGICS1, bics, a & ~b)

#define LOGIC_ROW(op, w) { h_##op##_LSL##w, h_##op##_LSR##w, h_##op##_ASR##w, h_##op##_ROR##w }
#define LOGIC_TABLE(w) { LOGIC_ROW(and, w), LOGIC_ROW(bic, w), LOGIC_ROW(orr, w), \
	LOGIC_ROW(orn, w), LOGIC_ROW(eor, w), LOGIC_ROW(eon, w), LOGIC_ROW(ands, w), LOGIC_ROW(bics, w) }

static const uop_exec_fn logic_fns[2][8][4] = { LOGIC_TABLE(32), LOGIC_TABLE(64) };

/* MOV (register): ORR with XZR and no shift, by far the most common form. */
static int h_mov64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rm];
	return ISA_NEXT;
}

static int h_mov32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)c->x[u->rm];
	return ISA_NEXT;
}

void isa_dec_logic_reg(uint32_t w, struct uop *u)
{
	int sf = w >> 31, op = (int)((isa_bits(w, 30, 29) << 1) | ((w >> 21) & 1));
	unsigned shift = isa_bits(w, 23, 22), amount = isa_bits(w, 15, 10);
	uint32_t rn = isa_bits(w, 9, 5);
	if (!sf && amount >= 32)
		return;
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	u->f0 = (uint8_t)amount;
	if (op == 2 && rn == 31 && amount == 0) {
		isa_set(u, sf ? h_mov64 : h_mov32, UOP_ALU);
	} else {
		isa_set(u, logic_fns[sf][op][shift], UOP_ALU);
		u->rn = isa_rzr(rn);
		isa_src(u, u->rn);
	}
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
	if (op >= 6)
		isa_dst_nzcv(u);
}

/* ---- add/subtract (shifted register) ---- */

#define DEF_ADDSUB1(sh)                                                         \
static int h_add_##sh##64(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	c->x[u->rd] = c->x[u->rn] + SH64_##sh(c->x[u->rm], u->f0);              \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_sub_##sh##64(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	c->x[u->rd] = c->x[u->rn] - SH64_##sh(c->x[u->rm], u->f0);              \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_add_##sh##32(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	c->x[u->rd] = (uint32_t)(c->x[u->rn] + SH32_##sh(c->x[u->rm], u->f0));  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_sub_##sh##32(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	c->x[u->rd] = (uint32_t)(c->x[u->rn] - SH32_##sh(c->x[u->rm], u->f0));  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_adds_##sh##64(struct cpu *c, const struct uop *u)                  \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc64(c->x[u->rn], SH64_##sh(c->x[u->rm], u->f0), 0, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_subs_##sh##64(struct cpu *c, const struct uop *u)                  \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc64(c->x[u->rn], ~SH64_##sh(c->x[u->rm], u->f0), 1, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_adds_##sh##32(struct cpu *c, const struct uop *u)                  \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], SH32_##sh(c->x[u->rm], u->f0), 0, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_subs_##sh##32(struct cpu *c, const struct uop *u)                  \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], ~SH32_##sh(c->x[u->rm], u->f0), 1, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}

DEF_ADDSUB1(LSL)
DEF_ADDSUB1(LSR)
DEF_ADDSUB1(ASR)

#define ADDSUB_ROW(op, w) { h_##op##_LSL##w, h_##op##_LSR##w, h_##op##_ASR##w }
/* [sf][op:S][shift] */
static const uop_exec_fn addsub_fns[2][4][3] = {
	{ ADDSUB_ROW(add, 32), ADDSUB_ROW(adds, 32), ADDSUB_ROW(sub, 32), ADDSUB_ROW(subs, 32) },
	{ ADDSUB_ROW(add, 64), ADDSUB_ROW(adds, 64), ADDSUB_ROW(sub, 64), ADDSUB_ROW(subs, 64) },
};

void isa_dec_addsub_shift(uint32_t w, struct uop *u)
{
	int sf = w >> 31, ops = (int)isa_bits(w, 30, 29);
	unsigned shift = isa_bits(w, 23, 22), amount = isa_bits(w, 15, 10);
	if (shift == 3 || (!sf && amount >= 32))
		return;
	isa_set(u, addsub_fns[sf][ops][shift], UOP_ALU);
	u->f0 = (uint8_t)amount;
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
	if (ops & 1)
		isa_dst_nzcv(u);
}

/* ---- add/subtract (extended register) ---- */

/* The extended, shifted operand: keep the low 64 - f0 bits of Xm (zero or
 * sign extended), then shift left by f1. */
#define EXT_U(c, u) ((((c)->x[(u)->rm] << (u)->f0) >> (u)->f0) << (u)->f1)
#define EXT_S(c, u) ((uint64_t)((int64_t)((c)->x[(u)->rm] << (u)->f0) >> (u)->f0) << (u)->f1)

#define DEF_ADDSUB_EXT(ext)                                                       \
static int h_add_##ext##64(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	c->x[u->rd] = c->x[u->rn] + EXT_##ext(c, u);                              \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_sub_##ext##64(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	c->x[u->rd] = c->x[u->rn] - EXT_##ext(c, u);                              \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_add_##ext##32(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	c->x[u->rd] = (uint32_t)(c->x[u->rn] + EXT_##ext(c, u));                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_sub_##ext##32(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	c->x[u->rd] = (uint32_t)(c->x[u->rn] - EXT_##ext(c, u));                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_adds_##ext##64(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc64(c->x[u->rn], EXT_##ext(c, u), 0, &r);                \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_subs_##ext##64(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc64(c->x[u->rn], ~EXT_##ext(c, u), 1, &r);               \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_adds_##ext##32(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], (uint32_t)EXT_##ext(c, u), 0, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_subs_##ext##32(struct cpu *c, const struct uop *u)                   \
{                                                                               \
	uint64_t r;                                                             \
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], ~(uint32_t)EXT_##ext(c, u), 1, &r); \
	c->x[u->rd] = r;                                                        \
	return ISA_NEXT;                                                        \
}

DEF_ADDSUB_EXT(U)
DEF_ADDSUB_EXT(S)

/* [sf][op:S][signed] */
static const uop_exec_fn addsub_ext_fns[2][4][2] = {
	{ { h_add_U32, h_add_S32 }, { h_adds_U32, h_adds_S32 },
	  { h_sub_U32, h_sub_S32 }, { h_subs_U32, h_subs_S32 } },
	{ { h_add_U64, h_add_S64 }, { h_adds_U64, h_adds_S64 },
	  { h_sub_U64, h_sub_S64 }, { h_subs_U64, h_subs_S64 } },
};

void isa_dec_addsub_ext(uint32_t w, struct uop *u)
{
	int sf = w >> 31, ops = (int)isa_bits(w, 30, 29);
	unsigned option = isa_bits(w, 15, 13), amount = isa_bits(w, 12, 10);
	if (isa_bits(w, 23, 22) != 0 || amount > 4)
		return;
	isa_set(u, addsub_ext_fns[sf][ops][option >> 2], UOP_ALU);
	u->f0 = (uint8_t)(64 - (8u << (option & 3)));
	u->f1 = (uint8_t)amount;
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	u->rd = (ops & 1) ? isa_rsink(isa_bits(w, 4, 0)) : isa_rsp(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
	if (ops & 1)
		isa_dst_nzcv(u);
}

/* ---- ADC, SBC ---- */

#define CARRY(c) (((c)->nzcv >> 29) & 1)

static int h_adc64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] + c->x[u->rm] + CARRY(c);
	return ISA_NEXT;
}

static int h_sbc64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] + ~c->x[u->rm] + CARRY(c);
	return ISA_NEXT;
}

static int h_adc32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] + c->x[u->rm] + CARRY(c));
	return ISA_NEXT;
}

static int h_sbc32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] + ~c->x[u->rm] + CARRY(c));
	return ISA_NEXT;
}

static int h_adcs64(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc64(c->x[u->rn], c->x[u->rm], CARRY(c), &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_sbcs64(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc64(c->x[u->rn], ~c->x[u->rm], CARRY(c), &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_adcs32(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], (uint32_t)c->x[u->rm], CARRY(c), &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_sbcs32(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], ~(uint32_t)c->x[u->rm], CARRY(c), &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

void isa_dec_adc(uint32_t w, struct uop *u)
{
	/* [sf][op:S] */
	static const uop_exec_fn fns[2][4] = {
		{ h_adc32, h_adcs32, h_sbc32, h_sbcs32 },
		{ h_adc64, h_adcs64, h_sbc64, h_sbcs64 },
	};
	int sf = w >> 31, ops = (int)isa_bits(w, 30, 29);
	isa_set(u, fns[sf][ops], UOP_ALU);
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_src_nzcv(u);
	isa_dst(u, u->rd);
	if (ops & 1)
		isa_dst_nzcv(u);
}

/* ---- CCMP, CCMN ---- */

/* If the condition (mask in imm2) holds, the flags of Rn + op2 (CCMN) or
 * Rn - op2 (CCMP); else the immediate nibble in f0. */
#define DEF_CCMP(name, add64, add32)                                       \
static int h_##name##64(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t r, f = add64;                                                  \
	(void)r;                                                                \
	c->nzcv = isa_cond_pass(c->nzcv, u->imm2) ? f : (uint64_t)u->f0 << 28;  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##32(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t r, f = add32;                                                  \
	(void)r;                                                                \
	c->nzcv = isa_cond_pass(c->nzcv, u->imm2) ? f : (uint64_t)u->f0 << 28;  \
	return ISA_NEXT;                                                        \
}

#define OP2_REG(c, u) ((c)->x[(u)->rm])
#define OP2_IMM(c, u) ((uint64_t)(u)->imm)
DEF_CCMP(ccmn_reg, isa_addc64(c->x[u->rn], OP2_REG(c, u), 0, &r),
	 isa_addc32((uint32_t)c->x[u->rn], (uint32_t)OP2_REG(c, u), 0, &r))
DEF_CCMP(ccmp_reg, isa_addc64(c->x[u->rn], ~OP2_REG(c, u), 1, &r),
	 isa_addc32((uint32_t)c->x[u->rn], ~(uint32_t)OP2_REG(c, u), 1, &r))
DEF_CCMP(ccmn_imm, isa_addc64(c->x[u->rn], OP2_IMM(c, u), 0, &r),
	 isa_addc32((uint32_t)c->x[u->rn], (uint32_t)OP2_IMM(c, u), 0, &r))
DEF_CCMP(ccmp_imm, isa_addc64(c->x[u->rn], ~OP2_IMM(c, u), 1, &r),
	 isa_addc32((uint32_t)c->x[u->rn], ~(uint32_t)OP2_IMM(c, u), 1, &r))

void isa_dec_ccmp(uint32_t w, struct uop *u)
{
	/* [imm][sub][sf] */
	static const uop_exec_fn fns[2][2][2] = {
		{ { h_ccmn_reg32, h_ccmn_reg64 }, { h_ccmp_reg32, h_ccmp_reg64 } },
		{ { h_ccmn_imm32, h_ccmn_imm64 }, { h_ccmp_imm32, h_ccmp_imm64 } },
	};
	int sf = w >> 31, sub = (w >> 30) & 1, imm = (w >> 11) & 1;
	isa_set(u, fns[imm][sub][sf], UOP_ALU);
	u->imm2 = isa_cond_mask(isa_bits(w, 15, 12));
	u->f0 = (uint8_t)isa_bits(w, 3, 0);
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (imm) {
		u->imm = isa_bits(w, 20, 16);
	} else {
		u->rm = isa_rzr(isa_bits(w, 20, 16));
		isa_src(u, u->rm);
	}
	isa_src_nzcv(u);
	isa_dst_nzcv(u);
}

/* ---- conditional select ---- */

#define DEF_CSEL(name, expr)                                                    \
static int h_##name##64(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t b = c->x[u->rm];                                               \
	c->x[u->rd] = isa_cond_pass(c->nzcv, u->imm2) ? c->x[u->rn] : (expr);   \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##32(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t b = c->x[u->rm];                                               \
	c->x[u->rd] = (uint32_t)(isa_cond_pass(c->nzcv, u->imm2) ? c->x[u->rn] : (expr)); \
	return ISA_NEXT;                                                        \
}

DEF_CSEL(csel, b)
DEF_CSEL(csinc, b + 1)
DEF_CSEL(csinv, ~b)
DEF_CSEL(csneg, -b)

void isa_dec_csel(uint32_t w, struct uop *u)
{
	/* [sf][op:o2] */
	static const uop_exec_fn fns[2][4] = {
		{ h_csel32, h_csinc32, h_csinv32, h_csneg32 },
		{ h_csel64, h_csinc64, h_csinv64, h_csneg64 },
	};
	int sf = w >> 31, op = (int)((((w >> 30) & 1) << 1) | ((w >> 10) & 1));
	isa_set(u, fns[sf][op], UOP_ALU);
	u->imm2 = isa_cond_mask(isa_bits(w, 15, 12));
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_src_nzcv(u);
	isa_dst(u, u->rd);
}

/* ---- data-processing (1 source) ---- */

static uint64_t rbit64(uint64_t x)
{
	x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
	x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
	return __builtin_bswap64(x);
}

static int h_rbit64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = rbit64(c->x[u->rn]);
	return ISA_NEXT;
}

static int h_rbit32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = rbit64(c->x[u->rn]) >> 32;
	return ISA_NEXT;
}

static int h_rev16_64(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rn];
	c->x[u->rd] = ((x & 0x00ff00ff00ff00ffull) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffull);
	return ISA_NEXT;
}

static int h_rev16_32(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rn];
	c->x[u->rd] = ((x & 0x00ff00ffull) << 8) | ((x >> 8) & 0x00ff00ffull);
	return ISA_NEXT;
}

/* REV32 (64-bit): byte-reverse each word. */
static int h_rev32(struct cpu *c, const struct uop *u)
{
	uint64_t r = __builtin_bswap64(c->x[u->rn]);
	c->x[u->rd] = (r >> 32) | (r << 32);
	return ISA_NEXT;
}

static int h_rev64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = __builtin_bswap64(c->x[u->rn]);
	return ISA_NEXT;
}

static int h_rev_w(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = __builtin_bswap32((uint32_t)c->x[u->rn]);
	return ISA_NEXT;
}

static int h_clz64(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rn];
	c->x[u->rd] = x ? (uint64_t)__builtin_clzll(x) : 64;
	return ISA_NEXT;
}

static int h_clz32(struct cpu *c, const struct uop *u)
{
	uint32_t x = (uint32_t)c->x[u->rn];
	c->x[u->rd] = x ? (uint64_t)__builtin_clz(x) : 32;
	return ISA_NEXT;
}

/* Bit i of x ^ (x << 1) is set where bit i differs from bit i-1, so its
 * leading zeros count the bits below the top that equal the top bit; the
 * | 1 caps the count at width - 1. */
static int h_cls64(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rn];
	c->x[u->rd] = (uint64_t)__builtin_clzll((x ^ (x << 1)) | 1);
	return ISA_NEXT;
}

static int h_cls32(struct cpu *c, const struct uop *u)
{
	uint32_t x = (uint32_t)c->x[u->rn];
	c->x[u->rd] = (uint64_t)__builtin_clz((x ^ (x << 1)) | 1);
	return ISA_NEXT;
}

/* PACIA ... AUTDB, their Z forms, XPACI and XPACD with the keys disabled
 * (see isa_br.c's pac_branch): signing and authenticating leave the
 * pointer as it is; stripping clears a PAC field that is never there, so
 * it only makes the top bits copies of bit 55, as Linux user pointers
 * already are (XPACD keeps the top byte: data pointers have TBI). */
static int h_pac_keep(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_NEXT;
}

static int h_xpac(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rd], mask = u->imm ? 0x00ff000000000000ull : 0xffff000000000000ull;
	c->x[u->rd] = (x >> 55 & 1) ? x | mask : x & ~mask;
	return ISA_NEXT;
}

static void dec_pac(uint32_t w, struct uop *u)
{
	unsigned opcode = isa_bits(w, 15, 10), rn = isa_bits(w, 9, 5);
	if (opcode >= 18 || (opcode >= 8 && rn != 31))
		return;                 /* the Z forms and XPAC* need Rn = 31 */
	u->rd = isa_bits(w, 4, 0);
	if (u->rd == 31) {          /* XZR: nothing to sign or strip */
		isa_set(u, h_pac_keep, UOP_NOP);
		return;
	}
	isa_set(u, opcode >= 16 ? h_xpac : h_pac_keep, UOP_ALU);
	u->imm = opcode == 17;      /* XPACD */
	isa_src(u, u->rd);
	if (opcode < 8)
		isa_src(u, rn == 31 ? CPU_SP : rn);      /* the modifier, read and ignored */
	isa_dst(u, u->rd);
}

void isa_dec_dp1(uint32_t w, struct uop *u)
{
	/* [sf][opcode 0..5]; NULL = unallocated */
	static const uop_exec_fn fns[2][6] = {
		{ h_rbit32, h_rev16_32, h_rev_w, NULL, h_clz32, h_cls32 },
		{ h_rbit64, h_rev16_64, h_rev32, h_rev64, h_clz64, h_cls64 },
	};
	int sf = w >> 31;
	unsigned opcode = isa_bits(w, 15, 10);
	if (sf && !((w >> 29) & 1) && isa_bits(w, 20, 16) == 1) {
		dec_pac(w, u);
		return;
	}
	if (((w >> 29) & 1) || isa_bits(w, 20, 16) != 0 || opcode >= 6 || !fns[sf][opcode])
		return;
	isa_set(u, fns[sf][opcode], UOP_ALU);
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_dst(u, u->rd);
}
