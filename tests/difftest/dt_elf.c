/*
 * dt_elf.c — lays blocks out in a minimal static AArch64 ELF (ET_EXEC, two
 * PT_LOAD segments: text R+X at 0x400000, data R+W after it).
 *
 * Text, per block:
 *
 *     pool:      DT_POOL_WORDS random words (literal loads read them)
 *     prologue:  CLREX; X28 = scratch; SP = X28 + DT_SP_OFFSET;
 *                NZCV, TPIDR_EL0, FPCR, FPSR, V0..V31, X0..X27, X29, X30
 *                from the init table
 *     body:      the block's instructions
 *     E0:        X0..X30, NZCV, TPIDR_EL0, SP -> dump, FPCR, FPSR, V0..V31 ->
 *                fp dump (after scratch); write(1, dump, DT_RECORD)
 *                B next block's prologue (or the final exit(0))
 *     E1:        entry for branches to the end: same dump with the marker
 *                word set to 1, so a taken branch differs from a fall-through
 *
 * Data, per block (DT_REGION bytes at DT_REGION_OFF in a DT_SLOT slot):
 * init table | dump | scratch | fp dump, the scratch area running into the
 * next slot.
 * Nothing depends on the stack the loader set up, which differs between
 * qemu and ivx; every address the block can see is fixed by this layout.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dt.h"

#define DT_TEXT_VADDR 0x400000ull
#define DT_CODE_OFF   0x1000ull
#define DT_ALIGN      0x10000ull
#define DT_PROLOGUE   DT_PROLOGUE_WORDS
#define DT_EPILOGUE   DT_EPILOGUE_WORDS   /* E0 through the B to the next block */
#define DT_E1         4
#define DT_EXIT       3

#define X30 30u
#define XB  ((uint32_t)DT_BASE_REG)

static uint32_t enc_b(uint64_t pc, uint64_t to) { return 0x14000000u | ((uint32_t)((to - pc) >> 2) & 0x3ffffffu); }
static uint32_t enc_add(uint32_t rd, uint32_t rn, uint32_t imm) { return 0x91000000u | imm << 10 | rn << 5 | rd; }
static uint32_t enc_sub(uint32_t rd, uint32_t rn, uint32_t imm) { return 0xd1000000u | imm << 10 | rn << 5 | rd; }
static uint32_t enc_movz(uint32_t rd, uint32_t imm) { return 0xd2800000u | imm << 5 | rd; }
static uint32_t enc_pair(uint32_t op, uint32_t rt, uint32_t rt2, uint32_t rn, int off)
{
	return op | ((uint32_t)(off / 8) & 0x7f) << 15 | rt2 << 10 | rn << 5 | rt;
}
#define LDP 0xa9400000u
#define STP 0xa9000000u
#define LDPQ 0xad400000u
#define STPQ 0xad000000u
static uint32_t enc_pairq(uint32_t op, uint32_t rt, uint32_t rt2, uint32_t rn, int off)
{
	return op | ((uint32_t)(off / 16) & 0x7f) << 15 | rt2 << 10 | rn << 5 | rt;
}
static uint32_t enc_ldr(uint32_t rt, uint32_t rn, uint32_t off) { return 0xf9400000u | (off / 8) << 10 | rn << 5 | rt; }
static uint32_t enc_str(uint32_t rt, uint32_t rn, uint32_t off) { return 0xf9000000u | (off / 8) << 10 | rn << 5 | rt; }

uint32_t dt_elf_encode(const struct dt_block *b, int i, uint64_t base, uint64_t end_taken, uint64_t pool)
{
	const struct dt_insn *in = &b->insn[i];
	uint64_t pc = base + 4 * (uint64_t)i;
	uint64_t to = (in->target >= b->n) ? end_taken : base + 4 * (uint64_t)in->target;
	int64_t d = (int64_t)(to - pc);
	switch (in->fix) {
	case DT_FIX_IMM26: return in->word | ((uint32_t)(d >> 2) & 0x3ffffffu);
	case DT_FIX_IMM19: return in->word | ((uint32_t)(d >> 2) & 0x7ffffu) << 5;
	case DT_FIX_IMM14: return in->word | ((uint32_t)(d >> 2) & 0x3fffu) << 5;
	case DT_FIX_ADR:   return in->word | ((uint32_t)d & 3) << 29 | ((uint32_t)(d >> 2) & 0x7ffffu) << 5;
	case DT_FIX_LIT:
		d = (int64_t)(pool + (uint64_t)in->target - pc);
		return in->word | ((uint32_t)(d >> 2) & 0x7ffffu) << 5;
	case DT_FIX_LITCODE:     /* past a prefix's end this reads epilogue words: still fixed */
		d = (int64_t)(base + 4 * (uint64_t)in->target - pc);
		return in->word | ((uint32_t)(d >> 2) & 0x7ffffu) << 5;
	default:           return in->word;
	}
}

