/*
 * isa_fpls.c — loads and stores of the SIMD&FP registers.
 *
 * Covered: LDR/STR of B, H, S, D and Q registers in every addressing mode
 * (unsigned offset, unscaled LDUR/STUR, pre- and post-index, register
 * offset with extend and shift, literal), LDP/STP/LDNP/STNP of S, D and Q,
 * the Advanced SIMD structure loads and stores LD1-LD4/ST1-ST4 (multiple
 * structures, one to four registers) and their single-lane and replicating
 * forms (LD1 {v.s}[i], LD1R ...), with and without post-index.
 *
 * These are less hot than the integer accesses, so one handler per
 * (direction, addressing mode) reads the access size from f0 instead of
 * being stamped out per size. Every access goes through vmem_read /
 * vmem_write, which move up to 64 bytes in 8-byte pieces and check every
 * page before writing anything, so a fault leaves memory and registers as
 * they were (the integer side's rule, isa_ls.c).
 *
 * Field use: rd = Vt, ra = Vt2 (pairs), rn = base X (SP for 31), rm = index
 * X (register offset, structure post-index; CPU_ZR for an immediate
 * post-index); imm = byte offset / literal address / post-index amount;
 * f0 = log2 of the access size (0..4), f1 = index shift (register offset);
 * structures: f0 = log2 element size, f1 = registers (or selem), f2 = lane
 * (single) / elements per register (multiple), f3 = kind flags.
 */
#include <string.h>
#include "isa_internal.h"
#include "mem.h"

static __attribute__((noinline, cold)) int vfault(struct cpu *c, uint64_t addr, int kind)
{
	c->fault_addr = addr;
	c->fault_kind = kind;
	return ISA_FAULT;
}

/* The largest access size (1, 2, 4, 8) not above n. */
static inline unsigned vchunk(unsigned n)
{
	return n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
}

/* Read n bytes (up to 64) in pieces of up to 8. */
static int vmem_read(struct cpu *c, uint64_t addr, uint8_t *buf, unsigned n)
{
	for (unsigned i = 0, k; i < n; i += k) {
		uint64_t v;
		k = vchunk(n - i);
		if (mem_load(c->mem, addr + i, k, &v))
			return vfault(c, addr + i, FAULT_READ);
		memcpy(buf + i, &v, k);
	}
	return 0;
}

/* Write n bytes (up to 64) as vmem_read reads them. Every page touched is checked
 * writable first; after that only the store overlay of a wrong path can
 * refuse a store. */
static int vmem_write(struct cpu *c, uint64_t addr, const uint8_t *buf, unsigned n)
{
	uint64_t last = addr + n - 1;
	if ((addr >> MEM_PAGE_BITS) != (last >> MEM_PAGE_BITS)) {
		for (uint64_t p = addr; ; p = (p | (MEM_PAGE_SIZE - 1)) + 1) {
			const struct mem_region *r = mem_find(c->mem, p);
			if (!r || !mem_writable(r->prot))
				return vfault(c, p, FAULT_WRITE);
			if ((p >> MEM_PAGE_BITS) == (last >> MEM_PAGE_BITS))
				break;
		}
	}
	for (unsigned i = 0, k; i < n; i += k) {
		uint64_t v = 0;
		k = vchunk(n - i);
		memcpy(&v, buf + i, k);
		if (mem_store(c->mem, addr + i, k, v))
			return vfault(c, addr + i, FAULT_WRITE);
	}
	return 0;
}

/* ---- single registers and pairs ---- */

enum { V_OFF, V_PRE, V_POST, V_RX, V_RUW, V_RSW };

static inline uint64_t vaddr(const struct cpu *c, const struct uop *u, int mode)
{
	switch (mode) {
	case V_POST: return c->x[u->rn];
	case V_RX: return c->x[u->rn] + (c->x[u->rm] << u->f1);
	case V_RUW: return c->x[u->rn] + ((uint64_t)(uint32_t)c->x[u->rm] << u->f1);
	case V_RSW: return c->x[u->rn] + ((uint64_t)(int64_t)(int32_t)c->x[u->rm] << u->f1);
	default: return c->x[u->rn] + (uint64_t)u->imm;
	}
}

static inline void vwriteback(struct cpu *c, const struct uop *u, int mode, uint64_t addr)
{
	if (mode == V_PRE)
		c->x[u->rn] = addr;
	else if (mode == V_POST)
		c->x[u->rn] = addr + (uint64_t)u->imm;
}

/* Writing a scalar register zeroes the rest of the vector. */
static inline void vset(struct cpu *c, unsigned r, const uint8_t *buf, unsigned n)
{
	union cpu_vreg v;
	memset(&v, 0, sizeof v);
	memcpy(v.b, buf, n);
	c->v[r] = v;
}

