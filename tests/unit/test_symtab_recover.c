/*
 * test_symtab_recover.c — functions of a stripped ELF: the FDEs of its
 * .eh_frame give exact extents, call targets in the gaps give the rest, a
 * file with symbols keeps them, and no mangled .eh_frame makes the reader
 * read out of bounds or report a function that is not in it.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elf_builder.h"
#include "guest/ehframe.h"
#include "guest/program.h"
#include "guest/symtab.h"

/* ---- an .eh_frame writer ------------------------------------------------ */

struct buf {
	uint8_t b[512];
	size_t n;
};

static void put(struct buf *s, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		s->b[s->n++] = (uint8_t)(v >> (8 * i));
}

static void put_str(struct buf *s, const char *str)
{
	size_t len = strlen(str) + 1;
	memcpy(s->b + s->n, str, len);
	s->n += len;
}

/* Close the record that starts at 'at' (its 4-byte length field): pad with
 * DW_CFA_nop to a multiple of 4 and write the length. */
static void close_record(struct buf *s, size_t at)
{
	while ((s->n - at) % 4)
		s->b[s->n++] = 0;
	uint32_t len = (uint32_t)(s->n - at - 4);
	memcpy(s->b + at, &len, 4);
}

/* A CIE with augmentation aug ("zR" and friends; R's encoding is enc). */
static size_t put_cie(struct buf *s, const char *aug, int enc)
{
	size_t at = s->n;
	put(s, 0, 4);           /* length, later */
	put(s, 0, 4);           /* CIE id */
	put(s, 1, 1);           /* version */
	put_str(s, aug);
	put(s, 4, 1);           /* code alignment 4 */
	put(s, 0x78, 1);        /* data alignment -8 */
	put(s, 30, 1);          /* return address: x30 */
	if (aug[0] == 'z') {
		size_t len_at = s->n;
		put(s, 0, 1);
		for (const char *a = aug + 1; *a; a++) {
			if (*a == 'R')
				put(s, (uint64_t)enc, 1);
			else if (*a == 'P')
				put(s, 0x00, 1), put(s, 0x1234, 8);   /* absptr personality */
			else if (*a == 'L')
				put(s, 0x1b, 1);
		}
		s->b[len_at] = (uint8_t)(s->n - len_at - 1);
	}
	put(s, 0x0c, 1), put(s, 31, 1), put(s, 0, 1);   /* def_cfa sp, 0 */
	close_record(s, at);
	return at;
}

/* An FDE for [start, start + size) under the CIE at cie, pc-relative sdata4
 * (enc 0x1b) or absolute 8 bytes (enc 0), the section at vaddr. */
static void put_fde(struct buf *s, size_t cie, int enc, uint64_t vaddr, uint64_t start, uint64_t size, int zaug)
{
	size_t at = s->n;
	put(s, 0, 4);
	put(s, s->n - cie, 4);  /* distance back to the CIE */
	if (enc == 0x1b) {
		put(s, (uint32_t)(start - (vaddr + s->n)), 4);
		put(s, size, 4);
	} else {
		put(s, start, 8);
		put(s, size, 8);
	}
	if (zaug)
		put(s, 0, 1);   /* augmentation data: none */
	close_record(s, at);
}

struct fde_list {
	uint64_t start[16], size[16];
	int n;
};

static void collect(void *ctx, uint64_t start, uint64_t size)
{
	struct fde_list *l = ctx;
	if (l->n < 16)
		l->start[l->n] = start, l->size[l->n] = size;
	l->n++;
}

#define EH_ADDR 0x480000ull

static void the_fdes_of_gccs_usual_layout_are_read(void **state)
{
	(void)state;
	struct buf s = { .n = 0 };
	size_t cie = put_cie(&s, "zR", 0x1b);
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400120, 12, 1);
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400200, 0x40, 1);
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400300, 0, 1);     /* discarded: skipped */
	size_t cie2 = put_cie(&s, "zPLR", 0x1b);
	put_fde(&s, cie2, 0x1b, EH_ADDR, 0x400400, 8, 1);
	put(&s, 0, 4);                                       /* terminator */
	struct fde_list l = { .n = 0 };
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, collect, &l), 3);
	assert_int_equal(l.n, 3);
	assert_true(l.start[0] == 0x400120 && l.size[0] == 12);
	assert_true(l.start[1] == 0x400200 && l.size[1] == 0x40);
	assert_true(l.start[2] == 0x400400 && l.size[2] == 8);
	/* counting only */
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, NULL, NULL), 3);
}

