/*
 * cmd_disasm.c — `ivx disasm PROG [SYMBOL]`: capstone disassembly of the
 * program's code (or one symbol), with symbol labels.
 *
 * "The code" is the executable sections (.text: SHF_EXECINSTR), not the
 * executable segment, which also maps the ELF header, the program headers
 * and read-only data: decoding those as instructions shows nonsense. A
 * program without section headers falls back to its executable segments
 * after the program headers.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "isa/disasm.h"
#include "isa/mem.h"
#include "guest/program.h"
#include "guest/symtab.h"

static void print_range(const struct program *p, uint64_t lo, uint64_t hi)
{
	const struct symtab *st = program_symbols(p);
	char text[128];
	for (uint64_t pc = lo; pc < hi; pc += 4) {
		const struct uop *u = program_uop(p, pc);
		if (!u)
			continue;
		uint64_t off;
		const struct symbol *s = symtab_lookup(st, pc, &off);
		if (s && off == 0)
			printf("\n%016llx <%s>:\n", (unsigned long long)pc, s->name);
		printf("  %8llx:\t%08x\t%s\n", (unsigned long long)pc, u->word,
		       disasm_word(u->word, pc, text, sizeof text));
	}
}

/* Disassemble the executable sections; their count (0: none, or no
 * section headers; -1: libelf could not read them). */
static int print_sections(const struct program *p)
{
	size_t len;
	const void *image = program_image(p, &len);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	Elf *e = elf_memory((char *)image, len);
	if (!e)
		return -1;
	int n = 0;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		print_range(p, sh.sh_addr, sh.sh_addr + sh.sh_size);
		n++;
	}
	elf_end(e);
	return n;
}

/* A symbol's instructions: its size as the symbol table gives it, but no
 * further than the code it starts in (a corrupt size would otherwise walk
 * the whole address space). -1 if it does not start in code. */
static int disasm_symbol(const struct program *p, const struct symbol *s)
{
	const struct uop *first, *end;
	if (program_code_run(p, s->addr, &first, &end) < 0)
		return -1;
	uint64_t code_end = end[-1].pc + 4, size = s->size ? s->size : 4;
	uint64_t hi = size < code_end - s->addr ? s->addr + size : code_end;
	print_range(p, s->addr, hi);
	return 0;
}

static int cmd_disasm_main(int argc, char **argv)
{
	const char *path = NULL, *symbol = NULL;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("disasm: unknown option '%s'", argv[i]);
			return EXIT_USAGE;
		}
		if (!path)
			path = argv[i];
		else if (!symbol)
			symbol = argv[i];
		else {
			cli_error("disasm: too many arguments (usage: ivx disasm PROG [SYMBOL])");
			return EXIT_USAGE;
		}
	}
	if (!path) {
		cli_error("disasm: missing PROG (usage: ivx disasm PROG [SYMBOL]; '-' is the built-in program)");
		return EXIT_USAGE;
	}
	if (!strcmp(path, "-"))
		path = NULL;     /* "-" names the built-in program */
	struct program *p = cli_load_program(path);
	if (!p)
		return EXIT_INPUT;
	int status = 0;
	if (symbol) {
		const struct symbol *s = symtab_find(program_symbols(p), symbol);
		if (!s) {
			cli_error("disasm: no symbol '%s' in %s", symbol, program_name(p));
			status = EXIT_USAGE;
		} else if (disasm_symbol(p, s) < 0) {
			cli_error("disasm: symbol '%s' (0x%llx) is not in %s's code", symbol,
				  (unsigned long long)s->addr, program_name(p));
			status = EXIT_USAGE;
		}
	} else if (print_sections(p) <= 0) {
		uint64_t headers_end = program_phdr_addr(p) + (uint64_t)program_phent(p) * (uint64_t)program_phnum(p);
		for (int i = 0; i < program_segment_count(p); i++) {
			const struct program_segment *seg = program_segment(p, i);
			uint64_t lo = seg->vaddr, hi = seg->vaddr + seg->filesz;
			if (program_phdr_addr(p) >= lo && headers_end <= hi && headers_end > lo)
				lo = (headers_end + 3) & ~(uint64_t)3;
			if (seg->prot & MEM_X)
				print_range(p, lo, hi);
		}
	}
	program_free(p);
	return status;
}

const struct cli_command cmd_disasm_entry = {
	.name = "disasm",
	.summary = "disassemble a program (or one symbol) with capstone",
	.help =
	"usage: ivx disasm PROG [SYMBOL]\n\n"
	"Print the disassembly of PROG's code (its executable sections: not the ELF\n"
	"header or read-only data that share their segment), or of SYMBOL only,\n"
	"with symbol labels. PROG '-' is the built-in default program.\n",
	.main = cmd_disasm_main,
};
