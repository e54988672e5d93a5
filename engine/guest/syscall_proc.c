/*
 * syscall_proc.c — the process-attribute calls ordinary libc functions
 * reach (nice, alarm, select, getgroups, mlock, ...), answered as a
 * single-threaded, unprivileged Linux process in a sandbox would see them.
 *
 *   select     pselect6 answered at once from the descriptors' state, as
 *              ppoll (syscall_pipe.c): with a timeout and nothing ready it
 *              returns 0 (simulated time does not jump)
 *   timers     setitimer/getitimer recorded and counted down on the
 *              simulated clock, but never fired (signals are never
 *              delivered); timer_create is ENOSYS (syscall.c)
 *   priority   nice 0 to start; raising it succeeds, lowering it is EACCES
 *              (the guest has no capabilities, whatever getuid says)
 *   scheduler  SCHED_OTHER, priority 0, one CPU
 *   identity   uid and gid 0 everywhere, no supplementary groups; setting
 *              them to what they are succeeds, anything else is EPERM
 *   memory     msync, mlock, munlock, mlockall, munlockall succeed on
 *              mapped memory; mincore says every mapped page is resident
 *   children   wait4 and waitid are ECHILD: the guest can never have a
 *              child (clone and execve stop the run), so a wait for one
 *              fails at once, as on Linux for a process without children
 *   getcpu     CPU 0, node 0 (sched_getcpu: glibc asks the kernel, as
 *              rseq is ENOSYS)
 *
 * Everything here depends only on the guest's state, so runs stay
 * deterministic.
 */
#include <errno.h>
#include <string.h>
#include "guest_internal.h"

enum {
	NR_pselect6 = 72, NR_getitimer = 102, NR_setitimer = 103,
	NR_sched_setscheduler = 119, NR_sched_getscheduler = 120, NR_sched_getparam = 121,
	NR_sched_setaffinity = 122, NR_sched_setparam = 118,
	NR_sched_get_priority_max = 125, NR_sched_get_priority_min = 126,
	NR_setpriority = 140, NR_getpriority = 141, NR_setregid = 143, NR_setgid = 144,
	NR_setreuid = 145, NR_setuid = 146, NR_setresuid = 147, NR_getresuid = 148,
	NR_setresgid = 149, NR_getresgid = 150, NR_setfsuid = 151, NR_setfsgid = 152,
	NR_getgroups = 158, NR_setgroups = 159, NR_msync = 227, NR_mlock = 228,
	NR_munlock = 229, NR_mlockall = 230, NR_munlockall = 231, NR_mincore = 232,
	NR_mlock2 = 284, NR_waitid = 95, NR_getcpu = 168, NR_wait4 = 260,
};

static int64_t put(struct guest *g, uint64_t addr, const void *v, size_t n)
{
	return mem_write_bytes(g->mem, addr, v, n, 1, NULL) < 0 ? -EFAULT : 0;
}

/* Is all of [addr, addr + len) mapped? */
static int mapped(struct guest *g, uint64_t addr, uint64_t len)
{
	for (uint64_t a = addr; a < addr + len;) {
		const struct mem_region *r = mem_find(g->mem, a);
		if (!r)
			return 0;
		a = r->base + r->size;
	}
	return 1;
}

/* pselect6(n, in, out, ex, timeout, sigmask) through ppoll's readiness:
 * files and fd 0-2 are always ready, pipes as their state says. The sets
 * are rewritten to the ready descriptors. */
static int64_t sys_pselect6(struct guest *g, const uint64_t *a, struct ivx_err *err, int *stop)
{
	uint64_t n = a[0], sets[3] = { 0, 0, 0 }, ready_sets[3] = { 0, 0, 0 };
	static const uint16_t want[3] = { G_POLLIN, G_POLLOUT, G_POLLPRI };
	if ((int32_t)n < 0)
		return -EINVAL;
	if (n > GUEST_MAX_FDS)
		n = GUEST_MAX_FDS;                /* no descriptor above it can be open */
	size_t bytes = (n + 7) / 8;
	for (int k = 0; k < 3; k++)
		if (a[1 + k] && bytes && mem_read_bytes(g->mem, a[1 + k], &sets[k], bytes, 1, NULL) < 0)
			return -EFAULT;
	int64_t ready = 0;
	for (uint64_t fd = 0; fd < n; fd++) {
		for (int k = 0; k < 3; k++) {
			if (!(sets[k] >> fd & 1))
				continue;
			uint16_t ev = poll_events(g, (int32_t)fd, want[k]);
			if (ev & G_POLLNVAL)
				return -EBADF;
			/* a hung-up pipe reads (end of file); an error counts as ready */
			int on = k == 0 ? (ev & (G_POLLIN | G_POLLHUP | G_POLLERR)) != 0 :
				 k == 1 ? (ev & (G_POLLOUT | G_POLLERR)) != 0 : (ev & G_POLLPRI) != 0;
			if (on) {
				ready_sets[k] |= 1ull << fd;
				ready++;
			}
		}
	}
	if (!ready && !a[4])
		return would_block(g, "a pselect6 with nothing ready and no timeout", err, stop);
	if (a[4]) {
		int64_t ts[2];
		if (mem_read_bytes(g->mem, a[4], ts, sizeof ts, 1, NULL) < 0)
			return -EFAULT;
		if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
			return -EINVAL;
	}
	for (int k = 0; k < 3; k++)
		if (a[1 + k] && bytes && put(g, a[1 + k], &ready_sets[k], bytes) < 0)
			return -EFAULT;
	return ready;
}

