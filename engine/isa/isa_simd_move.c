/*
 * isa_simd_move.c — Advanced SIMD data movement: copy (DUP element and
 * general, INS, UMOV, SMOV, scalar DUP), permute (ZIP UZP TRN), EXT, table
 * lookup (TBL TBX, one to four registers) and modified immediate (MOVI
 * MVNI ORR BIC, FMOV vector). Split from isa_simd.c, whose decoder calls
 * these; the field use is the same (see there).
 */
#include "isa_simd.h"

/* ---- copy ---- */

static int h_dup_elem(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	uint64_t x = lget(&c->v[u->rn], es, (unsigned)u->imm);
	vreg r;
	for (unsigned i = 0; i < n; i++)
		lset(&r, es, i, x);
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static int h_dup_gen(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es;
	uint64_t x = c->x[u->rn];
	vreg r;
	for (unsigned i = 0; i < n; i++)
		lset(&r, es, i, x);
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static int h_ins_gen(struct cpu *c, const struct uop *u)
{
	lset(&c->v[u->rd], u->f0, (unsigned)u->imm, c->x[u->rn]);
	return ISA_NEXT;
}

static int h_ins_elem(struct cpu *c, const struct uop *u)
{
	lset(&c->v[u->rd], u->f0, (unsigned)u->imm, lget(&c->v[u->rn], u->f0, (unsigned)u->imm2));
	return ISA_NEXT;
}

/* UMOV (f3 = 0), SMOV to W (f3 = 32) or X (f3 = 64) */
static int h_mov_to_gen(struct cpu *c, const struct uop *u)
{
	if (u->f3 == 0)
		c->x[u->rd] = lget(&c->v[u->rn], u->f0, (unsigned)u->imm);
	else {
		uint64_t v = (uint64_t)lgets(&c->v[u->rn], u->f0, (unsigned)u->imm);
		c->x[u->rd] = u->f3 == 32 ? (uint32_t)v : v;
	}
	return ISA_NEXT;
}

/* ---- permutes, EXT, TBL ---- */

/* f1: 1 UZP1, 2 TRN1, 3 ZIP1, 5 UZP2, 6 TRN2, 7 ZIP2 */
static int h_perm(struct cpu *c, const struct uop *u)
{
	unsigned es = u->f0, n = u->f2 >> es, part = u->f1 >> 2, op = u->f1 & 3;
	const vreg vn = c->v[u->rn], vm = c->v[u->rm];
	vreg r;
	for (unsigned i = 0; i < n; i++) {
		uint64_t x;
		if (op == 1) {                  /* UZP: even (odd) elements of Vn:Vm */
			unsigned k = 2 * i + part;
			x = k < n ? lget(&vn, es, k) : lget(&vm, es, k - n);
		} else if (op == 2) {           /* TRN */
			unsigned p = i / 2 * 2 + part;
			x = (i & 1) ? lget(&vm, es, p) : lget(&vn, es, p);
		} else {                        /* ZIP */
			unsigned p = part * n / 2 + i / 2;
			x = (i & 1) ? lget(&vm, es, p) : lget(&vn, es, p);
		}
		lset(&r, es, i, x);
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

static int h_ext(struct cpu *c, const struct uop *u)
{
	uint8_t cat[32];
	unsigned bytes = u->f2;
	memcpy(cat, c->v[u->rn].b, bytes);
	memcpy(cat + bytes, c->v[u->rm].b, bytes);
	vreg r;
	memcpy(r.b, cat + u->imm, bytes);
	vput(c, u->rd, &r, bytes);
	return ISA_NEXT;
}

/* TBL/TBX: f1 = table registers, f3 = TBX (out-of-range keeps Vd) */
static int h_tbl(struct cpu *c, const struct uop *u)
{
	uint8_t table[64];
	unsigned len = u->f1 * 16u;
	for (unsigned i = 0; i < u->f1; i++)
		memcpy(table + 16 * i, c->v[(u->rn + i) & 31].b, 16);
	const vreg idx = c->v[u->rm], old = c->v[u->rd];
	vreg r;
	for (unsigned i = 0; i < u->f2; i++) {
		unsigned k = idx.b[i];
		r.b[i] = k < len ? table[k] : u->f3 ? old.b[i] : 0;
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* ---- modified immediate ---- */

/* MOVI/MVNI/FMOV: imm2 = the 64-bit pattern; f1: 0 move, 1 ORR, 2 BIC */
static int h_movi(struct cpu *c, const struct uop *u)
{
	vreg r;
	for (int i = 0; i < 2; i++) {
		uint64_t d = c->v[u->rd].d[i];
		r.d[i] = u->f1 == 0 ? u->imm2 : u->f1 == 1 ? d | u->imm2 : d & ~u->imm2;
	}
	vput(c, u->rd, &r, u->f2);
	return ISA_NEXT;
}

/* ---- decoders ---- */

void isa_simd_dec_copy(uint32_t w, struct uop *u, int scalar)
{
	unsigned q = (w >> 30) & 1, op = (w >> 29) & 1, imm5 = isa_bits(w, 20, 16), imm4 = isa_bits(w, 14, 11);
	if (!(imm5 & 15))
		return;
	unsigned es = (unsigned)__builtin_ctz(imm5), idx = imm5 >> (es + 1);
	if (scalar) {                           /* DUP (element) scalar = MOV Vd, Vn.T[i] */
		if (op || imm4 != 0)
			return;
		set_simd(u, w, h_dup_elem, UOP_SIMD, 0, 0);
		u->f0 = (uint8_t)es;
		u->f2 = (uint8_t)(1u << es);
		u->imm = idx;
		return;
	}
	if (op) {                               /* INS (element) */
		if (!q)
			return;
		set_simd(u, w, h_ins_elem, UOP_SIMD, 0, 1);
		u->f0 = (uint8_t)es;
		u->imm = idx;
		u->imm2 = imm4 >> es;
		return;
	}
	switch (imm4) {
	case 0:                                 /* DUP (element) */
		if (es == 3 && !q)
			return;
		set_simd(u, w, h_dup_elem, UOP_SIMD, 0, 0);
		u->f0 = (uint8_t)es;
		u->f2 = (uint8_t)(q ? 16 : 8);
		u->imm = idx;
		return;
	case 1:                                 /* DUP (general) */
		if (es == 3 && !q)
			return;
		isa_set(u, h_dup_gen, UOP_SIMD);
		u->rd = (uint8_t)isa_bits(w, 4, 0);
		u->rn = isa_rzr(isa_bits(w, 9, 5));
		isa_src(u, u->rn);
		isa_dst_v(u, u->rd);
		u->f0 = (uint8_t)es;
		u->f2 = (uint8_t)(q ? 16 : 8);
		return;
	case 3:                                 /* INS (general) */
		if (!q)
			return;
		isa_set(u, h_ins_gen, UOP_SIMD);
		u->rd = (uint8_t)isa_bits(w, 4, 0);
		u->rn = isa_rzr(isa_bits(w, 9, 5));
		isa_src(u, u->rn);
		isa_src_v(u, u->rd);
		isa_dst_v(u, u->rd);
		u->f0 = (uint8_t)es;
		u->imm = idx;
		return;
	case 5: case 7:                         /* SMOV, UMOV */
		if (imm4 == 7 ? (q != (es == 3)) : (es == 3 || (es == 2 && !q)))
			return;
		isa_set(u, h_mov_to_gen, UOP_SIMD);
		u->rn = (uint8_t)isa_bits(w, 9, 5);
		isa_src_v(u, u->rn);
		u->rd = isa_rsink(isa_bits(w, 4, 0));
		isa_dst(u, u->rd);
		u->f0 = (uint8_t)es;
		u->f3 = (uint8_t)(imm4 == 7 ? 0 : q ? 64 : 32);
		u->imm = idx;
		return;
	default:
		return;
	}
}

/* AdvSIMDExpandImm */
static int expand_imm(unsigned op, unsigned cmode, unsigned imm8, uint64_t *out)
{
	uint64_t i = imm8, r;
	switch (cmode >> 1) {
	case 0: r = i; r |= r << 32; break;
	case 1: r = i << 8; r |= r << 32; break;
	case 2: r = i << 16; r |= r << 32; break;
	case 3: r = i << 24; r |= r << 32; break;
	case 4: r = i | (i << 16); r |= r << 32; break;
	case 5: r = (i << 8) | (i << 24); r |= r << 32; break;
	case 6:
		r = (cmode & 1) ? ((i << 16) | 0xffff) : ((i << 8) | 0xff);
		r |= r << 32;
		break;
	default:
		if (!(cmode & 1) && !op) {
			r = i * 0x0101010101010101ull;
		} else if (!(cmode & 1) && op) {
			r = 0;
			for (int b = 0; b < 8; b++)
				if ((imm8 >> b) & 1)
					r |= 0xffull << (8 * b);
		} else if ((cmode & 1) && !op) {
			r = fpu_imm32(imm8);
			r |= r << 32;
		} else {
			r = fpu_imm64(imm8);
		}
	}
	*out = r;
	return 0;
}

void isa_simd_dec_modimm(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, op = (w >> 29) & 1, cmode = isa_bits(w, 15, 12), o2 = (w >> 11) & 1;
	unsigned imm8 = (isa_bits(w, 18, 16) << 5) | isa_bits(w, 9, 5);
	uint64_t imm;
	int kind;                               /* 0 MOVI/MVNI/FMOV, 1 ORR, 2 BIC */
	if (o2)
		return;                         /* FMOV half precision */
	if (cmode == 15 && op && !q)
		return;
	expand_imm(op, cmode, imm8, &imm);
	if (cmode < 12 && (cmode & 1))
		kind = op ? 2 : 1;              /* BIC / ORR (32- and 16-bit shifted) */
	else
		kind = 0;
	if (kind == 0 && op && cmode != 14 && cmode != 15)
		imm = ~imm;                     /* MVNI */
	isa_set(u, h_movi, UOP_SIMD);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	if (kind)
		isa_src_v(u, u->rd);
	isa_dst_v(u, u->rd);
	u->f1 = (uint8_t)kind;
	u->f2 = (uint8_t)(q ? 16 : 8);
	u->imm2 = imm;
}

static void dec_perm_tbl(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, size = isa_bits(w, 23, 22);
	unsigned bytes = q ? 16 : 8;
	if ((w & 0xbf208c00) == 0x0e000800) {   /* permute */
		unsigned opc = isa_bits(w, 14, 12);
		if ((opc & 3) == 0 || (size == 3 && !q))
			return;
		set_simd(u, w, h_perm, UOP_SIMD, 1, 0);
		u->f0 = (uint8_t)size;
		u->f1 = (uint8_t)opc;
		u->f2 = (uint8_t)bytes;
	} else if ((w & 0xbf208c00) == 0x0e000000) {    /* TBL, TBX */
		if (size != 0)
			return;
		unsigned len = isa_bits(w, 14, 13) + 1;
		set_simd(u, w, h_tbl, UOP_SIMD, 1, (w >> 12) & 1);
		for (unsigned i = 1; i < len; i++)
			isa_src_v(u, (u->rn + i) & 31);
		u->f1 = (uint8_t)len;
		u->f2 = (uint8_t)bytes;
		u->f3 = (uint8_t)((w >> 12) & 1);
	}
}

/* Permute, EXT, TBL/TBX: the vector "0 Q x 01110 xx0 ..." space with
 * bit 10 clear. */
void isa_simd_dec_perm(uint32_t w, struct uop *u)
{
	if ((w >> 29) & 1) {                    /* EXT */
		unsigned q = (w >> 30) & 1, imm4 = isa_bits(w, 14, 11);
		if (isa_bits(w, 23, 22) != 0 || (!q && imm4 >= 8))
			return;
		set_simd(u, w, h_ext, UOP_SIMD, 1, 0);
		u->f2 = (uint8_t)(q ? 16 : 8);
		u->imm = imm4;
		return;
	}
	dec_perm_tbl(w, u);
}
