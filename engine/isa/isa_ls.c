/*
 * isa_ls.c — A64 integer loads and stores.
 *
 * Covered: LDR/STR of every size and signedness in every addressing mode
 * (unsigned offset, unscaled LDUR/STUR, unprivileged LDTR/STTR — which at
 * EL0 behave exactly like the unscaled forms —, pre- and post-index,
 * register offset with extend and shift, literal), LDP/STP/LDPSW and the
 * non-temporal LDNP/STNP, the exclusives (LDXR/STXR/LDXP/STXP and their
 * acquire/release forms), LDAR/STLR (and LDLAR/STLLR), LDAPR, and PRFM in
 * all its forms as a no-op.
 *
 * The normal loads and stores are the hot path, so each (access, addressing
 * mode) pair gets its own handler, stamped out by DEF_LD/DEF_ST; the literal
 * forms reuse the "base + offset" handlers with the zero register as base
 * and the literal address as offset. The rarer exclusive and ordered
 * accesses share handlers that read the size from f0.
 *
 * Faults leave architected state untouched: nothing is written back and no
 * register changes unless every access of the instruction succeeded. A load
 * pair reads both halves before writing either register; a store pair that
 * crosses a page checks both pages' permissions before storing anything.
 * Every access records its effective address in c->mem_addr, even when it
 * faults, for the timing model.
 *
 * Field use: rd = Rt (a sink/zero resolved per load/store), ra = Rt2 of a
 * pair, rn = base (SP for 31), rm = index register, or the status register
 * Rs of a store-exclusive; imm = byte offset (or the literal address);
 * f0 = index shift (register offset) or access size (exclusive/ordered).
 */
#include "isa_internal.h"
#include "mem.h"

static __attribute__((noinline, cold)) int ls_fault(struct cpu *c, uint64_t addr, int kind)
{
	c->fault_addr = addr;
	c->fault_kind = kind;
	return ISA_FAULT;
}

#define LIKELY_OK(e) __builtin_expect((e) == 0, 1)

/* ---- addressing modes ---- */

enum { M_OFF, M_PRE, M_POST, M_RX, M_RUW, M_RSW, M_COUNT };

#define ADDR_OFF(c, u)  ((c)->x[(u)->rn] + (uint64_t)(u)->imm)
#define ADDR_PRE(c, u)  ADDR_OFF(c, u)
#define ADDR_POST(c, u) ((c)->x[(u)->rn])
#define ADDR_RX(c, u)   ((c)->x[(u)->rn] + ((c)->x[(u)->rm] << (u)->f0))
#define ADDR_RUW(c, u)  ((c)->x[(u)->rn] + ((uint64_t)(uint32_t)(c)->x[(u)->rm] << (u)->f0))
#define ADDR_RSW(c, u)  ((c)->x[(u)->rn] + ((uint64_t)(int64_t)(int32_t)(c)->x[(u)->rm] << (u)->f0))

#define WB_OFF(c, u, a)  ((void)0)
#define WB_PRE(c, u, a)  ((c)->x[(u)->rn] = (a))
#define WB_POST(c, u, a) ((c)->x[(u)->rn] = (a) + (uint64_t)(u)->imm)
#define WB_RX(c, u, a)   ((void)0)
#define WB_RUW(c, u, a)  ((void)0)
#define WB_RSW(c, u, a)  ((void)0)

/* ---- value conversions ---- */

#define CV_Z(v)    (v)
#define CV_SB64(v) ((uint64_t)(int64_t)(int8_t)(v))
#define CV_SB32(v) ((uint64_t)(uint32_t)(int32_t)(int8_t)(v))
#define CV_SH64(v) ((uint64_t)(int64_t)(int16_t)(v))
#define CV_SH32(v) ((uint64_t)(uint32_t)(int32_t)(int16_t)(v))
#define CV_SW64(v) ((uint64_t)(int64_t)(int32_t)(v))