#define DEF_VLS(mode)                                                           \
static int h_vld_##mode(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t addr = vaddr(c, u, mode);                                      \
	uint8_t buf[16];                                                        \
	c->mem_addr = addr;                                                     \
	if (vmem_read(c, addr, buf, 1u << u->f0))                               \
		return ISA_FAULT;                                               \
	vset(c, u->rd, buf, 1u << u->f0);                                       \
	vwriteback(c, u, mode, addr);                                           \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_vst_##mode(struct cpu *c, const struct uop *u)                     \
{                                                                               \
	uint64_t addr = vaddr(c, u, mode);                                      \
	c->mem_addr = addr;                                                     \
	if (vmem_write(c, addr, c->v[u->rd].b, 1u << u->f0))                    \
		return ISA_FAULT;                                               \
	vwriteback(c, u, mode, addr);                                           \
	return ISA_NEXT;                                                        \
}
#define DEF_VLSP(mode)                                                          \
static int h_vldp_##mode(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	uint64_t addr = vaddr(c, u, mode);                                      \
	unsigned n = 1u << u->f0;                                               \
	uint8_t buf[32];                                                        \
	c->mem_addr = addr;                                                     \
	if (vmem_read(c, addr, buf, 2 * n))                                     \
		return ISA_FAULT;                                               \
	vset(c, u->rd, buf, n);                                                 \
	vset(c, u->ra, buf + n, n);                                             \
	vwriteback(c, u, mode, addr);                                           \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_vstp_##mode(struct cpu *c, const struct uop *u)                    \
{                                                                               \
	uint64_t addr = vaddr(c, u, mode);                                      \
	unsigned n = 1u << u->f0;                                               \
	uint8_t buf[32];                                                        \
	c->mem_addr = addr;                                                     \
	memcpy(buf, c->v[u->rd].b, n);                                          \
	memcpy(buf + n, c->v[u->ra].b, n);                                      \
	if (vmem_write(c, addr, buf, 2 * n))                                    \
		return ISA_FAULT;                                               \
	vwriteback(c, u, mode, addr);                                           \
	return ISA_NEXT;                                                        \
}

DEF_VLS(V_OFF)
DEF_VLS(V_PRE)
DEF_VLS(V_POST)
DEF_VLSP(V_OFF)
DEF_VLSP(V_PRE)
DEF_VLSP(V_POST)
DEF_VLS(V_RX)
DEF_VLS(V_RUW)
DEF_VLS(V_RSW)

static const uop_exec_fn vld_fns[6] = { h_vld_V_OFF, h_vld_V_PRE, h_vld_V_POST, h_vld_V_RX, h_vld_V_RUW, h_vld_V_RSW };
static const uop_exec_fn vst_fns[6] = { h_vst_V_OFF, h_vst_V_PRE, h_vst_V_POST, h_vst_V_RX, h_vst_V_RUW, h_vst_V_RSW };
static const uop_exec_fn vldp_fns[3] = { h_vldp_V_OFF, h_vldp_V_PRE, h_vldp_V_POST };
static const uop_exec_fn vstp_fns[3] = { h_vstp_V_OFF, h_vstp_V_PRE, h_vstp_V_POST };

/* log2 of the access size from size (31..30) and opc (23..22), or -1. */
static int vsize(uint32_t w, int *load)
{
	unsigned size = w >> 30, opc = isa_bits(w, 23, 22);
	*load = opc & 1;
	if (opc >> 1)
		return size == 0 ? 4 : -1;
	return (int)size;
}

static void set_vls(struct uop *u, uint32_t w, int mode, int lg, int load)
{
	isa_set(u, load ? vld_fns[mode] : vst_fns[mode], load ? UOP_LOAD : UOP_STORE);
	u->f0 = (uint8_t)lg;
	u->mem_size = (uint8_t)(1u << lg);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (mode >= V_RX) {
		u->rm = isa_rzr(isa_bits(w, 20, 16));
		isa_src(u, u->rm);
	}
	if (load)
		isa_dst_v(u, u->rd);
	else
		isa_src_v(u, u->rd);
	if (mode == V_PRE || mode == V_POST)
		isa_dst_wb(u);
}

void isa_dec_fp_ldst_uimm(uint32_t w, struct uop *u)
{
	int load, lg = vsize(w, &load);
	if (lg < 0)
		return;
	u->imm = (int64_t)isa_bits(w, 21, 10) << lg;
	set_vls(u, w, V_OFF, lg, load);
}

void isa_dec_fp_ldst_imm9(uint32_t w, struct uop *u)
{
	static const int modes[4] = { V_OFF, V_POST, -1, V_PRE };
	int load, lg = vsize(w, &load);
	int mode = modes[isa_bits(w, 11, 10)];
	if (lg < 0 || mode < 0)
		return;
	u->imm = isa_sext(isa_bits(w, 20, 12), 9);
	set_vls(u, w, mode, lg, load);
}

