/*
 * dt_gen.c — block generator: random numbers, the form table, the control
 * flow and system forms, and the assembly of a block out of groups.
 *
 * A block is a sequence of *groups*. A group is one form's instruction plus
 * the setup it needs (a base register pointing into the scratch area, an
 * index register, an ADR for BR). Branches only ever target a group start
 * further down or the block end, so every block terminates and no branch
 * lands between a setup instruction and the instruction that relies on it.
 * Exclusive load/store pairs are one group, so no branch separates them
 * either (the monitor state at every STXR is then architecturally defined).
 */
#include <string.h>
#include "dt.h"

struct dt_gen {
	struct dt_rng rng;
	struct dt_block *b;
	int form;            /* form of the group being emitted */
};

/* --- random numbers ------------------------------------------------------ */

static uint64_t dt_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void dt_rng_seed(struct dt_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed * 0x2545f4914f6cdd1dull ^ (stream + 0x632be59bd9b4e019ull);
	for (int i = 0; i < 4; i++)
		r->s[i] = dt_splitmix(&x);
}

static inline uint64_t dt_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t dt_rand(struct dt_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = dt_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
	s[2] ^= t; s[3] = dt_rotl(s[3], 45);
	return res;
}

uint64_t dt_value(struct dt_rng *r)
{
	static const uint64_t edge[] = {
		0, 1, 2, ~0ull, ~1ull, 0x8000000000000000ull, 0x7fffffffffffffffull,
		0x80000000ull, 0x7fffffffull, 0xffffffffull, 0x100000000ull,
		0xffffffff80000000ull, 0xffffffff7fffffffull, 0x8000000000000001ull,
		31, 32, 33, 63, 64, 65, 127, 128, 0xff, 0xffff, 0x8000, 0x80,
	};
	switch (dt_below(r, 12)) {
	case 0: case 1: case 2:
		return edge[dt_below(r, sizeof edge / sizeof edge[0])];
	case 3: return dt_below(r, 72);                          /* small, shift amounts */
	case 4: return (uint64_t)-(int64_t)dt_below(r, 72);      /* small negative */
	case 5: return 1ull << dt_below(r, 64);                  /* one bit */
	case 6: return ~(1ull << dt_below(r, 64));               /* one hole */
	case 7: return (uint32_t)dt_rand(r);                     /* 32-bit, zero-extended */
	case 8: return (uint64_t)(int64_t)(int32_t)dt_rand(r);   /* 32-bit, sign-extended */
	default: return dt_rand(r);
	}
}

/* --- emit helpers ---------------------------------------------------------- */

struct dt_rng *dt_gen_rng(struct dt_gen *g) { return &g->rng; }
int dt_gen_room(const struct dt_gen *g) { return DT_MAX_INSNS - g->b->n; }

static void dt_push(struct dt_gen *g, uint32_t word, int fix, int target, int setup)
{
	struct dt_block *b = g->b;
	if (b->n >= DT_MAX_INSNS)
		return;  /* callers check dt_gen_room; a full block just stops growing */
	struct dt_insn *in = &b->insn[b->n++];
	in->word = word;
	in->fix = (uint8_t)fix;
	in->form = (uint8_t)g->form;
	in->setup = (uint8_t)setup;
	in->target = target;
}

void dt_emit(struct dt_gen *g, uint32_t word) { dt_push(g, word, DT_FIX_NONE, 0, 0); }
void dt_emit_setup(struct dt_gen *g, uint32_t word) { dt_push(g, word, DT_FIX_NONE, 0, 1); }
void dt_emit_fix(struct dt_gen *g, uint32_t word, int fix, int target)
{
	dt_push(g, word, fix, target, 0);
}

int dt_reg_dst(struct dt_gen *g)
{
	int r = (int)dt_below(&g->rng, 30);       /* 0..29 */
	return r >= DT_BASE_REG ? r + 1 : r;       /* skip X28: 0..27, 29, 30 */
}

int dt_reg_dst_zr(struct dt_gen *g)
{
	return dt_below(&g->rng, 12) == 0 ? 31 : dt_reg_dst(g);
}