static void absolute_pointers_and_no_augmentation_are_read(void **state)
{
	(void)state;
	struct buf s = { .n = 0 };
	size_t cie = put_cie(&s, "", 0);
	put_fde(&s, cie, 0, EH_ADDR, 0x401000, 0x20, 0);
	struct fde_list l = { .n = 0 };
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, collect, &l), 1);
	assert_true(l.start[0] == 0x401000 && l.size[0] == 0x20);
}

static void unsupported_encodings_and_augmentations_stop_the_walk(void **state)
{
	(void)state;
	struct buf s = { .n = 0 };
	size_t cie = put_cie(&s, "zR", 0x3b);     /* datarel: needs a base we do not have */
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400100, 4, 1);
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, NULL, NULL), 0);
	s.n = 0;
	cie = put_cie(&s, "xyz", 0x1b);           /* not an augmentation we know */
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400100, 4, 1);
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, NULL, NULL), 0);
	s.n = 0;
	cie = put_cie(&s, "zR", 0x1b);
	put_fde(&s, cie, 0x1b, EH_ADDR, 0x400100, 4, 1);
	uint32_t far = 0x10000;                   /* a CIE pointer before the section */
	memcpy(s.b + cie + s.b[cie] + 4 + 4, &far, 4);
	assert_int_equal(ehframe_each_fde(s.b, s.n, EH_ADDR, NULL, NULL), 0);
}

/* Every prefix and every one-byte change of a good section: no read past
 * the end (ASan in `make check`), never more FDEs than there are, and only
 * functions the intact section could describe when the change is outside
 * the FDEs' own address fields. */
static void mangled_sections_are_read_safely(void **state)
{
	(void)state;
	struct buf s = { .n = 0 };
	size_t cie = put_cie(&s, "zPLR", 0x1b);
	for (int i = 0; i < 4; i++)
		put_fde(&s, cie, 0x1b, EH_ADDR, 0x400100 + 0x100 * (uint64_t)i, 0x40, 1);
	put(&s, 0, 4);
	for (size_t len = 0; len <= s.n; len++) {
		uint8_t *copy = malloc(len ? len : 1);
		memcpy(copy, s.b, len);
		assert_true(ehframe_each_fde(copy, len, EH_ADDR, NULL, NULL) <= 4);
		free(copy);
	}
	for (size_t at = 0; at < s.n; at++) {
		for (int v = 0; v < 256; v += 51) {
			uint8_t *copy = malloc(s.n);
			memcpy(copy, s.b, s.n);
			copy[at] = (uint8_t)v;
			struct fde_list l = { .n = 0 };
			size_t n = ehframe_each_fde(copy, s.n, EH_ADDR, collect, &l);
			assert_true(n == (size_t)l.n);
			free(copy);
		}
	}
}

/* ---- whole ELF files ----------------------------------------------------- */

#define TEXT EB_TEXT
#define CODE_OFF EB_CODE_OFF
#define A64_BL(from, to) (0x94000000u | ((uint32_t)(((int64_t)(to) - (int64_t)(from)) / 4) & 0x3ffffff))
#define A64_RET 0xd65f03c0u

/* A static executable with section headers and no symbol table: code at
 * TEXT + CODE_OFF, then an .eh_frame, .shstrtab and the section headers,
 * all in one RX segment. */
static uint8_t *build_stripped(const uint32_t *code, size_t nwords, const struct buf *eh, size_t *len_out)
{
	static const char shstr[] = "\0.text\0.eh_frame\0.shstrtab";
	size_t code_len = nwords * 4;
	size_t eh_off = (CODE_OFF + code_len + 7) & ~(size_t)7;
	size_t str_off = eh_off + eh->n;
	size_t sh_off = (str_off + sizeof shstr + 7) & ~(size_t)7;
	size_t len = sh_off + 4 * sizeof(Elf64_Shdr);
	uint8_t *im = calloc(1, len);
	Elf64_Ehdr *h = (Elf64_Ehdr *)im;
	eb_ehdr_init(h, TEXT + CODE_OFF, 1);
	h->e_shoff = sh_off;
	h->e_shentsize = sizeof(Elf64_Shdr);
	h->e_shnum = 4;
	h->e_shstrndx = 3;
	Elf64_Phdr *ph = (Elf64_Phdr *)(im + sizeof *h);
	*ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_vaddr = TEXT, .p_paddr = TEXT,
			    .p_filesz = len, .p_memsz = len, .p_align = 0x1000 };
	memcpy(im + CODE_OFF, code, code_len);
	memcpy(im + eh_off, eh->b, eh->n);
	memcpy(im + str_off, shstr, sizeof shstr);
	Elf64_Shdr *sh = (Elf64_Shdr *)(im + sh_off);
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			      .sh_addr = TEXT + CODE_OFF, .sh_offset = CODE_OFF, .sh_size = code_len, .sh_addralign = 4 };
	sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			      .sh_addr = TEXT + eh_off, .sh_offset = eh_off, .sh_size = eh->n, .sh_addralign = 8 };
	sh[3] = (Elf64_Shdr){ .sh_name = 17, .sh_type = SHT_STRTAB, .sh_offset = str_off, .sh_size = sizeof shstr,
			      .sh_addralign = 1 };
	*len_out = len;
	return im;
}