void isa_dec_fp_ldst_reg(uint32_t w, struct uop *u)
{
	int load, lg = vsize(w, &load), mode;
	switch (isa_bits(w, 15, 13)) {
	case 2: mode = V_RUW; break;
	case 3: case 7: mode = V_RX; break;
	case 6: mode = V_RSW; break;
	default: return;
	}
	if (lg < 0)
		return;
	u->f1 = (uint8_t)(((w >> 12) & 1) ? lg : 0);
	set_vls(u, w, mode, lg, load);
}

void isa_dec_fp_ld_lit(uint32_t w, struct uop *u)
{
	unsigned opc = w >> 30;
	if (opc == 3)
		return;
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 23, 5), 19) * 4);
	isa_set(u, h_vld_V_OFF, UOP_LOAD);
	u->f0 = (uint8_t)(opc + 2);
	u->mem_size = (uint8_t)(1u << u->f0);
	u->rn = CPU_ZR;
	u->imm = (int64_t)u->target;
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	isa_dst_v(u, u->rd);
}

void isa_dec_fp_ldst_pair(uint32_t w, struct uop *u)
{
	unsigned opc = w >> 30, idx = isa_bits(w, 24, 23), load = (w >> 22) & 1;
	if (opc == 3)
		return;
	int mode = idx == 1 ? V_POST : idx == 3 ? V_PRE : V_OFF;
	int lg = (int)opc + 2;
	isa_set(u, load ? vldp_fns[mode] : vstp_fns[mode], load ? UOP_LOAD : UOP_STORE);
	u->f0 = (uint8_t)lg;
	u->mem_size = (uint8_t)(2u << lg);
	u->imm = isa_sext(isa_bits(w, 21, 15), 7) * (1ll << lg);
	u->rd = (uint8_t)isa_bits(w, 4, 0);
	u->ra = (uint8_t)isa_bits(w, 14, 10);
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (load) {
		isa_dst_v(u, u->rd);
		isa_dst_v(u, u->ra);
	} else {
		isa_src_v(u, u->rd);
		isa_src_v(u, u->ra);
	}
	if (mode != V_OFF)
		isa_dst_wb(u);
}

/* ---- Advanced SIMD structures ---- */

/* Post-index: by the register rm, or (rm == CPU_ZR) by imm. */
static inline void struct_writeback(struct cpu *c, const struct uop *u, uint64_t addr)
{
	if (u->f3 & 1)
		c->x[u->rn] = addr + (u->rm == CPU_ZR ? (uint64_t)u->imm : c->x[u->rm]);
}

/* Multiple structures: f0 = log2 esize, f1 = registers (rpt * selem),
 * f2 = selem, imm2 = bytes per register (8 or 16). Memory holds the
 * structures interleaved: element e of register s (of a group of selem)
 * at (e * selem + s) * esize. */
static int h_ldst_multi(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn];
	unsigned es = 1u << u->f0, nregs = u->f1, selem = u->f2, rbytes = (unsigned)u->imm2;
	unsigned total = nregs * rbytes, rpt = nregs / selem, elems = rbytes / es;
	uint8_t buf[64];
	c->mem_addr = addr;
	if (u->f3 & 2) {                        /* load */
		if (vmem_read(c, addr, buf, total))
			return ISA_FAULT;
		union cpu_vreg v[4];
		memset(v, 0, sizeof v);
		for (unsigned r = 0; r < rpt; r++)
			for (unsigned e = 0; e < elems; e++)
				for (unsigned s = 0; s < selem; s++)
					memcpy(&v[r * selem + s].b[e * es],
					       buf + ((r * elems + e) * selem + s) * es, es);
		for (unsigned i = 0; i < nregs; i++)
			c->v[(u->rd + i) & 31] = v[i];
	} else {
		for (unsigned r = 0; r < rpt; r++)
			for (unsigned e = 0; e < elems; e++)
				for (unsigned s = 0; s < selem; s++)
					memcpy(buf + ((r * elems + e) * selem + s) * es,
					       &c->v[(u->rd + r * selem + s) & 31].b[e * es], es);
		if (vmem_write(c, addr, buf, total))
			return ISA_FAULT;
	}
	struct_writeback(c, u, addr);
	return ISA_NEXT;
}

/* Single structure: f0 = log2 esize, f2 = selem, imm2 = lane; f3 bit 2 =
 * replicate (LDnR) with bit 3 = 128-bit. */
