/*
 * program.c — loading and validating a static AArch64 ELF (see program.h).
 *
 * What we accept: ELFCLASS64, little-endian, EM_AARCH64, ET_EXEC, PT_LOAD
 * segments that lie inside the file, do not overlap each other, sit in the
 * user half of the address space and are of sane size; an entry point inside
 * an executable segment. PT_INTERP (a dynamic executable) is refused. Every
 * check failure is one line naming the file and what is wrong.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/alloc.h"
#include "base/file.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "isa/mem.h"
#include "program.h"
#include "symtab.h"

#define MAX_SEGMENTS   16
#define MAX_SEGMENT    (1ull << 30)            /* 1 GiB */
#define USER_TOP       (1ull << 47)
#define MAX_FILE       (512u << 20)

struct code_run {
	uint64_t base;        /* first instruction address */
	size_t count;         /* instructions */
	struct uop *uops;     /* count entries */
};

struct program {
	char name[256];
	uint8_t *image;
	size_t len;
	uint64_t entry;
	uint64_t phdr_addr;
	int phent, phnum;
	int n_segs;
	struct program_segment segs[MAX_SEGMENTS];
	int n_code;
	struct code_run code[MAX_SEGMENTS];
	struct symtab *symbols;
};

static int check(struct program *p, struct ivx_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return ivx_error(err, IVX_ESYS, "libelf initialisation failed");
	Elf *elf = elf_memory((char *)p->image, p->len);
	if (!elf)
		return ivx_error(err, IVX_EINPUT, "%s: not an ELF file (%s)", p->name, elf_errmsg(-1));
	int rc = IVX_OK;
	GElf_Ehdr eh;
	size_t phnum = 0;
	if (elf_kind(elf) != ELF_K_ELF) {
		rc = ivx_error(err, IVX_EINPUT, "%s: not an ELF file", p->name);
		goto out;
	}
	if (gelf_getclass(elf) != ELFCLASS64) {
		rc = ivx_error(err, IVX_EINPUT, "%s: wrong ELF class (need 64-bit AArch64)", p->name);
		goto out;
	}
	if (!gelf_getehdr(elf, &eh)) {
		rc = ivx_error(err, IVX_EINPUT, "%s: truncated or malformed ELF header (%s)", p->name, elf_errmsg(-1));
		goto out;
	}
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_AARCH64) {
		rc = ivx_error(err, IVX_EINPUT, "%s: wrong machine (e_machine %d): ivx runs little-endian AArch64 programs",
			       p->name, eh.e_machine);
		goto out;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {   /* an object file, a core dump */
		rc = ivx_error(err, IVX_EINPUT, "%s: not an executable (e_type %d, need ET_EXEC)", p->name, eh.e_type);
		goto out;
	}
	if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) {
		rc = ivx_error(err, IVX_EINPUT, "%s: no program headers (truncated file?)", p->name);
		goto out;
	}
	if (eh.e_type == ET_DYN) {
		/* (Debian's gcc makes a PIE by default: say what to build instead) */
		int interp = 0;
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			interp |= gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP;
		}
		if (interp)
			rc = ivx_error(err, IVX_EINPUT, "%s: dynamically linked (has PT_INTERP); build with -static", p->name);
		else
			rc = ivx_error(err, IVX_EINPUT, "%s: position-independent (ET_DYN: a static-pie or a shared library); "
				       "build with -static -no-pie", p->name);
		goto out;
	}
	p->entry = eh.e_entry;
	p->phent = eh.e_phentsize;
	p->phnum = (int)phnum;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			rc = ivx_error(err, IVX_EINPUT, "%s: program header %zu unreadable (truncated file?)", p->name, i);
			goto out;
		}
		if (ph.p_type == PT_INTERP) {
			rc = ivx_error(err, IVX_EINPUT, "%s: dynamically linked (has PT_INTERP); build with -static", p->name);
			goto out;
		}
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (p->n_segs == MAX_SEGMENTS) {
			rc = ivx_error(err, IVX_EINPUT, "%s: more than %d loadable segments", p->name, MAX_SEGMENTS);
			goto out;
		}
		if (ph.p_filesz > ph.p_memsz ||
		    (ph.p_filesz && (ph.p_offset > p->len || ph.p_filesz > p->len - ph.p_offset))) {
			rc = ivx_error(err, IVX_EINPUT, "%s: segment %zu lies outside the file (truncated?)", p->name, i);
			goto out;
		}
		if (ph.p_memsz > MAX_SEGMENT || ph.p_vaddr >= USER_TOP || ph.p_memsz > USER_TOP - ph.p_vaddr ||
		    ph.p_vaddr < MEM_PAGE_SIZE) {
			rc = ivx_error(err, IVX_EINPUT, "%s: segment %zu at 0x%llx size 0x%llx is absurd",
				       p->name, i, (unsigned long long)ph.p_vaddr, (unsigned long long)ph.p_memsz);
			goto out;
		}
		struct program_segment *s = &p->segs[p->n_segs];
		/* (a segment with nothing in the file has no meaningful offset) */
		s->vaddr = ph.p_vaddr, s->memsz = ph.p_memsz, s->filesz = ph.p_filesz;
		s->offset = ph.p_filesz ? ph.p_offset : 0;
		s->prot = (ph.p_flags & PF_R ? MEM_R : 0) | (ph.p_flags & PF_W ? MEM_W : 0) | (ph.p_flags & PF_X ? MEM_X : 0);
		for (int j = 0; j < p->n_segs; j++) {
			const struct program_segment *o = &p->segs[j];
			uint64_t a0 = s->vaddr & ~(MEM_PAGE_SIZE - 1), a1 = s->vaddr + s->memsz;
			uint64_t b0 = o->vaddr & ~(MEM_PAGE_SIZE - 1), b1 = o->vaddr + o->memsz;
			if (a0 < b1 && b0 < a1) {
				rc = ivx_error(err, IVX_EINPUT, "%s: segments %d and %d overlap", p->name, j, p->n_segs);
				goto out;
			}
		}
		if (ph.p_offset <= eh.e_phoff && eh.e_phoff - ph.p_offset < ph.p_filesz)
			p->phdr_addr = ph.p_vaddr + (eh.e_phoff - ph.p_offset);
		p->n_segs++;
	}
	if (p->n_segs == 0) {
		rc = ivx_error(err, IVX_EINPUT, "%s: no loadable segments", p->name);
		goto out;
	}