int dt_reg_src(struct dt_gen *g)
{
	return dt_below(&g->rng, 10) == 0 ? 31 : (int)dt_below(&g->rng, 31);
}

void dt_set_reg(struct dt_gen *g, int rd, uint64_t v)
{
	/* MOVN when most halfwords are 0xffff, else MOVZ; MOVK the rest. */
	int ones = 0;
	for (int i = 0; i < 4; i++)
		ones += ((v >> (16 * i)) & 0xffff) == 0xffff;
	int inv = ones >= 2;
	uint64_t fill = inv ? 0xffff : 0;
	int first = 1;
	for (int i = 0; i < 4; i++) {
		uint32_t h = (uint32_t)(v >> (16 * i)) & 0xffff;
		if (first && (h != fill || i == 3)) {
			uint32_t imm = inv ? (~h & 0xffff) : h;
			dt_emit_setup(g, (inv ? 0x92800000u : 0xd2800000u) | (uint32_t)i << 21 | imm << 5 | (uint32_t)rd);
			first = 0;
		} else if (!first && h != fill) {
			dt_emit_setup(g, 0xf2800000u | (uint32_t)i << 21 | h << 5 | (uint32_t)rd);
		}
	}
}

void dt_set_base(struct dt_gen *g, int rd, int64_t off)
{
	/* ADD/SUB Xd, X28, #|off| (|off| < 4096) */
	uint32_t op = off < 0 ? 0xd1000000u : 0x91000000u;
	uint32_t imm = (uint32_t)(off < 0 ? -off : off);
	dt_emit_setup(g, op | imm << 10 | DT_BASE_REG << 5 | (uint32_t)rd);
}

/* --- control flow ---------------------------------------------------------- */

void dt_emit_b(struct dt_gen *g)
{
	uint32_t op = dt_below(&g->rng, 2) ? 0x94000000u : 0x14000000u;   /* BL : B */
	dt_emit_fix(g, op, DT_FIX_IMM26, DT_LATER(1));
}

/* A backward branch that runs at most once:
 *
 *        B    L2
 *   L1:  ADD  Xd, Xd, #1      (shows whether L1 ran)
 *        B    L3
 *   L2:  <branch to L1: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, or ADR+BR/BLR>
 *   L3:
 *
 * Offsets are relative inside the group, so its words are final here. */
void dt_emit_bback(struct dt_gen *g)
{
	int rd = dt_reg_dst(g), kind = (int)dt_below(&g->rng, 6);
	int len = kind == 5 ? 5 : 4;                        /* words in the group */
	uint32_t back = (uint32_t)-2;                       /* L2 -> L1 in words */
	dt_emit(g, 0x14000000u | 3);                        /* B L2 */
	dt_emit(g, 0x91000400u | (uint32_t)rd << 5 | (uint32_t)rd);
	dt_emit(g, 0x14000000u | (uint32_t)(len - 2));     /* B L3 */
	switch (kind) {
	case 0: dt_emit(g, (dt_below(&g->rng, 2) ? 0x94000000u : 0x14000000u) | (back & 0x3ffffffu)); break;
	case 1: case 2:
		dt_emit(g, 0x54000000u | (back & 0x7ffffu) << 5 | (uint32_t)dt_below(&g->rng, 16));
		break;
	case 3:
		dt_emit(g, 0x34000000u | (uint32_t)dt_below(&g->rng, 2) << 31 | (uint32_t)dt_below(&g->rng, 2) << 24 |
			(back & 0x7ffffu) << 5 | (uint32_t)dt_reg_src(g));
		break;
	case 4: {
		uint32_t bit = (uint32_t)dt_below(&g->rng, 64);
		dt_emit(g, 0x36000000u | (bit >> 5) << 31 | (uint32_t)dt_below(&g->rng, 2) << 24 | (bit & 31) << 19 |
			(back & 0x3fffu) << 5 | (uint32_t)dt_reg_src(g));
		break;
	}
	default: {
		int rn = dt_reg_dst(g);
		dt_emit(g, 0x10000000u | (0x7fffeu << 5) | (uint32_t)rn);   /* ADR Xn, L1 (-8 bytes) */
		dt_emit(g, (dt_below(&g->rng, 2) ? 0xd63f0000u : 0xd61f0000u) | (uint32_t)rn << 5);
		break;
	}
	}
}

