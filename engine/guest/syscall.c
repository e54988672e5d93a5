/*
 * syscall.c — the Linux system calls a guest may make: process, memory,
 * time and signal bookkeeping here; files in syscall_fs.c.
 *
 * What a statically linked glibc or busybox program needs to start, do
 * I/O and exit, for one single-threaded process:
 *
 *   memory     brk, mmap (anonymous, or a private copy of a granted file or
 *              of the --stdin bytes),
 *              munmap, mprotect, mremap, madvise (accepted, no effect)
 *   identity   getpid/gettid/getppid (fixed numbers), uid/gid 0, uname
 *              ("Linux", "aarch64"), prlimit64/getrlimit, sched_getaffinity
 *              (one CPU), set_tid_address, set_robust_list
 *   time       clock_gettime, gettimeofday, clock_getres, times, getrusage:
 *              simulated time, never the host's clock
 *   signals    rt_sigaction, rt_sigprocmask, sigaltstack: recorded, never
 *              delivered; a signal the program sends itself that would kill
 *              it stops the run with the signal's name
 *   threads    futex WAKE (nobody to wake), WAIT returns EAGAIN when the
 *              word changed, ETIMEDOUT with a timeout, and stops the run
 *              when it would block forever
 *   random     getrandom from the seed
 *   misc       prctl PR_GET_NAME/PR_SET_NAME, sysinfo, umask
 *
 * A few calls that programs probe and do without get ENOSYS (rseq,
 * membarrier, ...). Any other number stops the run with its name and the
 * pc: the guest can never reach the host except through the sandbox and
 * the output sink, which keeps runs deterministic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/alloc.h"
#include "guest_internal.h"
#include "program.h"
#include "syscall_names.h"

enum {
	SYS_exit = 93, SYS_exit_group = 94, SYS_set_tid_address = 96, SYS_futex = 98,
	SYS_set_robust_list = 99, SYS_nanosleep = 101, SYS_clock_gettime = 113,
	SYS_clock_getres = 114, SYS_clock_nanosleep = 115, SYS_sched_getaffinity = 123,
	SYS_sched_yield = 124, SYS_kill = 129, SYS_tkill = 130, SYS_tgkill = 131,
	SYS_sigaltstack = 132, SYS_rt_sigaction = 134, SYS_rt_sigprocmask = 135,
	SYS_times = 153, SYS_uname = 160, SYS_getrlimit = 163, SYS_setrlimit = 164,
	SYS_getrusage = 165, SYS_umask = 166, SYS_gettimeofday = 169, SYS_getpid = 172,
	SYS_getppid = 173, SYS_getuid = 174, SYS_geteuid = 175, SYS_getgid = 176,
	SYS_getegid = 177, SYS_gettid = 178, SYS_sysinfo = 179, SYS_brk = 214,
	SYS_munmap = 215, SYS_mremap = 216, SYS_mmap = 222, SYS_mprotect = 226,
	SYS_madvise = 233, SYS_prlimit64 = 261, SYS_getrandom = 278,
	SYS_membarrier = 283, SYS_pkey_alloc = 289, SYS_rseq = 293, SYS_prctl = 167,
	SYS_socket = 198, SYS_setpgid = 154, SYS_getpgid = 155, SYS_getsid = 156,
	SYS_setsid = 157, SYS_pipe2 = 59, SYS_ppoll = 73, SYS_timer_create = 107, SYS_statfs = 43,
	SYS_fstatfs = 44, SYS_copy_file_range = 285,
};

/* Calls that programs try and cope without: answered with ENOSYS. */
static int enosys_ok(uint64_t nr)
{
	/* (socket: glibc's name-service lookups try nscd's socket first;
	 * statfs/fstatfs: statvfs fails cleanly, and the host's file system
	 * figures would make runs depend on the host; copy_file_range: glibc
	 * and coreutils fall back to read and write; timer_create: POSIX
	 * timers would need signal delivery) */
	return nr == SYS_rseq || nr == SYS_membarrier || nr == SYS_pkey_alloc || nr == SYS_socket ||
	       nr == SYS_timer_create || nr == SYS_statfs || nr == SYS_fstatfs || nr == SYS_copy_file_range;
}


