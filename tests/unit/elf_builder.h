/*
 * elf_builder.h — tests only: build a minimal static AArch64 ELF in memory
 * from a list of instruction words, so loader and guest tests need no cross
 * compiler. Layout: one RX segment at 0x400000 holding the ELF header, the
 * program headers and the code; one RW data segment at 0x500000.
 */
#ifndef IVX_TEST_ELF_BUILDER_H
#define IVX_TEST_ELF_BUILDER_H

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EB_TEXT 0x400000ull
#define EB_DATA 0x500000ull
#define EB_CODE_OFF 0x100     /* code starts here in the file / text segment */

struct eb_image {
	uint8_t *bytes;
	size_t len;
};

/* An AArch64 executable's ELF header: entry point, phnum program headers
 * right after it, no section headers. */
static inline void eb_ehdr_init(Elf64_Ehdr *eh, uint64_t entry, int phnum)
{
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_AARCH64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = entry;
	eh->e_phoff = sizeof *eh;
	eh->e_ehsize = sizeof *eh;
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = (uint16_t)phnum;
}

/* Code words go at EB_TEXT + EB_CODE_OFF; data_len zero bytes of RW data. */
static inline struct eb_image eb_build(const uint32_t *code, size_t n_words, size_t data_len)
{
	size_t code_bytes = n_words * 4;
	size_t len = EB_CODE_OFF + code_bytes;
	struct eb_image im = { calloc(1, len), len };
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im.bytes;
	eb_ehdr_init(eh, EB_TEXT + EB_CODE_OFF, 2);
	Elf64_Phdr *ph = (Elf64_Phdr *)(im.bytes + sizeof *eh);
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
			      .p_vaddr = EB_TEXT, .p_paddr = EB_TEXT, .p_filesz = len,
			      .p_memsz = len, .p_align = 0x1000 };
	ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = len,
			      .p_vaddr = EB_DATA, .p_paddr = EB_DATA, .p_filesz = 0,
			      .p_memsz = data_len ? data_len : 16, .p_align = 0x1000 };
	memcpy(im.bytes + EB_CODE_OFF, code, code_bytes);
	return im;
}

static inline Elf64_Ehdr *eb_ehdr(struct eb_image *im) { return (Elf64_Ehdr *)im->bytes; }
static inline Elf64_Phdr *eb_phdr(struct eb_image *im, int i)
{
	return (Elf64_Phdr *)(im->bytes + sizeof(Elf64_Ehdr)) + i;
}

/* A few encodings the tests use. */
#define A64_MOVZ_X(rd, imm16)   (0xd2800000u | ((uint32_t)(imm16) << 5) | (rd))
#define A64_SVC0                0xd4000001u
#define A64_B(off_words)        (0x14000000u | ((uint32_t)(off_words) & 0x3ffffff))
#define A64_LDR_X_X(rt, rn)     (0xf9400000u | ((rn) << 5) | (rt))        /* ldr xt, [xn] */
#define A64_STR_X_PRE_SP_M16(rt) (0xf81f0fe0u | (rt))                       /* str xt, [sp, #-16]! */
#define A64_BRK0                0xd4200000u
#define A64_FADD_D0             0x1e602800u                                  /* fadd d0, d0, d0 */
#define A64_NOP                 0xd503201fu

#endif