void dt_emit_bcond(struct dt_gen *g)
{
	dt_emit_fix(g, 0x54000000u | (uint32_t)dt_below(&g->rng, 16), DT_FIX_IMM19, DT_LATER(1));
}

/* Half the time the tested register is first set to a value whose low
 * and high halves (or tested bit) disagree, where W/X or bit-number
 * mistakes show. */
static int dt_branch_reg(struct dt_gen *g, int bit)
{
	static const uint64_t v[] = { 0, 0x100000000ull, 0xffffffff00000000ull, 0xffffffffull, 0x8000000000000000ull };
	if (dt_below(&g->rng, 2))
		return dt_reg_src(g);
	int r = dt_reg_dst(g);
	uint64_t x = v[dt_below(&g->rng, 5)];
	if (bit >= 0)
		x = dt_below(&g->rng, 2) ? 1ull << bit : ~(1ull << bit);
	dt_set_reg(g, r, x);
	return r;
}

void dt_emit_cbz(struct dt_gen *g)
{
	uint32_t sf = (uint32_t)dt_below(&g->rng, 2), op = (uint32_t)dt_below(&g->rng, 2);
	dt_emit_fix(g, 0x34000000u | sf << 31 | op << 24 | (uint32_t)dt_branch_reg(g, -1),
		    DT_FIX_IMM19, DT_LATER(1));
}

void dt_emit_tbz(struct dt_gen *g)
{
	uint32_t bit = (uint32_t)dt_below(&g->rng, 64), op = (uint32_t)dt_below(&g->rng, 2);
	int rt = dt_branch_reg(g, dt_below(&g->rng, 2) ? (int)bit : (int)(bit ^ 32));
	dt_emit_fix(g, 0x36000000u | (bit >> 5) << 31 | op << 24 | (bit & 31) << 19 | (uint32_t)rt,
		    DT_FIX_IMM14, DT_LATER(1));
}

void dt_emit_bind(struct dt_gen *g)
{
	/* ADR Xn, target ; BR/BLR/RET Xn. RET mostly through X30 as compilers do. */
	static const uint32_t op[] = { 0xd61f0000u, 0xd63f0000u, 0xd65f0000u };
	int k = (int)dt_below(&g->rng, 3);
	int rn = dt_below(&g->rng, 4) == 0 || (k == 2 && dt_below(&g->rng, 2)) ? 30 : dt_reg_dst(g);
	dt_push(g, 0x10000000u | (uint32_t)rn, DT_FIX_ADR, DT_LATER(2), 1);
	dt_emit(g, op[k] | (uint32_t)rn << 5);
}

/* --- hints, barriers, system registers -------------------------------------- */

void dt_emit_hint(struct dt_gen *g)
{
	/* NOP YIELD SEV SEVL CSDB; no WFE/WFI (they may sleep) and no PAC/BTI
	 * hints (qemu's CPU implements them, they are not NOPs). */
	static const uint32_t hint[] = { 0xd503201fu, 0xd503203fu, 0xd503209fu, 0xd50320bfu, 0xd503229fu };
	uint32_t crm = (uint32_t)dt_below(&g->rng, 16) << 8;
	switch (dt_below(&g->rng, 5)) {
	case 0: case 1: dt_emit(g, hint[dt_below(&g->rng, 5)]); break;
	case 2: dt_emit(g, 0xd50330bfu | crm); break;            /* DMB */
	case 3: dt_emit(g, 0xd503309fu | crm); break;            /* DSB (CRm 0/4: SSBB/PSSBB) */
	default: dt_emit(g, dt_below(&g->rng, 2) ? 0xd5033fdfu   /* ISB */
			   : 0xd503305fu | crm); break;              /* CLREX */
	}
}

