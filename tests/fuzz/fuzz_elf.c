/*
 * fuzz_elf.c — libFuzzer harness: the ELF loader (program_load_image).
 *
 * The input is an executable's bytes. A rejected one must come with a
 * message; an accepted one is walked as the explorer would walk it (every
 * segment, the symbols, the predecoded code of each executable segment,
 * "symbol+off" descriptions) and then started as a guest process that runs
 * at most FUZZ_ELF_INSNS instructions with its output dropped. The guest's
 * system calls are emulated (no host file is opened), so this is safe.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "guest/guest.h"
#include "guest/program.h"
#include "guest/symtab.h"

#define FUZZ_ELF_INSNS 2000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void drop_output(void *ctx, int fd, const void *buf, size_t len)
{
	(void)ctx, (void)fd, (void)buf, (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ivx_err err = { 0 };
	struct program *p = program_load_image(data, size, "fuzz.elf", &err);
	if (!p) {
		if (!err.msg[0] || strchr(err.msg, '\n'))
			abort();   /* a refusal says why, on one line */
		return 0;
	}
	char buf[256];
	program_describe(p, program_entry(p), buf, sizeof buf);
	for (int i = 0; i < program_segment_count(p); i++) {
		const struct program_segment *s = program_segment(p, i);
		program_describe(p, s->vaddr, buf, sizeof buf);
		/* The first and last few instructions of the segment. */
		for (uint64_t off = 0; off < 64 && off < s->memsz; off += 4) {
			program_uop(p, s->vaddr + off);
			program_uop(p, s->vaddr + s->memsz - 4 - off);
		}
		const struct uop *first, *end;
		program_code_run(p, s->vaddr, &first, &end);
	}
	const struct symtab *st = program_symbols(p);
	for (size_t i = 0; i < symtab_count(st) && i < 64; i++) {
		const struct symbol *sym = symtab_at(st, i);
		symtab_find(st, sym->name);
		uint64_t off;
		symtab_lookup(st, sym->addr + 1, &off);
	}
	char *argv[] = { (char *)"fuzz.elf", NULL };
	struct guest_options o = { .argc = 1, .argv = argv, .seed = 1, .output = drop_output };
	struct guest *g = guest_new(p, &o, &err);
	if (g) {
		guest_run(g, FUZZ_ELF_INSNS, &err);
		guest_free(g);
	}
	program_free(p);
	return 0;
}
