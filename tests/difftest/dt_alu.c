/*
 * dt_alu.c — emitters for the data-processing forms: add/sub (immediate,
 * shifted and extended register, with carry), logical (immediate and shifted
 * register), move wide, ADR/ADRP, bitfield, EXTR, one-source (CLZ, REV...),
 * conditional select and compare, multiply, divide, variable shifts, CRC32,
 * and writes to SP.
 *
 * Each emitter draws every field at random within the encoding's allocated
 * space, in both 32- and 64-bit variants. Where register number 31 means SP
 * as a destination it is never drawn (SP must stay put); where it means the
 * zero register it is drawn now and then. A few forms first set their
 * operands to edge values (divide by zero, INT_MIN / -1, shift amounts at
 * and beyond the width) with setup instructions.
 */
#include "dt.h"

#define R(g) dt_gen_rng(g)

static uint32_t dt_bit(struct dt_gen *g) { return (uint32_t)dt_below(R(g), 2); }

/* imm12 that is small, large or random. */
static uint32_t dt_imm12(struct dt_gen *g)
{
	switch (dt_below(R(g), 4)) {
	case 0: return (uint32_t)dt_below(R(g), 8);
	case 1: return 0xfff - (uint32_t)dt_below(R(g), 4);
	default: return (uint32_t)dt_below(R(g), 4096);
	}
}

void dt_emit_addsub_imm(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), s = dt_bit(g), sh = dt_bit(g);
	uint32_t rd = (uint32_t)(s ? dt_reg_dst_zr(g) : dt_reg_dst(g));
	uint32_t rn = (uint32_t)dt_reg_src(g);   /* 31 = SP: constant, readable */
	dt_emit(g, 0x11000000u | sf << 31 | op << 30 | s << 29 | sh << 22 | dt_imm12(g) << 10 | rn << 5 | rd);
}

void dt_emit_addsub_shift(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), s = dt_bit(g);
	uint32_t shift = (uint32_t)dt_below(R(g), 3);       /* LSL LSR ASR (ROR reserved) */
	uint32_t amt = (uint32_t)dt_below(R(g), sf ? 64 : 32);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x0b000000u | sf << 31 | op << 30 | s << 29 | shift << 22 | rm << 16 | amt << 10 | rn << 5 | rd);
}

void dt_emit_addsub_ext(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), s = dt_bit(g);
	uint32_t option = (uint32_t)dt_below(R(g), 8), amt = (uint32_t)dt_below(R(g), 5);
	uint32_t rd = (uint32_t)(s ? dt_reg_dst_zr(g) : dt_reg_dst(g));
	uint32_t rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x0b200000u | sf << 31 | op << 30 | s << 29 | rm << 16 | option << 13 | amt << 10 | rn << 5 | rd);
}

void dt_emit_adc(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), s = dt_bit(g);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x1a000000u | sf << 31 | op << 30 | s << 29 | rm << 16 | rn << 5 | rd);
}

/* A valid bitmask immediate (N, immr, imms) for the width. */
static void dt_bitmask(struct dt_gen *g, uint32_t sf, uint32_t *n, uint32_t *immr, uint32_t *imms)
{
	for (;;) {
		uint32_t nn = sf ? dt_bit(g) : 0, s = (uint32_t)dt_below(R(g), 64);
		uint32_t combined = nn << 6 | (~s & 0x3f);
		if (combined < 2)
			continue;       /* element size would be 1 bit: reserved */
		int len = 31 - __builtin_clz(combined);
		uint32_t levels = (1u << len) - 1;
		if ((s & levels) == levels)
			continue;       /* all ones: reserved */
		*n = nn;
		*imms = s;
		*immr = (uint32_t)dt_below(R(g), 1u << len);
		return;
	}
}

void dt_emit_logic_imm(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), opc = (uint32_t)dt_below(R(g), 4), n, immr, imms;
	dt_bitmask(g, sf, &n, &immr, &imms);
	uint32_t rd = (uint32_t)(opc == 3 ? dt_reg_dst_zr(g) : dt_reg_dst(g));  /* 31 = SP unless ANDS */
	uint32_t rn = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x12000000u | sf << 31 | opc << 29 | n << 22 | immr << 16 | imms << 10 | rn << 5 | rd);
}

