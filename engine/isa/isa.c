/*
 * isa.c — the A64 decode table and the entry point isa_decode.
 *
 * Decoding follows the Arm ARM's encoding index one level deep: each row of
 * isa_table is an encoding class ("add/subtract (immediate)", "load/store
 * register pair", ...) recognised by (word & mask) == match, and its decoder
 * (in isa_dpi.c, isa_dpr.c, isa_muldiv.c, isa_ls.c or isa_br.c) picks the instruction and
 * the specialised exec handler. The classes are disjoint, so the order of
 * rows only matters for speed; rows are roughly in order of how often
 * compiled code uses them. Anything no row claims decodes to an
 * unsupported uop, which only stops the run when it is executed.
 */
#include <string.h>
#include "isa.h"
#include "isa_internal.h"

struct isa_row {
	uint32_t mask;
	uint32_t match;
	isa_decode_fn decode;
	const char *name;   /* the encoding class, as the Arm ARM calls it */
};

static const struct isa_row isa_table[] = {
	{ 0x1f800000, 0x11000000, isa_dec_addsub_imm,  "add/subtract (immediate)" },
	{ 0x3f000000, 0x39000000, isa_dec_ldst_uimm,   "load/store register (unsigned immediate)" },
	{ 0x1f000000, 0x0a000000, isa_dec_logic_reg,   "logical (shifted register)" },
	{ 0x3e000000, 0x28000000, isa_dec_ldst_pair,   "load/store register pair" },
	{ 0x7c000000, 0x14000000, isa_dec_b,           "unconditional branch (immediate)" },
	{ 0xff000010, 0x54000000, isa_dec_bcond,       "conditional branch (immediate)" },
	{ 0x1f200000, 0x0b000000, isa_dec_addsub_shift, "add/subtract (shifted register)" },
	{ 0x7e000000, 0x34000000, isa_dec_cb,          "compare and branch (immediate)" },
	{ 0x1f800000, 0x12800000, isa_dec_movw,        "move wide (immediate)" },
	{ 0x1f000000, 0x10000000, isa_dec_pcrel,       "pc-rel. addressing" },
	{ 0x1f800000, 0x13000000, isa_dec_bitfield,    "bitfield" },
	{ 0x3f200000, 0x38000000, isa_dec_ldst_imm9,   "load/store register (unscaled, pre/post-index, unprivileged)" },
	{ 0x3f200c00, 0x38200800, isa_dec_ldst_reg,    "load/store register (register offset)" },
	{ 0x3fe00800, 0x1a800000, isa_dec_csel,        "conditional select" },
	{ 0x1f800000, 0x12000000, isa_dec_logic_imm,   "logical (immediate)" },
	{ 0xfe000000, 0xd6000000, isa_dec_br_reg,      "unconditional branch (register)" },
	{ 0x1f000000, 0x1b000000, isa_dec_dp3,         "data-processing (3 source)" },
	{ 0x7e000000, 0x36000000, isa_dec_tb,          "test and branch (immediate)" },
	{ 0x1f200000, 0x0b200000, isa_dec_addsub_ext,  "add/subtract (extended register)" },
	{ 0x3fe00410, 0x3a400000, isa_dec_ccmp,        "conditional compare (register, immediate)" },
	{ 0x5fe00000, 0x1ac00000, isa_dec_dp2,         "data-processing (2 source)" },
	{ 0x5fe00000, 0x5ac00000, isa_dec_dp1,         "data-processing (1 source)" },
	{ 0x1fe0fc00, 0x1a000000, isa_dec_adc,         "add/subtract (with carry)" },
	{ 0x1f800000, 0x13800000, isa_dec_extr,        "extract" },
	{ 0x3f000000, 0x18000000, isa_dec_ld_lit,      "load register (literal)" },
	{ 0x3f000000, 0x08000000, isa_dec_ldst_excl,   "load/store exclusive, load-acquire/store-release" },
	{ 0x3ffffc00, 0x38bfc000, isa_dec_ldapr,       "load-acquire RCpc register" },
	{ 0xff000000, 0xd4000000, isa_dec_exception,   "exception generation" },
	{ 0xffff0000, 0x00000000, isa_dec_udf,         "permanently undefined" },
	{ 0xfffff01f, 0xd503201f, isa_dec_hint,        "hints" },
	{ 0xfffff01f, 0xd503301f, isa_dec_barrier,     "barriers" },
	{ 0xffd00000, 0xd5100000, isa_dec_sysreg,      "system register move" },
	{ 0xfff80000, 0xd5080000, isa_dec_sys,         "system instructions" },
	{ 0x3f200c00, 0x38200000, isa_dec_atomic,      "atomic memory operations" },
	/* SIMD&FP loads and stores */
	{ 0x3f000000, 0x3d000000, isa_dec_fp_ldst_uimm, "load/store SIMD&FP register (unsigned immediate)" },
	{ 0x3e000000, 0x2c000000, isa_dec_fp_ldst_pair, "load/store SIMD&FP register pair" },
	{ 0x3f200000, 0x3c000000, isa_dec_fp_ldst_imm9, "load/store SIMD&FP register (unscaled, pre/post-index)" },
	{ 0x3f200c00, 0x3c200800, isa_dec_fp_ldst_reg,  "load/store SIMD&FP register (register offset)" },
	{ 0x3f000000, 0x1c000000, isa_dec_fp_ld_lit,    "load SIMD&FP register (literal)" },
	{ 0xbf200000, 0x0c000000, isa_dec_simd_ldst_multi, "advanced SIMD load/store multiple structures" },
	{ 0xbf000000, 0x0d000000, isa_dec_simd_ldst_single, "advanced SIMD load/store single structure" },
	/* scalar floating point */
	{ 0x7f20fc00, 0x1e200000, isa_dec_fp_int,      "conversion between floating-point and integer" },
	{ 0x7f200000, 0x1e000000, isa_dec_fp_fixed,    "conversion between floating-point and fixed-point" },
	{ 0xff207c00, 0x1e204000, isa_dec_fp_dp1,      "floating-point data-processing (1 source)" },
	{ 0xff203c00, 0x1e202000, isa_dec_fp_cmp,      "floating-point compare" },
	{ 0xff201c00, 0x1e201000, isa_dec_fp_imm,      "floating-point immediate" },
	{ 0xff200c00, 0x1e200400, isa_dec_fp_ccmp,     "floating-point conditional compare" },
	{ 0xff200c00, 0x1e200800, isa_dec_fp_dp2,      "floating-point data-processing (2 source)" },
	{ 0xff200c00, 0x1e200c00, isa_dec_fp_csel,     "floating-point conditional select" },
	{ 0xff000000, 0x1f000000, isa_dec_fp_dp3,      "floating-point data-processing (3 source)" },
	/* Advanced SIMD (op0 = 0xx0 111x) */
	{ 0x9e000000, 0x0e000000, isa_dec_simd,        "advanced SIMD (vector)" },
	{ 0xde000000, 0x5e000000, isa_dec_simd,        "advanced SIMD (scalar)" },
	{ 0xff000000, 0xce000000, isa_dec_simd_sha3,   "cryptographic SHA-3 and SHA-512" },
};

