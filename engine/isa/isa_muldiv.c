/*
 * isa_muldiv.c — the A64 2-source and 3-source data-processing groups:
 * UDIV/SDIV, LSLV/LSRV/ASRV/RORV, CRC32/CRC32C, MADD/MSUB (and MUL/MNEG),
 * SMADDL/SMSUBL/UMADDL/UMSUBL, SMULH/UMULH.
 *
 * Division follows the architecture, not C: dividing by zero gives 0, and
 * the one overflowing signed case (INT_MIN / -1) gives INT_MIN. Variable
 * shifts take the amount modulo the register width.
 *
 * Field use: rd/rn/rm/ra operands; imm the CRC polynomial (bit-reflected);
 * f0 the CRC data size in bytes.
 */
#include "isa_internal.h"

/* ---- divide ---- */

static int h_udiv64(struct cpu *c, const struct uop *u)
{
	uint64_t n = c->x[u->rn], m = c->x[u->rm];
	c->x[u->rd] = m ? n / m : 0;
	return ISA_NEXT;
}

static int h_udiv32(struct cpu *c, const struct uop *u)
{
	uint32_t n = (uint32_t)c->x[u->rn], m = (uint32_t)c->x[u->rm];
	c->x[u->rd] = m ? n / m : 0;
	return ISA_NEXT;
}

static int h_sdiv64(struct cpu *c, const struct uop *u)
{
	int64_t n = (int64_t)c->x[u->rn], m = (int64_t)c->x[u->rm];
	if (m == 0)
		c->x[u->rd] = 0;
	else if (m == -1)
		c->x[u->rd] = 0 - (uint64_t)n;     /* wraps for INT64_MIN */
	else
		c->x[u->rd] = (uint64_t)(n / m);
	return ISA_NEXT;
}

static int h_sdiv32(struct cpu *c, const struct uop *u)
{
	int32_t n = (int32_t)c->x[u->rn], m = (int32_t)c->x[u->rm];
	if (m == 0)
		c->x[u->rd] = 0;
	else if (m == -1)
		c->x[u->rd] = (uint32_t)(0 - (uint32_t)n);
	else
		c->x[u->rd] = (uint32_t)(n / m);
	return ISA_NEXT;
}

/* ---- variable shifts ---- */

static int h_lslv64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] << (c->x[u->rm] & 63);
	return ISA_NEXT;
}

static int h_lsrv64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] >> (c->x[u->rm] & 63);
	return ISA_NEXT;
}

static int h_asrv64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint64_t)((int64_t)c->x[u->rn] >> (c->x[u->rm] & 63));
	return ISA_NEXT;
}

static int h_rorv64(struct cpu *c, const struct uop *u)
{
	uint64_t x = c->x[u->rn];
	unsigned s = (unsigned)(c->x[u->rm] & 63);
	c->x[u->rd] = (x >> s) | (x << ((64 - s) & 63));
	return ISA_NEXT;
}

static int h_lslv32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] << (c->x[u->rm] & 31));
	return ISA_NEXT;
}

static int h_lsrv32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)c->x[u->rn] >> (c->x[u->rm] & 31);
	return ISA_NEXT;
}

static int h_asrv32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)((int32_t)(uint32_t)c->x[u->rn] >> (c->x[u->rm] & 31));
	return ISA_NEXT;
}

static int h_rorv32(struct cpu *c, const struct uop *u)
{
	uint32_t x = (uint32_t)c->x[u->rn];
	unsigned s = (unsigned)(c->x[u->rm] & 31);
	c->x[u->rd] = (uint32_t)((x >> s) | (x << ((32 - s) & 31)));
	return ISA_NEXT;
}

/* ---- CRC32 ---- */

/* The Arm pseudocode (bit-reverse, polynomial division, bit-reverse) is the
 * reflected CRC register update, one data byte at a time from the low end,
 * with no pre- or post-inversion. */
static int h_crc32(struct cpu *c, const struct uop *u)
{
	uint64_t crc = (uint32_t)c->x[u->rn], val = c->x[u->rm];
	uint64_t poly = (uint64_t)u->imm;
	for (unsigned i = 0; i < u->f0; i++) {
		crc ^= (val >> (8 * i)) & 0xff;
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (poly & (0 - (crc & 1)));
	}
	c->x[u->rd] = (uint32_t)crc;
	return ISA_NEXT;
}

