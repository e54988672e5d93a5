/*
 * dt_mem.c — emitters for loads, stores and prefetches.
 *
 * Every access lands in the block's scratch area (DT_SCRATCH bytes at X28,
 * SP fixed at X28 + DT_SP_OFFSET). An emitter first draws the effective
 * address inside the area, then the addressing-mode fields, and works back
 * to the base (and index) register value, which setup instructions load:
 * ADD/SUB Xn, X28, #off and MOVZ/MOVN/MOVK Xm, ... So offsets, index
 * extensions and writeback are all random while the access stays in bounds.
 * Normal accesses may be unaligned (Linux user mode allows it); exclusive and
 * acquire/release ones are naturally aligned, as the architecture requires.
 *
 * UNPREDICTABLE register combinations are never drawn: writeback with the
 * base among the transfer registers, LDP/LDXP with Rt == Rt2, a store
 * exclusive whose status register is also a data or base register.
 */
#include "dt.h"

#define R(g) dt_gen_rng(g)

/* (size, opc) pairs of the single-register load/store forms, PRFM excluded. */
static const uint8_t dt_ldst_kinds[][2] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 },   /* STRB LDRB LDRSB(X) LDRSB(W) */
	{ 1, 0 }, { 1, 1 }, { 1, 2 }, { 1, 3 },   /* STRH LDRH LDRSH(X) LDRSH(W) */
	{ 2, 0 }, { 2, 1 }, { 2, 2 },             /* STR(W) LDR(W) LDRSW */
	{ 3, 0 }, { 3, 1 },                       /* STR(X) LDR(X) */
};
#define DT_NKINDS ((int)(sizeof dt_ldst_kinds / sizeof dt_ldst_kinds[0]))

static int dt_pick_kind(struct dt_gen *g, uint32_t *size, uint32_t *opc)
{
	int k = (int)dt_below(R(g), DT_NKINDS);
	*size = dt_ldst_kinds[k][0];
	*opc = dt_ldst_kinds[k][1];
	return *opc != 0;   /* 1: load */
}

/* A base register other than `a` and `b` (-1: no constraint). */
static int dt_base_reg(struct dt_gen *g, int a, int b)
{
	int r;
	do
		r = dt_reg_dst(g);
	while (r == a || r == b);
	return r;
}

/* An effective address (scratch offset) for `sz` bytes; a quarter of them
 * straddle or touch the page boundary at DT_SP_OFFSET. */
static int64_t dt_ea(struct dt_gen *g, int64_t sz)
{
	if (dt_below(R(g), 4))
		return dt_range(R(g), 0, DT_SCRATCH - sz);
	return dt_range(R(g), DT_SP_OFFSET - sz, DT_SP_OFFSET);
}

static uint32_t dt_rt(struct dt_gen *g, int load)
{
	return (uint32_t)(load ? dt_reg_dst_zr(g) : dt_reg_src(g));
}

void dt_emit_ld_uimm(struct dt_gen *g)
{
	uint32_t size, opc, imm12, rn;
	int load = dt_pick_kind(g, &size, &opc);
	int64_t sz = 1 << size;
	uint32_t rt = dt_rt(g, load);
	if (dt_below(R(g), 5) == 0) {
		rn = 31;
		imm12 = (uint32_t)dt_below(R(g), (uint64_t)((DT_SCRATCH - DT_SP_OFFSET - sz) / sz + 1));
	} else {
		rn = (uint32_t)dt_reg_dst(g);
		int64_t ea = dt_ea(g, sz);
		int64_t max = dt_below(R(g), 2) ? ea / sz : (ea + 4095) / sz;
		imm12 = (uint32_t)dt_below(R(g), (uint64_t)(max > 4095 ? 4095 : max) + 1);
		dt_set_base(g, (int)rn, ea - (int64_t)imm12 * sz);
	}
	dt_emit(g, size << 30 | 0x39000000u | opc << 22 | imm12 << 10 | rn << 5 | rt);
}

/* Unscaled (bits 11..10 = 00) and unprivileged (10: LDTR/STTR, which
 * behave like the unscaled forms at EL0) share the imm9 offset form. */
static void dt_emit_imm9(struct dt_gen *g, uint32_t bits11_10)
{
	uint32_t size, opc, rn;
	int load = dt_pick_kind(g, &size, &opc);
	int64_t sz = 1 << size, imm9;
	uint32_t rt = dt_rt(g, load);
	if (dt_below(R(g), 5) == 0) {
		rn = 31;
		imm9 = dt_range(R(g), -DT_SP_OFFSET, DT_SCRATCH - DT_SP_OFFSET - sz);
		if (imm9 > 255)
			imm9 = 255;
	} else {
		rn = (uint32_t)dt_reg_dst(g);
		int64_t ea = dt_ea(g, sz);
		imm9 = dt_range(R(g), -256, 255);
		dt_set_base(g, (int)rn, ea - imm9);
	}
	dt_emit(g, size << 30 | 0x38000000u | opc << 22 | ((uint32_t)imm9 & 0x1ff) << 12 | bits11_10 << 10 |
		rn << 5 | rt);
}