void dt_emit_sysreg(struct dt_gen *g)
{
	static const uint32_t op[] = {
		0xd53b4200u, 0xd51b4200u,   /* MRS Xt, NZCV ; MSR NZCV, Xt */
		0xd53bd040u, 0xd51bd040u,   /* MRS Xt, TPIDR_EL0 ; MSR TPIDR_EL0, Xt */
	};
	int k = (int)dt_below(&g->rng, 4);
	int rt = (k & 1) ? dt_reg_src(g) : dt_reg_dst_zr(g);
	dt_emit(g, op[k] | (uint32_t)rt);
}

/* --- the form table ---------------------------------------------------------- */

const struct dt_form dt_forms[] = {
	{ "addsub_imm",   6, dt_emit_addsub_imm,   "add adds sub subs cmp cmn mov" },
	{ "addsub_shift", 6, dt_emit_addsub_shift, "add adds sub subs cmp cmn neg negs" },
	{ "addsub_ext",   5, dt_emit_addsub_ext,   "add adds sub subs cmp cmn" },
	{ "adc",          5, dt_emit_adc,          "adc adcs sbc sbcs ngc ngcs" },
	{ "logic_imm",    5, dt_emit_logic_imm,    "and orr eor ands tst mov" },
	{ "logic_shift",  6, dt_emit_logic_shift,  "and bic orr orn eor eon ands bics tst mov mvn" },
	{ "movw",         4, dt_emit_movw,         "movz movn movk mov" },
	{ "adr",          2, dt_emit_adr,          "adr adrp" },
	{ "bitfield",     6, dt_emit_bitfield,     "sbfm bfm ubfm asr lsl lsr sbfx ubfx sbfiz ubfiz bfi bfxil bfc sxtb sxth sxtw uxtb uxth" },
	{ "extr",         3, dt_emit_extr,         "extr ror" },
	{ "dp1",          4, dt_emit_dp1,          "rbit rev16 rev32 rev clz cls" },
	{ "csel",         5, dt_emit_csel,         "csel csinc csinv csneg cset csetm cinc cinv cneg" },
	{ "ccmp",         5, dt_emit_ccmp,         "ccmp ccmn" },
	{ "mul",          5, dt_emit_mul,          "madd msub mul mneg smaddl smsubl umaddl umsubl smull smnegl umull umnegl smulh umulh" },
	{ "div",          4, dt_emit_div,          "udiv sdiv" },
	{ "shiftv",       4, dt_emit_shiftv,       "lsl lsr asr ror lslv lsrv asrv rorv" },
	{ "crc32",        1, dt_emit_crc32,        "crc32b crc32h crc32w crc32x crc32cb crc32ch crc32cw crc32cx" },
	{ "ld_uimm",      6, dt_emit_ld_uimm,      "ldr ldrb ldrh ldrsb ldrsh ldrsw str strb strh" },
	{ "ld_unscaled",  4, dt_emit_ld_unscaled,  "ldur ldurb ldurh ldursb ldursh ldursw stur sturb sturh" },
	/* capstone 4 does not know most LDTR/STTR and LDAPR encodings */
	{ "ld_unpriv",    2, dt_emit_ld_unpriv,    "ldtr ldtrb ldtrh ldtrsb ldtrsh ldtrsw sttr sttrb sttrh (invalid)" },
	{ "ld_prepost",   5, dt_emit_ld_prepost,   "ldr ldrb ldrh ldrsb ldrsh ldrsw str strb strh" },
	{ "ld_regoff",    5, dt_emit_ld_regoff,    "ldr ldrb ldrh ldrsb ldrsh ldrsw str strb strh" },
	{ "ld_literal",   3, dt_emit_ld_literal,   "ldr ldrsw" },
	{ "ld_pair",      5, dt_emit_ld_pair,      "ldp stp ldpsw ldnp stnp" },
	{ "ld_excl",      4, dt_emit_ld_excl,      "ldxr ldxrb ldxrh ldaxr ldaxrb ldaxrh stxr stxrb stxrh stlxr stlxrb stlxrh ldxp ldaxp stxp stlxp clrex add" },
	{ "ld_acqrel",    3, dt_emit_ld_acqrel,    "ldar ldarb ldarh stlr stlrb stlrh" },
	{ "ld_rcpc",      1, dt_emit_ld_rcpc,      "ldapr ldaprb ldaprh (invalid)" },
	{ "prfm",         2, dt_emit_prfm,         "prfm prfum" },
	{ "b",            2, dt_emit_b,            "b bl" },
	{ "bback",        2, dt_emit_bback,        "b bl b.eq b.ne b.hs b.lo b.mi b.pl b.vs b.vc b.hi b.ls b.ge b.lt b.gt b.le b.al b.nv cbz cbnz tbz tbnz adr br blr add" },
	{ "bcond",        3, dt_emit_bcond,        "b.eq b.ne b.hs b.lo b.mi b.pl b.vs b.vc b.hi b.ls b.ge b.lt b.gt b.le b.al b.nv" },
	{ "cbz",          3, dt_emit_cbz,          "cbz cbnz" },
	{ "tbz",          3, dt_emit_tbz,          "tbz tbnz" },
	{ "bind",         2, dt_emit_bind,         "br blr ret" },
	{ "hint",         2, dt_emit_hint,         "nop yield sev sevl csdb hint dmb dsb isb clrex ssbb pssbb" },
	{ "sp_write",     2, dt_emit_sp_write,     "add sub and orr eor mov" },
	{ "sysreg",       3, dt_emit_sysreg,       "mrs msr" },
	/* floating point and Advanced SIMD (dt_fp.c) */
	{ "fp_dp1",       3, dt_emit_fp_dp1,       "*" },
	{ "fp_dp2",       4, dt_emit_fp_dp2,       "*" },
	{ "fp_dp3",       3, dt_emit_fp_dp3,       "*" },
	{ "fp_cmp",       3, dt_emit_fp_cmp,       "*" },
	{ "fp_csel",      2, dt_emit_fp_csel,      "*" },
	{ "fp_imm",       1, dt_emit_fp_imm,       "*" },
	{ "fp_cvt",       4, dt_emit_fp_cvt,       "*" },
	{ "fp_fixed",     2, dt_emit_fp_fixed,     "*" },
	{ "fpcr",         3, dt_emit_fpcr,         "mrs msr" },
	{ "simd_3same",   4, dt_emit_simd_3same,   "*" },
	{ "simd_fp3",     3, dt_emit_simd_fp3,     "*" },
	{ "simd_misc",    4, dt_emit_simd_misc,    "*" },
	{ "simd_across",  2, dt_emit_simd_across,  "*" },
	{ "simd_copy",    3, dt_emit_simd_copy,    "*" },
	{ "simd_perm",    3, dt_emit_simd_perm,    "*" },
	{ "simd_imm",     2, dt_emit_simd_imm,     "*" },
	{ "simd_shift",   3, dt_emit_simd_shift,   "*" },
	{ "simd_diff",    2, dt_emit_simd_diff,    "*" },
	{ "simd_elem",    2, dt_emit_simd_elem,    "*" },
	{ "simd_scalar",  3, dt_emit_simd_scalar,  "*" },
	{ "simd_sat",     3, dt_emit_simd_sat,     "*" },
	{ "simd_fpest",   3, dt_emit_simd_fpest,   "*" },
	{ "simd_crypto",  2, dt_emit_simd_crypto,  "*" },
	{ "ld_fp",        4, dt_emit_ld_fp,        "ldr str ldur stur" },
	{ "ld_fp_pair",   3, dt_emit_ld_fp_pair,   "ldp stp ldnp stnp" },
	{ "ld_fp_literal", 1, dt_emit_ld_fp_literal, "ldr" },
	{ "ld_simd",      3, dt_emit_ld_simd,      "*" },
	/* capstone 4 does not know the LSE atomics */
	{ "ld_atomic",    3, dt_emit_ld_atomic,    "*" },
};
const int dt_nforms = (int)(sizeof dt_forms / sizeof dt_forms[0]);
_Static_assert(sizeof dt_forms / sizeof dt_forms[0] <= DT_MAX_FORMS, "more forms than DT_MAX_FORMS");