static int isa_unsupported(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_UNSUPPORTED;
}

void isa_set_unsupported(struct uop *u)
{
	uint64_t pc = u->pc;
	uint32_t word = u->word;
	memset(u, 0, sizeof *u);
	u->pc = pc;
	u->word = word;
	u->exec = isa_unsupported;
	u->op_class = UOP_UNSUPPORTED;
	u->rd = u->rn = u->rm = u->ra = CPU_ZR;
}

void isa_decode(uint32_t word, uint64_t pc, struct uop *u)
{
	u->pc = pc;
	u->word = word;
	isa_set_unsupported(u);
	for (size_t i = 0; i < sizeof isa_table / sizeof isa_table[0]; i++) {
		if ((word & isa_table[i].mask) == isa_table[i].match) {
			isa_table[i].decode(word, u);
			return;
		}
	}
}

/* Linux arm64 hwcap bits (arch/arm64/include/uapi/asm/hwcap.h). */
#define HWCAP_FP       (1ull << 0)
#define HWCAP_ASIMD    (1ull << 1)
#define HWCAP_AES      (1ull << 3)
#define HWCAP_PMULL    (1ull << 4)
#define HWCAP_SHA1     (1ull << 5)
#define HWCAP_SHA2     (1ull << 6)
#define HWCAP_CRC32    (1ull << 7)
#define HWCAP_ATOMICS  (1ull << 8)
#define HWCAP_ASIMDRDM (1ull << 12)
#define HWCAP_JSCVT    (1ull << 13)
#define HWCAP_LRCPC    (1ull << 15)
#define HWCAP_SHA3     (1ull << 17)
#define HWCAP_ASIMDDP  (1ull << 20)
#define HWCAP_SHA512   (1ull << 21)