void dt_emit_logic_shift(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), opc = (uint32_t)dt_below(R(g), 4), n = dt_bit(g);
	uint32_t shift = (uint32_t)dt_below(R(g), 4), amt = (uint32_t)dt_below(R(g), sf ? 64 : 32);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x0a000000u | sf << 31 | opc << 29 | shift << 22 | n << 21 | rm << 16 | amt << 10 | rn << 5 | rd);
}

void dt_emit_movw(struct dt_gen *g)
{
	static const uint32_t opc[] = { 0, 2, 3 };   /* MOVN MOVZ MOVK */
	uint32_t sf = dt_bit(g), o = opc[dt_below(R(g), 3)];
	uint32_t hw = (uint32_t)dt_below(R(g), sf ? 4 : 2);
	uint32_t imm;
	switch (dt_below(R(g), 4)) {
	case 0: imm = 0; break;
	case 1: imm = 0xffff; break;
	default: imm = (uint32_t)dt_below(R(g), 0x10000); break;
	}
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g);
	dt_emit(g, 0x12800000u | sf << 31 | o << 29 | hw << 21 | imm << 5 | rd);
}

void dt_emit_adr(struct dt_gen *g)
{
	/* Values only: the result is an address computed from the PC, which is
	 * the same under both emulators (ET_EXEC at a fixed address). */
	uint32_t imm = (uint32_t)dt_below(R(g), 1u << 21), p = dt_bit(g);
	dt_emit(g, 0x10000000u | p << 31 | (imm & 3) << 29 | (imm >> 2) << 5 | (uint32_t)dt_reg_dst(g));
}

void dt_emit_bitfield(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), opc = (uint32_t)dt_below(R(g), 3);   /* SBFM BFM UBFM */
	uint32_t w = sf ? 64 : 32;
	uint32_t immr = (uint32_t)dt_below(R(g), w), imms = (uint32_t)dt_below(R(g), w);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x13000000u | sf << 31 | opc << 29 | sf << 22 | immr << 16 | imms << 10 | rn << 5 | rd);
}

void dt_emit_extr(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), lsb = (uint32_t)dt_below(R(g), sf ? 64 : 32);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g);
	uint32_t rm = dt_below(R(g), 4) == 0 ? rn : (uint32_t)dt_reg_src(g);   /* rn == rm: ROR */
	dt_emit(g, 0x13800000u | sf << 31 | sf << 22 | rm << 16 | lsb << 10 | rn << 5 | rd);
}

void dt_emit_dp1(struct dt_gen *g)
{
	/* RBIT REV16 REV32/REV(W) REV(X) CLZ CLS; opcode 3 exists for X only. */
	static const uint32_t ops32[] = { 0, 1, 2, 4, 5 };
	uint32_t sf = dt_bit(g);
	uint32_t opcode = sf ? (uint32_t)dt_below(R(g), 6) : ops32[dt_below(R(g), 5)];
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x5ac00000u | sf << 31 | opcode << 10 | rn << 5 | rd);
}

void dt_emit_csel(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), op2 = dt_bit(g), cond = (uint32_t)dt_below(R(g), 16);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x1a800000u | sf << 31 | op << 30 | rm << 16 | cond << 12 | op2 << 10 | rn << 5 | rd);
}

void dt_emit_ccmp(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), imm = dt_bit(g);
	uint32_t cond = (uint32_t)dt_below(R(g), 16), nzcv = (uint32_t)dt_below(R(g), 16);
	uint32_t rn = (uint32_t)dt_reg_src(g);
	uint32_t m = imm ? (uint32_t)dt_below(R(g), 32) : (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x3a400000u | sf << 31 | op << 30 | m << 16 | cond << 12 | imm << 11 | rn << 5 | nzcv);
}

void dt_emit_mul(struct dt_gen *g)
{
	/* op31:o0 -> MADD MSUB SMADDL SMSUBL SMULH UMADDL UMSUBL UMULH */
	static const uint32_t kind[][2] = {
		{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 }, { 5, 0 }, { 5, 1 }, { 6, 0 },
	};
	int k = (int)dt_below(R(g), 8);
	uint32_t op31 = kind[k][0], o0 = kind[k][1];
	uint32_t sf = op31 ? 1 : dt_bit(g);   /* the long and high forms are 64-bit only */
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	uint32_t ra = (op31 == 2 || op31 == 6) ? 31 : (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x1b000000u | sf << 31 | op31 << 21 | rm << 16 | o0 << 15 | ra << 10 | rn << 5 | rd);
}

