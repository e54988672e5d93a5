/*
 * guest_internal.h — the guest process structure, shared by guest.c (loading,
 * running) and syscall.c (the Linux system-call layer). Not for other
 * modules: they use guest.h.
 */
#ifndef IVX_GUEST_INTERNAL_H
#define IVX_GUEST_INTERNAL_H

#include "guest.h"
#include "isa/mem.h"

/* Guest address-space layout (all fixed, so runs are deterministic). */
#define GUEST_STACK_TOP    0x7ffff0000000ull
#define GUEST_STACK_SIZE   (8ull << 20)
#define GUEST_STACK_GUARD  (1ull << 20)      /* faults this far below: overflow */
#define GUEST_MMAP_BASE    0x7f0000000000ull
#define GUEST_MMAP_END     0x7fe000000000ull

struct guest {
	struct cpu cpu;
	struct cpu spec_checkpoint;   /* registers saved by guest_spec_begin */
	int in_spec;
	struct mem *mem;
	const struct program *prog;
	int state;                    /* enum guest_state */
	int exit_code;
	uint64_t insns;               /* correct-path instructions executed */
	uint64_t time_ns;             /* simulated clock */
	int time_from_insns;          /* clock follows insns until set explicitly */
	uint64_t brk_base, brk_cur;   /* heap: [brk_base, brk_cur) mapped page-rounded */
	uint64_t mmap_next;           /* next anonymous mapping address */
	uint64_t rng;                 /* getrandom() state (splitmix64) */
	uint8_t *stdin_data;          /* owned copy */
	size_t stdin_len, stdin_pos;
	guest_output_fn output;
	void *output_ctx;
	const struct uop *step_lo;    /* guest_step's lookup cache: the uops from step_lo */
	const struct uop *step_end;   /* up to step_end belong to one code run */
};

/* Handle the SVC at cpu.pc. IVX_OK (pc advanced past the SVC, or the guest
 * exited), or a negative status with err filled. */
int syscall_handle(struct guest *g, struct ivx_err *err);

uint64_t guest_random64(struct guest *g);

#endif