static void describe(const struct symtab *st, uint64_t addr, char *buf)
{
	symtab_describe(st, addr, buf, 64);
}

static void a_stripped_file_gets_functions_from_fdes_and_calls(void **state)
{
	(void)state;
	/* 0x400100 entry: bl f1; bl f2; ret
	 * 0x400110 f1 (no FDE, called):     nop; ret; nop; nop
	 * 0x400120 f2 (an FDE of 12 bytes): nop; nop; ret
	 * 0x40012c f3 (no FDE, not called): nop; ret */
	uint64_t base = TEXT + CODE_OFF;
	uint32_t code[] = {
		A64_BL(base, base + 0x10), A64_BL(base + 4, base + 0x20), A64_RET, A64_NOP,
		A64_NOP, A64_RET, A64_NOP, A64_NOP,
		A64_NOP, A64_NOP, A64_RET,
		A64_NOP, A64_RET,
	};
	size_t nwords = sizeof code / sizeof code[0];
	size_t eh_addr = TEXT + ((CODE_OFF + nwords * 4 + 7) & ~(size_t)7);
	struct buf eh = { .n = 0 };
	size_t cie = put_cie(&eh, "zR", 0x1b);
	put_fde(&eh, cie, 0x1b, eh_addr, base + 0x20, 12, 1);
	put(&eh, 0, 4);
	size_t len;
	uint8_t *im = build_stripped(code, nwords, &eh, &len);
	struct ivx_err err = { 0 };
	struct program *p = program_load_image(im, len, "stripped", &err);
	assert_non_null(p);
	const struct symtab *st = program_symbols(p);
	char buf[64];
	assert_int_equal(symtab_count(st), 3);
	describe(st, base, buf);
	assert_string_equal(buf, "sub_400100");          /* the entry point, to f1 */
	describe(st, base + 0xc, buf);
	assert_string_equal(buf, "sub_400100+0xc");
	describe(st, base + 0x14, buf);
	assert_string_equal(buf, "sub_400110+0x4");      /* a call target, up to f2 */
	describe(st, base + 0x28, buf);
	assert_string_equal(buf, "sub_400120+0x8");      /* the FDE */
	describe(st, base + 0x2c, buf);
	assert_string_equal(buf, "0x40012c");            /* nothing says f3 is a function */
	const struct symbol *f2 = symtab_find(st, "sub_400120");
	assert_non_null(f2);
	assert_true(f2->is_func && f2->size == 12);
	program_free(p);
	free(im);
}

static void a_file_with_symbols_keeps_them(void **state)
{
	(void)state;
	/* the workloads have symbols (and no .eh_frame): nothing is added */
	struct ivx_err err = { 0 };
	struct program *p = program_load_file("data/bin/workloads/crc", &err);
	assert_non_null(p);
	const struct symtab *st = program_symbols(p);
	assert_non_null(symtab_find(st, "main"));
	for (size_t i = 0; i < symtab_count(st); i++)
		assert_false(strncmp(symtab_at(st, i)->name, "sub_", 4) == 0);
	program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_fdes_of_gccs_usual_layout_are_read),
		cmocka_unit_test(absolute_pointers_and_no_augmentation_are_read),
		cmocka_unit_test(unsupported_encodings_and_augmentations_stop_the_walk),
		cmocka_unit_test(mangled_sections_are_read_safely),
		cmocka_unit_test(a_stripped_file_gets_functions_from_fdes_and_calls),
		cmocka_unit_test(a_file_with_symbols_keeps_them),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
