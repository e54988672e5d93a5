/*
 * test_isa_ls.c — integer loads and stores: every size and signedness in
 * every addressing mode, pairs, literals, PRFM, the effective address and
 * access size reported to the timing model, dependences, and faults that
 * leave the architected state exactly as it was.
 *
 * Loads read a pattern whose byte i at B is 0x80 + i (all negative as
 * bytes) or whose byte i at P is 0x7f - i (all positive), so every expected
 * value below can be read off by hand.
 */
#include "isa_test.h"

#define B (T_DATA + 0x100)      /* 0x80, 0x81, 0x82, ... */
#define P (T_DATA + 0x200)      /* 0x7f, 0x7e, 0x7d, ... */
#define S (T_DATA + 0x400)      /* zeroed store area */

static int ls_setup(void **state)
{
	isa_env_setup(state);
	struct isa_env *e = *state;
	uint8_t pat[64];
	for (int i = 0; i < 64; i++)
		pat[i] = (uint8_t)(0x80 + i);
	isa_poke(e, B, pat, sizeof pat);
	for (int i = 0; i < 64; i++)
		pat[i] = (uint8_t)(0x7f - i);
	isa_poke(e, P, pat, sizeof pat);
	return 0;
}

struct load_case {
	uint32_t word;
	const char *text;
	uint64_t base;          /* x1 before */
	uint64_t index;         /* x2 before */
	uint64_t want;          /* x0 after */
	uint64_t addr;          /* effective address */
	uint64_t base_after;    /* x1 after (write-back) */
	int size;               /* mem_size */
};

static const struct load_case load_cases[] = {
	/* unsigned offset, every size and sign */
	{ 0x39400420, "ldrb w0, [x1, #1]", B, 0, 0x81, B + 1, B, 1 },
	{ 0x39800420, "ldrsb x0, [x1, #1]", B, 0, 0xffffffffffffff81ull, B + 1, B, 1 },
	{ 0x39c00420, "ldrsb w0, [x1, #1]", B, 0, 0xffffff81ull, B + 1, B, 1 },
	{ 0x39800420, "ldrsb x0, [x1, #1]", P, 0, 0x7e, P + 1, P, 1 },
	{ 0x79400420, "ldrh w0, [x1, #2]", B, 0, 0x8382, B + 2, B, 2 },
	{ 0x79800420, "ldrsh x0, [x1, #2]", B, 0, 0xffffffffffff8382ull, B + 2, B, 2 },
	{ 0x79c00420, "ldrsh w0, [x1, #2]", B, 0, 0xffff8382ull, B + 2, B, 2 },
	{ 0x79c00420, "ldrsh w0, [x1, #2]", P, 0, 0x7c7d, P + 2, P, 2 },
	{ 0xb9400420, "ldr w0, [x1, #4]", B, 0, 0x87868584ull, B + 4, B, 4 },
	{ 0xb9800420, "ldrsw x0, [x1, #4]", B, 0, 0xffffffff87868584ull, B + 4, B, 4 },
	{ 0xb9800420, "ldrsw x0, [x1, #4]", P, 0, 0x78797a7bull, P + 4, P, 4 },
	{ 0xf9400420, "ldr x0, [x1, #8]", B, 0, 0x8f8e8d8c8b8a8988ull, B + 8, B, 8 },
	{ 0xf97ffc20, "ldr x0, [x1, #32760]", B + 16 - 32760, 0, 0x9796959493929190ull, B + 16, B + 16 - 32760, 8 },
	/* unscaled and unprivileged */
	{ 0xf85f8020, "ldur x0, [x1, #-8]", B + 16, 0, 0x8f8e8d8c8b8a8988ull, B + 8, B + 16, 8 },
	{ 0x38d01020, "ldursb w0, [x1, #-255]", B + 258, 0, 0xffffff83ull, B + 3, B + 258, 1 },
	{ 0x784ff020, "ldurh w0, [x1, #255]", B + 10 - 255, 0, 0x8b8a, B + 10, B + 10 - 255, 2 },
	{ 0xf85f8820, "ldtr x0, [x1, #-8]", B + 16, 0, 0x8f8e8d8c8b8a8988ull, B + 8, B + 16, 8 },
	{ 0xb8804820, "ldtrsw x0, [x1, #4]", B, 0, 0xffffffff87868584ull, B + 4, B, 4 },
	{ 0x78c02820, "ldtrsh w0, [x1, #2]", B, 0, 0xffff8382ull, B + 2, B, 2 },
	/* pre- and post-index */
	{ 0xf8408c20, "ldr x0, [x1, #8]!", B, 0, 0x8f8e8d8c8b8a8988ull, B + 8, B + 8, 8 },
	{ 0xf85f8420, "ldr x0, [x1], #-8", B + 8, 0, 0x8f8e8d8c8b8a8988ull, B + 8, B, 8 },
	{ 0xb89fcc20, "ldrsw x0, [x1, #-4]!", B + 8, 0, 0xffffffff87868584ull, B + 4, B + 4, 4 },
	{ 0x384ff420, "ldrb w0, [x1], #255", B, 0, 0x80, B, B + 255, 1 },
	/* register offset */
	{ 0xf8627820, "ldr x0, [x1, x2, lsl #3]", B, 2, 0x9796959493929190ull, B + 16, B, 8 },
	{ 0xb8625820, "ldr w0, [x1, w2, uxtw #2]", B, 0xffffffff00000003ull, 0x8f8e8d8cull, B + 12, B, 4 },
	{ 0xf862d820, "ldr x0, [x1, w2, sxtw #3]", B + 16, 0xffffffffull, 0x8f8e8d8c8b8a8988ull, B + 8, B + 16, 8 },
	{ 0x38626820, "ldrb w0, [x1, x2]", B, 5, 0x85, B + 5, B, 1 },
	{ 0x7862f820, "ldrh w0, [x1, x2, sxtx #1]", B + 8, (uint64_t)-2, 0x8584, B + 4, B + 8, 2 },
	{ 0x38a2c820, "ldrsb x0, [x1, w2, sxtw]", B + 8, 0x12345678fffffffdull, 0xffffffffffffff85ull, B + 5, B + 8, 1 },
	{ 0x78e27820, "ldrsh w0, [x1, x2, lsl #1]", B, 3, 0xffff8786ull, B + 6, B, 2 },
};