/* ---- TLB hit paths ----
 *
 * Handlers try mem_load_hit/mem_store_hit (mem.h) first: with no call on
 * the fast path they need no stack frame, and on a miss they tail-call
 * their slow twin (s_*), which goes through mem_load/mem_store and handles
 * faults. The pair versions below cover both halves with one TLB probe
 * when they share a page. While speculating, mem's active TLBs never
 * match, so these never bypass the store overlay.
 */

static inline int tlb_load_pair(struct mem *m, uint64_t addr, unsigned size, uint64_t *a, uint64_t *b)
{
	uint64_t page = addr >> MEM_PAGE_BITS;
	const struct mem_tlb_entry *e = &m->rtlb[page & (MEM_TLB_SIZE - 1)];
	if (__builtin_expect(e->page == page && (addr & (MEM_PAGE_SIZE - 1)) + 2 * size <= MEM_PAGE_SIZE, 1)) {
		const uint8_t *h = (const uint8_t *)(e->addend + (uintptr_t)addr);
		uint64_t va = 0, vb = 0;
		memcpy(&va, h, size);
		memcpy(&vb, h + size, size);
		*a = va;
		*b = vb;
		return 0;
	}
	return -1;
}

static inline int tlb_store_pair(struct mem *m, uint64_t addr, unsigned size, uint64_t a, uint64_t b)
{
	uint64_t page = addr >> MEM_PAGE_BITS;
	const struct mem_tlb_entry *e = &m->wtlb[page & (MEM_TLB_SIZE - 1)];
	if (__builtin_expect(e->page == page && (addr & (MEM_PAGE_SIZE - 1)) + 2 * size <= MEM_PAGE_SIZE, 1)) {
		uint8_t *h = (uint8_t *)(e->addend + (uintptr_t)addr);
		memcpy(h, &a, size);
		memcpy(h + size, &b, size);
		return 0;
	}
	return -1;
}

/* ---- single loads and stores ---- */

/* The loaded register is written before the base write-back, so with
 * Rt == Rn (CONSTRAINED UNPREDICTABLE) the write-back wins, as in qemu. */
#define DEF_LD1(name, size, cv, mode)                                           \
static __attribute__((noinline)) int s_##name##_##mode(struct cpu *c, const struct uop *u, uint64_t addr) \
{                                                                               \
	uint64_t v;                                                             \
	if (mem_load(c->mem, addr, size, &v))                                   \
		return ls_fault(c, addr, FAULT_READ);                           \
	c->x[u->rd] = cv(v);                                                    \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##_##mode(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t addr = ADDR_##mode(c, u), v;                                   \
	c->mem_addr = addr;                                                     \
	if (!LIKELY_OK(mem_load_hit(c->mem, addr, size, &v)))                       \
		return s_##name##_##mode(c, u, addr);                           \
	c->x[u->rd] = cv(v);                                                    \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}

