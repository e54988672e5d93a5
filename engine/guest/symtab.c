/*
 * symtab.c — symbols from the ELF .symtab via libelf (see symtab.h).
 *
 * Keeps STT_FUNC, STT_OBJECT and STT_NOTYPE symbols with a name that does not
 * start with '$' (mapping symbols such as $x/$d mark code/data, not names),
 * sorted by address; lookups are binary searches. A file without function
 * symbols (stripped) gets the functions symtab_recover.h finds, named
 * sub_ADDR after the address they start at.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "symtab_recover.h"
#include "symtab.h"

/* "sub_" and up to 16 hex digits */
#define SYNTH_NAME_MAX 21

struct symtab {
	struct symbol *syms;
	size_t n;
	char *names;          /* all names, back to back */
	char *synth_names;    /* the sub_ADDR names, SYNTH_NAME_MAX bytes each */
};

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->is_func != y->is_func)       /* functions last: lookups walk backwards */
		return x->is_func - y->is_func;
	return strcmp(x->name, y->name);
}

/* 0, or -1 when out of memory. */
static int load(struct symtab *st, Elf *elf)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		size_t count = sh.sh_size / sh.sh_entsize, names_len = 0;
		for (int pass = 0; pass < 2; pass++) {
			size_t n = 0, off = 0;
			for (size_t i = 0; i < count; i++) {
				GElf_Sym s;
				if (!gelf_getsym(data, (int)i, &s))
					continue;
				int type = GELF_ST_TYPE(s.st_info);
				const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
				if (!name || !*name || name[0] == '$' || s.st_shndx == SHN_UNDEF ||
				    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
					continue;
				size_t len = strlen(name) + 1;
				if (pass == 0) {
					n++, names_len += len;
					continue;
				}
				memcpy(st->names + off, name, len);
				st->syms[n++] = (struct symbol){ s.st_value, s.st_size, type == STT_FUNC, st->names + off };
				off += len;
			}
			if (pass == 0) {
				st->syms = ivx_calloc(n ? n : 1, sizeof *st->syms);
				st->names = ivx_malloc(names_len ? names_len : 1);
				if (!st->syms || !st->names)
					return -1;
			} else {
				st->n = n;
			}
		}
		break;
	}
	return 0;
}

/* For a file with no function symbols: the functions symtab_recover finds,
 * named sub_ADDR. 0, or -1 when out of memory. */
static int load_recovered(struct symtab *st, Elf *elf)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->syms[i].is_func)
			return 0;
	struct fn_extent *fns;
	long count = symtab_recover_functions(elf, &fns);
	if (count <= 0)
		return (int)count;
	struct symbol *syms = ivx_calloc(st->n + (size_t)count, sizeof *syms);
	st->synth_names = ivx_malloc((size_t)count * SYNTH_NAME_MAX);
	if (!syms || !st->synth_names) {
		ivx_free(syms);
		ivx_free(fns);
		return -1;
	}
	if (st->n)
		memcpy(syms, st->syms, st->n * sizeof *syms);
	ivx_free(st->syms);
	st->syms = syms;
	for (long i = 0; i < count; i++) {
		char *name = st->synth_names + i * SYNTH_NAME_MAX;
		snprintf(name, SYNTH_NAME_MAX, "sub_%llx", (unsigned long long)fns[i].start);
		st->syms[st->n++] = (struct symbol){ fns[i].start, fns[i].size, 1, name };
	}
	ivx_free(fns);
	return 0;
}

struct symtab *symtab_from_elf(const void *image, size_t len)
{
	struct symtab *st = ivx_calloc(1, sizeof *st);
	if (!st)
		return NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return st;
	Elf *elf = elf_memory((char *)image, len);
	if (elf) {
		int rc = load(st, elf);
		if (rc == 0)
			rc = load_recovered(st, elf);
		elf_end(elf);
		if (rc == 0 && st->n)   /* qsort(NULL, 0) is UB: syms may be NULL */
			qsort(st->syms, st->n, sizeof *st->syms, by_addr);
		if (rc < 0) {
			symtab_free(st);
			return NULL;
		}
	}
	return st;
}

void symtab_free(struct symtab *st)
{
	if (!st)
		return;
	ivx_free(st->syms);
	ivx_free(st->names);
	ivx_free(st->synth_names);
	ivx_free(st);
}

const struct symbol *symtab_lookup(const struct symtab *st, uint64_t addr, uint64_t *offset)
{
	/* last symbol with sym.addr <= addr, preferring one whose extent covers addr */
	size_t lo = 0, hi = st->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (st->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct symbol *best = NULL;
	for (size_t i = lo; i-- > 0 && lo - i <= 64;) {
		const struct symbol *s = &st->syms[i];
		int covers = s->size ? addr - s->addr < s->size : i + 1 == lo;
		if (covers) {
			best = s;
			break;
		}
	}
	if (best && offset)
		*offset = addr - best->addr;
	return best;
}

const struct symbol *symtab_find(const struct symtab *st, const char *name)
{
	for (size_t i = 0; i < st->n; i++)
		if (strcmp(st->syms[i].name, name) == 0)
			return &st->syms[i];
	return NULL;
}

size_t symtab_count(const struct symtab *st) { return st->n; }
const struct symbol *symtab_at(const struct symtab *st, size_t i) { return i < st->n ? &st->syms[i] : NULL; }

const char *symtab_describe(const struct symtab *st, uint64_t addr, char *buf, size_t n)
{
	uint64_t off = 0;
	const struct symbol *s = st ? symtab_lookup(st, addr, &off) : NULL;
	if (!s)
		snprintf(buf, n, "0x%llx", (unsigned long long)addr);
	else if (off)
		snprintf(buf, n, "%s+0x%llx", s->name, (unsigned long long)off);
	else
		snprintf(buf, n, "%s", s->name);
	return buf;
}