static size_t dt_block_words(const struct dt_block *b)
{
	return DT_POOL_WORDS + DT_PROLOGUE + (size_t)b->n + DT_EPILOGUE + DT_E1;
}

struct dt_text {
	uint8_t *img;    /* file image */
	uint64_t pc;     /* address of the next word */
};

static void put(struct dt_text *t, uint32_t w)
{
	uint64_t off = t->pc - DT_TEXT_VADDR;
	memcpy(t->img + off, &w, 4);
	t->pc += 4;
}

static void dt_prologue(struct dt_text *t, uint64_t scratch)
{
	put(t, 0xd5033f5fu);                                          /* CLREX */
	int64_t pages = (int64_t)(scratch >> 12) - (int64_t)(t->pc >> 12);
	put(t, 0x90000000u | ((uint32_t)pages & 3) << 29 | ((uint32_t)(pages >> 2) & 0x7ffffu) << 5 | XB);
	put(t, enc_add(XB, XB, (uint32_t)(scratch & 0xfff)));
	put(t, enc_add(31, XB, DT_SP_OFFSET));                        /* SP */
	put(t, enc_sub(X30, XB, DT_INIT_BYTES + DT_DUMP_BYTES));      /* X30 = init table */
	put(t, enc_pair(LDP, 0, 1, X30, DT_OFF_NZCV));
	put(t, 0xd51b4200u);                                          /* MSR NZCV, X0 */
	put(t, 0xd51bd041u);                                          /* MSR TPIDR_EL0, X1 */
	put(t, enc_ldr(0, X30, DT_INIT_FPCR));
	put(t, 0xd51b4400u);                                          /* MSR FPCR, X0 */
	put(t, enc_ldr(0, X30, DT_INIT_FPCR + 8));
	put(t, 0xd51b4420u);                                          /* MSR FPSR, X0 */
	for (uint32_t r = 0; r < 32; r += 2)
		put(t, enc_pairq(LDPQ, r, r + 1, X30, DT_INIT_V + (int)r * 16));
	for (uint32_t r = 0; r < 28; r += 2)
		put(t, enc_pair(LDP, r, r + 1, X30, (int)r * 8));
	put(t, 0xf9400000u | (232 / 8) << 10 | X30 << 5 | 29);       /* LDR X29, [X30, #232] */
	put(t, 0xf9400000u | (240 / 8) << 10 | X30 << 5 | X30);      /* LDR X30, [X30, #240] */
}

/* E0: dump and write; returns the address of its second word (E1 joins there). */
static uint64_t dt_epilogue(struct dt_text *t, uint64_t next)
{
	const int dump = -DT_DUMP_BYTES;
	uint64_t join = 0;
	for (uint32_t r = 0; r < 30; r += 2) {
		put(t, enc_pair(STP, r, r + 1, XB, dump + (int)r * 8));
		if (r == 0)
			join = t->pc;
	}
	put(t, 0xf8000000u | ((uint32_t)(dump + 240) & 0x1ff) << 12 | XB << 5 | X30);  /* STUR X30 */
	put(t, 0xd53b4200u);                                          /* MRS X0, NZCV */
	put(t, 0xd53bd041u);                                          /* MRS X1, TPIDR_EL0 */
	put(t, enc_pair(STP, 0, 1, XB, dump + DT_OFF_NZCV));
	for (uint32_t r = 0; r < 32; r += 2)
		put(t, enc_pairq(STPQ, r, r + 1, XB, DT_OFF_V - DT_DUMP_BYTES + (int)r * 16));
	put(t, 0xd53b4400u);                                          /* MRS X0, FPCR */
	put(t, 0xd53b4421u);                                          /* MRS X1, FPSR */
	put(t, enc_str(0, XB, DT_OFF_FPCR - DT_DUMP_BYTES));
	put(t, enc_str(1, XB, DT_OFF_FPSR - DT_DUMP_BYTES));
	put(t, enc_add(0, 31, 0));                                    /* MOV X0, SP */
	put(t, 0xf8000000u | ((uint32_t)(dump + DT_OFF_SP) & 0x1ff) << 12 | XB << 5 | 0);   /* STUR X0 */
	put(t, enc_movz(0, 1));
	put(t, enc_sub(1, XB, DT_DUMP_BYTES));
	put(t, enc_movz(2, DT_RECORD));
	put(t, enc_movz(8, 64));                                      /* write */
	put(t, 0xd4000001u);                                          /* SVC #0 */
	put(t, enc_b(t->pc, next));
	return join;
}