void dt_emit_ld_unscaled(struct dt_gen *g) { dt_emit_imm9(g, 0); }
void dt_emit_ld_unpriv(struct dt_gen *g) { dt_emit_imm9(g, 2); }

void dt_emit_ld_prepost(struct dt_gen *g)
{
	uint32_t size, opc;
	int load = dt_pick_kind(g, &size, &opc);
	int64_t sz = 1 << size;
	uint32_t rt = dt_rt(g, load), pre = (uint32_t)dt_below(R(g), 2);
	int rn = dt_base_reg(g, (int)rt, -1);                 /* writeback: Rn != Rt */
	int64_t ea = dt_ea(g, sz), imm9 = dt_range(R(g), -256, 255);
	dt_set_base(g, rn, pre ? ea - imm9 : ea);
	dt_emit(g, size << 30 | 0x38000000u | opc << 22 | ((uint32_t)imm9 & 0x1ff) << 12 |
		(pre ? 3u : 1u) << 10 | (uint32_t)rn << 5 | rt);
}

void dt_emit_ld_regoff(struct dt_gen *g)
{
	static const uint32_t options[] = { 2, 3, 6, 7 };     /* UXTW LSL SXTW SXTX */
	uint32_t size, opc;
	int load = dt_pick_kind(g, &size, &opc);
	int64_t sz = 1 << size;
	uint32_t rt = dt_rt(g, load), option = options[dt_below(R(g), 4)], s = (uint32_t)dt_below(R(g), 2);
	int amount = s ? (int)size : 0;
	int64_t lo = option == 2 ? 0 : -64, idx;
	int rn, rm = dt_reg_dst(g);
	if (dt_below(R(g), 5) == 0) {
		/* SP base: the index alone must reach a byte inside the area */
		rn = 31;
		int64_t mn = -(DT_SP_OFFSET >> amount), mx = (DT_SCRATCH - DT_SP_OFFSET - sz) >> amount;
		idx = dt_range(R(g), lo > mn ? lo : mn, mx);
	} else {
		rn = dt_base_reg(g, rm, -1);
		idx = dt_range(R(g), lo, 64);
		int64_t ea = dt_ea(g, sz);
		dt_set_base(g, rn, ea - idx * (1 << amount));
	}
	/* W-extended indexes carry garbage in the upper half the extension must drop. */
	uint64_t hi = dt_below(R(g), 2) ? (dt_rand(R(g)) & 0xffffffff00000000ull) : 0;
	uint64_t v = (option == 2 || option == 6) ? hi | (uint32_t)idx : (uint64_t)idx;
	dt_set_reg(g, rm, v);
	dt_emit(g, size << 30 | 0x38200800u | opc << 22 | (uint32_t)rm << 16 | option << 13 | s << 12 |
		(uint32_t)rn << 5 | rt);
}

void dt_emit_ld_literal(struct dt_gen *g)
{
	static const int bytes[] = { 4, 8, 4 };               /* LDR(W) LDR(X) LDRSW */
	uint32_t opc = (uint32_t)dt_below(R(g), 3);
	uint32_t word = opc << 30 | 0x18000000u | (uint32_t)dt_reg_dst_zr(g);
	if (dt_below(R(g), 3) == 0) {
		/* the block's own code, backwards or forwards (index drawn at the end) */
		dt_emit_fix(g, word, DT_FIX_LITCODE, -1);
		return;
	}
	int off = 4 * (int)dt_below(R(g), (uint64_t)(DT_POOL_WORDS - bytes[opc] / 4 + 1));
	dt_emit_fix(g, word, DT_FIX_LIT, off);
}

void dt_emit_ld_pair(struct dt_gen *g)
{
	/* (opc, L): STP(W) LDP(W) LDPSW STP(X) LDP(X) */
	static const uint8_t kinds[][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 2, 0 }, { 2, 1 } };
	int k = (int)dt_below(R(g), 5);
	uint32_t opc = kinds[k][0], l = kinds[k][1];
	uint32_t mode = opc == 1 ? 1 + (uint32_t)dt_below(R(g), 3) : (uint32_t)dt_below(R(g), 4);
	int64_t sz = opc == 2 ? 8 : 4, imm7 = dt_range(R(g), -64, 63);
	uint32_t rt = dt_rt(g, (int)l), rt2;
	do
		rt2 = dt_rt(g, (int)l);
	while (l && rt2 == rt);
	int wb = mode == 1 || mode == 3;                      /* post, pre */
	int rn;
	if (!wb && dt_below(R(g), 5) == 0) {
		rn = 31;
		imm7 = dt_range(R(g), -DT_SP_OFFSET / sz, (DT_SCRATCH - DT_SP_OFFSET - 2 * sz) / sz);
	} else {
		rn = wb ? dt_base_reg(g, (int)rt, (int)rt2) : dt_reg_dst(g);
		int64_t ea = dt_ea(g, 2 * sz);
		dt_set_base(g, rn, mode == 1 ? ea : ea - imm7 * sz);
	}
	dt_emit(g, opc << 30 | 0x28000000u | mode << 23 | l << 22 | ((uint32_t)imm7 & 0x7f) << 15 |
		rt2 << 10 | (uint32_t)rn << 5 | rt);
}