static void test_loads(void **state)
{
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof load_cases / sizeof load_cases[0]; k++) {
		const struct load_case *t = &load_cases[k];
		isa_env_reset(e);
		e->c.x[1] = t->base;
		e->c.x[2] = t->index;
		int r = isa_run(e, t->word);
		if (r != ISA_NEXT || e->c.x[0] != t->want || e->c.x[1] != t->base_after ||
		    e->c.mem_addr != t->addr)
			print_error("%s: result %d x0 %#llx x1 %#llx addr %#llx\n", t->text, r,
				    (unsigned long long)e->c.x[0], (unsigned long long)e->c.x[1],
				    (unsigned long long)e->c.mem_addr);
		assert_int_equal(r, ISA_NEXT);
		assert_int_equal(e->c.x[0], t->want);
		assert_int_equal(e->c.x[1], t->base_after);
		assert_int_equal(e->c.x[2], t->index);
		assert_int_equal(e->c.mem_addr, t->addr);
		assert_int_equal(e->c.pc, T_CODE + 4);
		for (int i = 3; i < 32; i++)
			assert_int_equal(e->c.x[i], isa_test_fill(i));
		assert_int_equal(e->u.op_class, UOP_LOAD);
		assert_int_equal(e->u.mem_size, t->size);
		assert_true(isa_has_dst(&e->u, REG_X(0)));
		assert_true(isa_has_src(&e->u, REG_X(1)));
		assert_int_equal(isa_has_dst(&e->u, REG_X(1)), t->base != t->base_after);
		assert_int_equal(isa_has_src(&e->u, REG_X(2)), (e->u.word & 0x3f200c00) == 0x38200800);
	}
}

struct store_case {
	uint32_t word;
	const char *text;
	int base_reg;           /* 1, or 31 for SP */
	uint64_t base;
	uint64_t index;         /* x2 before (register offset) */
	uint64_t addr;          /* effective address */
	int size;
	uint64_t base_after;
};

#define SVAL 0x1122334455667788ull   /* stored from x2, or x3 with an index in x2 */

