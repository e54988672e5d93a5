/*
 * isa_dpi.c — A64 data processing with immediate operands: ADR/ADRP,
 * ADD/SUB (immediate), logical (immediate), MOVZ/MOVN/MOVK, SBFM/BFM/UBFM
 * and EXTR.
 *
 * Everything that depends only on the encoding is worked out here at decode
 * time, so handlers are one or two operations:
 *   - ADR, ADRP, MOVZ, MOVN and ORR-with-XZR (MOV bitmask) are constants:
 *     one handler writes u->imm.
 *   - SUB (immediate) adds the negated immediate; SUBS adds ~imm with carry
 *     in 1, so one flag-setting handler per width serves ADDS and SUBS.
 *   - The logical-immediate bitmask is expanded once (isa_decode_bit_masks).
 *   - Every UBFM/SBFM alias (LSL, LSR, ASR, UBFX, UBFIZ, SXTB, UXTH, ...) is
 *     "shift left by f0, shift right by f1": the left shift puts the top bit
 *     of the field at bit 63 and the right shift (logical or arithmetic)
 *     moves the field to its destination. BFM (BFI, BFXIL) is a masked
 *     insert with the shifts and masks precomputed.
 *
 * Field use: rd/rn/rm operands; imm the immediate or constant result; imm2 a
 * second mask; f0/f1 shift amounts; f0 also the carry-in of ADDS/SUBS.
 */
#include "isa_internal.h"

/* ---- handlers ---- */

static int h_movi(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_movk(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (c->x[u->rd] & u->imm2) | (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_add_imm64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] + (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_add_imm32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] + (uint64_t)u->imm);
	return ISA_NEXT;
}

static int h_adds_imm64(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc64(c->x[u->rn], (uint64_t)u->imm, u->f0, &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_adds_imm32(struct cpu *c, const struct uop *u)
{
	uint64_t r;
	c->nzcv = isa_addc32((uint32_t)c->x[u->rn], (uint32_t)u->imm, u->f0, &r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

/* A 32-bit mask has zero upper bits, so AND needs no truncation. */
static int h_and_imm(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] & (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_orr_imm64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] | (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_orr_imm32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] | (uint64_t)u->imm);
	return ISA_NEXT;
}

static int h_eor_imm64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] ^ (uint64_t)u->imm;
	return ISA_NEXT;
}

static int h_eor_imm32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] ^ (uint64_t)u->imm);
	return ISA_NEXT;
}

static int h_ands_imm64(struct cpu *c, const struct uop *u)
{
	uint64_t r = c->x[u->rn] & (uint64_t)u->imm;
	c->nzcv = isa_nz64(r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_ands_imm32(struct cpu *c, const struct uop *u)
{
	uint32_t r = (uint32_t)(c->x[u->rn] & (uint64_t)u->imm);
	c->nzcv = isa_nz32(r);
	c->x[u->rd] = r;
	return ISA_NEXT;
}

static int h_ubfm(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (c->x[u->rn] << u->f0) >> u->f1;
	return ISA_NEXT;
}

static int h_sbfm64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint64_t)((int64_t)(c->x[u->rn] << u->f0) >> u->f1);
	return ISA_NEXT;
}

static int h_sbfm32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)((int64_t)(c->x[u->rn] << u->f0) >> u->f1);
	return ISA_NEXT;
}

/* imm: the destination bits the field lands in; imm2: the destination bits
 * kept (for W also clears the upper half). */
static int h_bfm(struct cpu *c, const struct uop *u)
{
	uint64_t field = ((c->x[u->rn] >> u->f0) << u->f1) & (uint64_t)u->imm;
	c->x[u->rd] = (c->x[u->rd] & u->imm2) | field;
	return ISA_NEXT;
}

/* (Xn:Xm) >> lsb; the double shift of Xn stays defined for lsb == 0. */
static int h_extr64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (c->x[u->rm] >> u->f0) | ((c->x[u->rn] << 1) << (63 - u->f0));
	return ISA_NEXT;
}