uint64_t guest_random64(struct guest *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t guest_now_ns(const struct guest *g)
{
	return g->time_from_insns ? g->insns : g->time_ns;
}

static int64_t put(struct guest *g, uint64_t addr, const void *v, size_t n)
{
	return mem_write_bytes(g->mem, addr, v, n, 1, NULL) < 0 ? -EFAULT : 0;
}

/* ---- memory ------------------------------------------------------------- */

static int64_t sys_brk(struct guest *g, uint64_t want)
{
	if (want < g->brk_base || want > g->brk_base + (1ull << 32))
		return (int64_t)g->brk_cur;
	uint64_t old_map = PAGE_UP(g->brk_cur) - g->brk_base, new_map = PAGE_UP(want) - g->brk_base;
	int rc = IVX_OK;
	if (old_map == 0 && new_map > 0)
		rc = mem_map(g->mem, g->brk_base, new_map, MEM_R | MEM_W, "heap", NULL);
	else if (old_map != new_map && new_map == 0)
		rc = mem_unmap(g->mem, g->brk_base, old_map, NULL);
	else if (old_map != new_map)
		rc = mem_resize(g->mem, g->brk_base, new_map, NULL);
	if (rc < 0)
		return (int64_t)g->brk_cur;
	g->brk_cur = want;
	return (int64_t)want;
}

static int prot_bits(uint64_t prot)
{
	return (prot & 1 ? MEM_R : 0) | (prot & 2 ? MEM_W | MEM_R : 0) | (prot & 4 ? MEM_X : 0);
}

static int in_mmap_area(uint64_t addr, uint64_t size)
{
	return addr >= GUEST_MMAP_BASE && addr <= GUEST_MMAP_END && size <= GUEST_MMAP_END - addr;
}

static int64_t sys_mmap(struct guest *g, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags,
			int64_t fd, uint64_t off)
{
	const uint64_t MAP_SHARED_ = 0x01, MAP_PRIVATE_ = 0x02, MAP_FIXED_ = 0x10, MAP_ANON_ = 0x20,
		       MAP_FIXED_NOREPLACE_ = 0x100000;
	uint64_t type = flags & 3;
	if (len == 0 || (off & (MEM_PAGE_SIZE - 1)) || (type != MAP_PRIVATE_ && type != MAP_SHARED_))
		return -EINVAL;
	if (prot & 4)          /* PROT_EXEC: ivx executes only the program's own code */
		return -EINVAL;
	const struct guest_fd *f = NULL;
	if (!(flags & MAP_ANON_)) {
		if (fd < 0 || fd >= GUEST_MAX_FDS || g->fds[fd].kind == GFD_FREE)
			return -EBADF;
		f = &g->fds[fd];
		if (f->flags & 010000000)
			return -EBADF;       /* O_PATH: a location, not an open file */
		if (f->kind == GFD_DEV && f->file == GDEV_ZERO) {
			/* zero pages, as anonymous memory (MAP_SHARED too: one
			 * process has nobody to share them with); Linux maps
			 * only what was opened for reading, shared and
			 * writable only what was opened for writing too */
			if ((f->flags & 3) == 1 || (type == MAP_SHARED_ && (prot & 2) && (f->flags & 3) != 2))
				return -EACCES;
			f = NULL;
		} else {
			/* fd 0 is a regular file when --stdin gave it bytes (fstat
			 * says so), and programs that see one may map it */
			if (f->kind != GFD_FILE && !(f->kind == GFD_STDIN && g->stdin_is_file))
				return -ENODEV;
			/* a shared writable mapping would have to write back: not done */
			if (type == MAP_SHARED_ && (prot & 2))
				return -EINVAL;
		}
	}
	uint64_t size = PAGE_UP(len);
	if (size < len)
		return -ENOMEM;
	uint64_t at;
	if (flags & (MAP_FIXED_ | MAP_FIXED_NOREPLACE_)) {
		if ((addr & (MEM_PAGE_SIZE - 1)) || !in_mmap_area(addr, size))
			return -EINVAL;    /* only over the mmap area, never the program or stack */
		if (!mem_range_free(g->mem, addr, size)) {
			if (flags & MAP_FIXED_NOREPLACE_)
				return -EEXIST;
			mem_unmap(g->mem, addr, size, NULL);
		}
		at = addr;
		/* later mappings are handed out above it: mmap_next moves only
		 * up, and a fixed range in its way made every later mmap fail */
		if (at + size + MEM_PAGE_SIZE > g->mmap_next)
			g->mmap_next = at + size + MEM_PAGE_SIZE <= GUEST_MMAP_END ? at + size + MEM_PAGE_SIZE
										  : GUEST_MMAP_END;
	} else {
		if (size > GUEST_MMAP_END - g->mmap_next)
			return -ENOMEM;
		at = g->mmap_next;
	}
	if (mem_map(g->mem, at, size, prot_bits(prot), f ? "file" : "mmap", NULL) < 0)
		return -ENOMEM;
	if (f && f->kind == GFD_STDIN) {
		/* a private copy of the --stdin bytes, zero past their end */
		if (off < g->stdin_len)
			mem_write_bytes(g->mem, at, g->stdin_data + off,
					(size_t)(len < g->stdin_len - off ? len : g->stdin_len - off), 0, NULL);
	} else if (f) {
		/* a private copy of the file's bytes, zero past its end (the
		 * guest's end, for a file it changed: file_sizes.c) */
		int host = sandbox_fd(g->sandbox, f->file);
		char chunk[16384];
		uint64_t size, upto = len;
		if (file_size_known(g, f->file, &size))
			upto = off < size ? (len < size - off ? len : size - off) : 0;
		for (uint64_t done = 0; done < upto;) {
			size_t n = upto - done < sizeof chunk ? (size_t)(upto - done) : sizeof chunk;
			ssize_t r = pread(host, chunk, n, (off_t)(off + done));
			if (r <= 0)
				break;
			mem_write_bytes(g->mem, at + done, chunk, (size_t)r, 0, NULL);
			done += (uint64_t)r;
		}
	}
	if (!(flags & (MAP_FIXED_ | MAP_FIXED_NOREPLACE_)))
		g->mmap_next += size + MEM_PAGE_SIZE;     /* a guard page between mappings */
	return (int64_t)at;
}

static int64_t sys_munmap(struct guest *g, uint64_t addr, uint64_t len)
{
	if ((addr & (MEM_PAGE_SIZE - 1)) || len == 0)
		return -EINVAL;
	if (!in_mmap_area(addr, PAGE_UP(len)))
		return -EINVAL;     /* only what mmap handed out may go */
	if (mem_unmap(g->mem, addr, PAGE_UP(len), NULL) < 0)
		return -EINVAL;
	return 0;
}

/* Give [addr, addr+size), inside one region, new permissions: copy its
 * bytes out, unmap, map again, copy back (mem has no split-by-permission;
 * mprotect is rare: glibc does it once, for its read-only-after-start
 * data). */
static int reprotect(struct guest *g, uint64_t addr, uint64_t size, int prot, const char *name)
{
	uint8_t *tmp = ivx_malloc(size);
	if (!tmp)
		return -ENOMEM;
	char nm[16];
	snprintf(nm, sizeof nm, "%s", name);
	int rc = -ENOMEM;
	if (mem_read_bytes(g->mem, addr, tmp, size, 0, NULL) == 0 && mem_unmap(g->mem, addr, size, NULL) == 0) {
		if (mem_map(g->mem, addr, size, prot, nm, NULL) == 0) {
			mem_write_bytes(g->mem, addr, tmp, size, 0, NULL);
			rc = 0;
		}
	}
	ivx_free(tmp);
	return rc;
}

/* A guest request ivx cannot honour without running code it did not
 * decode: stop the run naming the call and the pc. */
static int64_t stop_unsupported(struct guest *g, int *stop, struct ivx_err *err, const char *fmt, uint64_t addr,
				const char *what)
{
	char where[200], msg[200];
	guest_describe_pc(g, g->cpu.pc, where, sizeof where);
	snprintf(msg, sizeof msg, fmt, (unsigned long long)addr, what);
	g->state = GUEST_STOPPED;
	*stop = 1;
	return ivx_error(err, IVX_EUNSUP, "%s at %s", msg, where);
}

/* mprotect. The program's code was decoded once, at load: it may lose and
 * regain X (fetches then check the page), but never become writable
 * (self-modifying code would run stale instructions), and nothing else may
 * become executable (generated code has no decoded instructions) except
 * the stack, whose X glibc asks for when an object lacks .note.GNU-stack
 * and which is ignored. Both refusals stop the run. */
static int64_t sys_mprotect(struct guest *g, uint64_t addr, uint64_t len, uint64_t prot, struct ivx_err *err,
			    int *stop)
{
	if (addr & (MEM_PAGE_SIZE - 1))
		return -EINVAL;
	if (prot & ~7ull)
		return -EINVAL;
	uint64_t end = addr + PAGE_UP(len);
	if (end < addr)
		return -ENOMEM;
	for (uint64_t a = addr; a < end;) {        /* all of it must be mapped */
		const struct mem_region *r = mem_find(g->mem, a);
		if (!r)
			return -ENOMEM;
		a = r->base + r->size;
	}
	int want = prot_bits(prot);
	for (uint64_t a = addr; a < end;) {
		const struct mem_region *r = mem_find(g->mem, a);
		uint64_t stop_at = r->base + r->size < end ? r->base + r->size : end;
		int code = program_overlaps_code(g->prog, a, stop_at);
		if (code && (want & MEM_W))
			return stop_unsupported(g, stop, err, "self-modifying code is not supported: mprotect would make "
						"the program's code at 0x%llx (%s) writable (ivx decodes it once, at load)",
						a, r->name);
		if (!code && (want & MEM_X) && strcmp(r->name, "stack"))
			return stop_unsupported(g, stop, err, "generated code is not supported: mprotect(PROT_EXEC) of "
						"0x%llx (%s), outside the program's code (ivx runs only the code it "
						"decoded at load)", a, r->name);
		a = stop_at;
	}
	for (uint64_t a = addr; a < end;) {
		const struct mem_region *r = mem_find(g->mem, a);
		uint64_t stop_at = r->base + r->size < end ? r->base + r->size : end;
		int code = program_overlaps_code(g->prog, a, stop_at);
		int prot_now = code ? want : want & ~MEM_X;
		if (r->prot != prot_now) {
			if (code && ((r->prot ^ prot_now) & MEM_X))
				g->code_prot_changed = 1;
			int rc = reprotect(g, a, stop_at - a, prot_now, r->name);
			if (rc < 0)
				return rc;
		}
		a = stop_at;
	}
	return 0;
}

static int64_t sys_mremap(struct guest *g, uint64_t old, uint64_t old_len, uint64_t new_len, uint64_t flags)
{
	const uint64_t MREMAP_MAYMOVE_ = 1;
	/* (an old_len of 0 duplicates a shared mapping on Linux; a private
	 * one, all ivx makes, is EINVAL there too) */
	if ((old & (MEM_PAGE_SIZE - 1)) || old_len == 0 || new_len == 0 || (flags & ~MREMAP_MAYMOVE_))
		return -EINVAL;
	uint64_t os = PAGE_UP(old_len), ns = PAGE_UP(new_len);
	if (!in_mmap_area(old, os) || !in_mmap_area(old, ns))
		return -EINVAL;
	const struct mem_region *r = mem_find(g->mem, old);
	if (!r)
		return -EFAULT;
	for (uint64_t a = old; a < old + os;) {    /* (mprotect may have split it) */
		const struct mem_region *q = mem_find(g->mem, a);
		if (!q)
			return -EFAULT;
		a = q->base + q->size;
	}
	if (ns <= os) {
		if (ns < os)
			mem_unmap(g->mem, old + ns, os - ns, NULL);
		return (int64_t)old;
	}
	if (!(flags & MREMAP_MAYMOVE_))
		return -ENOMEM;
	int prot = r->prot;
	uint8_t *tmp = ivx_malloc(os);
	if (!tmp)
		return -ENOMEM;
	mem_read_bytes(g->mem, old, tmp, os, 0, NULL);
	int64_t at = -ENOMEM;
	if (ns <= GUEST_MMAP_END - g->mmap_next && mem_map(g->mem, g->mmap_next, ns, prot, "mmap", NULL) == 0) {
		at = (int64_t)g->mmap_next;
		g->mmap_next += ns + MEM_PAGE_SIZE;
		mem_write_bytes(g->mem, (uint64_t)at, tmp, os, 0, NULL);
		mem_unmap(g->mem, old, os, NULL);
	}
	ivx_free(tmp);
	return at;
}

/* ---- identity, limits, time ---------------------------------------------- */

static int64_t sys_uname(struct guest *g, uint64_t buf)
{
	char u[6][65];
	memset(u, 0, sizeof u);
	strcpy(u[0], "Linux");
	strcpy(u[1], "ivx");
	strcpy(u[2], "6.1.0-ivx");
	strcpy(u[3], "#1 SMP ivx");
	strcpy(u[4], "aarch64");
	strcpy(u[5], "(none)");
	return put(g, buf, u, sizeof u);
}

static int64_t sys_prlimit(struct guest *g, uint64_t resource, uint64_t old)
{
	const uint64_t INF = ~0ull;
	if (resource >= 16)
		return -EINVAL;
	uint64_t lim[2] = { INF, INF };
	if (resource == 3)                   /* RLIMIT_STACK */
		lim[0] = GUEST_STACK_SIZE;
	else if (resource == 7)              /* RLIMIT_NOFILE */
		lim[0] = lim[1] = GUEST_MAX_FDS;
	/* new limits are accepted and have no effect */
	return old ? put(g, old, lim, sizeof lim) : 0;
}

static int64_t put_timespec(struct guest *g, uint64_t addr, uint64_t ns, uint64_t unit)
{
	uint64_t v[2] = { ns / 1000000000ull, ns % 1000000000ull / unit };
	return addr ? put(g, addr, v, sizeof v) : 0;
}

/* Linux's clock ids: REALTIME ... BOOTTIME (0-7), the two ALARM clocks
 * and TAI (8, 9, 11); negative ids are the CPU clocks of a process or a
 * thread (pid or tid in the bits above the low three, inverted; 0 is the
 * caller), and the guest is the only process and thread there is. */
static int clock_id_valid(int32_t id)
{
	if (id >= 0)
		return id <= 9 || id == 11;
	uint32_t who = ~(uint32_t)id >> 3;
	return (id & 3) < 3 && (who == 0 || who == GUEST_PID);    /* bit 2: a thread */
}

static int64_t sys_clock(struct guest *g, int32_t id, uint64_t ts, int res)
{
	if (!clock_id_valid(id))
		return -EINVAL;
	if (res)
		return put_timespec(g, ts, 1, 1);
	return ts ? put_timespec(g, ts, guest_now_ns(g), 1) : -EFAULT;
}

/* gettimeofday: the time, and a zero time zone (UTC, no DST) if asked */
static int64_t sys_gettimeofday(struct guest *g, uint64_t tv, uint64_t tz)
{
	int32_t zone[2] = { 0, 0 };
	if (tz && put(g, tz, zone, sizeof zone) < 0)
		return -EFAULT;
	return put_timespec(g, tv, guest_now_ns(g), 1000);
}

static int64_t sys_sysinfo(struct guest *g, uint64_t buf)
{
	/* struct sysinfo on AArch64: 112 bytes; mem_unit 1 */
	uint8_t si[112];
	memset(si, 0, sizeof si);
	int64_t uptime = (int64_t)(guest_now_ns(g) / 1000000000ull);
	uint64_t total = 4ull << 30, free_ = total - g->mem->mapped_bytes;
	uint16_t procs = 1;
	uint32_t unit = 1;
	memcpy(si, &uptime, 8);
	memcpy(si + 32, &total, 8);
	memcpy(si + 40, &free_, 8);
	memcpy(si + 80, &procs, 2);
	memcpy(si + 104, &unit, 4);
	return put(g, buf, si, sizeof si);
}

/* prctl: the thread name (PR_SET_NAME 15, PR_GET_NAME 16); nothing else. */
static int64_t sys_prctl(struct guest *g, uint64_t option, uint64_t arg)
{
	if (option == 15)
		return 0;
	if (option != 16)
		return -EINVAL;
	char comm[16] = { 0 };
	const char *exe = sandbox_exe(g->sandbox), *slash = strrchr(exe, '/');
	strncpy(comm, slash ? slash + 1 : exe, 15);
	return put(g, arg, comm, sizeof comm);
}

/* ---- signals ------------------------------------------------------------- */

static const char *signal_name(uint64_t sig)
{
	static const char *n[] = { "0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
				   "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
				   "SIGPIPE", "SIGALRM", "SIGTERM" };
	return sig < sizeof n / sizeof *n ? n[sig] : "a signal";
}

static int64_t sys_rt_sigaction(struct guest *g, uint64_t sig, uint64_t act, uint64_t oact)
{
	if (sig < 1 || sig > GUEST_NSIG)
		return -EINVAL;
	if (act && (sig == 9 || sig == 19))      /* SIGKILL, SIGSTOP */
		return -EINVAL;
	uint64_t *slot = g->sigactions[sig - 1], tmp[4];
	if (act && mem_read_bytes(g->mem, act, tmp, sizeof tmp, 1, NULL) < 0)
		return -EFAULT;
	if (oact && put(g, oact, slot, 4 * sizeof *slot) < 0)
		return -EFAULT;
	if (act)
		memcpy(slot, tmp, sizeof tmp);
	return 0;
}

static int64_t sys_rt_sigprocmask(struct guest *g, uint64_t how, uint64_t set, uint64_t oset)
{
	uint64_t old = g->sigmask, m;
	if (set) {
		if (mem_read_bytes(g->mem, set, &m, 8, 1, NULL) < 0)
			return -EFAULT;
		if (how == 0)
			g->sigmask |= m;
		else if (how == 1)
			g->sigmask &= ~m;
		else if (how == 2)
			g->sigmask = m;
		else
			return -EINVAL;
		g->sigmask &= ~((1ull << 8) | (1ull << 18));   /* SIGKILL, SIGSTOP */
	}
	return oset ? put(g, oset, &old, 8) : 0;
}

/* sigaltstack: recorded and handed back, as Linux checks it (the guest
 * is never on it: no signal is delivered). stack_t is { ss_sp; int
 * ss_flags; size_t ss_size }, 24 bytes. */
static int64_t sys_sigaltstack(struct guest *g, uint64_t ss, uint64_t oss)
{
	const uint64_t SS_DISABLE_ = 2, SS_AUTODISARM_ = 1ull << 31, MINSIGSTKSZ_ = 5120;
	uint64_t old[3] = { g->altstack[0], (g->altstack[2] ? 0 : SS_DISABLE_) | (g->altstack[1] & SS_AUTODISARM_),
			    g->altstack[2] };
	if (ss) {
		uint64_t v[3];
		if (mem_read_bytes(g->mem, ss, v, sizeof v, 1, NULL) < 0)
			return -EFAULT;
		uint32_t flags = (uint32_t)v[1], mode = flags & ~(uint32_t)SS_AUTODISARM_;
		if (mode != SS_DISABLE_ && mode != 1 /* SS_ONSTACK */ && mode != 0)
			return -EINVAL;
		if (mode == SS_DISABLE_)
			v[0] = v[2] = 0;
		else if (v[2] < MINSIGSTKSZ_)
			return -ENOMEM;
		g->altstack[0] = v[0], g->altstack[1] = flags, g->altstack[2] = v[2];
	}
	return oss ? put(g, oss, old, sizeof old) : 0;
}

/* kill/tkill/tgkill: only the guest itself exists. 0 on success, 1 when
 * the signal ends the run (err filled), or -errno. */
static int64_t sys_kill_self(struct guest *g, uint64_t pid, uint64_t sig, struct ivx_err *err, int *stop)
{
	*stop = 0;
	if (pid != GUEST_PID && pid != 0 && (int64_t)pid != -1)
		return -ESRCH;
	if (sig == 0)
		return 0;
	if (sig > GUEST_NSIG)
		return -EINVAL;
	uint64_t handler = g->sigactions[sig - 1][0];
	int ignored_by_default = sig == 17 || sig == 18 || sig == 23 || sig == 28;  /* CHLD CONT URG WINCH */
	if (handler == 1 || (handler == 0 && ignored_by_default))     /* SIG_IGN */
		return 0;
	char where[200];
	guest_describe_pc(g, g->cpu.pc, where, sizeof where);
	g->state = GUEST_STOPPED;
	*stop = 1;
	if (handler == 0)
		return ivx_error(err, IVX_EGUEST, "guest killed by signal %llu (%s) it sent itself at %s",
				 (unsigned long long)sig, signal_name(sig), where);
	return ivx_error(err, IVX_EUNSUP, "guest sent itself signal %llu (%s), which has a handler: "
			 "signal delivery is not supported (at %s)", (unsigned long long)sig, signal_name(sig), where);
}

/* futex. One thread: nobody waits, nobody wakes. A WAIT whose word still
 * holds val would block until its timeout, which simulated time reaches at
 * once (ETIMEDOUT, as ppoll returns 0), or forever without one. */
static int64_t sys_futex(struct guest *g, uint64_t uaddr, uint64_t op, uint64_t val, uint64_t timeout,
			 struct ivx_err *err, int *stop)
{
	*stop = 0;
	uint64_t cmd = op & 0x7f;
	if (cmd == 1 || cmd == 10)               /* WAKE, WAKE_BITSET: nobody waits */
		return 0;
	if (cmd == 0 || cmd == 9) {              /* WAIT, WAIT_BITSET */
		uint32_t word;
		if (mem_read_bytes(g->mem, uaddr, &word, 4, 1, NULL) < 0)
			return -EFAULT;
		if (word != (uint32_t)val)
			return -EAGAIN;
		if (timeout) {
			int64_t ts[2];
			if (mem_read_bytes(g->mem, timeout, ts, sizeof ts, 1, NULL) < 0)
				return -EFAULT;
			if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
				return -EINVAL;
			return -ETIMEDOUT;
		}
		char where[200];
		guest_describe_pc(g, g->cpu.pc, where, sizeof where);
		g->state = GUEST_STOPPED;
		*stop = 1;
		return ivx_error(err, IVX_EGUEST, "futex wait at 0x%llx would block forever (one thread only) at %s",
				 (unsigned long long)uaddr, where);
	}
	return -ENOSYS;
}

/* ---- dispatch ------------------------------------------------------------ */

static int unsupported(struct guest *g, uint64_t nr, struct ivx_err *err)
{
	char where[160];
	const char *name = nr < sizeof syscall_names / sizeof *syscall_names && syscall_names[nr]
				   ? syscall_names[nr] : "unknown";
	guest_describe_pc(g, g->cpu.pc, where, sizeof where);
	g->state = GUEST_STOPPED;
	return ivx_error(err, IVX_EUNSUP, "unsupported system call %llu (%s) at %s",
			 (unsigned long long)nr, name, where);
}

int syscall_handle(struct guest *g, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	uint64_t nr = c->x[8], *a = c->x;
	int64_t ret;
	int handled, stop = 0;
	/* The kernel returns with ERET, which clears the local exclusive
	 * monitor: an STXR after a system call fails, whatever the call. */
	c->excl_valid = 0;
	switch (nr) {
	case SYS_brk:           ret = sys_brk(g, a[0]); break;
	case SYS_mmap:          ret = sys_mmap(g, a[0], a[1], (uint32_t)a[2], (uint32_t)a[3], (int32_t)a[4], a[5]); break;
	case SYS_munmap:        ret = sys_munmap(g, a[0], a[1]); break;
	case SYS_mprotect:      ret = sys_mprotect(g, a[0], a[1], a[2], err, &stop); break;
	case SYS_mremap:        ret = sys_mremap(g, a[0], a[1], a[2], a[3]); break;
	case SYS_madvise:       ret = 0; break;
	case SYS_clock_gettime: ret = sys_clock(g, (int32_t)a[0], a[1], 0); break;
	case SYS_clock_getres:  ret = sys_clock(g, (int32_t)a[0], a[1], 1); break;
	case SYS_gettimeofday:  ret = sys_gettimeofday(g, a[0], a[1]); break;
	case SYS_nanosleep:
	case SYS_clock_nanosleep: ret = 0; break;   /* simulated time does not jump */
	case SYS_times: {
		uint64_t ticks = guest_now_ns(g) / 10000000ull, t[4] = { ticks, 0, 0, 0 };
		ret = a[0] && put(g, a[0], t, sizeof t) < 0 ? -EFAULT : (int64_t)ticks;
		break;
	}
	case SYS_getrusage: {
		/* RUSAGE_SELF and _THREAD: the guest's time; _CHILDREN: none */
		int32_t who = (int32_t)a[0];
		if (who != 0 && who != 1 && who != -1) {
			ret = -EINVAL;
			break;
		}
		uint8_t ru[144];
		uint64_t ns = guest_now_ns(g), tv[2] = { ns / 1000000000ull, ns % 1000000000ull / 1000 };
		memset(ru, 0, sizeof ru);
		if (who != -1)
			memcpy(ru, tv, sizeof tv);
		ret = put(g, a[1], ru, sizeof ru);
		break;
	}
	case SYS_getrandom: {
		uint64_t len = a[1] > (1u << 20) ? 1u << 20 : a[1];
		ret = (int64_t)len;
		for (uint64_t done = 0; done < len;) {
			uint64_t r = guest_random64(g);
			size_t n = len - done < 8 ? (size_t)(len - done) : 8;
			if (mem_write_bytes(g->mem, a[0] + done, &r, n, 1, NULL) < 0) {
				ret = done ? (int64_t)done : -EFAULT;
				break;
			}
			done += n;
		}
		break;
	}
	case SYS_uname:         ret = sys_uname(g, a[0]); break;
	case SYS_sysinfo:       ret = sys_sysinfo(g, a[0]); break;
	case SYS_getpid:
	case SYS_gettid:        ret = GUEST_PID; break;
	case SYS_getppid:       ret = GUEST_PPID; break;
	/* the guest leads its own process group and session (a shell asks) */
	case SYS_getpgid:
	case SYS_getsid:        ret = (int32_t)a[0] == 0 || (int32_t)a[0] == GUEST_PID ? GUEST_PID : -ESRCH; break;
	case SYS_setpgid:
		ret = ((int32_t)a[0] != 0 && (int32_t)a[0] != GUEST_PID) ? -ESRCH
		    : ((int32_t)a[1] != 0 && (int32_t)a[1] != GUEST_PID) ? -EPERM : 0;
		break;
	case SYS_setsid:        ret = -EPERM; break;   /* already a group leader */
	case SYS_pipe2:         ret = pipe_create(g, a[0], (uint32_t)a[1]); break;
	case SYS_ppoll:         ret = sys_ppoll(g, a[0], a[1], a[2], err, &stop); break;
	case SYS_getuid:
	case SYS_geteuid:
	case SYS_getgid:
	case SYS_getegid:       ret = 0; break;
	case SYS_umask:         ret = g->umask; g->umask = (uint32_t)(a[0] & 0777); break;
	case SYS_set_tid_address: g->tid_address = a[0]; ret = GUEST_PID; break;
	case SYS_set_robust_list: g->robust_list = a[0]; ret = a[1] == 24 ? 0 : -EINVAL; break;
	case SYS_prlimit64:
		ret = a[0] && a[0] != GUEST_PID ? -ESRCH : sys_prlimit(g, a[1], a[3]);
		break;
	case SYS_getrlimit:     ret = sys_prlimit(g, a[0], a[1]); break;
	case SYS_setrlimit:     ret = 0; break;
	case SYS_sched_getaffinity: {
		uint64_t one = 1;                     /* CPU 0 only */
		ret = a[1] < 8 ? -EINVAL : put(g, a[2], &one, 8) < 0 ? -EFAULT : 8;
		break;
	}
	case SYS_sched_yield:   ret = 0; break;
	case SYS_prctl:         ret = sys_prctl(g, a[0], a[1]); break;
	case SYS_rt_sigaction:  ret = sys_rt_sigaction(g, a[0], a[1], a[2]); break;
	case SYS_rt_sigprocmask: ret = sys_rt_sigprocmask(g, a[0], a[1], a[2]); break;
	case SYS_sigaltstack:   ret = sys_sigaltstack(g, a[0], a[1]); break;
	case SYS_kill:          ret = sys_kill_self(g, a[0], a[1], err, &stop); break;
	/* (tkill and tgkill name a thread: 0 and -1 are not "this process") */
	case SYS_tkill:
		ret = (int32_t)a[0] <= 0 ? -EINVAL : sys_kill_self(g, (uint32_t)a[0], a[1], err, &stop);
		break;
	case SYS_tgkill:
		ret = (int32_t)a[0] <= 0 || (int32_t)a[1] <= 0 ? -EINVAL
		    : (uint32_t)a[1] != GUEST_PID ? -ESRCH : sys_kill_self(g, (uint32_t)a[0], a[2], err, &stop);
		break;
	case SYS_futex:         ret = sys_futex(g, a[0], a[1], a[2], a[3], err, &stop); break;
	case SYS_exit:
	case SYS_exit_group:
		g->state = GUEST_EXITED;
		g->exit_code = (int)(a[0] & 0xff);
		c->pc += 4;
		return IVX_OK;
	default:
		ret = syscall_fs(g, nr, a, &handled, err, &stop);
		if (!handled)
			ret = syscall_proc(g, nr, a, &handled, err, &stop);
		if (!handled) {
			if (!enosys_ok(nr))
				return unsupported(g, nr, err);
			ret = -ENOSYS;
		}
	}
	if (stop)
		return (int)ret;
	c->x[0] = (uint64_t)ret;
	c->pc += 4;
	return IVX_OK;
}
