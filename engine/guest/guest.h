/*
 * guest.h — one guest process: architected state, memory, and the Linux
 * system-call layer, running a struct program.
 *
 * Two ways to run it:
 *   guest_run()   the functional fast path: a tight loop of exec handlers,
 *                 for `ivx run --functional` and fast-forwarding;
 *   guest_step()  one instruction at a time with a report of what it did
 *                 (pc, uop, next pc, taken, effective address), for the
 *                 timing model, which executes at fetch and may run down a
 *                 wrong path between guest_spec_begin() and guest_spec_end().
 *
 * The guest only ever touches the host through the output sink (its writes
 * to fd 1 and 2), the stdin bytes the user named and the directories the
 * user granted (sandbox.h); nothing else.
 */
#ifndef IVX_GUEST_H
#define IVX_GUEST_H

#include <stddef.h>
#include <stdint.h>
#include "isa/cpu.h"
#include "base/err.h"

struct guest;
struct program;
struct mem;
struct sandbox_grant;

/* How many calls the guest made that changed the host's directories in a
 * way replaying them would not repeat (mkdir, unlink, rmdir, rename, link,
 * symlink, an O_CREAT|O_EXCL open that created a file), and the last
 * one's name ("mkdirat"; NULL if none). Part of the guest's state, so a
 * snapshot holds the count of its moment: restoring one with fewer than
 * the live guest and running on would replay calls against a host that
 * has already seen them (mkdir then fails with EEXIST). */
uint64_t guest_host_changes(const struct guest *g, const char **last_call);
/* While on, such a call stops the run with an error instead of being made
 * (runs that are thrown away: the explorer's `info cost`), and writes and
 * truncations the host's files have had already are not made again; it
 * also holds for the guest's snapshots, which share the granted
 * directories. */
void guest_freeze_host(struct guest *g, int on);

/* Give g, a guest that has not run yet, the host files of `from`, a
 * guest of the same program and options: g then finds the files as
 * from's run found them (the sizes they had before it changed them) and
 * does not make its changes again, being a second run of the same
 * program (ivx cost's second pass; docs/guest-abi.md). */
void guest_share_files(struct guest *g, const struct guest *from);

/* Where the guest's writes to fd 1 and 2 go. */
typedef void (*guest_output_fn)(void *ctx, int fd, const void *buf, size_t len);

struct guest_options {
	int argc;                 /* guest argv (argv[0] is the program name) */
	char *const *argv;
	int envc;                 /* guest environment (none by default) */
	char *const *envp;
	const void *stdin_data;   /* bytes fd 0 reads (copied); NULL = no file: fd 0 is an empty
	                           * pipe (non-NULL with length 0 is an empty file) */
	size_t stdin_len;
	int64_t stdin_mtime_sec;  /* fd 0's modification time, as `prog < FILE` shows the file's */
	int64_t stdin_mtime_nsec;
	uint64_t seed;            /* AT_RANDOM and getrandom() */
	guest_output_fn output;   /* NULL = write to the host's fd 1 / 2 */
	void *output_ctx;
	const struct sandbox_grant *dirs;  /* host directories the guest may open (none by default) */
	int n_dirs;
	const char *cwd;          /* host working directory: the guest's is its guest path when
	                           * a grant covers it, else "/" (NULL = "/") */
	const char *exe_path;     /* host path of the program, for /proc/self/exe (NULL = argv[0]) */
	int sandbox_walk;         /* resolve paths without openat2 (tests of the fallback) */
};

enum guest_state {
	GUEST_RUNNING,
	GUEST_EXITED,             /* exit or exit_group: see guest_exit_code */
	GUEST_STOPPED,            /* stopped with an error (fault, unsupported ...) */
};

/* Report of one guest_step. */
struct guest_step {
	const struct uop *uop;    /* the instruction executed */
	uint64_t pc;              /* its address */
	uint64_t next_pc;         /* where execution goes next */
	uint64_t mem_addr;        /* effective address, for loads and stores */
	int taken;                /* control transfer happened */
	int result;               /* enum isa_result of the handler */
};

struct guest *guest_new(const struct program *prog, const struct guest_options *opt, struct ivx_err *err);
void guest_free(struct guest *g);

/* Run up to max_insns instructions (0 = no limit) or until the guest exits
 * or stops. Returns IVX_OK when it exited or the limit was reached (see
 * guest_state), or a negative status with err filled (fault, unsupported
 * instruction or syscall, BRK/HLT/UDF). */
int guest_run(struct guest *g, uint64_t max_insns, struct ivx_err *err);

/* Execute exactly one instruction. Returns IVX_OK (see st), or a negative
 * status with err filled. While speculating, nothing is ever reported as an
 * error: an instruction that would fault, trap or call the system leaves the
 * state unchanged and reports result != ISA_NEXT/ISA_TAKEN, and the caller
 * stops following that path. */
int guest_step(struct guest *g, struct guest_step *st, struct ivx_err *err);

/* Wrong-path execution: begin checkpoints the registers and routes stores
 * to memory's overlay; end restores the registers and drops the overlay. */
void guest_spec_begin(struct guest *g);
void guest_spec_end(struct guest *g);
int guest_in_spec(const struct guest *g);

int guest_state(const struct guest *g);
int guest_exit_code(const struct guest *g);
uint64_t guest_insns(const struct guest *g);      /* instructions executed (correct path) */
struct cpu *guest_cpu(struct guest *g);
const struct cpu *guest_cpu_const(const struct guest *g);
struct mem *guest_mem(struct guest *g);
const struct program *guest_program(const struct guest *g);

/* Where the guest's writes to fd 1 and 2 go from now on (fn NULL: the
 * host's fd 1 / 2), e.g. nowhere while a run is repeated. */
void guest_set_output(struct guest *g, guest_output_fn fn, void *ctx);

/* Simulated time for clock_gettime, in nanoseconds. By default it follows
 * the instruction count (1 ns each); the timing model sets it from cycles. */
void guest_set_time_ns(struct guest *g, uint64_t ns);

/* Make `dst` an exact copy of `src` (same program). */
int guest_copy(struct guest *dst, const struct guest *src, struct ivx_err *err);

/* One-line description of a stop at pc: "symbol+off (0xpc): word 0x..., `text`". */
void guest_describe_pc(const struct guest *g, uint64_t pc, char *buf, size_t n);

#endif