static int h_extr32(struct cpu *c, const struct uop *u)
{
	uint64_t pair = ((uint64_t)(uint32_t)c->x[u->rn] << 32) | (uint32_t)c->x[u->rm];
	c->x[u->rd] = (uint32_t)(pair >> u->f0);
	return ISA_NEXT;
}

/* ---- decoders ---- */

/* A constant result: ADR, ADRP, MOVZ, MOVN, MOV (bitmask immediate). */
static void set_const(struct uop *u, uint8_t rd, uint64_t value)
{
	isa_set(u, h_movi, UOP_ALU);
	u->rd = rd;
	u->imm = (int64_t)value;
	isa_dst(u, rd);
}

void isa_dec_pcrel(uint32_t w, struct uop *u)
{
	int64_t off = isa_sext((isa_bits(w, 23, 5) << 2) | isa_bits(w, 30, 29), 21);
	uint32_t rd = isa_bits(w, 4, 0);
	if (w >> 31)    /* ADRP */
		u->target = (u->pc & ~0xfffull) + (uint64_t)(off * 4096);
	else
		u->target = u->pc + (uint64_t)off;
	set_const(u, isa_rsink(rd), u->target);
}

void isa_dec_addsub_imm(uint32_t w, struct uop *u)
{
	int sf = w >> 31, sub = (w >> 30) & 1, s = (w >> 29) & 1;
	uint64_t imm = isa_bits(w, 21, 10);
	if ((w >> 22) & 1)
		imm <<= 12;
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	u->rd = s ? isa_rsink(isa_bits(w, 4, 0)) : isa_rsp(isa_bits(w, 4, 0));
	if (s) {
		isa_set(u, sf ? h_adds_imm64 : h_adds_imm32, UOP_ALU);
		u->imm = (int64_t)(sub ? ~imm : imm);
		u->f0 = (uint8_t)sub;
	} else {
		isa_set(u, sf ? h_add_imm64 : h_add_imm32, UOP_ALU);
		u->imm = sub ? -(int64_t)imm : (int64_t)imm;
	}
	isa_src(u, u->rn);
	isa_dst(u, u->rd);
	if (s)
		isa_dst_nzcv(u);
}

int isa_decode_bit_masks(unsigned n, unsigned imms, unsigned immr, unsigned datasize,
			 uint64_t *wmask)
{
	unsigned combined = ((n & 1) << 6) | (~imms & 0x3f);
	if (combined == 0)
		return 0;
	unsigned len = 31 - (unsigned)__builtin_clz(combined);
	if (len < 1)
		return 0;
	unsigned levels = (1u << len) - 1, esize = 1u << len;
	unsigned s = imms & levels, r = immr & levels;
	if (s == levels || esize > datasize)
		return 0;
	uint64_t elem = (1ull << (s + 1)) - 1;   /* s + 1 < esize <= 64 */
	uint64_t emask = esize == 64 ? ~0ull : (1ull << esize) - 1;
	if (r)
		elem = ((elem >> r) | (elem << (esize - r))) & emask;
	for (unsigned e = esize; e < datasize; e *= 2)
		elem |= elem << e;
	*wmask = datasize == 32 ? (uint32_t)elem : elem;
	return 1;
}