/* log2 of a power of two number of bytes, in 4-byte words */
static uint64_t log2_words(uint32_t bytes)
{
	uint64_t n = 0;
	while ((4u << n) < bytes)
		n++;
	return n;
}

uint64_t isa_ctr_el0(uint32_t iline, uint32_t dline, uint32_t wb_line)
{
	uint64_t cwg = log2_words(wb_line);
	if (cwg > 9)
		cwg = 9;   /* (0b1001, 2 KB: larger values are reserved) */
	return (ISA_CTR_VALUE & ~((0xfull << 24) | (0xfull << 16) | 0xfull)) | cwg << 24 |
	       log2_words(dline) << 16 | log2_words(iline);
}

uint64_t isa_hwcap(void)
{
	return HWCAP_FP | HWCAP_ASIMD | HWCAP_AES | HWCAP_PMULL | HWCAP_SHA1 | HWCAP_SHA2 | HWCAP_CRC32 |
	       HWCAP_ATOMICS | HWCAP_ASIMDRDM | HWCAP_JSCVT | HWCAP_LRCPC | HWCAP_SHA3 | HWCAP_ASIMDDP |
	       HWCAP_SHA512;
}

/* HWCAP2 bits (Linux arch/arm64/include/uapi/asm/hwcap.h): FRINT32/64
 * (bit 8) is the only HWCAP2 feature implemented. */
#define HWCAP2_FRINT (1ull << 8)

uint64_t isa_hwcap2(void)
{
	return HWCAP2_FRINT;
}

uint16_t isa_cond_mask(unsigned cond)
{
	uint16_t mask = 0;
	for (unsigned f = 0; f < 16; f++) {
		int n = (f >> 3) & 1, z = (f >> 2) & 1, c = (f >> 1) & 1, v = f & 1;
		int r;
		switch ((cond >> 1) & 7) {
		case 0: r = z; break;                   /* EQ / NE */
		case 1: r = c; break;                   /* CS / CC */
		case 2: r = n; break;                   /* MI / PL */
		case 3: r = v; break;                   /* VS / VC */
		case 4: r = c && !z; break;             /* HI / LS */
		case 5: r = n == v; break;              /* GE / LT */
		case 6: r = !z && n == v; break;        /* GT / LE */
		default: r = 1; break;                  /* AL / NV: both always */
		}
		if ((cond & 1) && cond != 15)
			r = !r;
		mask |= (uint16_t)(r << f);
	}
	return mask;
}

