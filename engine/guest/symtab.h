/*
 * symtab.h — the guest program's symbols (functions and objects), read from
 * its ELF symbol table with libelf, for disassembly labels, error messages,
 * breakpoints and completion.
 */
#ifndef IVX_SYMTAB_H
#define IVX_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct symtab;

struct symbol {
	uint64_t addr;
	uint64_t size;
	int is_func;
	const char *name;     /* owned by the symtab */
};

/* Read the symbols of an ELF image in memory. Never fails: a stripped or odd
 * file gives an empty table. NULL only when out of memory. */
struct symtab *symtab_from_elf(const void *image, size_t len);
void symtab_free(struct symtab *st);

/* The symbol that contains addr (or the nearest one below it with unknown
 * size); NULL if none. *offset gets addr - symbol start. */
const struct symbol *symtab_lookup(const struct symtab *st, uint64_t addr, uint64_t *offset);
/* The symbol with this exact name, or NULL. */
const struct symbol *symtab_find(const struct symtab *st, const char *name);
/* All symbols, sorted by address. */
size_t symtab_count(const struct symtab *st);
const struct symbol *symtab_at(const struct symtab *st, size_t i);

/* Format "name+0xoff" (or "0xaddr" with no symbol) into buf. */
const char *symtab_describe(const struct symtab *st, uint64_t addr, char *buf, size_t n);

#endif