out:
	elf_end(elf);
	return rc;
}

static int decode_code(struct program *p, struct ivx_err *err)
{
	for (int i = 0; i < p->n_segs; i++) {
		const struct program_segment *s = &p->segs[i];
		if (!(s->prot & MEM_X))
			continue;
		/* The words the file gives, and one zero word after them (code
		 * running off its end meets `udf`, as it would in hardware);
		 * not the whole zero-filled rest of the segment, whose size the
		 * file does not bound: one uop per word of a huge one would
		 * take gigabytes of host memory for a few bytes of input. */
		struct code_run *r = &p->code[p->n_code];
		uint64_t seg_end = s->vaddr + s->memsz, file_end = s->vaddr + s->filesz;
		uint64_t end = ((file_end + 3) & ~3ull) + 4;
		r->base = s->vaddr & ~3ull;
		r->count = ((end < seg_end ? end : seg_end) - r->base) / 4;
		r->uops = ivx_calloc(r->count ? r->count : 1, sizeof *r->uops);
		if (!r->uops)
			return ivx_error(err, IVX_ESYS, "out of host memory decoding %s", p->name);
		for (size_t k = 0; k < r->count; k++) {
			uint64_t pc = r->base + 4 * k;
			uint8_t bytes[4] = { 0 };
			for (int b = 0; b < 4; b++)
				if (pc + b >= s->vaddr && pc + b < file_end)
					bytes[b] = p->image[s->offset + (pc + b - s->vaddr)];
			uint32_t word;
			memcpy(&word, bytes, 4);
			isa_decode(word, pc, &r->uops[k]);
		}
		p->n_code++;
	}
	/* the entry must be a whole decoded instruction */
	if (!program_uop(p, p->entry))
		return ivx_error(err, IVX_EINPUT, "%s: entry point 0x%llx is not an instruction of an executable segment",
				 p->name, (unsigned long long)p->entry);
	return IVX_OK;
}

struct program *program_load_image(const void *image, size_t len, const char *name, struct ivx_err *err)
{
	struct program *p = ivx_calloc(1, sizeof *p);
	if (!p) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	snprintf(p->name, sizeof p->name, "%s", name);
	p->image = ivx_malloc(len ? len : 1);
	if (!p->image) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		ivx_free(p);
		return NULL;
	}
	memcpy(p->image, image, len);
	p->len = len;
	if (check(p, err) < 0 || decode_code(p, err) < 0) {
		program_free(p);
		return NULL;
	}
	p->symbols = symtab_from_elf(p->image, p->len);
	if (!p->symbols) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		program_free(p);
		return NULL;
	}
	return p;
}

