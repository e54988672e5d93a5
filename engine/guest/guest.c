/*
 * guest.c — creating a guest process from a program and running it.
 *
 * Loading maps each PT_LOAD segment with its permissions, copies its file
 * bytes and builds the initial stack the way Linux does for a static
 * executable:
 *
 *     sp ->  argc
 *            argv[0..argc-1], NULL
 *            envp[0..envc-1], NULL
 *            auxv pairs (AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_ENTRY,
 *                        AT_RANDOM, ...), AT_NULL
 *            ... padding, 16 random bytes, "aarch64", strings ...
 *     GUEST_STACK_TOP
 *
 * The functional loop (guest_run) walks the predecoded uops of one code
 * segment with a pointer and calls each handler; it only re-looks-up the
 * uop array after a taken branch, and keeps cpu.pc up to date only when
 * it leaves the loop (handlers read their own pc from the uop).
 */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>   /* realpath */
#include <string.h>
#include "base/alloc.h"
#include "isa/disasm.h"
#include "isa/isa.h"
#include "guest_internal.h"
#include "program.h"

static void guest_write_u64(struct guest *g, uint64_t addr, uint64_t v)
{
	mem_write_bytes(g->mem, addr, &v, 8, 0, NULL);
}

static int load_segments(struct guest *g, struct ivx_err *err)
{
	const struct program *p = g->prog;
	size_t image_len;
	const uint8_t *image = program_image(p, &image_len);
	for (int i = 0; i < program_segment_count(p); i++) {
		const struct program_segment *s = program_segment(p, i);
		uint64_t base = s->vaddr & ~(MEM_PAGE_SIZE - 1);
		uint64_t end = (s->vaddr + s->memsz + MEM_PAGE_SIZE - 1) & ~(MEM_PAGE_SIZE - 1);
		static const char *names[] = { "seg", "r", "w", "rw", "x", "rx", "wx", "rwx" };
		int rc = mem_map(g->mem, base, end - base, s->prot, names[s->prot & 7], err);
		if (rc < 0)
			return rc;
		mem_write_bytes(g->mem, s->vaddr, image + s->offset, s->filesz, 0, NULL);
	}
	return IVX_OK;
}