/* The timer's remaining time in ns at `now` (0: disarmed). An expired
 * interval timer rearms itself; a one-shot one stays at 0. */
static uint64_t itimer_left(const struct guest_itimer *t, uint64_t now)
{
	if (!t->value_ns)
		return 0;
	uint64_t elapsed = now - t->set_ns;
	if (elapsed < t->value_ns)
		return t->value_ns - elapsed;
	if (!t->interval_ns)
		return 0;
	return t->interval_ns - (elapsed - t->value_ns) % t->interval_ns;
}

/* struct itimerval: { interval {sec, usec}, value {sec, usec} }. */
static int64_t put_itimer(struct guest *g, uint64_t addr, const struct guest_itimer *t)
{
	uint64_t left = itimer_left(t, guest_now_ns(g));
	int64_t v[4] = { (int64_t)(t->interval_ns / 1000000000ull), (int64_t)(t->interval_ns % 1000000000ull / 1000),
			 (int64_t)(left / 1000000000ull), (int64_t)(left % 1000000000ull / 1000) };
	return put(g, addr, v, sizeof v);
}

static int64_t sys_itimer(struct guest *g, int set, uint64_t which, uint64_t new_addr, uint64_t old_addr)
{
	if (which > 2)
		return -EINVAL;
	struct guest_itimer *t = &g->itimers[which];
	int64_t v[4];
	if (set && new_addr) {
		if (mem_read_bytes(g->mem, new_addr, v, sizeof v, 1, NULL) < 0)
			return -EFAULT;
		for (int i = 0; i < 4; i += 2)
			if (v[i] < 0 || v[i + 1] < 0 || v[i + 1] >= 1000000)
				return -EINVAL;
	}
	if (old_addr && put_itimer(g, old_addr, t) < 0)
		return -EFAULT;
	if (set) {
		struct guest_itimer nt = { 0 };
		if (new_addr) {
			nt.interval_ns = (uint64_t)v[0] * 1000000000ull + (uint64_t)v[1] * 1000;
			nt.value_ns = (uint64_t)v[2] * 1000000000ull + (uint64_t)v[3] * 1000;
			nt.set_ns = guest_now_ns(g);
		}
		*t = nt;
	}
	return 0;
}

/* PRIO_PROCESS, PRIO_PGRP, PRIO_USER of the guest itself (who 0 or its
 * own id); the raw call returns 20 - nice. */
static int64_t sys_priority(struct guest *g, int set, uint64_t which, uint64_t who, int64_t prio)
{
	if (which > 2)
		return -EINVAL;
	if ((uint32_t)who != 0 && (uint32_t)who != (which == 2 ? 0u : (uint32_t)GUEST_PID))
		return -ESRCH;
	if (!set)
		return 20 - g->nice;
	int32_t want = (int32_t)prio < -20 ? -20 : (int32_t)prio > 19 ? 19 : (int32_t)prio;
	if (want < g->nice)
		return -EACCES;            /* lowering nice needs CAP_SYS_NICE */
	g->nice = want;
	return 0;
}

/* Set ids: only to the id the guest already has (0); -1 leaves one alone. */
static int64_t same_ids(const uint64_t *a, int n)
{
	for (int i = 0; i < n; i++)
		if ((uint32_t)a[i] != 0 && (uint32_t)a[i] != UINT32_MAX)
			return -EPERM;
	return 0;
}

static int64_t sys_mincore(struct guest *g, uint64_t addr, uint64_t len, uint64_t vec)
{
	if (addr & (MEM_PAGE_SIZE - 1))
		return -EINVAL;
	uint64_t pages = PAGE_UP(len) / MEM_PAGE_SIZE;
	if (!mapped(g, addr, pages * MEM_PAGE_SIZE))
		return -ENOMEM;
	uint8_t ones[256];
	memset(ones, 1, sizeof ones);
	for (uint64_t done = 0; done < pages;) {
		size_t k = pages - done < sizeof ones ? (size_t)(pages - done) : sizeof ones;
		if (put(g, vec + done, ones, k) < 0)
			return -EFAULT;
		done += k;
	}
	return 0;
}

/* msync, mlock, munlock, mlock2: page-aligned where Linux wants it, and
 * mapped; they change nothing (memory is never paged out). */
