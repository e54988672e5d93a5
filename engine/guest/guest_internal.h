/*
 * guest_internal.h — the guest process structure, shared by guest.c (loading,
 * running) and syscall.c (the Linux system-call layer). Not for other
 * modules: they use guest.h.
 */
#ifndef IVX_GUEST_INTERNAL_H
#define IVX_GUEST_INTERNAL_H

#include <string.h>
#include "guest.h"
#include "isa/mem.h"
#include "sandbox.h"

/* Guest file descriptors. Everything about an open file that can change
 * while the guest runs (which descriptor, its offset, its flags) lives
 * here, in the guest, so snapshots and reverse steps restore it; the host
 * descriptor behind it is the sandbox's (index `file`), never closed while
 * a snapshot could still need it. Reads and writes use pread/pwrite at
 * `off`. dup'ed descriptors get their own offset (Linux would share it). */
#define GUEST_MAX_FDS 64
enum { GFD_FREE, GFD_STDIN, GFD_OUT, GFD_FILE, GFD_DIR, GFD_PIPE_R, GFD_PIPE_W, GFD_DEV, GFD_DEVDIR };
struct guest_fd {
	uint8_t kind;                 /* GFD_* */
	uint8_t cloexec;              /* FD_CLOEXEC, reported by fcntl only */
	uint8_t out_fd;               /* GFD_OUT: 1 or 2, where the output sink sends it */
	int32_t file;                 /* GFD_FILE/DIR: the sandbox's file index;
	                                 GFD_PIPE_R/W: the pipe's index;
	                                 GFD_DEV: the device (GDEV_*) */
	uint32_t flags;               /* guest open flags (O_ACCMODE, O_APPEND ...) */
	uint64_t off;                 /* file offset (GFD_DIR, GFD_DEVDIR: getdents cookie) */
};

/* Pipes the guest made with pipe2 (syscall_pipe.c): one process reading
 * back what it wrote, as zsh's start-up does. The buffer is the guest's
 * state, copied with it. */
#define GUEST_MAX_PIPES 4
#define GFD_IS_PIPE(f) ((f)->kind == GFD_PIPE_R || (f)->kind == GFD_PIPE_W)
#define GUEST_PIPE_BYTES 65536        /* Linux's default capacity */
struct guest_pipe {
	uint8_t *buf;                 /* GUEST_PIPE_BYTES; NULL: the slot is free */
	uint32_t head, len;           /* the unread bytes: len from head, wrapping */
	uint16_t readers, writers;    /* descriptors open on each end */
};

/* The size, as the guest made it, of a host file it wrote to or
 * truncated (file_sizes.c): the guest's state, so a snapshot restores the
 * size its file had then. */
#define GUEST_MAX_SIZED_FILES 64
struct guest_file_size {
	uint64_t dev, ino;            /* the host file's identity */
	uint64_t size;                /* its size as the guest sees it */
};

#define GUEST_NSIG 64
#define GUEST_PID  1000     /* fixed: the same in every run */
#define GUEST_PPID 999

/* An interval timer (setitimer): recorded and counted down on the
 * simulated clock; it never fires (no signal is ever delivered). */
