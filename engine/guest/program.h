/*
 * program.h — a validated guest executable: its ELF image, loadable
 * segments, entry point, symbols and the predecoded micro-ops of its code.
 *
 * A program is immutable once loaded and is shared by every guest process
 * (and every snapshot) that runs it, so decoding happens once per static
 * instruction for the whole session. ELF parsing is libelf's; this module
 * only checks what libelf hands back against what a static AArch64 Linux
 * executable must look like.
 */
#ifndef IVX_PROGRAM_H
#define IVX_PROGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "isa/uop.h"

struct program;
struct symtab;

struct program_segment {
	uint64_t vaddr;       /* where it loads */
	uint64_t memsz;       /* bytes in memory (>= filesz, rest zero) */
	uint64_t offset;      /* file offset of its bytes */
	uint64_t filesz;      /* bytes from the file */
	int prot;             /* MEM_R | MEM_W | MEM_X */
};

/* Load from a file, or from bytes already in memory (copied). `name` is used
 * in messages. NULL on error, with `err` filled. */
struct program *program_load_file(const char *path, struct ivx_err *err);
struct program *program_load_image(const void *image, size_t len, const char *name, struct ivx_err *err);
void program_free(struct program *p);

const char *program_name(const struct program *p);
uint64_t program_entry(const struct program *p);
int program_segment_count(const struct program *p);
const struct program_segment *program_segment(const struct program *p, int i);
const void *program_image(const struct program *p, size_t *len);
/* ELF program header table: its address once loaded, entry size, count. */
uint64_t program_phdr_addr(const struct program *p);
int program_phent(const struct program *p);
int program_phnum(const struct program *p);
/* Highest loaded address (end of the last segment): the brk starts above it. */
uint64_t program_end(const struct program *p);
/* Whether pc lies in an executable segment (the image's code). */
int program_is_code(const struct program *p, uint64_t pc);
const struct symtab *program_symbols(const struct program *p);

/* The predecoded uop for the instruction at pc, or NULL if pc is not a
 * 4-byte aligned address inside an executable segment. */
const struct uop *program_uop(const struct program *p, uint64_t pc);

/* The run of consecutive uops that contains pc: *first is the uop for pc,
 * *end one past the last uop of the same executable segment. 0 or -1. */
int program_code_run(const struct program *p, uint64_t pc, const struct uop **first, const struct uop **end);

/* Does [lo, hi) touch a page of an executable segment (decoded code)? */
int program_overlaps_code(const struct program *p, uint64_t lo, uint64_t hi);

/* "symbol+0xoff" into buf when a symbol covers addr (inside a sized
 * symbol, or a sizeless one's and within the program's segments): 1, else
 * 0 with buf untouched. */
int program_symbol_at(const struct program *p, uint64_t addr, char *buf, size_t n);

/* "symbol+0xoff" for addr, as program_symbol_at, else "0x..." */
const char *program_describe(const struct program *p, uint64_t addr, char *buf, size_t n);

#endif
