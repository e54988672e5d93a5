/*
 * dt.h — the differential random tester (ivx against qemu-aarch64).
 *
 * A *block* is a short random sequence of A64 instructions plus the state
 * it starts from (X0..X30, NZCV, TPIDR_EL0, V0..V31, FPCR, FPSR, a scratch
 * memory area and a literal pool). Blocks are generated from (seed, index) alone, so any block
 * can be regenerated and re-run by itself. Many blocks are laid out in one
 * static ELF (dt_elf.c); each one starts from its own fresh state and ends
 * with a dump of its registers, flags and scratch memory written to stdout,
 * so running the ELF under qemu and ivx and comparing the two outputs record
 * by record tells which blocks disagree.
 *
 * Modules: dt_gen.c (block generator, form table, branches, system ops),
 * dt_alu.c (data-processing forms), dt_mem.c (loads and stores), dt_fp.c
 * (floating point and Advanced SIMD, filtered through ivx's decoder), dt_elf.c
 * (ELF writer: prologue, epilogue, layout), dt_run.c (spawning an emulator
 * with a time limit), difftest.c (command line, comparison, reduction).
 */
#ifndef DT_H
#define DT_H

#include <stddef.h>
#include <stdint.h>

#define DT_MAX_INSNS   160   /* instructions in one block, setup included */
#define DT_SCRATCH     512   /* bytes of scratch memory per block */
#define DT_SP_OFFSET   256   /* SP points this far into the scratch area */
#define DT_POOL_WORDS  16    /* literal pool words per block */
#define DT_BASE_REG    28    /* holds the scratch address; random ops never write it */

/* Per-block data region: init | dump | scratch | fp dump. X28 points at scratch.
 * Regions sit in 4 KiB slots placed so that a page boundary falls at SP,
 * in the middle of the scratch area: accesses near SP cross pages. */
#define DT_INIT_BYTES  800   /* x0..x30, nzcv, tpidr, pad, fpcr, fpsr, v0..v31 */
#define DT_DUMP_BYTES  288   /* x0..x30, nzcv, tpidr, branch marker, sp, pad */
#define DT_FPDUMP_BYTES 528  /* fpcr, fpsr, v0..v31: after the scratch area */
#define DT_REGION      (DT_INIT_BYTES + DT_DUMP_BYTES + DT_SCRATCH + DT_FPDUMP_BYTES)
#define DT_SLOT        4096
#define DT_REGION_OFF  (DT_SLOT - DT_SP_OFFSET - DT_INIT_BYTES - DT_DUMP_BYTES)  /* region start in its slot */
#define DT_RECORD      (DT_DUMP_BYTES + DT_SCRATCH + DT_FPDUMP_BYTES)  /* bytes written per block */

/* Offsets of fields inside the dump (and the init table). */
#define DT_OFF_NZCV    248
#define DT_OFF_TPIDR   256
#define DT_OFF_MARK    264   /* dump: 1 if the block left through a branch to its end */
#define DT_OFF_SP      272   /* dump: SP */
#define DT_INIT_FPCR   272   /* init: FPCR, FPSR, then V0..V31 at DT_INIT_V */
#define DT_INIT_V      288
#define DT_OFF_FPCR    (DT_DUMP_BYTES + DT_SCRATCH)       /* record: FPCR, FPSR, V0..V31 */
#define DT_OFF_FPSR    (DT_OFF_FPCR + 8)
#define DT_OFF_V       (DT_OFF_FPCR + 16)

/* Words around a block's body in the text (dt_elf.c): the body of a block
 * at `base` has its literal pool at base - 4 * (DT_PROLOGUE_WORDS +
 * DT_POOL_WORDS) and its "branch to the end" entry at base + 4 * (n +
 * DT_EPILOGUE_WORDS). */
#define DT_PROLOGUE_WORDS 44
#define DT_EPILOGUE_WORDS 47

/* How an instruction's word is finished once addresses are known. */
enum dt_fix {
	DT_FIX_NONE,     /* word is complete */
	DT_FIX_IMM26,    /* B, BL: target is an instruction index (n = end) */
	DT_FIX_IMM19,    /* B.cond, CBZ/CBNZ */
	DT_FIX_IMM14,    /* TBZ/TBNZ */
	DT_FIX_ADR,      /* ADR to an instruction index (for BR/BLR/RET) */
	DT_FIX_LIT,      /* load literal: target is a byte offset in the pool */
	DT_FIX_LITCODE,  /* load literal: target is an instruction index (reads code) */
};

struct dt_insn {
	uint32_t word;   /* encoding; offset field zero when fix != NONE */
	uint8_t fix;     /* enum dt_fix */
	uint8_t form;    /* index in dt_forms[] of the group that emitted it */
	uint8_t setup;   /* 1: operand setup emitted by a group, not the form itself */
	int target;      /* see enum dt_fix */
};