struct guest_itimer {
	uint64_t interval_ns;         /* it_interval */
	uint64_t value_ns;            /* it_value when set; 0: disarmed */
	uint64_t set_ns;              /* simulated time it was set */
};

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
	int stdin_is_file;            /* --stdin named a file (maybe empty): fd 0 is a regular file */
	int64_t stdin_mtime_sec, stdin_mtime_nsec;   /* ... and its time */
	size_t stdin_len, stdin_pos;
	guest_output_fn output;
	void *output_ctx;
	struct sandbox *sandbox;      /* granted directories (shared with snapshots) */
	struct guest_fd fds[GUEST_MAX_FDS];
	struct guest_pipe pipes[GUEST_MAX_PIPES];
	uint64_t sigactions[GUEST_NSIG][4];  /* rt_sigaction records: handler, flags, restorer, mask */
	uint64_t sigmask;             /* rt_sigprocmask: recorded, nothing is delivered */
	uint64_t altstack[3];         /* sigaltstack: ss_sp, ss_flags, ss_size as set (never used) */
	uint64_t tid_address;         /* set_tid_address */
	uint64_t robust_list;         /* set_robust_list */
	uint32_t umask;
	int32_t nice;                 /* setpriority: 0 .. 19, only ever raised */
	struct guest_itimer itimers[3];   /* ITIMER_REAL, _VIRTUAL, _PROF */
	uint64_t host_changes;        /* calls made that changed the host's directories */
	const char *host_change_call; /* the last one's name (a static string) */
	struct guest_file_size file_sizes[GUEST_MAX_SIZED_FILES];
	uint32_t n_file_sizes;
	uint64_t file_changes;        /* writes and truncations of host files so far (file_sizes.c) */
	int32_t cwd_file;             /* chdir'ed to: the sandbox's file index of the directory;
	                                 -1: the run's starting one (sandbox_cwd) */
	int code_prot_changed;        /* mprotect changed X on the program's code: fetches
	                                 check the page's permission (else they need not) */
	uint64_t branch_pc;           /* the last taken branch (named by fetch faults) ... */
	uint64_t branch_target;       /* ... and where it went */
	const struct uop *step_lo;    /* guest_step's lookup cache: the uops from step_lo */
	const struct uop *step_end;   /* up to step_end belong to one code run, */
	uint64_t step_pc, step_bytes; /* the code at step_pc, step_bytes long (0: none) */
};

/* Handle the SVC at cpu.pc. IVX_OK (pc advanced past the SVC, or the guest
 * exited), or a negative status with err filled. */
int syscall_handle(struct guest *g, struct ivx_err *err);

uint64_t guest_random64(struct guest *g);

/* What is at a guest address, for messages: the symbol covering it, else
 * its region ("stack", "heap", "mmap", ...) or "unmapped". */
const char *guest_describe_addr(const struct guest *g, uint64_t addr, char *buf, size_t n);

/* The file system calls (syscall_fs.c): the Linux return value for
 * syscall nr with arguments a, or 1 in *handled = 0 if nr is not one of
 * them. A call that would block forever (one process cannot unblock
 * itself) stops the guest: *stop = 1 and the return value is the negative
 * status ivx_error gave, with err filled. */
int64_t syscall_fs(struct guest *g, uint64_t nr, const uint64_t *a, int *handled,
                   struct ivx_err *err, int *stop);

/* Where a read puts its bytes and a write takes them from: guest memory
 * at addr, or host + addr when host is not NULL (sendfile's buffer, so it
 * can use the read and write paths unchanged). 0, or -1 on a guest fault. */
static inline int xfer_put(struct guest *g, uint8_t *host, uint64_t addr, const void *src, size_t n)
{
	if (host) {
		memcpy(host + addr, src, n);
		return 0;
	}
	return mem_write_bytes(g->mem, addr, src, n, 1, NULL) < 0 ? -1 : 0;
}

/* As xfer_put, but a fault part way keeps the bytes before it, as Linux's
 * copy_to_user does (a read returns what it copied): how many bytes were
 * written, n when all were. */
static inline size_t xfer_put_some(struct guest *g, uint8_t *host, uint64_t addr, const void *src, size_t n)
{
	if (host) {
		memcpy(host + addr, src, n);
		return n;
	}
	uint64_t bad = addr;
	return mem_write_bytes(g->mem, addr, src, n, 1, &bad) < 0 ? (size_t)(bad - addr) : n;
}

static inline int xfer_get(struct guest *g, const uint8_t *host, uint64_t addr, void *dst, size_t n)
{
	if (host) {
		memcpy(dst, host + addr, n);
		return 0;
	}
	return mem_read_bytes(g->mem, addr, dst, n, 1, NULL) < 0 ? -1 : 0;
}

/* Host files' sizes as the guest made them (file_sizes.c). `file` is a
 * sandbox file index.
 * file_size_known: 1 with the guest's size of the file, or 0 when that is
 * the host's (a file the run has not changed, or one the table had no
 * room for). file_size_stat: a regular file's host stat given the guest's
 * size. file_size_end: where an O_APPEND write goes (0 or -errno).
 * file_write (pwrite: bytes written or -errno) and file_truncate (an
 * index open for writing; 0 or -errno): one numbered change each, made on
 * the host unless a run made only to measure replays it. */