void isa_dec_logic_imm(uint32_t w, struct uop *u)
{
	int sf = w >> 31, opc = isa_bits(w, 30, 29), n = (w >> 22) & 1;
	uint64_t mask;
	if ((!sf && n) ||
	    !isa_decode_bit_masks(n, isa_bits(w, 15, 10), isa_bits(w, 21, 16), sf ? 64 : 32, &mask))
		return;
	uint32_t rd = isa_bits(w, 4, 0), rn = isa_bits(w, 9, 5);
	if (opc == 1 && rn == 31) {     /* MOV (bitmask immediate) */
		set_const(u, isa_rsp(rd), mask);
		return;
	}
	static const uop_exec_fn fns[2][4] = {
		{ h_and_imm, h_orr_imm32, h_eor_imm32, h_ands_imm32 },
		{ h_and_imm, h_orr_imm64, h_eor_imm64, h_ands_imm64 },
	};
	isa_set(u, fns[sf][opc], UOP_ALU);
	u->imm = (int64_t)mask;
	u->rn = isa_rzr(rn);
	u->rd = opc == 3 ? isa_rsink(rd) : isa_rsp(rd);
	isa_src(u, u->rn);
	isa_dst(u, u->rd);
	if (opc == 3)
		isa_dst_nzcv(u);
}

void isa_dec_movw(uint32_t w, struct uop *u)
{
	int sf = w >> 31, opc = isa_bits(w, 30, 29), hw = isa_bits(w, 22, 21);
	if (opc == 1 || (!sf && hw >= 2))
		return;
	unsigned shift = 16u * (unsigned)hw;
	uint64_t imm = (uint64_t)isa_bits(w, 20, 5) << shift;
	uint64_t dmask = sf ? ~0ull : 0xffffffffull;
	uint32_t rd = isa_bits(w, 4, 0);
	if (opc == 0) {                 /* MOVN */
		set_const(u, isa_rsink(rd), ~imm & dmask);
	} else if (opc == 2) {          /* MOVZ */
		set_const(u, isa_rsink(rd), imm);
	} else {                        /* MOVK */
		isa_set(u, h_movk, UOP_ALU);
		u->rd = isa_rsink(rd);
		u->imm = (int64_t)imm;
		u->imm2 = ~(0xffffull << shift) & dmask;
		isa_src(u, u->rd);
		isa_dst(u, u->rd);
	}
}

static uint64_t ones(unsigned n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

void isa_dec_bitfield(uint32_t w, struct uop *u)
{
	int sf = w >> 31, opc = isa_bits(w, 30, 29), n = (w >> 22) & 1;
	unsigned immr = isa_bits(w, 21, 16), imms = isa_bits(w, 15, 10);
	unsigned ds = sf ? 64 : 32;
	if (opc == 3 || n != sf || (!sf && (immr >= 32 || imms >= 32)))
		return;
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	if (opc == 1) {                 /* BFM: BFI when imms < immr, else BFXIL */
		uint64_t field;
		if (imms >= immr) {
			field = ones(imms - immr + 1);
			u->f0 = (uint8_t)immr;
			u->f1 = 0;
		} else {
			u->f0 = 0;
			u->f1 = (uint8_t)(ds - immr);
			field = ones(imms + 1) << u->f1;
		}
		isa_set(u, h_bfm, UOP_ALU);
		u->imm = (int64_t)field;
		u->imm2 = ~field & ones(ds);
		isa_src(u, u->rd);
	} else {
		unsigned left = 63 - imms;
		u->f0 = (uint8_t)left;
		u->f1 = (uint8_t)(imms >= immr ? left + immr : left - (ds - immr));
		if (opc == 2)
			isa_set(u, h_ubfm, UOP_ALU);
		else
			isa_set(u, sf ? h_sbfm64 : h_sbfm32, UOP_ALU);
	}
	isa_src(u, u->rn);
	isa_dst(u, u->rd);
}

void isa_dec_extr(uint32_t w, struct uop *u)
{
	int sf = w >> 31, n = (w >> 22) & 1;
	unsigned lsb = isa_bits(w, 15, 10);
	if (isa_bits(w, 30, 29) != 0 || ((w >> 21) & 1) || n != sf || (!sf && lsb >= 32))
		return;
	isa_set(u, sf ? h_extr64 : h_extr32, UOP_ALU);
	u->f0 = (uint8_t)lsb;
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
}