static const struct store_case store_cases[] = {
	{ 0xf81f0fe2, "str x2, [sp, #-16]!", 31, S + 16, 0, S, 8, S },
	{ 0xb8004422, "str w2, [x1], #4", 1, S, 0, S, 4, S + 4 },
	{ 0x381ffc22, "strb w2, [x1, #-1]!", 1, S + 1, 0, S, 1, S },
	{ 0x79000c22, "strh w2, [x1, #6]", 1, S - 6, 0, S, 2, S - 6 },
	{ 0xf9000822, "str x2, [x1, #16]", 1, S - 16, 0, S, 8, S - 16 },
	{ 0xb81fd022, "stur w2, [x1, #-3]", 1, S + 3, 0, S, 4, S + 3 },
	{ 0x38001822, "sttrb w2, [x1, #1]", 1, S - 1, 0, S, 1, S - 1 },
	{ 0x38226823, "strb w3, [x1, x2]", 1, S - 7, 7, S, 1, S - 7 },
	{ 0x78225823, "strh w3, [x1, w2, uxtw #1]", 1, S - 4, 0xffffffff00000002ull, S, 2, S - 4 },
	{ 0xb8227823, "str w3, [x1, x2, lsl #2]", 1, S - 4, 1, S, 4, S - 4 },
	{ 0xf822c823, "str x3, [x1, w2, sxtw]", 1, S + 8, 0xfffffff8ull, S, 8, S + 8 },
};

static void test_stores(void **state)
{
	struct isa_env *e = *state;
	for (size_t k = 0; k < sizeof store_cases / sizeof store_cases[0]; k++) {
		const struct store_case *t = &store_cases[k];
		int data_reg = (t->word & 0x3f200c00) == 0x38200800 ? 3 : 2;
		uint8_t zero[32] = { 0 };
		isa_poke(e, S - 8, zero, sizeof zero);
		isa_env_reset(e);
		e->c.x[t->base_reg] = t->base;
		if (data_reg == 3)
			e->c.x[2] = t->index;
		e->c.x[data_reg] = SVAL;
		assert_int_equal(isa_run(e, t->word), ISA_NEXT);
		uint64_t mask = t->size == 8 ? ~0ull : (1ull << (8 * t->size)) - 1;
		if (isa_peek(e, S, 8) != (SVAL & mask))
			print_error("%s: stored %#llx\n", t->text, (unsigned long long)isa_peek(e, S, 8));
		assert_int_equal(isa_peek(e, S, 8), SVAL & mask);      /* nothing beyond size */
		assert_int_equal(isa_peek(e, S - 8, 8), 0);             /* nothing before */
		assert_int_equal(e->c.x[t->base_reg], t->base_after);
		assert_int_equal(e->c.mem_addr, t->addr);
		assert_int_equal(e->u.op_class, UOP_STORE);
		assert_int_equal(e->u.mem_size, t->size);
		assert_true(isa_has_src(&e->u, REG_X(data_reg)));
		assert_true(isa_has_src(&e->u, t->base_reg));
		assert_int_equal(isa_has_dst(&e->u, t->base_reg), t->base != t->base_after);
		assert_int_equal(e->u.n_dst, t->base != t->base_after);
	}
}

static void test_literals(void **state)
{
	struct isa_env *e = *state;
	const uint64_t l = T_DATA + 0x800;
	isa_poke64(e, l - 4, 0x00000000fedcba98ull);
	isa_poke64(e, l + 4, 0x8765432189abcdefull << 32);
	isa_poke64(e, l + 12, 0x87654321ull);

	isa_env_reset(e);
	e->c.pc = l;
	assert_int_equal(isa_run(e, 0x58000040), ISA_NEXT);      /* ldr x0, .+8 */
	assert_int_equal(e->c.x[0], 0x8765432189abcdefull);
	assert_int_equal(e->u.target, l + 8);
	assert_int_equal(e->c.mem_addr, l + 8);
	assert_int_equal(e->u.mem_size, 8);
	assert_int_equal(e->u.n_src, 0);
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.op_class, UOP_LOAD);

	e->c.pc = l;
	assert_int_equal(isa_run(e, 0x18ffffe0), ISA_NEXT);      /* ldr w0, .-4 */
	assert_int_equal(e->c.x[0], 0xfedcba98ull);
	assert_int_equal(e->u.mem_size, 4);

	e->c.pc = l;
	assert_int_equal(isa_run(e, 0x98000060), ISA_NEXT);      /* ldrsw x0, .+12 */
	assert_int_equal(e->c.x[0], 0xffffffff87654321ull);

	e->c.pc = T_NONE;                                        /* target unmapped: no access */
	assert_int_equal(isa_run(e, 0xd8008000), ISA_NEXT);      /* prfm pldl1keep, .+0x1000 */
	assert_int_equal(e->u.op_class, UOP_NOP);
}