struct stat;
int file_size_known(const struct guest *g, int file, uint64_t *size);
void file_size_stat(const struct guest *g, struct stat *st);
int file_size_end(const struct guest *g, int file, uint64_t *end);
int64_t file_write(struct guest *g, int file, const void *buf, size_t n, uint64_t pos);
int file_truncate(struct guest *g, int file, uint64_t size);

/* The virtual devices every guest sees (syscall_dev.c). */
enum { GDEV_NULL, GDEV_ZERO, GDEV_RANDOM, GDEV_URANDOM, GDEV_COUNT };
/* The device guest path `path` names (relative to dir unless absolute),
 * -1 if none, -ENOTDIR if it names one with a trailing "/". */
int dev_lookup(const char *dir, const char *path);
void dev_stat(int dev, struct stat *st);
/* Whether the path names /dev, the directory of the devices; its stat;
 * getdents64 on a GFD_DEVDIR descriptor. */
int dev_dir_lookup(const char *dir, const char *path);
void dev_dir_stat(struct stat *st);
int64_t dev_dir_getdents(struct guest *g, struct guest_fd *f, uint64_t buf, uint64_t len);
/* read and write on a GFD_DEV descriptor (buf/host as for xfer_put). */
int64_t dev_read(struct guest *g, struct guest_fd *f, uint8_t *host, uint64_t buf, uint64_t len);
int64_t dev_write(struct guest *g, struct guest_fd *f, const uint8_t *host, uint64_t buf, uint64_t len);

/* Pipes, and polling (syscall_pipe.c). buf/host as for xfer_put. */
int64_t pipe_create(struct guest *g, uint64_t fds_addr, uint64_t flags);
int64_t pipe_read(struct guest *g, struct guest_fd *f, uint8_t *host, uint64_t buf, uint64_t len,
                  struct ivx_err *err, int *stop);
int64_t pipe_write(struct guest *g, struct guest_fd *f, const uint8_t *host, uint64_t buf, uint64_t len,
                   struct ivx_err *err, int *stop);
int64_t sys_ppoll(struct guest *g, uint64_t fds_addr, uint64_t nfds, uint64_t timeout_addr,
                  struct ivx_err *err, int *stop);
#define G_POLLIN   0x001
#define G_POLLPRI  0x002
#define G_POLLOUT  0x004
#define G_POLLERR  0x008
#define G_POLLHUP  0x010
#define G_POLLNVAL 0x020
#define G_POLLRDNORM 0x040
#define G_POLLWRNORM 0x100
/* What poll would report for descriptor fd (its events and the ones
 * always reported: G_POLLERR, G_POLLHUP, G_POLLNVAL). */
uint16_t poll_events(struct guest *g, int32_t fd, uint16_t asked);
/* Stop the run: `what` would wait forever in one process. Returns the
 * negative status, with *stop = 1 and err filled. */
int64_t would_block(struct guest *g, const char *what, struct ivx_err *err, int *stop);

/* The process-attribute calls (syscall_proc.c), as syscall_fs. */
int64_t syscall_proc(struct guest *g, uint64_t nr, const uint64_t *a, int *handled,
                     struct ivx_err *err, int *stop);
/* A descriptor slot is taken by a copy of f (dup), or let go (close, or
 * overwritten by dup3): keeps the pipes' end counts, frees unused pipes. */
void fd_retain(struct guest *g, const struct guest_fd *f);
void fd_release(struct guest *g, struct guest_fd *f);
/* guest_copy's part: copies of src's pipe buffers for dst, all or none. */
int pipes_copy_buffers(const struct guest *src, uint8_t *bufs[GUEST_MAX_PIPES]);
void pipes_free(struct guest *g);

/* Simulated time in nanoseconds (clock_gettime and friends). */
uint64_t guest_now_ns(const struct guest *g);

#define PAGE_UP(x) (((x) + MEM_PAGE_SIZE - 1) & ~(MEM_PAGE_SIZE - 1))

#endif