int dt_elf_write(const char *path, const struct dt_block *const *blocks, int nb, uint64_t *addr)
{
	size_t words = DT_EXIT;
	for (int i = 0; i < nb; i++)
		words += dt_block_words(blocks[i]);
	uint64_t text_end = DT_CODE_OFF + 4 * words;
	uint64_t data_off = (text_end + DT_ALIGN - 1) & ~(DT_ALIGN - 1);
	uint64_t data_vaddr = DT_TEXT_VADDR + data_off;
	uint64_t data_size = (uint64_t)(nb + 1) * DT_SLOT;       /* the last scratch runs into one more slot */
	size_t file_size = (size_t)(data_off + data_size);
	uint8_t *img = calloc(1, file_size);
	if (!img)
		return -1;

	/* Headers. */
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_ident[EI_OSABI] = ELFOSABI_SYSV;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = DT_TEXT_VADDR + DT_CODE_OFF + 4 * DT_POOL_WORDS;
	eh->e_phoff = sizeof *eh;
	eh->e_ehsize = sizeof *eh;
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 2;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof *eh);
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_offset = 0;
	ph[0].p_vaddr = ph[0].p_paddr = DT_TEXT_VADDR;
	ph[0].p_filesz = ph[0].p_memsz = text_end;
	ph[0].p_align = DT_ALIGN;
	ph[1].p_type = PT_LOAD;
	ph[1].p_flags = PF_R | PF_W;
	ph[1].p_offset = data_off;
	ph[1].p_vaddr = ph[1].p_paddr = data_vaddr;
	ph[1].p_filesz = ph[1].p_memsz = data_size;
	ph[1].p_align = DT_ALIGN;

	/* Text. */
	struct dt_text t = { img, DT_TEXT_VADDR + DT_CODE_OFF };
	for (int i = 0; i < nb; i++) {
		const struct dt_block *b = blocks[i];
		uint64_t region = data_vaddr + (uint64_t)i * DT_SLOT + DT_REGION_OFF;
		uint64_t scratch = region + DT_INIT_BYTES + DT_DUMP_BYTES;
		uint64_t pool = t.pc;
		for (int w = 0; w < DT_POOL_WORDS; w++)
			put(&t, b->pool[w]);
		dt_prologue(&t, scratch);
		uint64_t base = t.pc;
		uint64_t e1 = base + 4 * ((uint64_t)b->n + DT_EPILOGUE);
		uint64_t next = e1 + 4 * DT_E1 + 4 * DT_POOL_WORDS;    /* next prologue or exit */
		if (addr)
			addr[i] = base;
		for (int k = 0; k < b->n; k++)
			put(&t, dt_elf_encode(b, k, base, e1, pool));
		uint64_t join = dt_epilogue(&t, i + 1 < nb ? next : e1 + 4 * DT_E1);
		put(&t, enc_pair(STP, 0, 1, XB, -DT_DUMP_BYTES));      /* E1 */
		put(&t, enc_movz(0, 1));
		put(&t, 0xf8000000u | ((uint32_t)(DT_OFF_MARK - DT_DUMP_BYTES) & 0x1ff) << 12 | XB << 5 | 0); /* STUR X0 */
		put(&t, enc_b(t.pc, join));

		/* Data: init table (X28's slot unused), zeroed dump, scratch. */
		uint8_t *d = img + data_off + (size_t)i * DT_SLOT + DT_REGION_OFF;
		memcpy(d, b->x, sizeof b->x);
		memcpy(d + DT_OFF_NZCV, &b->nzcv, 8);
		memcpy(d + DT_OFF_TPIDR, &b->tpidr, 8);
		memcpy(d + DT_INIT_FPCR, &b->fpcr, 8);
		memcpy(d + DT_INIT_FPCR + 8, &b->fpsr, 8);
		memcpy(d + DT_INIT_V, b->v, sizeof b->v);
		memcpy(d + DT_INIT_BYTES + DT_DUMP_BYTES, b->scratch, DT_SCRATCH);
	}
	put(&t, enc_movz(0, 0));                                      /* exit(0) */
	put(&t, enc_movz(8, 93));
	put(&t, 0xd4000001u);

	FILE *f = fopen(path, "wb");
	int rc = -1;
	if (f) {
		rc = fwrite(img, 1, file_size, f) == file_size ? 0 : -1;
		if (fclose(f) != 0)
			rc = -1;
		chmod(path, 0755);
	}
	free(img);
	return rc;
}