static void test_pairs(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);

	e->c.x[2] = B;
	assert_int_equal(isa_run(e, 0xa9410440), ISA_NEXT);      /* ldp x0, x1, [x2, #16] */
	assert_int_equal(e->c.x[0], 0x9796959493929190ull);
	assert_int_equal(e->c.x[1], 0x9f9e9d9c9b9a9998ull);
	assert_int_equal(e->c.x[2], B);
	assert_int_equal(e->c.mem_addr, B + 16);
	assert_int_equal(e->u.mem_size, 16);
	assert_int_equal(e->u.op_class, UOP_LOAD);
	assert_int_equal(e->u.n_dst, 2);
	assert_int_equal(e->u.n_src, 1);

	e->c.x[2] = B + 8;
	assert_int_equal(isa_run(e, 0x29ff0440), ISA_NEXT);      /* ldp w0, w1, [x2, #-8]! */
	assert_int_equal(e->c.x[0], 0x83828180ull);
	assert_int_equal(e->c.x[1], 0x87868584ull);
	assert_int_equal(e->c.x[2], B);
	assert_int_equal(e->u.mem_size, 8);
	assert_int_equal(e->u.n_dst, 3);
	assert_true(isa_has_dst(&e->u, REG_X(2)));

	e->c.x[CPU_SP] = B;
	assert_int_equal(isa_run(e, 0xa8c107e0), ISA_NEXT);      /* ldp x0, x1, [sp], #16 */
	assert_int_equal(e->c.x[0], 0x8786858483828180ull);
	assert_int_equal(e->c.x[1], 0x8f8e8d8c8b8a8988ull);
	assert_int_equal(e->c.x[CPU_SP], B + 16);
	assert_int_equal(e->c.mem_addr, B);
	assert_true(isa_has_dst(&e->u, REG_SP));
	assert_true(isa_has_src(&e->u, REG_SP));

	e->c.x[2] = B;
	assert_int_equal(isa_run(e, 0x69400440), ISA_NEXT);      /* ldpsw x0, x1, [x2] */
	assert_int_equal(e->c.x[0], 0xffffffff83828180ull);
	assert_int_equal(e->c.x[1], 0xffffffff87868584ull);
	assert_int_equal(e->u.mem_size, 8);

	e->c.x[2] = P - 8;
	assert_int_equal(isa_run(e, 0x69c10440), ISA_NEXT);      /* ldpsw x0, x1, [x2, #8]! */
	assert_int_equal(e->c.x[0], 0x7c7d7e7full);
	assert_int_equal(e->c.x[1], 0x78797a7bull);
	assert_int_equal(e->c.x[2], P);

	e->c.x[2] = B + 16;
	assert_int_equal(isa_run(e, 0xa87f0440), ISA_NEXT);      /* ldnp x0, x1, [x2, #-16] */
	assert_int_equal(e->c.x[0], 0x8786858483828180ull);
	assert_int_equal(e->c.x[1], 0x8f8e8d8c8b8a8988ull);

	e->c.x[0] = 0x1111111111111111ull;
	e->c.x[1] = 0x2222222222222222ull;
	e->c.x[CPU_SP] = S + 16;
	assert_int_equal(isa_run(e, 0xa9bf07e0), ISA_NEXT);      /* stp x0, x1, [sp, #-16]! */
	assert_int_equal(isa_peek(e, S, 8), 0x1111111111111111ull);
	assert_int_equal(isa_peek(e, S + 8, 8), 0x2222222222222222ull);
	assert_int_equal(e->c.x[CPU_SP], S);
	assert_int_equal(e->u.op_class, UOP_STORE);
	assert_int_equal(e->u.mem_size, 16);
	assert_int_equal(e->u.n_src, 3);
	assert_int_equal(e->u.n_dst, 1);
	assert_int_equal(e->u.dst[0], REG_SP);

	e->c.x[0] = 0xaaaaaaaa33333333ull;
	e->c.x[1] = 0xbbbbbbbb44444444ull;
	e->c.x[2] = S + 0x20;
	assert_int_equal(isa_run(e, 0x28810440), ISA_NEXT);      /* stp w0, w1, [x2], #8 */
	assert_int_equal(isa_peek(e, S + 0x20, 8), 0x4444444433333333ull);
	assert_int_equal(isa_peek(e, S + 0x28, 8), 0);
	assert_int_equal(e->c.x[2], S + 0x28);
	assert_int_equal(e->u.mem_size, 8);

	e->c.x[2] = S + 0x1c;
	assert_int_equal(isa_run(e, 0x28008440), ISA_NEXT);      /* stnp w0, w1, [x2, #4] */
	assert_int_equal(isa_peek(e, S + 0x20, 8), 0x4444444433333333ull);

	e->c.x[2] = S;
	assert_int_equal(isa_run(e, 0xa9007c5f), ISA_NEXT);      /* stp xzr, xzr, [x2] */
	assert_int_equal(isa_peek(e, S, 8), 0);
	assert_int_equal(isa_peek(e, S + 8, 8), 0);
	assert_int_equal(e->u.n_src, 1);
	assert_int_equal(e->u.src[0], REG_X(2));
}