void isa_dec_dp2(uint32_t w, struct uop *u)
{
	int sf = w >> 31;
	unsigned opcode = isa_bits(w, 15, 10);
	if ((w >> 29) & 1)
		return;
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	switch (opcode) {
	case 0x02: isa_set(u, sf ? h_udiv64 : h_udiv32, UOP_DIV); break;
	case 0x03: isa_set(u, sf ? h_sdiv64 : h_sdiv32, UOP_DIV); break;
	case 0x08: isa_set(u, sf ? h_lslv64 : h_lslv32, UOP_ALU); break;
	case 0x09: isa_set(u, sf ? h_lsrv64 : h_lsrv32, UOP_ALU); break;
	case 0x0a: isa_set(u, sf ? h_asrv64 : h_asrv32, UOP_ALU); break;
	case 0x0b: isa_set(u, sf ? h_rorv64 : h_rorv32, UOP_ALU); break;
	case 0x10: case 0x11: case 0x12: case 0x13:
	case 0x14: case 0x15: case 0x16: case 0x17:
		/* CRC32{B,H,W,X} and CRC32C*: X only with sf, the others without */
		if ((opcode & 3) == 3 ? !sf : sf) {
			isa_set_unsupported(u);
			return;
		}
		isa_set(u, h_crc32, UOP_MUL);
		u->imm = (opcode & 4) ? 0x82f63b78 : 0xedb88320;
		u->f0 = (uint8_t)(1u << (opcode & 3));
		break;
	default:
		isa_set_unsupported(u);
		return;
	}
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
}

/* ---- multiply ---- */

static int h_madd64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] + c->x[u->rn] * c->x[u->rm];
	return ISA_NEXT;
}

static int h_msub64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] - c->x[u->rn] * c->x[u->rm];
	return ISA_NEXT;
}

static int h_madd32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->ra] + c->x[u->rn] * c->x[u->rm]);
	return ISA_NEXT;
}

static int h_msub32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->ra] - c->x[u->rn] * c->x[u->rm]);
	return ISA_NEXT;
}

/* MUL: MADD with XZR as the addend, the usual form. */
static int h_mul64(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->rn] * c->x[u->rm];
	return ISA_NEXT;
}

static int h_mul32(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = (uint32_t)(c->x[u->rn] * c->x[u->rm]);
	return ISA_NEXT;
}

#define S32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))
#define U32(v) ((uint64_t)(uint32_t)(v))

static int h_smaddl(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] + S32(c->x[u->rn]) * S32(c->x[u->rm]);
	return ISA_NEXT;
}

static int h_smsubl(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] - S32(c->x[u->rn]) * S32(c->x[u->rm]);
	return ISA_NEXT;
}

static int h_umaddl(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] + U32(c->x[u->rn]) * U32(c->x[u->rm]);
	return ISA_NEXT;
}

static int h_umsubl(struct cpu *c, const struct uop *u)
{
	c->x[u->rd] = c->x[u->ra] - U32(c->x[u->rn]) * U32(c->x[u->rm]);
	return ISA_NEXT;
}

static int h_smulh(struct cpu *c, const struct uop *u)
{
	__int128 p = (__int128)(int64_t)c->x[u->rn] * (int64_t)c->x[u->rm];
	c->x[u->rd] = (uint64_t)(p >> 64);
	return ISA_NEXT;
}

static int h_umulh(struct cpu *c, const struct uop *u)
{
	unsigned __int128 p = (unsigned __int128)c->x[u->rn] * c->x[u->rm];
	c->x[u->rd] = (uint64_t)(p >> 64);
	return ISA_NEXT;
}

void isa_dec_dp3(uint32_t w, struct uop *u)
{
	int sf = w >> 31, o0 = (w >> 15) & 1;
	unsigned op31 = isa_bits(w, 23, 21);
	uint32_t ra = isa_bits(w, 14, 10);
	uop_exec_fn fn = NULL;
	int uses_ra = 1;
	if (isa_bits(w, 30, 29) != 0)
		return;
	if (op31 == 0) {
		if (o0)
			fn = sf ? h_msub64 : h_msub32;
		else if (ra == 31) {
			fn = sf ? h_mul64 : h_mul32;
			uses_ra = 0;
		} else
			fn = sf ? h_madd64 : h_madd32;
	} else if (sf) {
		switch (op31) {
		case 1: fn = o0 ? h_smsubl : h_smaddl; break;
		case 5: fn = o0 ? h_umsubl : h_umaddl; break;
		case 2: fn = o0 ? NULL : h_smulh; uses_ra = 0; break;
		case 6: fn = o0 ? NULL : h_umulh; uses_ra = 0; break;
		default: break;
		}
	}
	if (!fn)
		return;
	isa_set(u, fn, UOP_MUL);
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rn = isa_rzr(isa_bits(w, 9, 5));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	if (uses_ra) {
		u->ra = isa_rzr(ra);
		isa_src(u, u->ra);
	}
	isa_dst(u, u->rd);
}
