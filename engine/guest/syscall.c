/*
 * syscall.c — the Linux system calls a guest may make.
 *
 * Deliberately few: read (fd 0, from the stdin bytes the user named), write
 * (fd 1 and 2, to the output sink), exit, exit_group, brk, anonymous private
 * mmap/munmap, clock_gettime (simulated time) and getrandom (seeded). Any
 * other number stops the run with its name and the pc: a guest can never
 * reach a host file or a host clock, which keeps runs deterministic.
 */
#include <string.h>
#include <unistd.h>
#include "guest_internal.h"
#include "program.h"
#include "syscall_names.h"

enum {
	SYS_read = 63, SYS_write = 64, SYS_exit = 93, SYS_exit_group = 94,
	SYS_clock_gettime = 113, SYS_brk = 214, SYS_munmap = 215,
	SYS_mmap = 222, SYS_getrandom = 278,
};

#define LINUX_EBADF  9
#define LINUX_ENOMEM 12
#define LINUX_EFAULT 14
#define LINUX_EINVAL 22

#define PAGE_UP(x) (((x) + MEM_PAGE_SIZE - 1) & ~(MEM_PAGE_SIZE - 1))

uint64_t guest_random64(struct guest *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int64_t sys_write(struct guest *g, int fd, uint64_t buf, uint64_t len)
{
	if (fd != 1 && fd != 2)
		return -LINUX_EBADF;
	char chunk[4096];
	uint64_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
		if (mem_read_bytes(g->mem, buf + done, chunk, n, 1, NULL) < 0)
			return done ? (int64_t)done : -LINUX_EFAULT;
		if (g->output)
			g->output(g->output_ctx, fd, chunk, n);
		else {
			size_t off = 0;
			while (off < n) {
				ssize_t w = write(fd, chunk + off, n - off);
				if (w <= 0)
					break;
				off += (size_t)w;
			}
		}
		done += n;
	}
	return (int64_t)done;
}

static int64_t sys_read(struct guest *g, int fd, uint64_t buf, uint64_t len)
{
	if (fd != 0)
		return -LINUX_EBADF;
	size_t left = g->stdin_len - g->stdin_pos;
	size_t n = len < left ? (size_t)len : left;
	if (n && mem_write_bytes(g->mem, buf, g->stdin_data + g->stdin_pos, n, 1, NULL) < 0)
		return -LINUX_EFAULT;
	g->stdin_pos += n;
	return (int64_t)n;
}

static int64_t sys_brk(struct guest *g, uint64_t want)
{
	if (want < g->brk_base || want > g->brk_base + (1ull << 32))
		return (int64_t)g->brk_cur;
	uint64_t old_map = PAGE_UP(g->brk_cur) - g->brk_base, new_map = PAGE_UP(want) - g->brk_base;
	int rc = IVX_OK;
	if (old_map == 0 && new_map > 0)
		rc = mem_map(g->mem, g->brk_base, new_map, MEM_R | MEM_W, "heap", NULL);
	else if (old_map != new_map)
		rc = mem_resize(g->mem, g->brk_base, new_map, NULL);
	if (rc < 0)
		return (int64_t)g->brk_cur;
	g->brk_cur = want;
	return (int64_t)want;
}

static int64_t sys_mmap(struct guest *g, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags, int64_t fd)
{
	const uint64_t MAP_PRIVATE_ = 0x02, MAP_FIXED_ = 0x10, MAP_ANON_ = 0x20;
	if (!(flags & MAP_ANON_) || !(flags & MAP_PRIVATE_) || (flags & MAP_FIXED_) || len == 0)
		return -LINUX_EINVAL;
	(void)addr;
	(void)fd;
	if (prot & 4)          /* PROT_EXEC: we only execute the program's own code */
		return -LINUX_EINVAL;
	uint64_t size = PAGE_UP(len);
	if (size < len || size > GUEST_MMAP_END - g->mmap_next)
		return -LINUX_ENOMEM;
	int mprot = (prot & 1 ? MEM_R : 0) | (prot & 2 ? MEM_W | MEM_R : 0);
	if (mem_map(g->mem, g->mmap_next, size, mprot, "mmap", NULL) < 0)
		return -LINUX_ENOMEM;
	uint64_t at = g->mmap_next;
	g->mmap_next += size + MEM_PAGE_SIZE;     /* a guard page between mappings */
	return (int64_t)at;
}

static int64_t sys_munmap(struct guest *g, uint64_t addr, uint64_t len)
{
	if ((addr & (MEM_PAGE_SIZE - 1)) || len == 0)
		return -LINUX_EINVAL;
	if (addr < GUEST_MMAP_BASE || addr >= GUEST_MMAP_END)
		return -LINUX_EINVAL;     /* only what mmap handed out may go */
	if (mem_unmap(g->mem, addr, PAGE_UP(len), NULL) < 0)
		return -LINUX_EINVAL;
	return 0;
}

static int64_t sys_clock_gettime(struct guest *g, uint64_t ts)
{
	uint64_t ns = g->time_from_insns ? g->insns : g->time_ns;
	uint64_t v[2] = { ns / 1000000000ull, ns % 1000000000ull };
	return mem_write_bytes(g->mem, ts, v, sizeof v, 1, NULL) < 0 ? -LINUX_EFAULT : 0;
}

static int64_t sys_getrandom(struct guest *g, uint64_t buf, uint64_t len)
{
	if (len > (1u << 20))
		len = 1u << 20;
	for (uint64_t done = 0; done < len;) {
		uint64_t r = guest_random64(g);
		size_t n = len - done < 8 ? (size_t)(len - done) : 8;
		if (mem_write_bytes(g->mem, buf + done, &r, n, 1, NULL) < 0)
			return done ? (int64_t)done : -LINUX_EFAULT;
		done += n;
	}
	return (int64_t)len;
}

int syscall_handle(struct guest *g, struct ivx_err *err)
{
	struct cpu *c = &g->cpu;
	uint64_t nr = c->x[8], *a = c->x;
	int64_t ret;
	switch (nr) {
	case SYS_read:          ret = sys_read(g, (int)a[0], a[1], a[2]); break;
	case SYS_write:         ret = sys_write(g, (int)a[0], a[1], a[2]); break;
	case SYS_brk:           ret = sys_brk(g, a[0]); break;
	case SYS_mmap:          ret = sys_mmap(g, a[0], a[1], a[2], a[3], (int64_t)a[4]); break;
	case SYS_munmap:        ret = sys_munmap(g, a[0], a[1]); break;
	case SYS_clock_gettime: ret = sys_clock_gettime(g, a[1]); break;
	case SYS_getrandom:     ret = sys_getrandom(g, a[0], a[1]); break;
	case SYS_exit:
	case SYS_exit_group:
		g->state = GUEST_EXITED;
		g->exit_code = (int)(a[0] & 0xff);
		c->pc += 4;
		return IVX_OK;
	default: {
		char where[160];
		const char *name = nr < sizeof syscall_names / sizeof *syscall_names && syscall_names[nr]
					   ? syscall_names[nr] : "unknown";
		guest_describe_pc(g, c->pc, where, sizeof where);
		g->state = GUEST_STOPPED;
		return ivx_error(err, IVX_EUNSUP, "unsupported system call %llu (%s) at %s",
				 (unsigned long long)nr, name, where);
	}
	}
	c->x[0] = (uint64_t)ret;
	c->pc += 4;
	return IVX_OK;
}