/* Exclusive load, optional ALU ops that leave the base alone, exclusive
 * store to the same address and size. With the monitor armed by the load
 * the store succeeds (status 0); after CLREX, or with no load, it fails (1).
 * The prologue runs CLREX, so the monitor is open at every block start. */
void dt_emit_ld_excl(struct dt_gen *g)
{
	int pair = dt_below(R(g), 4) == 0;
	uint32_t size = pair ? 2 + (uint32_t)dt_below(R(g), 2) : (uint32_t)dt_below(R(g), 4);
	int64_t total = (pair ? 2 : 1) << size;
	int kind = (int)dt_below(R(g), 6);   /* 0-2: LD;ST  3: ST alone  4: LD;CLREX;ST  5: LD;CLREX */
	int rn = dt_below(R(g), 6) == 0 ? 31 : dt_reg_dst(g);
	if (rn != 31)
		dt_set_base(g, rn, dt_range(R(g), 0, (DT_SCRATCH - total) / total) * total);
	uint32_t o1 = pair ? 1u << 21 : 0;
	if (kind != 3) {
		int rt, rt2 = 31;
		do
			rt = dt_reg_dst_zr(g);
		while (rt == rn);
		if (pair)
			do
				rt2 = dt_reg_dst_zr(g);
			while (rt2 == rn || rt2 == rt);
		dt_emit(g, size << 30 | 0x08400000u | o1 | 31u << 16 | (uint32_t)dt_below(R(g), 2) << 15 |
			(uint32_t)rt2 << 10 | (uint32_t)rn << 5 | (uint32_t)rt);
		int mid = (int)dt_below(R(g), 3);
		for (int i = 0; i < mid; i++) {
			int rd;
			do
				rd = dt_reg_dst(g);
			while (rd == rn);
			dt_emit(g, 0x8b000000u | (uint32_t)dt_reg_src(g) << 16 | (uint32_t)dt_reg_src(g) << 5 | (uint32_t)rd);
		}
		if (kind >= 4)
			dt_emit(g, 0xd503305fu | (uint32_t)dt_below(R(g), 16) << 8);
		if (kind == 5)
			return;
	}
	int rt = dt_reg_src(g), rt2 = pair ? dt_reg_src(g) : 31, rs;
	do
		rs = dt_reg_dst(g);
	while (rs == rt || rs == rn || (pair && rs == rt2));
	dt_emit(g, size << 30 | 0x08000000u | o1 | (uint32_t)rs << 16 | (uint32_t)dt_below(R(g), 2) << 15 |
		(uint32_t)rt2 << 10 | (uint32_t)rn << 5 | (uint32_t)rt);
}

/* A naturally aligned base for an ordered access of 2^size bytes: SP now
 * and then, else a register set up to point into the scratch area. */
static int dt_aligned_base(struct dt_gen *g, uint32_t size)
{
	int64_t sz = 1 << size;
	if (dt_below(R(g), 6) == 0)
		return 31;
	int rn = dt_reg_dst(g);
	dt_set_base(g, rn, dt_range(R(g), 0, (DT_SCRATCH - sz) / sz) * sz);
	return rn;
}

void dt_emit_ld_acqrel(struct dt_gen *g)
{
	uint32_t size = (uint32_t)dt_below(R(g), 4), l = (uint32_t)dt_below(R(g), 2);
	int rn = dt_aligned_base(g, size);
	dt_emit(g, size << 30 | 0x089ffc00u | l << 22 | (uint32_t)rn << 5 | dt_rt(g, (int)l));
}

void dt_emit_ld_rcpc(struct dt_gen *g)
{
	uint32_t size = (uint32_t)dt_below(R(g), 4);
	int rn = dt_aligned_base(g, size);
	dt_emit(g, size << 30 | 0x38bfc000u | (uint32_t)rn << 5 | dt_rt(g, 1));   /* LDAPR */
}

/* Prefetches never fault, so their address registers are left random. */
void dt_emit_prfm(struct dt_gen *g)
{
	static const uint32_t options[] = { 2, 3, 6, 7 };
	uint32_t op = (uint32_t)dt_below(R(g), 32), rn = (uint32_t)dt_reg_src(g);
	switch (dt_below(R(g), 4)) {
	case 0:
		dt_emit(g, 0xf9800000u | (uint32_t)dt_below(R(g), 4096) << 10 | rn << 5 | op);
		break;
	case 1:
		dt_emit(g, 0xf8800000u | (uint32_t)dt_below(R(g), 512) << 12 | rn << 5 | op);
		break;
	case 2:
		dt_emit(g, 0xf8a00800u | (uint32_t)dt_reg_src(g) << 16 | options[dt_below(R(g), 4)] << 13 |
			(uint32_t)dt_below(R(g), 2) << 12 | rn << 5 | op);
		break;
	default:
		dt_emit_fix(g, 0xd8000000u | op, DT_FIX_LIT, 4 * (int)dt_below(R(g), DT_POOL_WORDS));
		break;
	}
}
