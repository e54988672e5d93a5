/*
 * isa_atomic.c — the Large System Extensions' atomics (FEAT_LSE).
 *
 * Covered: LDADD LDCLR LDEOR LDSET LDSMAX LDSMIN LDUMAX LDUMIN SWP (and
 * their ST* aliases, Rt = XZR), CAS and CASP, every size, with and without
 * acquire/release (one thread: the ordering bits change nothing). Each is
 * a read-modify-write of naturally aligned memory (a misaligned address
 * faults, as on Linux); a CAS whose comparison fails still needs write
 * permission (it writes the value back), as qemu's host compare-and-swap
 * does. Nothing changes in memory or registers unless the whole access
 * succeeds.
 *
 * Field use: rd = Rt, rm = Rs, rn = base; CAS: ra = Rs as read (rm is Rs
 * as written); CASP: ra = Rt + 1, imm = Rs + 1; f0 = access size in bytes
 * (per element for CASP); f1 = op.
 */
#include "isa_internal.h"
#include "mem.h"

enum { A_ADD, A_CLR, A_EOR, A_SET, A_SMAX, A_SMIN, A_UMAX, A_UMIN, A_SWP };

static __attribute__((noinline, cold)) int afault(struct cpu *c, uint64_t addr, int kind)
{
	c->fault_addr = addr;
	c->fault_kind = kind;
	return ISA_FAULT;
}

static int h_atomic(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], old, s = c->x[u->rm], n;
	unsigned size = u->f0, bits = 8 * size;
	uint64_t mask = size == 8 ? ~0ull : (1ull << bits) - 1;
	c->mem_addr = addr;
	if (addr & (size - 1))
		return afault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, size, &old))
		return afault(c, addr, FAULT_READ);
	s &= mask;
	int64_t so = isa_sext(old, (int)bits), ss = isa_sext(s, (int)bits);
	switch (u->f1) {
	case A_ADD: n = old + s; break;
	case A_CLR: n = old & ~s; break;
	case A_EOR: n = old ^ s; break;
	case A_SET: n = old | s; break;
	case A_SMAX: n = so > ss ? old : s; break;
	case A_SMIN: n = so < ss ? old : s; break;
	case A_UMAX: n = old > s ? old : s; break;
	case A_UMIN: n = old < s ? old : s; break;
	default: n = s; break;
	}
	if (mem_store(c->mem, addr, size, n & mask))
		return afault(c, addr, FAULT_WRITE);
	c->x[u->rd] = old;
	return ISA_NEXT;
}

static int h_cas(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], old;
	unsigned size = u->f0;
	uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
	c->mem_addr = addr;
	if (addr & (size - 1))
		return afault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, size, &old))
		return afault(c, addr, FAULT_READ);
	uint64_t n = old == (c->x[u->ra] & mask) ? c->x[u->rd] & mask : old;
	if (mem_store(c->mem, addr, size, n))
		return afault(c, addr, FAULT_WRITE);
	c->x[u->rm] = old;
	return ISA_NEXT;
}

/* CASP: the pair is aligned to its total size, so it is inside one page. */
static int h_casp(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], o0, o1;
	unsigned size = u->f0;
	uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
	unsigned rs1 = (unsigned)u->imm;
	c->mem_addr = addr;
	if (addr & (2 * size - 1))
		return afault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, size, &o0) || mem_load(c->mem, addr + size, size, &o1))
		return afault(c, addr, FAULT_READ);
	uint64_t n0 = o0, n1 = o1;
	if (o0 == (c->x[u->rm] & mask) && o1 == (c->x[rs1] & mask)) {
		n0 = c->x[u->rd] & mask;
		n1 = c->x[u->ra] & mask;
	}
	if (mem_store(c->mem, addr, size, n0))
		return afault(c, addr, FAULT_WRITE);
	if (mem_store(c->mem, addr + size, size, n1))
		return afault(c, addr + size, FAULT_WRITE);
	c->x[u->rm] = o0;
	c->x[rs1] = o1;
	return ISA_NEXT;
}

/* Atomic memory operations: size 111 0 00 A R 1 Rs o3 opc 00 Rn Rt. */
void isa_dec_atomic(uint32_t w, struct uop *u)
{
	unsigned o3 = (w >> 15) & 1, opc = isa_bits(w, 14, 12);
	if (o3 && opc != 0)
		return;                         /* LDAPR has its own row; the rest unallocated */
	isa_set(u, h_atomic, UOP_LOAD);
	u->f0 = (uint8_t)(1u << (w >> 30));
	u->f1 = (uint8_t)(o3 ? A_SWP : opc);
	u->mem_size = u->f0;
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	u->rm = isa_rzr(isa_bits(w, 20, 16));
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_src(u, u->rn);
	isa_src(u, u->rm);
	isa_dst(u, u->rd);
}

/* CAS (size 001000 1 L 1 Rs o0 11111 Rn Rt) and CASP (0 sz 001000 0 L 1 ...),
 * reached from isa_dec_ldst_excl, whose encoding space they share. */
void isa_dec_cas(uint32_t w, struct uop *u)
{
	if (isa_bits(w, 14, 10) != 31)
		return;
	int pair = !((w >> 23) & 1);
	uint32_t rs = isa_bits(w, 20, 16), rt = isa_bits(w, 4, 0);
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	if (pair) {
		/* even registers only; pairs ending in XZR (Rs or Rt = 30) are
		 * left unsupported */
		if ((w >> 31) || (rs & 1) || (rt & 1) || rs == 30 || rt == 30)
			return;
		isa_set(u, h_casp, UOP_LOAD);
		u->f0 = (uint8_t)((w >> 30) ? 8 : 4);
		u->mem_size = (uint8_t)(2 * u->f0);
		u->rm = (uint8_t)rs;
		u->imm = rs + 1;
		u->rd = (uint8_t)rt;
		u->ra = (uint8_t)(rt + 1);
		isa_src(u, u->rn);
		isa_src(u, u->rd);
		isa_src(u, u->ra);
		isa_src(u, u->rm);
		isa_dst(u, u->rm);
		isa_dst(u, (uint8_t)(rs + 1));
		return;
	}
	isa_set(u, h_cas, UOP_LOAD);
	u->f0 = (uint8_t)(1u << (w >> 30));
	u->mem_size = u->f0;
	/* Rs is read (ra: 31 reads zero) and written (rm: 31 drops the old value) */
	u->ra = isa_rzr(rs);
	u->rm = isa_rsink(rs);
	u->rd = isa_rzr(rt);
	isa_src(u, u->rn);
	isa_src(u, u->rd);
	isa_src(u, u->ra);
	isa_dst(u, u->rm);
}