/* --- blocks -------------------------------------------------------------- */

static int dt_pick_form(struct dt_gen *g, const uint64_t *mask)
{
	int total = 0;
	for (int f = 0; f < dt_nforms; f++)
		if (!mask || (mask[f / 64] >> (f % 64) & 1))
			total += dt_forms[f].weight;
	if (total == 0)
		return -1;
	int x = (int)dt_below(&g->rng, (uint64_t)total);
	for (int f = 0; f < dt_nforms; f++) {
		if (mask && !(mask[f / 64] >> (f % 64) & 1))
			continue;
		if (x < dt_forms[f].weight)
			return f;
		x -= dt_forms[f].weight;
	}
	return -1;
}

/* Resolve DT_LATER(k) targets: mostly a near group start, sometimes the end,
 * so that blocks execute most of their instructions. */
static void dt_resolve_targets(struct dt_gen *g)
{
	struct dt_block *b = g->b;
	for (int i = 0; i < b->n; i++) {
		struct dt_insn *in = &b->insn[i];
		if (in->fix == DT_FIX_LITCODE && in->target < 0)
			in->target = (int)dt_below(&g->rng, (uint64_t)b->n);
		if (in->fix == DT_FIX_NONE || in->fix == DT_FIX_LIT || in->fix == DT_FIX_LITCODE || in->target >= 0)
			continue;
		int t = i - in->target;               /* earliest allowed index */
		while (t < b->n && !b->start[t])
			t++;
		int skip = (int)dt_below(&g->rng, 4); /* later group starts to pass */
		if (dt_below(&g->rng, 8) == 0)
			skip = DT_MAX_INSNS;
		while (skip-- > 0 && t < b->n) {
			t++;
			while (t < b->n && !b->start[t])
				t++;
		}
		in->target = t;
	}
}