struct dt_block {
	int n;                           /* instructions used */
	struct dt_insn insn[DT_MAX_INSNS];
	uint8_t start[DT_MAX_INSNS + 1]; /* 1: a group starts here (branch target ok) */
	uint64_t x[31];                  /* initial X0..X30 (X28 is set by the prologue) */
	uint64_t nzcv;                   /* initial NZCV (bits 31..28) */
	uint64_t tpidr;                  /* initial TPIDR_EL0 */
	uint64_t fpcr, fpsr;             /* initial FPCR, FPSR */
	uint64_t v[32][2];               /* initial V0..V31 (low, high) */
	uint8_t scratch[DT_SCRATCH];     /* initial scratch memory */
	uint32_t pool[DT_POOL_WORDS];    /* literal pool contents */
};

/* --- random numbers (xoshiro256**) ---------------------------------- */

struct dt_rng { uint64_t s[4]; };

void dt_rng_seed(struct dt_rng *r, uint64_t seed, uint64_t stream);
uint64_t dt_rand(struct dt_rng *r);
/* Uniform in [0, n); n > 0. */
static inline uint64_t dt_below(struct dt_rng *r, uint64_t n) { return dt_rand(r) % n; }
/* Uniform in [lo, hi]. */
static inline int64_t dt_range(struct dt_rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)dt_below(r, (uint64_t)(hi - lo) + 1);
}
/* An "interesting" 64-bit value: edges (0, ±1, INT64_MIN, ...), shift
 * amounts around the width, small ints, random words. */
uint64_t dt_value(struct dt_rng *r);

/* --- the form table ---------------------------------------------------- */

struct dt_gen;  /* generator state for one block (dt_gen.c) */

struct dt_form {
	const char *name;      /* short name, used by --forms and coverage */
	int weight;            /* relative frequency */
	void (*emit)(struct dt_gen *g);
	const char *mnemonics; /* space-separated capstone mnemonics the form may disassemble to
	                        * ("*": any, for the forms dt_fp.c draws at random) */
};

/* At most this many forms: difftest.c counts instructions per form in an
 * array this long (dt_gen.c checks it at compile time). */
#define DT_MAX_FORMS 128

extern const struct dt_form dt_forms[];
extern const int dt_nforms;

/* Used by the form emitters. */
struct dt_rng *dt_gen_rng(struct dt_gen *g);
void dt_emit(struct dt_gen *g, uint32_t word);                       /* the form's instruction */
void dt_emit_setup(struct dt_gen *g, uint32_t word);                 /* operand setup */
void dt_emit_fix(struct dt_gen *g, uint32_t word, int fix, int target);
int dt_gen_room(const struct dt_gen *g);                             /* instructions left */
/* A register the block may write: X0..X30 except the base register. */
int dt_reg_dst(struct dt_gen *g);
/* Same, or 31 (XZR/WZR) now and then: for encodings where 31 is ZR. */
int dt_reg_dst_zr(struct dt_gen *g);
/* Any source register, 31 included (ZR or SP depending on the encoding). */
int dt_reg_src(struct dt_gen *g);
/* Branch targets passed to dt_emit_fix are chosen when the block is
 * finished: DT_LATER(k) means "a group start at least k instructions after
 * this one, or the block end". */
#define DT_LATER(k) (-(k))
/* Operand setup helpers (emit setup instructions). */
void dt_set_reg(struct dt_gen *g, int rd, uint64_t value);          /* MOVZ/MOVN/MOVK setup */
void dt_set_base(struct dt_gen *g, int rd, int64_t scratch_off);    /* ADD/SUB Xd, X28, #off */