static int h_ldst_single(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn];
	unsigned es = 1u << u->f0, selem = u->f2, lane = (unsigned)u->imm2;
	uint8_t buf[32];
	c->mem_addr = addr;
	if (u->f3 & 2) {
		if (vmem_read(c, addr, buf, es * selem))
			return ISA_FAULT;
		for (unsigned s = 0; s < selem; s++) {
			union cpu_vreg *v = &c->v[(u->rd + s) & 31];
			if (u->f3 & 4) {
				unsigned bytes = (u->f3 & 8) ? 16 : 8;
				union cpu_vreg n;
				memset(&n, 0, sizeof n);
				for (unsigned i = 0; i < bytes; i += es)
					memcpy(&n.b[i], buf + s * es, es);
				*v = n;
			} else {
				memcpy(&v->b[lane * es], buf + s * es, es);
			}
		}
	} else {
		for (unsigned s = 0; s < selem; s++)
			memcpy(buf + s * es, &c->v[(u->rd + s) & 31].b[lane * es], es);
		if (vmem_write(c, addr, buf, es * selem))
			return ISA_FAULT;
	}
	struct_writeback(c, u, addr);
	return ISA_NEXT;
}

static void struct_common(struct uop *u, uint32_t w, int load, unsigned first, unsigned nregs)
{
	u->rd = (uint8_t)first;
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if ((w >> 23) & 1) {                    /* post-index */
		uint32_t rm = isa_bits(w, 20, 16);
		u->f3 |= 1;
		u->rm = rm == 31 ? CPU_ZR : (uint8_t)rm;
		u->imm = u->mem_size;
		if (rm != 31)
			isa_src(u, u->rm);
		isa_dst_wb(u);
	} else if (isa_bits(w, 20, 16) != 0) {
		isa_set_unsupported(u);
		return;
	}
	for (unsigned i = 0; i < nregs; i++) {
		if (load)
			isa_dst_v(u, (first + i) & 31);
		else if (u->n_src < sizeof u->src)
			isa_src_v(u, (first + i) & 31);
	}
	if (load)
		u->f3 |= 2;
}

void isa_dec_simd_ldst_multi(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, load = (w >> 22) & 1, size = isa_bits(w, 11, 10);
	unsigned nregs, selem;
	switch (isa_bits(w, 15, 12)) {
	case 0: nregs = 4; selem = 4; break;    /* LD4/ST4 */
	case 2: nregs = 4; selem = 1; break;    /* LD1/ST1, 4 registers */
	case 4: nregs = 3; selem = 3; break;    /* LD3/ST3 */
	case 6: nregs = 3; selem = 1; break;
	case 7: nregs = 1; selem = 1; break;
	case 8: nregs = 2; selem = 2; break;    /* LD2/ST2 */
	case 10: nregs = 2; selem = 1; break;
	default: return;
	}
	if (size == 3 && !q && selem > 1)
		return;                         /* reserved */
	isa_set(u, h_ldst_multi, load ? UOP_LOAD : UOP_STORE);
	u->f0 = (uint8_t)size;
	u->f1 = (uint8_t)nregs;
	u->f2 = (uint8_t)selem;
	u->imm2 = q ? 16 : 8;
	u->mem_size = (uint8_t)(nregs * (q ? 16 : 8));
	struct_common(u, w, load, isa_bits(w, 4, 0), nregs);
}

void isa_dec_simd_ldst_single(uint32_t w, struct uop *u)
{
	unsigned q = (w >> 30) & 1, load = (w >> 22) & 1, r = (w >> 21) & 1;
	unsigned opcode = isa_bits(w, 15, 13), s = (w >> 12) & 1, size = isa_bits(w, 11, 10);
	unsigned selem = (((opcode & 1) << 1) | r) + 1, scale = opcode >> 1, index = 0;
	int replicate = 0;
	switch (scale) {
	case 0: index = (q << 3) | (s << 2) | size; break;
	case 1:
		if (size & 1)
			return;
		index = (q << 2) | (s << 1) | (size >> 1);
		break;
	case 2:
		if (size & 2)
			return;
		if (size & 1) {
			if (s)
				return;
			index = q;
			scale = 3;
		} else {
			index = (q << 1) | s;
		}
		break;
	case 3:
		if (!load || s)
			return;
		scale = size;
		replicate = 1;
		break;
	}
	isa_set(u, h_ldst_single, load ? UOP_LOAD : UOP_STORE);
	u->f0 = (uint8_t)scale;
	u->f2 = (uint8_t)selem;
	u->imm2 = index;
	if (replicate)
		u->f3 = (uint8_t)(4 | (q << 3));
	u->mem_size = (uint8_t)(selem << scale);
	struct_common(u, w, load, isa_bits(w, 4, 0), selem);
	if (load && !replicate)                 /* lanes merge into the old value */
		for (unsigned i = 0; i < selem; i++)
			isa_src_v(u, (isa_bits(w, 4, 0) + i) & 31);
}