void dt_gen_block(struct dt_block *b, uint64_t seed, uint64_t index, const uint64_t *mask)
{
	struct dt_gen g;
	memset(b, 0, sizeof *b);
	g.b = b;
	g.form = 0;
	dt_rng_seed(&g.rng, seed, index);

	for (int i = 0; i < 31; i++)
		b->x[i] = dt_value(&g.rng);
	b->nzcv = dt_below(&g.rng, 16) << 28;
	b->tpidr = dt_value(&g.rng);
	for (int i = 0; i < 32; i++) {
		b->v[i][0] = dt_fp_value(&g.rng);
		b->v[i][1] = dt_fp_value(&g.rng);
	}
	b->fpcr = dt_below(&g.rng, 4) ? 0 : (uint64_t)dt_below(&g.rng, 4) << 22 |
		  (uint64_t)dt_below(&g.rng, 2) << 24 | (uint64_t)dt_below(&g.rng, 2) << 25 |
		  (uint64_t)(dt_below(&g.rng, 4) == 0) << 26;
	b->fpsr = dt_below(&g.rng, 4) ? 0 : dt_rand(&g.rng) & 0x0800009full;
	for (int i = 0; i < DT_SCRATCH; i += 8) {
		uint64_t v = dt_below(&g.rng, 3) ? dt_rand(&g.rng) : dt_value(&g.rng);
		memcpy(b->scratch + i, &v, 8);
	}
	for (int i = 0; i < DT_POOL_WORDS; i += 2) {
		uint64_t v = dt_below(&g.rng, 2) ? dt_rand(&g.rng) : dt_value(&g.rng);
		b->pool[i] = (uint32_t)v;
		b->pool[i + 1] = (uint32_t)(v >> 32);
	}

	int groups = (int)dt_range(&g.rng, 4, 24);
	for (int k = 0; k < groups && dt_gen_room(&g) > 16; k++) {
		int f = dt_pick_form(&g, mask);
		if (f < 0)
			break;
		b->start[b->n] = 1;
		g.form = f;
		dt_forms[f].emit(&g);
	}
	b->start[b->n] = 1;
	dt_resolve_targets(&g);
}

void dt_block_prefix(struct dt_block *dst, const struct dt_block *b, int k)
{
	/* Targets >= n already mean "the end" (dt_elf_encode), so cutting n is enough. */
	*dst = *b;
	dst->n = k < b->n ? k : b->n;
}