/* Emitters (dt_alu.c, dt_mem.c, dt_gen.c). */
void dt_emit_addsub_imm(struct dt_gen *g);
void dt_emit_addsub_shift(struct dt_gen *g);
void dt_emit_addsub_ext(struct dt_gen *g);
void dt_emit_adc(struct dt_gen *g);
void dt_emit_logic_imm(struct dt_gen *g);
void dt_emit_logic_shift(struct dt_gen *g);
void dt_emit_movw(struct dt_gen *g);
void dt_emit_adr(struct dt_gen *g);
void dt_emit_bitfield(struct dt_gen *g);
void dt_emit_extr(struct dt_gen *g);
void dt_emit_dp1(struct dt_gen *g);
void dt_emit_csel(struct dt_gen *g);
void dt_emit_ccmp(struct dt_gen *g);
void dt_emit_mul(struct dt_gen *g);
void dt_emit_div(struct dt_gen *g);
void dt_emit_shiftv(struct dt_gen *g);
void dt_emit_crc32(struct dt_gen *g);
void dt_emit_ld_uimm(struct dt_gen *g);
void dt_emit_ld_unscaled(struct dt_gen *g);
void dt_emit_ld_unpriv(struct dt_gen *g);
void dt_emit_ld_rcpc(struct dt_gen *g);
void dt_emit_ld_prepost(struct dt_gen *g);
void dt_emit_ld_regoff(struct dt_gen *g);
void dt_emit_ld_literal(struct dt_gen *g);
void dt_emit_ld_pair(struct dt_gen *g);
void dt_emit_ld_excl(struct dt_gen *g);
void dt_emit_ld_acqrel(struct dt_gen *g);
void dt_emit_prfm(struct dt_gen *g);
void dt_emit_b(struct dt_gen *g);
void dt_emit_bback(struct dt_gen *g);
void dt_emit_bcond(struct dt_gen *g);
void dt_emit_cbz(struct dt_gen *g);
void dt_emit_tbz(struct dt_gen *g);
void dt_emit_bind(struct dt_gen *g);
void dt_emit_hint(struct dt_gen *g);
void dt_emit_sysreg(struct dt_gen *g);
void dt_emit_sp_write(struct dt_gen *g);
/* dt_fp.c */
uint64_t dt_fp_value(struct dt_rng *r);      /* two lanes' worth of interesting FP bits */
void dt_emit_fp_dp1(struct dt_gen *g);
void dt_emit_fp_dp2(struct dt_gen *g);
void dt_emit_fp_dp3(struct dt_gen *g);
void dt_emit_fp_cmp(struct dt_gen *g);
void dt_emit_fp_csel(struct dt_gen *g);
void dt_emit_fp_imm(struct dt_gen *g);
void dt_emit_fp_cvt(struct dt_gen *g);
void dt_emit_fp_fixed(struct dt_gen *g);
void dt_emit_fpcr(struct dt_gen *g);
void dt_emit_simd_3same(struct dt_gen *g);
void dt_emit_simd_fp3(struct dt_gen *g);
void dt_emit_simd_misc(struct dt_gen *g);
void dt_emit_simd_across(struct dt_gen *g);
void dt_emit_simd_copy(struct dt_gen *g);
void dt_emit_simd_perm(struct dt_gen *g);
void dt_emit_simd_imm(struct dt_gen *g);
void dt_emit_simd_shift(struct dt_gen *g);
void dt_emit_simd_diff(struct dt_gen *g);
void dt_emit_simd_elem(struct dt_gen *g);
void dt_emit_simd_scalar(struct dt_gen *g);
void dt_emit_simd_sat(struct dt_gen *g);
void dt_emit_simd_fpest(struct dt_gen *g);
void dt_emit_simd_crypto(struct dt_gen *g);
void dt_emit_ld_fp(struct dt_gen *g);
void dt_emit_ld_fp_pair(struct dt_gen *g);
void dt_emit_ld_fp_literal(struct dt_gen *g);
void dt_emit_ld_simd(struct dt_gen *g);
void dt_emit_ld_atomic(struct dt_gen *g);

/* --- generation, layout, running -------------------------------------- */

/* Generate block `index` of the run with `seed`. `form_mask` (one bit per
 * form, all ones = every form) restricts the forms drawn. */
void dt_gen_block(struct dt_block *b, uint64_t seed, uint64_t index, const uint64_t *form_mask);

/* A copy of `b` truncated to its first k instructions; branch targets past
 * the cut go to the end (the epilogue's "branch" entry). */
void dt_block_prefix(struct dt_block *dst, const struct dt_block *b, int k);

/* Write a static AArch64 ELF running `nb` blocks in order to `path`.
 * Returns 0, or -1 with errno set. When `addr` is not NULL, addr[i] gets the
 * address of block i's first instruction. */
int dt_elf_write(const char *path, const struct dt_block *const *blocks, int nb, uint64_t *addr);

/* Finish the encoding of b->insn[i] placed at `pc`, given the addresses of
 * the block's instructions (`base` = address of insn 0, `end_taken` =
 * epilogue entry for branches, `pool` = address of the literal pool). */
uint32_t dt_elf_encode(const struct dt_block *b, int i, uint64_t base, uint64_t end_taken, uint64_t pool);

struct dt_result {
	int status;          /* exit code, or 128+signal, or -1 when it timed out */
	uint8_t *out;        /* captured stdout (malloc'd) */
	size_t out_len;
	char *err;           /* captured stderr, NUL terminated (malloc'd) */
};

/* Run argv[0] with its arguments, capturing stdout and stderr; kill it after
 * `timeout_s` seconds. Returns 0 when it ran (see res->status), -1 when it
 * could not be started. */
int dt_run(char *const argv[], int timeout_s, struct dt_result *res);
void dt_result_free(struct dt_result *res);

#endif