static int build_stack(struct guest *g, const struct guest_options *opt, struct ivx_err *err)
{
	uint64_t lo = GUEST_STACK_TOP - GUEST_STACK_SIZE;
	int rc = mem_map(g->mem, lo, GUEST_STACK_SIZE, MEM_R | MEM_W, "stack", err);
	if (rc < 0)
		return rc;
	int argc = opt->argc, envc = opt->envc;
	uint64_t strings = GUEST_STACK_TOP - 16, need = 0;
	for (int i = 0; i < argc; i++)
		need += strlen(opt->argv[i]) + 1;
	for (int i = 0; i < envc; i++)
		need += strlen(opt->envp[i]) + 1;
	if (need + 8 * (uint64_t)(argc + envc) > GUEST_STACK_SIZE / 2)
		return ivx_error(err, IVX_EUSAGE, "guest arguments and environment are too large");

	uint64_t argv_addr[argc > 0 ? argc : 1], envp_addr[envc > 0 ? envc : 1];
	uint64_t sp = strings;
	static const char platform[] = "aarch64";
	sp -= sizeof platform;
	uint64_t platform_addr = sp;
	mem_write_bytes(g->mem, sp, platform, sizeof platform, 0, NULL);
	for (int i = envc - 1; i >= 0; i--) {
		size_t len = strlen(opt->envp[i]) + 1;
		sp -= len;
		mem_write_bytes(g->mem, sp, opt->envp[i], len, 0, NULL);
		envp_addr[i] = sp;
	}
	for (int i = argc - 1; i >= 0; i--) {
		size_t len = strlen(opt->argv[i]) + 1;
		sp -= len;
		mem_write_bytes(g->mem, sp, opt->argv[i], len, 0, NULL);
		argv_addr[i] = sp;
	}
	sp &= ~15ull;
	sp -= 16;
	uint64_t random_addr = sp;
	for (int i = 0; i < 2; i++)
		guest_write_u64(g, sp + 8 * i, guest_random64(g));

	const struct program *p = g->prog;
	uint64_t auxv[][2] = {
		{ AT_PHDR, program_phdr_addr(p) }, { AT_PHENT, (uint64_t)program_phent(p) },
		{ AT_PHNUM, (uint64_t)program_phnum(p) }, { AT_PAGESZ, MEM_PAGE_SIZE },
		{ AT_BASE, 0 }, { AT_FLAGS, 0 }, { AT_ENTRY, program_entry(p) },
		{ AT_UID, 0 }, { AT_EUID, 0 }, { AT_GID, 0 }, { AT_EGID, 0 },
		{ AT_HWCAP, isa_hwcap() }, { AT_HWCAP2, isa_hwcap2() }, { AT_CLKTCK, 100 }, { AT_SECURE, 0 },
		{ AT_RANDOM, random_addr }, { AT_PLATFORM, platform_addr },
		{ AT_EXECFN, argc > 0 ? argv_addr[0] : 0 }, { AT_NULL, 0 },
	};
	size_t n_aux = sizeof auxv / sizeof auxv[0];
	uint64_t words = 1 + (uint64_t)argc + 1 + (uint64_t)envc + 1 + 2 * n_aux;
	sp -= 8 * words;
	sp &= ~15ull;
	uint64_t at = sp;
	guest_write_u64(g, at, (uint64_t)argc), at += 8;
	for (int i = 0; i < argc; i++)
		guest_write_u64(g, at, argv_addr[i]), at += 8;
	guest_write_u64(g, at, 0), at += 8;
	for (int i = 0; i < envc; i++)
		guest_write_u64(g, at, envp_addr[i]), at += 8;
	guest_write_u64(g, at, 0), at += 8;
	for (size_t i = 0; i < n_aux; i++) {
		guest_write_u64(g, at, auxv[i][0]), at += 8;
		guest_write_u64(g, at, auxv[i][1]), at += 8;
	}
	g->cpu.x[CPU_SP] = sp;
	return IVX_OK;
}

/* Descriptors 0-2 and the sandbox, its working directory and
 * /proc/self/exe, both as the guest sees them: the host's working
 * directory and program path when a grant covers them. */
static int setup_files(struct guest *g, const struct guest_options *opt, struct ivx_err *err)
{
	g->fds[0] = (struct guest_fd){ .kind = GFD_STDIN };
	g->fds[1] = (struct guest_fd){ .kind = GFD_OUT, .out_fd = 1, .flags = 1 };
	g->fds[2] = (struct guest_fd){ .kind = GFD_OUT, .out_fd = 2, .flags = 1 };
	g->umask = 022;
	g->sandbox = sandbox_new(opt->dirs, opt->n_dirs, opt->sandbox_walk, err);
	if (!g->sandbox)
		return err ? err->code : IVX_EUSAGE;
	char real[PATH_MAX], guest_path[SANDBOX_PATH_MAX];
	if (opt->cwd && realpath(opt->cwd, real) &&
	    sandbox_guest_path(g->sandbox, real, guest_path, sizeof guest_path) == 0)
		sandbox_set_cwd(g->sandbox, guest_path);
	const char *exe = opt->argc > 0 ? opt->argv[0] : "";
	if (opt->exe_path && realpath(opt->exe_path, real))
		exe = sandbox_guest_path(g->sandbox, real, guest_path, sizeof guest_path) == 0 ? guest_path : real;
	if (sandbox_set_exe(g->sandbox, exe) < 0)
		return ivx_error(err, IVX_ESYS, "out of host memory");
	return IVX_OK;
}