const char *uop_class_name(int op_class)
{
	static const char *const names[UOP_CLASS_COUNT] = {
		[UOP_NOP] = "nop",
		[UOP_ALU] = "alu",
		[UOP_MUL] = "mul",
		[UOP_DIV] = "div",
		[UOP_LOAD] = "load",
		[UOP_STORE] = "store",
		[UOP_BRANCH] = "branch",
		[UOP_SYSTEM] = "system",
		[UOP_SYSCALL] = "syscall",
		[UOP_HALT] = "halt",
		[UOP_UNSUPPORTED] = "unsupported",
		[UOP_FP] = "fp",
		[UOP_FMA] = "fma",
		[UOP_FDIV] = "fdiv",
		[UOP_SIMD] = "simd",
	};
	if (op_class < 0 || op_class >= UOP_CLASS_COUNT)
		return "?";
	return names[op_class];
}

const char *branch_kind_name(int branch_kind)
{
	static const char *const names[] = {
		[BRANCH_NONE] = "none",
		[BRANCH_COND] = "cond",
		[BRANCH_UNCOND] = "uncond",
		[BRANCH_CALL] = "call",
		[BRANCH_INDIRECT] = "indirect",
		[BRANCH_CALL_INDIRECT] = "call-indirect",
		[BRANCH_RETURN] = "return",
	};
	if (branch_kind < 0 || branch_kind > BRANCH_RETURN)
		return "?";
	return names[branch_kind];
}

/* Extensions ivx does not implement, by encoding, for the message an
 * unsupported instruction stops the run with: capstone 4 shows most of
 * them as `.inst 0x...` (it knows nothing after Armv8.0 plus crypto, and
 * has no mode that would), so the word alone would not say why. First
 * match wins; the masks select the extension's encoding groups, not
 * every field. */
static const struct {
	uint32_t mask, match;
	const char *name;
} extensions[] = {
	{ 0x1e000000, 0x04000000, "SVE (scalable vectors)" },
	{ 0x9e000000, 0x80000000, "SME (scalable matrices)" },
	{ 0xffe0fc00, 0x9ac03000, "PACGA of pointer authentication (Armv8.3 PAC; build with -mbranch-protection=none)" },
	{ 0xff200400, 0xf8200400, "LDRAA/LDRAB of pointer authentication (Armv8.3 PAC; build with -mbranch-protection=none)" },
	{ 0x5fc00000, 0x1ec00000, "half-precision floating point (FEAT_FP16)" },
	{ 0x9f60c400, 0x0e400400, "half-precision floating point (FEAT_FP16)" },
	{ 0x9f7e0c00, 0x0e780800, "half-precision floating point (FEAT_FP16)" },
	{ 0xffffff9f, 0xd500401f, "flag manipulation (FlagM)" },
	{ 0xffe07c10, 0xba000400, "flag manipulation (FlagM)" },
	{ 0xffffbc1f, 0x3a00080d, "flag manipulation (FlagM)" },
	{ 0xffe0f000, 0x9ac01000, "memory tagging (MTE)" },
	{ 0xbfc0c000, 0x91800000, "memory tagging (MTE)" },
	{ 0xff200000, 0xd9200000, "memory tagging (MTE)" },
	{ 0xfffffc00, 0x1e634000, "BFloat16 (BF16)" },
	{ 0xbffffc00, 0x0ea16800, "BFloat16 (BF16)" },
	{ 0xbf20e400, 0x2e00c400, "complex numbers (FCMA)" },
	{ 0xbf20ec00, 0x2e00e400, "complex numbers (FCMA)" },
	{ 0xdfe0f400, 0x4e80a400, "int8 matrix multiply (I8MM)" },
	{ 0x3f200c00, 0x19000400, "memory copy and set (FEAT_MOPS)" },
	{ 0x5ffff000, 0x5ac01000, "common short sequence compression (CSSC)" },
	{ 0x5ffffc00, 0x5ac02000, "common short sequence compression (CSSC)" },
	{ 0x5fe0f000, 0x1ac06000, "common short sequence compression (CSSC)" },
	{ 0xff000000, 0xce000000, "SM3/SM4 cryptography" },
};

const char *isa_extension_of(uint32_t word)
{
	for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++)
		if ((word & extensions[i].mask) == extensions[i].match)
			return extensions[i].name;
	return NULL;
}