/* Loads crossing into the read-only page are fine; the zero register
 * swallows a load and stores zeros. */
static void test_edges(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	isa_poke64(e, T_RO - 8, 0x0807060504030201ull);
	isa_poke64(e, T_RO, 0x100f0e0d0c0b0a09ull);
	e->c.x[1] = T_RO - 4;
	assert_int_equal(isa_run(e, 0xf9400020), ISA_NEXT);      /* ldr x0, [x1] */
	assert_int_equal(e->c.x[0], 0x0c0b0a0908070605ull);
	e->c.x[2] = T_RO - 12;
	assert_int_equal(isa_run(e, 0xa9400440), ISA_NEXT);      /* ldp x0, x1, [x2] */
	assert_int_equal(e->c.x[0], 0x0403020100000000ull);
	assert_int_equal(e->c.x[1], 0x0c0b0a0908070605ull);

	uint64_t before[CPU_NREGS];
	e->c.x[1] = B;
	memcpy(before, e->c.x, sizeof before);
	assert_int_equal(isa_run(e, 0xf940003f), ISA_NEXT);      /* ldr xzr, [x1] */
	assert_memory_equal(before, e->c.x, 32 * sizeof before[0]);
	assert_int_equal(e->u.n_dst, 0);

	isa_poke64(e, S, ~0ull);
	e->c.x[1] = S;
	assert_int_equal(isa_run(e, 0xf900003f), ISA_NEXT);      /* str xzr, [x1] */
	assert_int_equal(isa_peek(e, S, 8), 0);
	assert_int_equal(e->u.n_src, 1);
}

/* A faulting access changes no register, no memory, no pc, and reports the
 * address and the kind of fault. */
static void expect_fault(struct isa_env *e, uint32_t word, uint64_t fault_addr, int kind)
{
	uint64_t before[CPU_NREGS], mem_before[4];
	memcpy(before, e->c.x, sizeof before);
	uint64_t pc = e->c.pc, nzcv = e->c.nzcv;
	for (int i = 0; i < 4; i++)
		mem_before[i] = isa_peek(e, T_RO - 16 + 8 * i, 8);
	int r = isa_run(e, word);
	if (r != ISA_FAULT)
		print_error("%08x: result %d, expected a fault\n", word, r);
	assert_int_equal(r, ISA_FAULT);
	assert_int_equal(e->c.fault_addr, fault_addr);
	assert_int_equal(e->c.fault_kind, kind);
	assert_memory_equal(before, e->c.x, sizeof before);
	assert_int_equal(e->c.pc, pc);
	assert_int_equal(e->c.nzcv, nzcv);
	for (int i = 0; i < 4; i++)
		assert_int_equal(isa_peek(e, T_RO - 16 + 8 * i, 8), mem_before[i]);
}