struct guest *guest_new(const struct program *prog, const struct guest_options *opt, struct ivx_err *err)
{
	struct guest *g = ivx_calloc(1, sizeof *g);
	if (!g || !(g->mem = mem_new())) {
		ivx_free(g);
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	g->prog = prog;
	g->cpu.mem = g->mem;
	g->cpu.pc = program_entry(prog);
	g->cpu.ctr_el0 = ISA_CTR_VALUE;   /* until a machine sets its own (config_ctr_el0) */
	g->rng = opt->seed ^ 0x1f0e8c2d3b4a5968ull;
	g->time_from_insns = 1;
	g->output = opt->output;
	g->output_ctx = opt->output_ctx;
	g->brk_base = g->brk_cur = (program_end(prog) + MEM_PAGE_SIZE - 1) & ~(MEM_PAGE_SIZE - 1);
	g->mmap_next = GUEST_MMAP_BASE;
	g->altstack[1] = 2;               /* SS_DISABLE: no alternate signal stack */
	g->stdin_is_file = opt->stdin_data != NULL;
	g->stdin_mtime_sec = opt->stdin_mtime_sec;
	g->stdin_mtime_nsec = opt->stdin_mtime_nsec;
	if (opt->stdin_len) {
		g->stdin_data = ivx_malloc(opt->stdin_len);
		if (!g->stdin_data) {
			guest_free(g);
			ivx_error(err, IVX_ESYS, "out of host memory");
			return NULL;
		}
		memcpy(g->stdin_data, opt->stdin_data, opt->stdin_len);
		g->stdin_len = opt->stdin_len;
	}
	if (load_segments(g, err) < 0 || build_stack(g, opt, err) < 0 || setup_files(g, opt, err) < 0) {
		guest_free(g);
		return NULL;
	}
	return g;
}

void guest_free(struct guest *g)
{
	if (!g)
		return;
	mem_free(g->mem);
	pipes_free(g);
	ivx_free(g->stdin_data);
	sandbox_unref(g->sandbox);
	ivx_free(g);
}

void guest_describe_pc(const struct guest *g, uint64_t pc, char *buf, size_t n)
{
	char sym[96], text[96];
	program_describe(g->prog, pc, sym, sizeof sym);
	const struct uop *u = program_uop(g->prog, pc);
	if (u)
		snprintf(buf, n, "pc 0x%llx (%s): word 0x%08x `%s`", (unsigned long long)pc, sym, u->word,
			 disasm_word(u->word, pc, text, sizeof text));
	else
		snprintf(buf, n, "pc 0x%llx (%s)", (unsigned long long)pc, sym);
}

const char *guest_describe_addr(const struct guest *g, uint64_t addr, char *buf, size_t n)
{
	if (program_symbol_at(g->prog, addr, buf, n))
		return buf;
	const struct mem_region *r = mem_find(g->mem, addr);
	const char *what = !r ? "unmapped" : strcmp(r->name, "file") == 0 ? "mmap" : r->name;
	if (r && !strcmp(r->name, "stack"))
		what = "stack";
	else if (r && strcmp(r->name, "heap") && strcmp(r->name, "mmap") && strcmp(r->name, "file"))
		what = "program";      /* a segment's bytes no symbol covers */
	snprintf(buf, n, "%s", what);
	return buf;
}

/* How a mapped address refused an access of this kind. */
static const char *refusal(const struct mem_region *r, int kind)
{
	return kind == FAULT_WRITE && (r->prot & MEM_R) ? "read-only" : "inaccessible";
}

/* A load or store fault at cpu.pc (`where` describes it). A write to the
 * program's code (writable only in a W+X segment) is self-modifying
 * code: ivx decoded it once and would run stale instructions. */
static int data_fault(struct guest *g, const char *where, struct ivx_err *err)
{
	const struct cpu *c = &g->cpu;
	char sym[96];
	uint64_t a = c->fault_addr, stack_lo = GUEST_STACK_TOP - GUEST_STACK_SIZE;
	const struct mem_region *r = mem_find(g->mem, a);
	const char *what = c->fault_kind == FAULT_WRITE ? "write to" :
			   c->fault_kind == FAULT_ALIGN ? "misaligned exclusive/atomic access at" : "read of";
	/* an overflow: just below the stack, or in a frame too large for it
	 * (alloca, a big VLA), whose sp already left the stack */
	uint64_t sp = c->x[CPU_SP];
	if (a < stack_lo && (a >= stack_lo - GUEST_STACK_GUARD || (!r && sp < stack_lo && a >= sp - GUEST_STACK_GUARD)))
		return ivx_error(err, IVX_EGUEST, "guest stack overflow: %s 0x%llx at %s", what,
				 (unsigned long long)a, where);
	guest_describe_addr(g, a, sym, sizeof sym);
	if (r && c->fault_kind == FAULT_WRITE && (r->prot & (MEM_W | MEM_X)) == (MEM_W | MEM_X))
		return ivx_error(err, IVX_EUNSUP, "self-modifying code is not supported: write to the program's "
				 "code at 0x%llx (%s), which ivx decoded at load, at %s", (unsigned long long)a, sym, where);
	if (c->fault_kind == FAULT_ALIGN)
		return ivx_error(err, IVX_EGUEST, "guest fault: %s address 0x%llx (%s) at %s", what,
				 (unsigned long long)a, sym, where);
	return ivx_error(err, IVX_EGUEST, "guest fault: %s %s address 0x%llx (%s) at %s", what,
			 r ? refusal(r, c->fault_kind) : "unmapped", (unsigned long long)a, sym, where);
}

/* Turn a non-ISA_NEXT/TAKEN handler result at cpu.pc into a status. */
static int stop_reason(struct guest *g, int result, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	char where[200];
	if (result == ISA_SVC)
		return syscall_handle(g, err);
	if (result == ISA_ENV) {
		/* MRS CNTVCT_EL0: the simulated clock, in ticks of ISA_CNTFRQ_HZ
		 * (1 GHz: one tick per ns, the clock clock_gettime reports). */
		const struct uop *u = program_uop(g->prog, c->pc);
		if (u) {
			c->x[u->rd] = g->time_from_insns ? g->insns : g->time_ns;
			c->pc += 4;
			return IVX_OK;
		}
	}
	g->state = GUEST_STOPPED;
	guest_describe_pc(g, c->pc, where, sizeof where);
	switch (result) {
	case ISA_FAULT:
		return data_fault(g, where, err);
	case ISA_HALT:
		return ivx_error(err, IVX_EGUEST, "guest stopped by a trap instruction at %s", where);
	case ISA_UNSUPPORTED:
	default: {
		const struct uop *u = program_uop(g->prog, c->pc);
		const char *ext = u ? isa_extension_of(u->word) : NULL;
		return ivx_error(err, IVX_EUNSUP, "unsupported instruction at %s%s%s%s", where, ext ? ": " : "",
				 ext ? ext : "", ext ? " is not implemented" : "");
	}
	}
}

/* The fetch at cpu.pc failed: say why (unmapped, not executable,
 * misaligned, past the decoded words) and, when a branch went there, which. */
static int fetch_fault(struct guest *g, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	char sym[96], from[240] = "";
	g->state = GUEST_STOPPED;
	guest_describe_addr(g, c->pc, sym, sizeof sym);
	const struct mem_region *r = mem_find(g->mem, c->pc);
	const char *what = (c->pc & 3) ? "misaligned" : !r ? "unmapped" : "non-executable";
	for (int i = 0; i < program_segment_count(g->prog); i++) {
		const struct program_segment *s = program_segment(g->prog, i);
		if ((s->prot & MEM_X) && c->pc - s->vaddr < s->memsz && !(c->pc & 3) && r && (r->prot & MEM_X))
			what = "zero-filled (past its segment's file contents)";
	}
	if (g->branch_target == c->pc && g->branch_pc != c->pc) {
		char where[200];
		guest_describe_pc(g, g->branch_pc, where, sizeof where);
		snprintf(from, sizeof from, ", reached by the branch at %s", where);
	}
	return ivx_error(err, IVX_EGUEST, "guest fault: instruction fetch from %s address 0x%llx (%s)%s", what,
			 (unsigned long long)c->pc, sym, from);
}

/* After an mprotect changed the code's X permission: is pc on an
 * executable page? If so, clip *end so the run stops at the end of that
 * page's region (the next one may not be executable). */
static int executable_run(struct guest *g, uint64_t pc, const struct uop *u, const struct uop **end)
{
	const struct mem_region *r = mem_find(g->mem, pc);
	if (!r || !(r->prot & MEM_X))
		return -1;
	uint64_t left = (r->base + r->size - pc) / 4;
	if ((uint64_t)(*end - u) > left)
		*end = u + left;
	return 0;
}

int guest_run(struct guest *g, uint64_t max_insns, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	uint64_t limit = max_insns ? g->insns + max_insns : UINT64_MAX;
	while (g->state == GUEST_RUNNING && g->insns < limit) {
		const struct uop *u, *end;
		if (program_code_run(g->prog, c->pc, &u, &end) < 0 ||
		    (g->code_prot_changed && executable_run(g, c->pc, u, &end) < 0))
			return fetch_fault(g, err);
		/* Stay in this code run until a taken branch, a stop or the limit. */
		uint64_t budget = limit - g->insns;
		if ((uint64_t)(end - u) < budget)
			budget = (uint64_t)(end - u);
		const struct uop *stop = u + budget;
		const struct uop *first = u;
		int result = ISA_NEXT;
		while (u < stop) {
			result = u->exec(c, u);
			if (__builtin_expect(result != ISA_NEXT, 0))
				break;
			u++;
		}
		if (result == ISA_NEXT) {             /* fell off the run or hit the limit */
			g->insns += (uint64_t)(u - first);
			c->pc = u == end ? end[-1].pc + 4 : u->pc;
			continue;
		}
		g->insns += (uint64_t)(u - first) + 1;
		if (result == ISA_TAKEN) {
			g->branch_pc = u->pc;
			g->branch_target = c->pc;
			continue;
		}
		c->pc = u->pc;
		g->insns--;              /* the stopping instruction did not complete ... */
		int rc = stop_reason(g, result, err);
		if (rc < 0)
			return rc;
		g->insns++;              /* ... unless it was a system call that did */
	}
	return IVX_OK;
}

/* The uop at pc, remembering the code run it is in: the timing model
 * steps one instruction at a time, mostly within one run. */
static inline const struct uop *step_uop(struct guest *g, uint64_t pc)
{
	const struct uop *u, *end;
	uint64_t off = pc - g->step_pc;   /* (one unsigned compare: pc below step_pc wraps) */
	if (off < g->step_bytes && !(off & 3))
		return g->step_lo + off / 4;
	if (program_code_run(g->prog, pc, &u, &end) < 0)
		return NULL;
	if (end != g->step_end || u < g->step_lo)    /* keep the lowest uop seen of this run */
		g->step_lo = u;
	g->step_end = end;
	g->step_pc = g->step_lo->pc;
	g->step_bytes = (uint64_t)(end - g->step_lo) * 4;
	return u;
}

int guest_step(struct guest *g, struct guest_step *st, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	const struct uop *u = step_uop(g, c->pc), *end = u ? u + 1 : NULL;
	if (u && g->code_prot_changed && executable_run(g, c->pc, u, &end) < 0)
		u = NULL;
	memset(st, 0, sizeof *st);
	st->pc = c->pc;
	if (!u) {
		st->result = ISA_FAULT;
		if (g->in_spec)
			return IVX_OK;
		return fetch_fault(g, err);
	}
	st->uop = u;
	int result = u->exec(c, u);
	st->result = result;
	st->mem_addr = c->mem_addr;
	if (result == ISA_NEXT) {
		c->pc += 4;
	} else if (result == ISA_TAKEN) {
		st->taken = 1;
		if (!g->in_spec) {
			g->branch_pc = st->pc;
			g->branch_target = c->pc;
		}
	} else if (g->in_spec) {
		st->next_pc = c->pc;     /* the wrong path stops here, state untouched */
		return IVX_OK;
	} else {
		int rc = stop_reason(g, result, err);
		if (rc < 0)
			return rc;
		st->result = ISA_NEXT;   /* a completed system call */
	}
	st->next_pc = c->pc;
	if (!g->in_spec)
		g->insns++;
	return IVX_OK;
}

void guest_spec_begin(struct guest *g)
{
	if (g->in_spec)
		return;
	g->spec_checkpoint = g->cpu;
	g->in_spec = 1;
	mem_spec_begin(g->mem);
}

void guest_spec_end(struct guest *g)
{
	if (!g->in_spec)
		return;
	g->cpu = g->spec_checkpoint;
	g->in_spec = 0;
	mem_spec_end(g->mem);
}

int guest_in_spec(const struct guest *g) { return g->in_spec; }
int guest_state(const struct guest *g) { return g->state; }
int guest_exit_code(const struct guest *g) { return g->exit_code; }
uint64_t guest_insns(const struct guest *g) { return g->insns; }

void guest_freeze_host(struct guest *g, int on)
{
	if (g->sandbox)
		sandbox_freeze(g->sandbox, on);
}

void guest_share_files(struct guest *g, const struct guest *from)
{
	if (g->sandbox == from->sandbox)
		return;
	sandbox_unref(g->sandbox);
	g->sandbox = sandbox_ref(from->sandbox);
}

uint64_t guest_host_changes(const struct guest *g, const char **last_call)
{
	if (last_call)
		*last_call = g->host_change_call;
	return g->host_changes;
}
struct cpu *guest_cpu(struct guest *g) { return &g->cpu; }
const struct cpu *guest_cpu_const(const struct guest *g) { return &g->cpu; }
struct mem *guest_mem(struct guest *g) { return g->mem; }
const struct program *guest_program(const struct guest *g) { return g->prog; }

void guest_set_time_ns(struct guest *g, uint64_t ns)
{
	g->time_ns = ns;
	g->time_from_insns = 0;
}

int guest_copy(struct guest *dst, const struct guest *src, struct ivx_err *err)
{
	if (dst->prog != src->prog)
		return ivx_error(err, IVX_EUSAGE, "guest_copy between different programs");
	/* the stdin copy first: a failure of either leaves dst unchanged */
	uint8_t *stdin_data = dst->stdin_data;
	if (src->stdin_len && dst->stdin_data != src->stdin_data) {
		stdin_data = ivx_malloc(src->stdin_len);
		if (!stdin_data)
			return ivx_error(err, IVX_ESYS, "out of host memory");
		memcpy(stdin_data, src->stdin_data, src->stdin_len);
	}
	uint8_t *pipe_bufs[GUEST_MAX_PIPES];
	if (pipes_copy_buffers(src, pipe_bufs) < 0) {
		if (stdin_data != dst->stdin_data)
			ivx_free(stdin_data);
		return ivx_error(err, IVX_ESYS, "out of host memory");
	}
	int rc = mem_copy(dst->mem, src->mem, err);
	if (rc < 0) {
		if (stdin_data != dst->stdin_data)
			ivx_free(stdin_data);
		for (int i = 0; i < GUEST_MAX_PIPES; i++)
			ivx_free(pipe_bufs[i]);
		return rc;
	}
	pipes_free(dst);
	if (stdin_data != dst->stdin_data || !src->stdin_len)
		ivx_free(dst->stdin_data);
	struct mem *m = dst->mem;
	if (dst->sandbox != src->sandbox) {
		sandbox_unref(dst->sandbox);
		sandbox_ref(src->sandbox);
	}
	*dst = *src;
	dst->mem = m;
	dst->cpu.mem = m;
	dst->spec_checkpoint.mem = m;
	dst->stdin_data = src->stdin_len ? stdin_data : NULL;
	for (int i = 0; i < GUEST_MAX_PIPES; i++)
		dst->pipes[i].buf = pipe_bufs[i];
	return IVX_OK;
}

void guest_set_output(struct guest *g, guest_output_fn fn, void *ctx)
{
	g->output = fn;
	g->output_ctx = ctx;
}