static int64_t mem_call(struct guest *g, uint64_t nr, uint64_t addr, uint64_t len, uint64_t flags)
{
	if (nr == NR_msync) {
		if ((addr & (MEM_PAGE_SIZE - 1)) || (flags & ~7ull) || (flags & 5) == 5)
			return -EINVAL;
	} else if (nr == NR_mlock2 && (flags & ~1ull)) {
		return -EINVAL;
	}
	uint64_t lo = addr & ~(MEM_PAGE_SIZE - 1), hi = PAGE_UP(addr + len);
	return mapped(g, lo, hi - lo) ? 0 : -ENOMEM;
}

int64_t syscall_proc(struct guest *g, uint64_t nr, const uint64_t *a, int *handled, struct ivx_err *err, int *stop)
{
	*handled = 1;
	switch (nr) {
	case NR_pselect6:       return sys_pselect6(g, a, err, stop);
	case NR_getitimer:      return sys_itimer(g, 0, a[0], 0, a[1]);
	case NR_setitimer:      return sys_itimer(g, 1, a[0], a[1], a[2]);
	case NR_getpriority:    return sys_priority(g, 0, a[0], a[1], 0);
	case NR_setpriority:    return sys_priority(g, 1, a[0], a[1], (int64_t)a[2]);
	case NR_sched_getscheduler:
		return (int32_t)a[0] == 0 || (int32_t)a[0] == GUEST_PID ? 0 : (int32_t)a[0] < 0 ? -EINVAL : -ESRCH;
	case NR_sched_getparam: {
		int32_t prio = 0;
		if ((int32_t)a[0] != 0 && (int32_t)a[0] != GUEST_PID)
			return (int32_t)a[0] < 0 ? -EINVAL : -ESRCH;
		return put(g, a[1], &prio, sizeof prio);
	}
	case NR_sched_setscheduler:
	case NR_sched_setparam:
		return -EPERM;          /* real-time policies need CAP_SYS_NICE */
	case NR_sched_get_priority_max:
	case NR_sched_get_priority_min:
		return a[0] == 1 || a[0] == 2 ? (nr == NR_sched_get_priority_max ? 99 : 1) : a[0] <= 5 ? 0 : -EINVAL;
	case NR_sched_setaffinity: {
		/* the one CPU must stay in the set */
		uint8_t first;
		if ((int32_t)a[0] != 0 && (int32_t)a[0] != GUEST_PID)
			return -ESRCH;
		if (a[1] == 0)
			return -EINVAL;
		if (mem_read_bytes(g->mem, a[2], &first, 1, 1, NULL) < 0)
			return -EFAULT;
		return (first & 1) ? 0 : -EINVAL;
	}
	case NR_getgroups:      return (int32_t)a[0] < 0 ? -EINVAL : 0;
	case NR_setgroups:      return -EPERM;
	case NR_getresuid:
	case NR_getresgid: {
		uint32_t zero = 0;
		for (int i = 0; i < 3; i++)
			if (put(g, a[i], &zero, sizeof zero) < 0)
				return -EFAULT;
		return 0;
	}
	case NR_setuid:
	case NR_setgid:         return same_ids(a, 1);
	case NR_setreuid:
	case NR_setregid:       return same_ids(a, 2);
	case NR_setresuid:
	case NR_setresgid:      return same_ids(a, 3);
	case NR_setfsuid:
	case NR_setfsgid:       return 0;     /* the previous fsuid/fsgid: 0 */
	case NR_msync:
	case NR_mlock:
	case NR_munlock:
	case NR_mlock2:         return mem_call(g, nr, a[0], a[1], nr == NR_mlock2 || nr == NR_msync ? a[2] : 0);
	case NR_mlockall:       return (a[0] & 7) && !(a[0] & ~7ull) && (a[0] & 3) ? 0 : -EINVAL;
	case NR_munlockall:     return 0;
	case NR_mincore:        return sys_mincore(g, a[0], a[1], a[2]);
	case NR_getcpu: {
		uint32_t zero = 0;
		for (int i = 0; i < 2; i++)
			if (a[i] && put(g, a[i], &zero, sizeof zero) < 0)
				return -EFAULT;
		return 0;
	}
	case NR_wait4: {
		/* WNOHANG WUNTRACED WCONTINUED __WNOTHREAD __WALL __WCLONE */
		uint32_t known = 1 | 2 | 8 | 0x20000000u | 0x40000000u | 0x80000000u;
		return (uint32_t)a[2] & ~known ? -EINVAL : -ECHILD;
	}
	case NR_waitid: {
		/* ... and WEXITED WNOWAIT; one of WEXITED WSTOPPED WCONTINUED
		 * is required; idtypes P_ALL P_PID P_PGID P_PIDFD */
		uint32_t known = 1 | 2 | 4 | 8 | 0x01000000u | 0x20000000u | 0x40000000u | 0x80000000u;
		uint32_t opt = (uint32_t)a[3];
		return (uint32_t)a[0] > 3 || (opt & ~known) || !(opt & (2 | 4 | 8)) ? -EINVAL : -ECHILD;
	}
	default:
		*handled = 0;
		return 0;
	}
}