#define DEF_ST1(name, size, mode)                                               \
static __attribute__((noinline)) int s_##name##_##mode(struct cpu *c, const struct uop *u, uint64_t addr) \
{                                                                               \
	if (mem_store(c->mem, addr, size, c->x[u->rd]))                         \
		return ls_fault(c, addr, FAULT_WRITE);                          \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##_##mode(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t addr = ADDR_##mode(c, u);                                      \
	c->mem_addr = addr;                                                     \
	if (!LIKELY_OK(mem_store_hit(c->mem, addr, size, c->x[u->rd])))             \
		return s_##name##_##mode(c, u, addr);                           \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}

#define DEF_LD(name, size, cv) \
	DEF_LD1(name, size, cv, OFF) DEF_LD1(name, size, cv, PRE) DEF_LD1(name, size, cv, POST) \
	DEF_LD1(name, size, cv, RX) DEF_LD1(name, size, cv, RUW) DEF_LD1(name, size, cv, RSW)
#define DEF_ST(name, size) \
	DEF_ST1(name, size, OFF) DEF_ST1(name, size, PRE) DEF_ST1(name, size, POST) \
	DEF_ST1(name, size, RX) DEF_ST1(name, size, RUW) DEF_ST1(name, size, RSW)

DEF_LD(ldrb, 1, CV_Z)
DEF_LD(ldrh, 2, CV_Z)
DEF_LD(ldrw, 4, CV_Z)
DEF_LD(ldrx, 8, CV_Z)
DEF_LD(ldrsbx, 1, CV_SB64)
DEF_LD(ldrsbw, 1, CV_SB32)
DEF_LD(ldrshx, 2, CV_SH64)
DEF_LD(ldrshw, 2, CV_SH32)
DEF_LD(ldrswx, 4, CV_SW64)
DEF_ST(strb, 1)
DEF_ST(strh, 2)
DEF_ST(strw, 4)
DEF_ST(strx, 8)

/* [size][opc] as the encoding has them; NULL = PRFM or unallocated. */
#define LS_ROWS(mode) {                                                                 \
	{ h_strb_##mode, h_ldrb_##mode, h_ldrsbx_##mode, h_ldrsbw_##mode },             \
	{ h_strh_##mode, h_ldrh_##mode, h_ldrshx_##mode, h_ldrshw_##mode },             \
	{ h_strw_##mode, h_ldrw_##mode, h_ldrswx_##mode, NULL },                        \
	{ h_strx_##mode, h_ldrx_##mode, NULL, NULL } }

static const uop_exec_fn ls_fns[M_COUNT][4][4] = {
	LS_ROWS(OFF), LS_ROWS(PRE), LS_ROWS(POST), LS_ROWS(RX), LS_ROWS(RUW), LS_ROWS(RSW),
};

static int h_prfm(struct cpu *c, const struct uop *u)
{
	(void)c;
	(void)u;
	return ISA_NEXT;
}

static int is_prfm(unsigned size, unsigned opc) { return size == 3 && opc == 2; }

/* Fill a single load/store from fields size (31..30), opc (23..22), Rn and
 * Rt, and Rm for the register-offset modes. Leaves the uop unsupported for
 * an unallocated (size, opc). */
static void set_ldst(struct uop *u, uint32_t w, int mode)
{
	unsigned size = w >> 30, opc = isa_bits(w, 23, 22);
	uint32_t rt = isa_bits(w, 4, 0);
	uop_exec_fn fn = ls_fns[mode][size][opc];
	if (!fn)
		return;
	int load = opc != 0;
	isa_set(u, fn, load ? UOP_LOAD : UOP_STORE);
	u->mem_size = (uint8_t)(1u << size);
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (mode >= M_RX) {
		u->rm = isa_rzr(isa_bits(w, 20, 16));
		isa_src(u, u->rm);
	}
	if (load) {
		u->rd = isa_rsink(rt);
		isa_dst(u, u->rd);
	} else {
		u->rd = isa_rzr(rt);
		isa_src(u, u->rd);
	}
	if (mode == M_PRE || mode == M_POST)
		isa_dst_wb(u);
}

static void set_prfm(struct uop *u)
{
	isa_set(u, h_prfm, UOP_NOP);
}

void isa_dec_ldst_uimm(uint32_t w, struct uop *u)
{
	unsigned size = w >> 30;
	if (is_prfm(size, isa_bits(w, 23, 22))) {
		set_prfm(u);
		return;
	}
	u->imm = (int64_t)isa_bits(w, 21, 10) << size;
	set_ldst(u, w, M_OFF);
}

/* Unscaled (LDUR/STUR), post-index, unprivileged (LDTR/STTR), pre-index. */
void isa_dec_ldst_imm9(uint32_t w, struct uop *u)
{
	static const int modes[4] = { M_OFF, M_POST, M_OFF, M_PRE };
	unsigned kind = isa_bits(w, 11, 10);
	if (is_prfm(w >> 30, isa_bits(w, 23, 22))) {
		if (kind == 0)          /* PRFUM; the other forms are unallocated */
			set_prfm(u);
		return;
	}
	u->imm = isa_sext(isa_bits(w, 20, 12), 9);
	set_ldst(u, w, modes[kind]);
}

void isa_dec_ldst_reg(uint32_t w, struct uop *u)
{
	unsigned size = w >> 30, option = isa_bits(w, 15, 13);
	int mode;
	switch (option) {
	case 2: mode = M_RUW; break;            /* UXTW */
	case 3: case 7: mode = M_RX; break;     /* LSL (UXTX), SXTX */
	case 6: mode = M_RSW; break;            /* SXTW */
	default: return;
	}
	if (is_prfm(size, isa_bits(w, 23, 22))) {
		set_prfm(u);
		return;
	}
	u->f0 = (uint8_t)(((w >> 12) & 1) ? size : 0);
	set_ldst(u, w, mode);
}

void isa_dec_ld_lit(uint32_t w, struct uop *u)
{
	/* opc: LDR W, LDR X, LDRSW, PRFM, as (size, opc) of the offset forms */
	static const unsigned sizes[3] = { 2, 3, 2 }, opcs[3] = { 1, 1, 2 };
	unsigned opc = w >> 30;
	u->target = u->pc + (uint64_t)(isa_sext(isa_bits(w, 23, 5), 19) * 4);
	if (opc == 3) {
		set_prfm(u);
		return;
	}
	isa_set(u, ls_fns[M_OFF][sizes[opc]][opcs[opc]], UOP_LOAD);
	u->mem_size = (uint8_t)(1u << sizes[opc]);
	u->rn = CPU_ZR;
	u->imm = (int64_t)u->target;
	u->rd = isa_rsink(isa_bits(w, 4, 0));
	isa_dst(u, u->rd);
}

/* ---- pairs ---- */

/* Rt2 is written before Rt (qemu's order), both only after both loads. */
#define DEF_LDP1(name, size, cv, mode)                                          \
static __attribute__((noinline)) int s_##name##_##mode(struct cpu *c, const struct uop *u, uint64_t addr) \
{                                                                               \
	uint64_t a, b;                                                          \
	if (mem_load(c->mem, addr, size, &a))                                   \
		return ls_fault(c, addr, FAULT_READ);                           \
	if (mem_load(c->mem, addr + size, size, &b))                            \
		return ls_fault(c, addr + size, FAULT_READ);                    \
	c->x[u->ra] = cv(b);                                                    \
	c->x[u->rd] = cv(a);                                                    \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##_##mode(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t addr = ADDR_##mode(c, u), a, b;                                \
	c->mem_addr = addr;                                                     \
	if (!LIKELY_OK(tlb_load_pair(c->mem, addr, size, &a, &b)))              \
		return s_##name##_##mode(c, u, addr);                           \
	c->x[u->ra] = cv(b);                                                    \
	c->x[u->rd] = cv(a);                                                    \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}

/* The slow path of a store pair. Both halves of a pair inside one page share
 * its permission, so once the first store succeeded the second cannot fault
 * (outside speculation, where a full overlay may stop the wrong path).
 * A pair that straddles two pages is checked page by page before anything
 * is stored. */
static __attribute__((noinline)) int store_pair(struct cpu *c, uint64_t addr, unsigned size,
						uint64_t a, uint64_t b)
{
	if ((addr & (MEM_PAGE_SIZE - 1)) + 2 * size > MEM_PAGE_SIZE) {
		uint64_t last = addr + 2 * size - 1;
		const struct mem_region *r1 = mem_find(c->mem, addr);
		const struct mem_region *r2 = mem_find(c->mem, last);
		if (!r1 || !mem_writable(r1->prot))
			return ls_fault(c, addr, FAULT_WRITE);
		if (!r2 || !mem_writable(r2->prot)) {
			uint64_t page2 = last & ~(MEM_PAGE_SIZE - 1);
			return ls_fault(c, addr + size <= page2 ? addr + size : addr, FAULT_WRITE);
		}
	}
	if (mem_store(c->mem, addr, size, a))
		return ls_fault(c, addr, FAULT_WRITE);
	if (mem_store(c->mem, addr + size, size, b))
		return ls_fault(c, addr + size, FAULT_WRITE);
	return 0;
}

#define DEF_STP1(name, size, mode)                                              \
static __attribute__((noinline)) int s_##name##_##mode(struct cpu *c, const struct uop *u, uint64_t addr) \
{                                                                               \
	if (store_pair(c, addr, size, c->x[u->rd], c->x[u->ra]))                \
		return ISA_FAULT;                                               \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}                                                                               \
static int h_##name##_##mode(struct cpu *c, const struct uop *u)                \
{                                                                               \
	uint64_t addr = ADDR_##mode(c, u);                                      \
	c->mem_addr = addr;                                                     \
	if (!LIKELY_OK(tlb_store_pair(c->mem, addr, size, c->x[u->rd], c->x[u->ra]))) \
		return s_##name##_##mode(c, u, addr);                           \
	WB_##mode(c, u, addr);                                                  \
	return ISA_NEXT;                                                        \
}

#define DEF_LDP(name, size, cv) \
	DEF_LDP1(name, size, cv, OFF) DEF_LDP1(name, size, cv, PRE) DEF_LDP1(name, size, cv, POST)
#define DEF_STP(name, size) \
	DEF_STP1(name, size, OFF) DEF_STP1(name, size, PRE) DEF_STP1(name, size, POST)

DEF_LDP(ldpw, 4, CV_Z)
DEF_LDP(ldpx, 8, CV_Z)
DEF_LDP(ldpsw, 4, CV_SW64)
DEF_STP(stpw, 4)
DEF_STP(stpx, 8)

void isa_dec_ldst_pair(uint32_t w, struct uop *u)
{
	/* [mode][opc][L]; NULL = unallocated (STGP, opc 11) */
#define PAIR_ROWS(mode) {                                                       \
	{ h_stpw_##mode, h_ldpw_##mode }, { NULL, h_ldpsw_##mode },             \
	{ h_stpx_##mode, h_ldpx_##mode }, { NULL, NULL } }
	static const uop_exec_fn fns[3][4][2] = { PAIR_ROWS(OFF), PAIR_ROWS(PRE), PAIR_ROWS(POST) };
#undef PAIR_ROWS
	unsigned opc = w >> 30, idx = isa_bits(w, 24, 23), load = (w >> 22) & 1;
	int mode = idx == 1 ? M_POST : idx == 3 ? M_PRE : M_OFF;
	unsigned size = opc == 2 ? 8 : 4;
	if (idx == 0 && opc == 1)       /* no LDNPSW */
		return;
	uop_exec_fn fn = fns[mode][opc][load];
	if (!fn)
		return;
	isa_set(u, fn, load ? UOP_LOAD : UOP_STORE);
	u->mem_size = (uint8_t)(2 * size);
	u->imm = isa_sext(isa_bits(w, 21, 15), 7) * (int64_t)size;
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (load) {
		u->rd = isa_rsink(isa_bits(w, 4, 0));
		u->ra = isa_rsink(isa_bits(w, 14, 10));
		isa_dst(u, u->rd);
		isa_dst(u, u->ra);
	} else {
		u->rd = isa_rzr(isa_bits(w, 4, 0));
		u->ra = isa_rzr(isa_bits(w, 14, 10));
		isa_src(u, u->rd);
		isa_src(u, u->ra);
	}
	if (mode != M_OFF)
		isa_dst_wb(u);
}

/* ---- exclusive and ordered accesses (size in f0) ---- */

static int h_ldxr(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], v;
	c->mem_addr = addr;
	if (addr & (u->f0 - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, u->f0, &v))
		return ls_fault(c, addr, FAULT_READ);
	c->excl_addr = addr;
	c->excl_size = u->f0;
	c->excl_valid = 1;
	c->x[u->rd] = v;
	return ISA_NEXT;
}

/* Succeeds (status 0) iff the monitor is armed for this address; either way
 * the monitor is then cleared. A failing store-exclusive accesses no memory
 * (as in qemu), but a misaligned address faults regardless. */
static int h_stxr(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn];
	c->mem_addr = addr;
	if (addr & (u->f0 - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	uint64_t status = 1;
	if (c->excl_valid && c->excl_addr == addr) {
		if (mem_store(c->mem, addr, u->f0, c->x[u->rd]))
			return ls_fault(c, addr, FAULT_WRITE);
		status = 0;
	}
	c->excl_valid = 0;
	c->x[u->rm] = status;
	return ISA_NEXT;
}

/* Pairs: f0 is the element size; the pair must be aligned to its total size,
 * so it never crosses a page. */
static int h_ldxp(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], a, b;
	unsigned size = u->f0;
	c->mem_addr = addr;
	if (addr & (2u * size - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, size, &a))
		return ls_fault(c, addr, FAULT_READ);
	if (mem_load(c->mem, addr + size, size, &b))
		return ls_fault(c, addr + size, FAULT_READ);
	c->excl_addr = addr;
	c->excl_size = 2 * size;
	c->excl_valid = 1;
	c->x[u->ra] = b;
	c->x[u->rd] = a;
	return ISA_NEXT;
}

static int h_stxp(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn];
	unsigned size = u->f0;
	c->mem_addr = addr;
	if (addr & (2u * size - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	uint64_t status = 1;
	if (c->excl_valid && c->excl_addr == addr) {
		if (store_pair(c, addr, size, c->x[u->rd], c->x[u->ra]))
			return ISA_FAULT;
		status = 0;
	}
	c->excl_valid = 0;
	c->x[u->rm] = status;
	return ISA_NEXT;
}

/* LDAR, LDAPR, LDLAR: an aligned plain load (one thread: no reordering to
 * guard against). */
static int h_ldar(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn], v;
	c->mem_addr = addr;
	if (addr & (u->f0 - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	if (mem_load(c->mem, addr, u->f0, &v))
		return ls_fault(c, addr, FAULT_READ);
	c->x[u->rd] = v;
	return ISA_NEXT;
}

static int h_stlr(struct cpu *c, const struct uop *u)
{
	uint64_t addr = c->x[u->rn];
	c->mem_addr = addr;
	if (addr & (u->f0 - 1u))
		return ls_fault(c, addr, FAULT_ALIGN);
	if (mem_store(c->mem, addr, u->f0, c->x[u->rd]))
		return ls_fault(c, addr, FAULT_WRITE);
	return ISA_NEXT;
}

static void set_ordered(struct uop *u, uint32_t w, uop_exec_fn fn, int load)
{
	isa_set(u, fn, load ? UOP_LOAD : UOP_STORE);
	u->f0 = (uint8_t)(1u << (w >> 30));
	u->mem_size = u->f0;
	u->rn = isa_rsp(isa_bits(w, 9, 5));
	isa_src(u, u->rn);
	if (load) {
		u->rd = isa_rsink(isa_bits(w, 4, 0));
		isa_dst(u, u->rd);
	} else {
		u->rd = isa_rzr(isa_bits(w, 4, 0));
		isa_src(u, u->rd);
	}
}

void isa_dec_ldst_excl(uint32_t w, struct uop *u)
{
	unsigned o2 = (w >> 23) & 1, load = (w >> 22) & 1, o1 = (w >> 21) & 1;
	unsigned size = w >> 30;
	if (o2 && o1) {                 /* CAS (LSE) */
		isa_dec_cas(w, u);
		return;
	}
	if (o2) {                       /* LDAR/LDLAR, STLR/STLLR */
		set_ordered(u, w, load ? h_ldar : h_stlr, load);
		return;
	}
	if (o1) {                       /* pairs: 32- and 64-bit elements only */
		if (size < 2) {
			isa_dec_cas(w, u);      /* CASP (LSE) */
			return;
		}
		set_ordered(u, w, load ? h_ldxp : h_stxp, load);
		u->mem_size = (uint8_t)(2 * u->f0);
		uint32_t rt2 = isa_bits(w, 14, 10);
		u->ra = load ? isa_rsink(rt2) : isa_rzr(rt2);
		if (load)
			isa_dst(u, u->ra);
		else
			isa_src(u, u->ra);
	} else {
		set_ordered(u, w, load ? h_ldxr : h_stxr, load);
	}
	if (!load) {                    /* status register */
		u->rm = isa_rsink(isa_bits(w, 20, 16));
		isa_dst(u, u->rm);
	}
}

void isa_dec_ldapr(uint32_t w, struct uop *u)
{
	set_ordered(u, w, h_ldar, 1);
}