void dt_emit_div(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), sdiv = dt_bit(g);
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g);
	int rn = dt_reg_dst(g), rm = dt_reg_dst(g);
	switch (dt_below(R(g), 6)) {
	case 0:                                            /* divide by zero */
		dt_set_reg(g, rm, dt_below(R(g), 2) ? 0 : 0xffffffff00000000ull);
		break;
	case 1:                                            /* INT_MIN / -1 */
		if (rn != rm)
			dt_set_reg(g, rn, sf ? 0x8000000000000000ull : 0x80000000ull);
		dt_set_reg(g, rm, sf ? ~0ull : 0xffffffffull);
		break;
	case 2:                                            /* divide by XZR */
		rm = 31;
		break;
	default:
		break;
	}
	dt_emit(g, 0x1ac00800u | sf << 31 | (uint32_t)rm << 16 | sdiv << 10 | (uint32_t)rn << 5 | rd);
}

void dt_emit_crc32(struct dt_gen *g)
{
	uint32_t sz = (uint32_t)dt_below(R(g), 4), crc32c = dt_bit(g);   /* sf only for the X form */
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g), rn = (uint32_t)dt_reg_src(g), rm = (uint32_t)dt_reg_src(g);
	dt_emit(g, 0x1ac04000u | (uint32_t)(sz == 3) << 31 | rm << 16 | crc32c << 12 | sz << 10 | rn << 5 | rd);
}

void dt_emit_shiftv(struct dt_gen *g)
{
	static const uint64_t amounts[] = { 0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 127, 128, 255, 256,
					    0xffffffff, ~0ull, 0x100000000ull, 0x8000000000000020ull };
	uint32_t sf = dt_bit(g), op = (uint32_t)dt_below(R(g), 4);   /* LSLV LSRV ASRV RORV */
	uint32_t rd = (uint32_t)dt_reg_dst_zr(g);
	int rn = dt_reg_src(g), rm = dt_reg_dst(g);
	if (dt_below(R(g), 2))
		dt_set_reg(g, rm, amounts[dt_below(R(g), sizeof amounts / sizeof amounts[0])]);
	dt_emit(g, 0x1ac02000u | sf << 31 | (uint32_t)rm << 16 | op << 10 | (uint32_t)rn << 5 | rd);
}

/* Writes to SP through the encodings where register 31 is SP (ADD/SUB
 * immediate and extended register, AND/ORR/EOR immediate), read back into a
 * general register, then SP is restored so SP-based accesses stay in the
 * scratch area. The epilogue dumps SP, which also checks the restore. */
void dt_emit_sp_write(struct dt_gen *g)
{
	uint32_t sf = dt_bit(g), op = dt_bit(g), rn = (uint32_t)dt_reg_src(g);
	switch (dt_below(R(g), 4)) {
	case 0:
		dt_emit(g, 0x11000000u | sf << 31 | op << 30 | dt_bit(g) << 22 | dt_imm12(g) << 10 | rn << 5 | 31);
		break;
	case 1:
		dt_emit(g, 0x0b200000u | sf << 31 | op << 30 | (uint32_t)dt_reg_src(g) << 16 |
			(uint32_t)dt_below(R(g), 8) << 13 | (uint32_t)dt_below(R(g), 5) << 10 | rn << 5 | 31);
		break;
	case 2: {
		uint32_t n, immr, imms;
		dt_bitmask(g, sf, &n, &immr, &imms);
		dt_emit(g, 0x12000000u | sf << 31 | (uint32_t)dt_below(R(g), 3) << 29 | n << 22 | immr << 16 |
			imms << 10 | rn << 5 | 31);
		break;
	}
	default:
		dt_emit(g, 0x91000000u | rn << 5 | 31);                  /* MOV SP, Xn */
		break;
	}
	dt_emit(g, 0x910003e0u | (uint32_t)dt_reg_dst(g));             /* MOV Xd, SP */
	dt_emit(g, 0x91000000u | DT_SP_OFFSET << 10 | DT_BASE_REG << 5 | 31);   /* ADD SP, X28, #off */
}
