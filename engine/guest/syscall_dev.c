/*
 * syscall_dev.c — the character devices every guest sees: /dev/null,
 * /dev/zero, /dev/random and /dev/urandom.
 *
 * Programs take these for granted (`> /dev/null` in a shell, fopen of
 * /dev/null to discard output, a seed from /dev/urandom), yet the sandbox
 * shows no host file that was not granted, and a granted host device is
 * ENXIO (sandbox.h). So they are virtual: no host file is ever opened or
 * touched, no --dir grant is needed, and they shadow whatever a grant at
 * /dev holds. The names are matched on the cleaned guest path, so
 * `/dev/./null` and `null` from a working directory of /dev name them too.
 *
 * A descriptor on one is GFD_DEV with the device in `file`, so it lives
 * in struct guest_fd like any other and snapshots copy it. What each does
 * is Linux's (drivers/char/mem.c, random.c):
 *
 *   null     reads 0 (end of file), writes discard and succeed
 *   zero     reads zeros, writes discard
 *   random,  reads the bytes getrandom gives (guest_random64, seeded by
 *   urandom  --seed, so runs repeat), writes are taken and change nothing
 *
 * pread and pwrite ignore the offset, lseek is 0, as Linux's are.
 *
 * /dev itself is a directory holding just these four (GFD_DEVDIR): it can
 * be stat'ed, opened and listed (`ls /dev`, `test -d /dev`), not entered
 * or written, like the directories above a grant (sandbox.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "guest_internal.h"

#define G_O_ACCMODE 03
#define MAX_RW_COUNT 0x7ffff000ull     /* Linux caps one read or write at this */

static const struct {
	const char *path;
	unsigned minor;                /* major 1, as on Linux */
} devices[GDEV_COUNT] = {
	[GDEV_NULL] = { "/dev/null", 3 },
	[GDEV_ZERO] = { "/dev/zero", 5 },
	[GDEV_RANDOM] = { "/dev/random", 8 },
	[GDEV_URANDOM] = { "/dev/urandom", 9 },
};

/* The guest path `path` names, relative to dir unless absolute, cleaned. */
static int clean_guest_path(const char *dir, const char *path, char *clean, size_t n)
{
	char joined[2 * SANDBOX_PATH_MAX + 2];
	if (path[0] == '/' || !dir)
		snprintf(joined, sizeof joined, "%s", path);
	else
		snprintf(joined, sizeof joined, "%s/%s", dir, path);
	return sandbox_clean_path(joined, clean, n);
}

int dev_lookup(const char *dir, const char *path)
{
	char clean[SANDBOX_PATH_MAX];
	size_t n = strlen(path);
	if (clean_guest_path(dir, path, clean, sizeof clean) < 0 || strncmp(clean, "/dev/", 5))
		return -1;
	for (int d = 0; d < GDEV_COUNT; d++) {
		if (strcmp(clean, devices[d].path))
			continue;
		/* "null/" or "null/.": a directory was asked for */
		int dir_asked = n && (path[n - 1] == '/' || (path[n - 1] == '.' && (n == 1 || path[n - 2] == '/')));
		return dir_asked ? -ENOTDIR : d;
	}
	return -1;
}

void dev_stat(int dev, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFCHR | 0666;
	st->st_rdev = makedev(1, devices[dev].minor);
	st->st_dev = makedev(0, 5);          /* devtmpfs's, on most systems */
	st->st_ino = devices[dev].minor;     /* fixed: the same in every run */
	st->st_nlink = 1;
	st->st_blksize = 4096;
}

int dev_dir_lookup(const char *dir, const char *path)
{
	char clean[SANDBOX_PATH_MAX];
	return clean_guest_path(dir, path, clean, sizeof clean) == 0 && !strcmp(clean, "/dev");
}

void dev_dir_stat(struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFDIR | 0755;
	st->st_dev = makedev(0, 5);
	st->st_ino = 1;                      /* (the devices' inodes are their minors) */
	st->st_nlink = 2;
	st->st_blksize = 4096;
}

/* getdents64 on /dev: ".", "..", then the devices; the descriptor's
 * offset is the index of the next entry, as the cookie in d_off. */
int64_t dev_dir_getdents(struct guest *g, struct guest_fd *f, uint64_t buf, uint64_t len)
{
	uint8_t out[512];                    /* all six entries fit */
	size_t used = 0;
	uint64_t next = f->off;
	for (; next < 2 + GDEV_COUNT; next++) {
		const char *name = next == 0 ? "." : next == 1 ? ".." : devices[next - 2].path + 5;
		size_t reclen = (19 + strlen(name) + 1 + 7) & ~(size_t)7;   /* header, name, NUL; 8-aligned */
		if (used + reclen > len || used + reclen > sizeof out)
			break;
		uint8_t *d = out + used;
		memset(d, 0, reclen);
		uint64_t ino = next < 2 ? 1 : devices[next - 2].minor;
		int64_t cookie = (int64_t)next + 1;
		uint16_t rl = (uint16_t)reclen;
		memcpy(d, &ino, 8);
		memcpy(d + 8, &cookie, 8);
		memcpy(d + 16, &rl, 2);
		d[18] = next < 2 ? 4 /* DT_DIR */ : 2 /* DT_CHR */;
		memcpy(d + 19, name, strlen(name));
		used += reclen;
	}
	if (!used && next < 2 + GDEV_COUNT)
		return -EINVAL;                  /* the buffer cannot hold one entry */
	if (used && mem_write_bytes(g->mem, buf, out, used, 1, NULL) < 0)
		return -EFAULT;
	f->off = next;
	return (int64_t)used;
}

int64_t dev_read(struct guest *g, struct guest_fd *f, uint8_t *host, uint64_t buf, uint64_t len)
{
	if ((f->flags & G_O_ACCMODE) == 1)
		return -EBADF;
	if (f->file == GDEV_NULL || len == 0)
		return 0;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	uint64_t chunk[512];
	uint64_t done = 0;
	if (f->file == GDEV_ZERO)
		memset(chunk, 0, sizeof chunk);
	while (done < len) {
		size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
		if (f->file != GDEV_ZERO)
			for (size_t i = 0; i < (n + 7) / 8; i++)
				chunk[i] = guest_random64(g);     /* 8 bytes a value, as getrandom */
		size_t put = xfer_put_some(g, host, buf + done, chunk, n);
		done += put;
		if (put < n)
			break;                                /* a fault: the bytes before it */
	}
	return done ? (int64_t)done : -EFAULT;
}

int64_t dev_write(struct guest *g, struct guest_fd *f, const uint8_t *host, uint64_t buf, uint64_t len)
{
	if ((f->flags & G_O_ACCMODE) == 0)
		return -EBADF;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (f->file == GDEV_NULL || f->file == GDEV_ZERO)
		return (int64_t)len;                  /* never looked at, as Linux */
	/* random: Linux reads the bytes into its pool; here they are only read */
	uint8_t chunk[4096];
	uint64_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
		if (xfer_get(g, host, buf + done, chunk, n) < 0)
			return done ? (int64_t)done : -EFAULT;
		done += n;
	}
	return (int64_t)done;
}