struct program *program_load_file(const char *path, struct ivx_err *err)
{
	int fd = ivx_open_input(path, err);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ivx_error(err, IVX_EINPUT, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if (st.st_size > MAX_FILE) {
		ivx_error(err, IVX_EINPUT, "%s: too large for a guest program", path);
		close(fd);
		return NULL;
	}
	size_t len = (size_t)st.st_size, got = 0;
	uint8_t *buf = ivx_malloc(len ? len : 1);
	if (!buf) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		close(fd);
		return NULL;
	}
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	struct program *p = program_load_image(buf, got, path, err);
	ivx_free(buf);
	return p;
}

void program_free(struct program *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n_code; i++)
		ivx_free(p->code[i].uops);
	symtab_free(p->symbols);
	ivx_free(p->image);
	ivx_free(p);
}

const char *program_name(const struct program *p) { return p->name; }
uint64_t program_entry(const struct program *p) { return p->entry; }
int program_segment_count(const struct program *p) { return p->n_segs; }
const struct program_segment *program_segment(const struct program *p, int i) { return &p->segs[i]; }
uint64_t program_phdr_addr(const struct program *p) { return p->phdr_addr; }
int program_phent(const struct program *p) { return p->phent; }
int program_phnum(const struct program *p) { return p->phnum; }
const struct symtab *program_symbols(const struct program *p) { return p->symbols; }

const void *program_image(const struct program *p, size_t *len)
{
	*len = p->len;
	return p->image;
}

int program_is_code(const struct program *p, uint64_t pc)
{
	for (int i = 0; i < p->n_segs; i++) {
		const struct program_segment *s = &p->segs[i];
		if ((s->prot & MEM_X) && pc >= s->vaddr && pc - s->vaddr < s->memsz)
			return 1;
	}
	return 0;
}

uint64_t program_end(const struct program *p)
{
	uint64_t end = 0;
	for (int i = 0; i < p->n_segs; i++)
		if (p->segs[i].vaddr + p->segs[i].memsz > end)
			end = p->segs[i].vaddr + p->segs[i].memsz;
	return end;
}

int program_code_run(const struct program *p, uint64_t pc, const struct uop **first, const struct uop **end)
{
	for (int i = 0; i < p->n_code; i++) {
		const struct code_run *r = &p->code[i];
		uint64_t k = (pc - r->base) / 4;
		if (pc >= r->base && k < r->count && !(pc & 3)) {
			*first = &r->uops[k];
			*end = r->uops + r->count;
			return 0;
		}
	}
	return -1;
}

const struct uop *program_uop(const struct program *p, uint64_t pc)
{
	const struct uop *u, *end;
	return program_code_run(p, pc, &u, &end) == 0 ? u : NULL;
}

int program_overlaps_code(const struct program *p, uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < p->n_segs; i++) {
		const struct program_segment *s = &p->segs[i];
		uint64_t base = s->vaddr & ~(MEM_PAGE_SIZE - 1);
		uint64_t end = (s->vaddr + s->memsz + MEM_PAGE_SIZE - 1) & ~(MEM_PAGE_SIZE - 1);
		if ((s->prot & MEM_X) && lo < end && base < hi)
			return 1;
	}
	return 0;
}

static int in_segments(const struct program *p, uint64_t addr)
{
	for (int i = 0; i < p->n_segs; i++)
		if (addr - p->segs[i].vaddr < p->segs[i].memsz)
			return 1;
	return 0;
}

int program_symbol_at(const struct program *p, uint64_t addr, char *buf, size_t n)
{
	uint64_t off = 0;
	const struct symbol *s = p->symbols ? symtab_lookup(p->symbols, addr, &off) : NULL;
	/* A sized symbol names only its own bytes (symtab_lookup checks); a
	 * sizeless one (a label, _end, an absolute constant) only addresses
	 * in the program's segments: 0x10 is not `abs_symbol+0xe`, nor the
	 * heap `_end+0x7fff...`. */
	if (!s || (!s->size && !in_segments(p, addr)))
		return 0;
	if (off)
		snprintf(buf, n, "%s+0x%llx", s->name, (unsigned long long)off);
	else
		snprintf(buf, n, "%s", s->name);
	return 1;
}

const char *program_describe(const struct program *p, uint64_t addr, char *buf, size_t n)
{
	if (!program_symbol_at(p, addr, buf, n))
		snprintf(buf, n, "0x%llx", (unsigned long long)addr);
	return buf;
}