static void test_faults(void **state)
{
	struct isa_env *e = *state;
	isa_env_reset(e);
	isa_poke64(e, T_RO - 16, 0x1111111111111111ull);
	isa_poke64(e, T_RO - 8, 0x2222222222222222ull);

	e->c.x[1] = T_NONE - 8;
	expect_fault(e, 0xf8408c20, T_NONE, FAULT_READ);         /* ldr x0, [x1, #8]!: no write-back */
	assert_int_equal(e->c.mem_addr, T_NONE);
	e->c.x[1] = T_NONE;
	expect_fault(e, 0xf85f8420, T_NONE, FAULT_READ);         /* ldr x0, [x1], #-8 */
	expect_fault(e, 0x39400020, T_NONE, FAULT_READ);         /* ldrb w0, [x1] */
	e->c.x[1] = T_NONE - 4;
	expect_fault(e, 0xf9400020, T_NONE - 4, FAULT_READ);     /* ldr x0, [x1]: half unmapped */

	e->c.x[1] = T_RO;
	expect_fault(e, 0xf9000020, T_RO, FAULT_WRITE);          /* str x0, [x1] */
	expect_fault(e, 0x79000020, T_RO, FAULT_WRITE);          /* strh w0, [x1] */
	e->c.x[1] = T_RO - 4;
	expect_fault(e, 0xf9000020, T_RO - 4, FAULT_WRITE);      /* str straddling into read-only */
	e->c.x[1] = T_RO;
	expect_fault(e, 0xb8004422, T_RO, FAULT_WRITE);          /* str w2, [x1], #4: no write-back */
	e->c.x[CPU_SP] = T_RO + 16;
	expect_fault(e, 0xf81f0fe2, T_RO, FAULT_WRITE);          /* str x2, [sp, #-16]! */

	/* pairs: the second access faults, so nothing at all happens */
	e->c.x[2] = T_NONE - 8;
	expect_fault(e, 0xa9400440, T_NONE, FAULT_READ);         /* ldp x0, x1, [x2] */
	e->c.x[2] = T_NONE - 24;
	expect_fault(e, 0xa9c10440, T_NONE, FAULT_READ);         /* ldp x0, x1, [x2, #16]! */
	e->c.x[2] = T_RO - 8;
	expect_fault(e, 0xa9000440, T_RO, FAULT_WRITE);          /* stp x0, x1, [x2] */
	e->c.x[2] = T_RO - 12;
	expect_fault(e, 0xa9000440, T_RO - 4, FAULT_WRITE);      /* second half straddles */
	e->c.x[2] = T_RO - 4;
	expect_fault(e, 0xa9000440, T_RO - 4, FAULT_WRITE);      /* first half straddles */
	e->c.x[CPU_SP] = T_RO + 8;
	expect_fault(e, 0xa9bf07e0, T_RO, FAULT_WRITE);          /* stp x0, x1, [sp, #-16]!: second half */
	e->c.x[2] = T_RO - 4;
	expect_fault(e, 0x28810440, T_RO, FAULT_WRITE);          /* stp w0, w1, [x2], #8 */
}

static void test_prfm(void **state)
{
	struct isa_env *e = *state;
	static const uint32_t words[] = {
		0xf9800420,     /* prfm pldl1keep, [x1, #8] */
		0xf8a27833,     /* prfm pstl2strm, [x1, x2, lsl #3] */
		0xf89ff024,     /* prfum pldl3keep, [x1, #-1] */
		0xd8008000,     /* prfm pldl1keep, .+0x1000 */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		isa_env_reset(e);
		e->c.x[1] = T_NONE;
		uint64_t before[CPU_NREGS];
		memcpy(before, e->c.x, sizeof before);
		assert_int_equal(isa_run(e, words[i]), ISA_NEXT);
		assert_int_equal(e->u.op_class, UOP_NOP);
		assert_memory_equal(before, e->c.x, sizeof before);
	}
}

static void test_ls_unallocated(void **state)
{
	(void)state;
	static const uint32_t words[] = {
		0xb9c00000,     /* ldrsw with opc=11 */
		0xf9c00000,     /* size 11, opc 11 */
		0xf8800c00,     /* prfm pre-index */
		0xf8800400,     /* prfm post-index */
		0xf8800800,     /* prfm unprivileged */
		0xb8c00800,     /* ldtr with size 10, opc 11 */
		0xf8600800,     /* register offset with option 000 */
		0xf8609800,     /* register offset with option 100 */
		0x68400000,     /* ldnp with opc=01 (no LDNPSW) */
		0x69000000,     /* stgp (FEAT_MTE) */
		0xe9400000,     /* pair with opc=11 */
		0xec400000,     /* SIMD&FP pair with opc=11 */
		0x7cc00000,     /* ldur with size 01, opc 11 (SIMD&FP) */
		0x7c800000,     /* stur h0 with opc 10 (SIMD&FP) */
		0x3c000800,     /* sttrb form for SIMD&FP: unallocated */
		0xdc000000,     /* ldr literal SIMD&FP opc 11 */
		0xf8209000,     /* atomic with o3=1, opc=001 */
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		struct uop u;
		isa_decode(words[i], T_CODE, &u);
		if (u.op_class != UOP_UNSUPPORTED)
			print_error("%08x decoded as class %d\n", words[i], u.op_class);
		assert_int_equal(u.op_class, UOP_UNSUPPORTED);
		assert_int_equal(u.mem_size, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_loads, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_stores, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_literals, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_pairs, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_edges, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_faults, ls_setup, isa_env_teardown),
		cmocka_unit_test_setup_teardown(test_prfm, ls_setup, isa_env_teardown),
		cmocka_unit_test(test_ls_unallocated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
