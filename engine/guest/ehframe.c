/*
 * ehframe.c — walk the FDEs of an .eh_frame section (see ehframe.h).
 *
 * The format is DWARF's call-frame information as GCC's unwinder reads it
 * (the LSB's .eh_frame): a sequence of length-prefixed records, each a CIE
 * (shared parameters, including how the FDEs that use it encode pointers,
 * the 'R' augmentation) or an FDE (its CIE, then the function's first
 * address and length). Only those two fields are read; the unwind
 * instructions are skipped. Every read is bounds-checked: the section comes
 * from the guest's file, which may be anything.
 */
#include <string.h>
#include "ehframe.h"

/* DW_EH_PE_*: the low nibble is the value's format, 0x70 what it is
 * relative to, 0x80 "the address of the value". */
enum {
	PE_ABSPTR = 0x00, PE_ULEB128 = 0x01, PE_UDATA2 = 0x02, PE_UDATA4 = 0x03,
	PE_UDATA8 = 0x04, PE_SLEB128 = 0x09, PE_SDATA2 = 0x0a, PE_SDATA4 = 0x0b,
	PE_SDATA8 = 0x0c,
	PE_FORMAT = 0x0f, PE_PCREL = 0x10, PE_RELATIVE = 0x70, PE_INDIRECT = 0x80,
};

struct cursor {
	const uint8_t *sec;
	size_t pos, end;      /* end: of the current record */
	uint64_t vaddr;       /* where sec[0] is in the program */
	int bad;              /* a read went past end or met something unsupported */
};

static uint64_t get_le(struct cursor *c, size_t n)
{
	if (c->bad || c->end - c->pos < n) {
		c->bad = 1;
		return 0;
	}
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)c->sec[c->pos + i] << (8 * i);
	c->pos += n;
	return v;
}

/* LEB128; sign-extended from its last byte's bit 6 when is_signed. */
static uint64_t get_leb(struct cursor *c, int is_signed)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;
	do {
		if (c->bad || c->pos >= c->end) {
			c->bad = 1;
			return 0;
		}
		b = c->sec[c->pos++];
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (is_signed && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return v;
}

/* A pointer in encoding enc. With apply, a pc-relative one is made absolute;
 * the other bases (data, text, function) and indirection need information
 * the section alone does not give, so they count as unsupported. */
static uint64_t get_encoded(struct cursor *c, int enc, int apply)
{
	uint64_t field = c->vaddr + c->pos, v;
	switch (enc & PE_FORMAT) {
	case PE_ABSPTR: case PE_UDATA8: case PE_SDATA8: v = get_le(c, 8); break;
	case PE_UDATA4: v = get_le(c, 4); break;
	case PE_SDATA4: v = (uint64_t)(int64_t)(int32_t)get_le(c, 4); break;
	case PE_UDATA2: v = get_le(c, 2); break;
	case PE_SDATA2: v = (uint64_t)(int64_t)(int16_t)get_le(c, 2); break;
	case PE_ULEB128: v = get_leb(c, 0); break;
	case PE_SLEB128: v = get_leb(c, 1); break;
	default: c->bad = 1; return 0;
	}
	if (!apply)
		return v;
	if ((enc & PE_INDIRECT) || ((enc & PE_RELATIVE) != 0 && (enc & PE_RELATIVE) != PE_PCREL)) {
		c->bad = 1;
		return 0;
	}
	return (enc & PE_RELATIVE) == PE_PCREL ? v + field : v;
}

/* Open the record at pos: c covers its body, *id_size the width of its
 * CIE id / CIE pointer field. 0, or -1 at the terminator, the section's
 * end or a length that does not fit. */
static int open_record(struct cursor *c, const uint8_t *sec, size_t len, size_t pos,
                       uint64_t vaddr, size_t *id_size)
{
	*c = (struct cursor){ sec, pos, len, vaddr, 0 };
	uint64_t length = get_le(c, 4);
	*id_size = 4;
	if (length == 0xffffffff) {       /* the 64-bit DWARF format */
		length = get_le(c, 8);
		*id_size = 8;
	}
	if (c->bad || length == 0 || length > len - c->pos || length < *id_size)
		return -1;
	c->end = c->pos + (size_t)length;
	return 0;
}

/* How the FDEs of the CIE at cie_pos encode their addresses, or -1. */
static int cie_fde_encoding(const uint8_t *sec, size_t len, size_t cie_pos, uint64_t vaddr)
{
	struct cursor c;
	size_t id_size;
	if (open_record(&c, sec, len, cie_pos, vaddr, &id_size) < 0 || get_le(&c, id_size) != 0)
		return -1;
	unsigned version = (unsigned)get_le(&c, 1);
	if (c.bad || (version != 1 && version != 3 && version != 4))
		return -1;
	const char *aug = (const char *)sec + c.pos;
	size_t aug_len = strnlen(aug, c.end - c.pos);
	if (aug_len == c.end - c.pos)
		return -1;
	c.pos += aug_len + 1;
	if (version == 4)
		get_le(&c, 2);                /* address and segment selector sizes */
	int old_eh = aug[0] == 'e' && aug[1] == 'h';
	if (old_eh)
		get_le(&c, 8);                /* an old GCC's exception table pointer */
	get_leb(&c, 0);                       /* code alignment */
	get_leb(&c, 1);                       /* data alignment */
	if (version == 1)
		get_le(&c, 1);                /* return address register */
	else
		get_leb(&c, 0);
	int enc = PE_ABSPTR;
	if (aug[0] == 'z') {
		get_leb(&c, 0);               /* the augmentation data's length */
		for (const char *a = aug + 1; *a && !c.bad; a++) {
			if (*a == 'R')
				enc = (int)get_le(&c, 1);
			else if (*a == 'L')
				get_le(&c, 1);
			else if (*a == 'P')
				get_encoded(&c, (int)get_le(&c, 1), 0);
			else if (*a != 'S' && *a != 'B')
				break;        /* unknown: what follows cannot be parsed */
		}
	} else if (aug[0] && !old_eh) {
		return -1;
	}
	return c.bad ? -1 : enc;
}

size_t ehframe_each_fde(const uint8_t *sec, size_t len, uint64_t vaddr,
                        ehframe_fde_fn *fn, void *ctx)
{
	size_t pos = 0, calls = 0, id_size;
	struct cursor c;
	while (open_record(&c, sec, len, pos, vaddr, &id_size) == 0) {
		size_t id_pos = c.pos;
		uint64_t cie_distance = get_le(&c, id_size);
		if (cie_distance != 0) {      /* an FDE: the distance back to its CIE */
			if (cie_distance > id_pos)
				break;
			int enc = cie_fde_encoding(sec, len, id_pos - (size_t)cie_distance, vaddr);
			if (enc < 0)
				break;
			uint64_t start = get_encoded(&c, enc, 1);
			uint64_t size = get_encoded(&c, enc & PE_FORMAT, 0);
			if (c.bad)
				break;
			if (start && size) {
				if (fn)
					fn(ctx, start, size);
				calls++;
			}
		}
		pos = c.end;
	}
	return calls;
}
