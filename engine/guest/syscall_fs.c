/*
 * syscall_fs.c — the guest's file system calls: descriptors, paths through
 * the sandbox, reads and writes, stat.
 *
 * The guest starts with three descriptors: 0 reads the --stdin bytes (a
 * copy held by the guest), 1 and 2 go to the output sink. Every other
 * descriptor comes from openat on a path the sandbox grants (sandbox.h)
 * or on one of the virtual devices /dev/null, zero, random, urandom
 * (syscall_dev.c), which come before the sandbox in every path lookup;
 * the calls that change directories (mkdir, unlink, rename, links, times,
 * modes) are the sandbox's too, checked against the grant the path lands
 * in. sendfile moves bytes through a host buffer by the read and write
 * paths below (xfer_put/xfer_get), so it is exactly as allowed as they are.
 * A descriptor's offset is the guest's (struct guest_fd) and I/O is
 * pread/pwrite at it; the size of a file the guest changed is the guest's
 * too (file_sizes.c: appends, reads, stat and lseek use it), so a snapshot
 * holds the file state the guest can observe, except the bytes of files
 * it wrote: a write to a host file is done when the guest makes it and is
 * not undone by reverse stepping (the replay makes it again, at the same
 * offset).
 *
 * Results that would differ between two runs of the same program on the
 * same files are made deterministic: a file's access time is reported as
 * its modification time (reading it changes the host's), the guest's own
 * descriptors 0-2 have fixed stat answers, and no descriptor is a
 * terminal (TCGETS is ENOTTY), so stdio buffers the same way every time.
 *
 * Errors are negated Linux errno values; the host is Linux, whose errno
 * numbers are the same on x86-64 and AArch64, so host constants are used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "guest_internal.h"

enum {
	NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25, NR_ioctl = 29,
	NR_faccessat = 48, NR_openat = 56, NR_close = 57, NR_getdents64 = 61,
	NR_lseek = 62, NR_read = 63, NR_write = 64, NR_readv = 65, NR_writev = 66,
	NR_pread64 = 67, NR_pwrite64 = 68, NR_readlinkat = 78, NR_newfstatat = 79,
	NR_fstat = 80, NR_statx = 291, NR_faccessat2 = 439, NR_getsockname = 204, NR_getpeername = 205,
	NR_mkdirat = 34, NR_unlinkat = 35, NR_symlinkat = 36, NR_linkat = 37, NR_renameat = 38,
	NR_chdir = 49, NR_fchdir = 50, NR_sendfile = 71, NR_utimensat = 88, NR_renameat2 = 276,
	NR_truncate = 45, NR_ftruncate = 46, NR_fchmod = 52, NR_fchmodat = 53, NR_fchownat = 54,
	NR_fchown = 55, NR_sync = 81, NR_fsync = 82, NR_fdatasync = 83,
	NR_preadv = 69, NR_pwritev = 70, NR_preadv2 = 286, NR_pwritev2 = 287,
	NR_sync_file_range = 84, NR_syncfs = 267, NR_readahead = 213,
	NR_setxattr = 5, NR_lsetxattr = 6, NR_fsetxattr = 7, NR_getxattr = 8, NR_lgetxattr = 9,
	NR_fgetxattr = 10, NR_listxattr = 11, NR_llistxattr = 12, NR_flistxattr = 13,
	NR_removexattr = 14, NR_lremovexattr = 15, NR_fremovexattr = 16, NR_flock = 32,
	NR_fallocate = 47, NR_fadvise64 = 223, NR_close_range = 436,
};

#define G_AT_FDCWD           (-100)
#define G_AT_SYMLINK_NOFOLLOW 0x100
#define G_AT_EMPTY_PATH      0x1000
#define G_AT_REMOVEDIR       0x200
#define G_AT_SYMLINK_FOLLOW  0x400
#define G_RENAME_NOREPLACE   1
#define G_RENAME_EXCHANGE    2
#define G_O_DIRECTORY        040000
#define G_O_ACCMODE          03
#define G_O_TRUNC            01000
#define G_O_APPEND           02000
#define G_O_CLOEXEC          02000000
#define G_O_NOFOLLOW         0100000
#define G_O_PATH             010000000
#define G_F_DUPFD 0
#define G_F_GETFD 1
#define G_F_SETFD 2
#define G_F_GETFL 3
#define G_F_SETFL 4
#define G_F_GETLK 5
#define G_F_SETLK 6
#define G_F_SETLKW 7
#define G_F_OFD_GETLK 36
#define G_F_OFD_SETLK 37
#define G_F_OFD_SETLKW 38
#define G_F_DUPFD_CLOEXEC 1030

#define CHUNK 16384

/* struct stat as the AArch64 kernel writes it (asm-generic layout). */
struct gstat {
	uint64_t dev, ino;
	uint32_t mode, nlink, uid, gid;
	uint64_t rdev, pad1;
	int64_t size;
	int32_t blksize, pad2;
	int64_t blocks;
	int64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
	uint32_t unused[2];
};
_Static_assert(sizeof(struct gstat) == 128, "AArch64 struct stat is 128 bytes");

static struct guest_fd *get_fd(struct guest *g, uint64_t fd)
{
	if (fd >= GUEST_MAX_FDS || g->fds[fd].kind == GFD_FREE)
		return NULL;
	return &g->fds[fd];
}

static int lowest_free(const struct guest *g, uint64_t from)
{
	for (uint64_t i = from; i < GUEST_MAX_FDS; i++)
		if (g->fds[i].kind == GFD_FREE)
			return (int)i;
	return -EMFILE;
}

/* Copy a NUL-terminated guest string. 0, -EFAULT or -ENAMETOOLONG. */
static int read_path(struct guest *g, uint64_t addr, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		/* up to the end of the page, so an unmapped next page is no fault */
		size_t k = (size_t)(MEM_PAGE_SIZE - ((addr + got) & (MEM_PAGE_SIZE - 1)));
		if (k > n - got)
			k = n - got;
		if (mem_read_bytes(g->mem, addr + got, buf + got, k, 1, NULL) < 0)
			return -EFAULT;
		void *z = memchr(buf + got, 0, k);
		if (z)
			return 0;
		got += k;
	}
	return -ENAMETOOLONG;
}

/* The guest's working directory: where it started, or where chdir took
 * it (an index in the guest's state, so snapshots restore it). */
static const char *cwd_of(const struct guest *g)
{
	return g->cwd_file > 0 ? sandbox_dir_path(g->sandbox, g->cwd_file - 1) : sandbox_cwd(g->sandbox);
}

/* The directory a *at call's relative path starts from: the working
 * directory, or the guest path of dirfd. */
static int at_dir(struct guest *g, int64_t dirfd, const char *path, const char **dir)
{
	*dir = cwd_of(g);
	if (path[0] == '/' || dirfd == G_AT_FDCWD)
		return 0;
	const struct guest_fd *f = dirfd >= 0 ? get_fd(g, (uint64_t)dirfd) : NULL;
	if (!f)
		return -EBADF;
	if (f->kind != GFD_DIR && f->kind != GFD_DEVDIR)
		return -ENOTDIR;
	*dir = f->kind == GFD_DEVDIR ? "/dev" : sandbox_dir_path(g->sandbox, f->file);
	return 0;
}

static void to_gstat(const struct stat *st, struct gstat *o)
{
	memset(o, 0, sizeof *o);
	o->dev = st->st_dev, o->ino = st->st_ino, o->mode = st->st_mode, o->nlink = (uint32_t)st->st_nlink;
	o->uid = st->st_uid, o->gid = st->st_gid, o->rdev = st->st_rdev, o->size = st->st_size;
	o->blksize = (int32_t)st->st_blksize, o->blocks = st->st_blocks;
	o->mtime = st->st_mtim.tv_sec, o->mtime_ns = st->st_mtim.tv_nsec;
	o->atime = o->mtime, o->atime_ns = o->mtime_ns;     /* see the top of the file */
	o->ctime = st->st_ctim.tv_sec, o->ctime_ns = st->st_ctim.tv_nsec;
}

/* The stat of a guest descriptor: synthesised for 0-2, the host's for files. */
static int fd_stat(struct guest *g, const struct guest_fd *f, struct stat *st)
{
	memset(st, 0, sizeof *st);
	switch (f->kind) {
	case GFD_STDIN:
		/* like `prog < FILE`, or an empty pipe without --stdin */
		st->st_mode = g->stdin_is_file ? S_IFREG | 0400 : S_IFIFO | 0600;
		st->st_size = (off_t)g->stdin_len;
		st->st_blksize = 4096;
		st->st_blocks = (blkcnt_t)((g->stdin_len + 511) / 512);
		st->st_nlink = 1;
		st->st_ino = 1;
		st->st_mtim.tv_sec = g->stdin_mtime_sec, st->st_mtim.tv_nsec = g->stdin_mtime_nsec;
		st->st_ctim = st->st_mtim;
		return 0;
	case GFD_PIPE_R:
	case GFD_PIPE_W:
		st->st_mode = S_IFIFO | 0600;
		st->st_blksize = 4096;
		st->st_nlink = 1;
		st->st_ino = 16 + (ino_t)f->file;
		return 0;
	case GFD_DEV:
		dev_stat(f->file, st);
		return 0;
	case GFD_DEVDIR:
		dev_dir_stat(st);
		return 0;
	case GFD_OUT:
		st->st_mode = S_IFIFO | 0600;
		st->st_blksize = 4096;
		st->st_nlink = 1;
		st->st_ino = 1 + f->out_fd;
		return 0;
	default:
		if (fstat(sandbox_fd(g->sandbox, f->file), st) < 0)
			return -errno;
		file_size_stat(g, st);
		return 0;
	}
}

static int64_t put_stat(struct guest *g, const struct stat *st, uint64_t addr)
{
	struct gstat o;
	to_gstat(st, &o);
	return mem_write_bytes(g->mem, addr, &o, sizeof o, 1, NULL) < 0 ? -EFAULT : 0;
}

static int64_t put_statx(struct guest *g, const struct stat *st, uint64_t addr)
{
	struct statx x;
	memset(&x, 0, sizeof x);
	x.stx_mask = STATX_BASIC_STATS;
	x.stx_blksize = (uint32_t)st->st_blksize;
	x.stx_nlink = (uint32_t)st->st_nlink;
	x.stx_uid = st->st_uid, x.stx_gid = st->st_gid, x.stx_mode = (uint16_t)st->st_mode;
	x.stx_ino = st->st_ino, x.stx_size = (uint64_t)st->st_size, x.stx_blocks = (uint64_t)st->st_blocks;
	x.stx_mtime.tv_sec = st->st_mtim.tv_sec, x.stx_mtime.tv_nsec = (uint32_t)st->st_mtim.tv_nsec;
	x.stx_atime = x.stx_mtime;
	x.stx_ctime.tv_sec = st->st_ctim.tv_sec, x.stx_ctime.tv_nsec = (uint32_t)st->st_ctim.tv_nsec;
	x.stx_rdev_major = major(st->st_rdev), x.stx_rdev_minor = minor(st->st_rdev);
	x.stx_dev_major = major(st->st_dev), x.stx_dev_minor = minor(st->st_dev);
	return mem_write_bytes(g->mem, addr, &x, sizeof x, 1, NULL) < 0 ? -EFAULT : 0;
}

/* stat for the *at calls: an fd with AT_EMPTY_PATH, or a path. */
/* Whether a path names ivx's /dev (syscall_dev.c): not when a grant
 * is the directory /dev, whose files the devices only shadow. */
static int dev_dir_virtual(struct guest *g, const char *dir, const char *path)
{
	if (!dev_dir_lookup(dir, path))
		return 0;
	int fd = sandbox_open_path(g->sandbox, dir, path, 0);
	if (fd >= 0)
		close(fd);
	return fd == -ENOENT;
}

static int at_stat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint64_t flags, struct stat *st)
{
	char path[SANDBOX_PATH_MAX];
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0)
		return rc;
	if (!path[0] && (flags & G_AT_EMPTY_PATH) && dirfd != G_AT_FDCWD) {
		const struct guest_fd *f = dirfd >= 0 ? get_fd(g, (uint64_t)dirfd) : NULL;
		return f ? fd_stat(g, f, st) : -EBADF;
	}
	if (!path[0] && (flags & G_AT_EMPTY_PATH))
		strcpy(path, ".");           /* the working directory itself */
	const char *dir;
	if ((rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	int dev = dev_lookup(dir, path);
	if (dev != -1) {
		if (dev >= 0)
			dev_stat(dev, st);
		return dev < 0 ? dev : 0;
	}
	if (dev_dir_virtual(g, dir, path)) {
		dev_dir_stat(st);
		return 0;
	}
	int fd = sandbox_open_path(g->sandbox, dir, path, (flags & G_AT_SYMLINK_NOFOLLOW) != 0);
	if (fd == -ENOENT)
		return sandbox_stat_above(g->sandbox, dir, path, st) == 0 ? 0 : fd;    /* "/" and the like */
	if (fd < 0)
		return fd;
	rc = fstat(fd, st) < 0 ? -errno : 0;
	close(fd);
	if (rc == 0)
		file_size_stat(g, st);
	return rc;
}

/* Write len guest bytes at buf (host bytes at host + buf if host is not
 * NULL) to descriptor f (at `at`, or at its offset when at < 0, moving it). */
static int64_t do_write(struct guest *g, struct guest_fd *f, const uint8_t *host, uint64_t buf, uint64_t len,
                        int64_t at, struct ivx_err *err, int *stop)
{
	if (f->flags & G_O_PATH)
		return -EBADF;           /* a location only (O_PATH) */
	if (GFD_IS_PIPE(f))
		return at >= 0 ? -ESPIPE : pipe_write(g, f, host, buf, len, err, stop);
	if (f->kind == GFD_DEV)
		return dev_write(g, f, host, buf, len);      /* (at any offset: it has none) */
	if (f->kind == GFD_OUT) {
		if (at >= 0)
			return -ESPIPE;
		char chunk[4096];
		uint64_t done = 0;
		while (done < len) {
			size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
			if (xfer_get(g, host, buf + done, chunk, n) < 0)
				return done ? (int64_t)done : -EFAULT;
			if (g->output) {
				g->output(g->output_ctx, f->out_fd, chunk, n);
			} else {
				size_t off = 0;
				while (off < n) {
					ssize_t w = write(f->out_fd, chunk + off, n - off);
					if (w <= 0)
						break;
					off += (size_t)w;
				}
			}
			done += n;
		}
		return (int64_t)done;
	}
	if (f->kind != GFD_FILE)
		return f->kind == GFD_DIR || f->kind == GFD_DEVDIR ? -EISDIR : -EBADF;
	if ((f->flags & G_O_ACCMODE) == 0)
		return -EBADF;
	uint64_t pos = at >= 0 ? (uint64_t)at : f->off;
	/* O_APPEND: at the end, for pwrite too (Linux ignores its offset) */
	if (f->flags & G_O_APPEND) {
		int rc = file_size_end(g, f->file, &pos);
		if (rc < 0)
			return rc;
	}
	char chunk[CHUNK];
	uint64_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
		if (xfer_get(g, host, buf + done, chunk, n) < 0) {
			if (!done)
				return -EFAULT;
			break;
		}
		int64_t w = file_write(g, f->file, chunk, n, pos + done);
		if (w < 0) {
			if (!done)
				return w;
			break;
		}
		done += (uint64_t)w;
		if ((size_t)w < n)
			break;
	}
	if (at < 0)
		f->off = pos + done;
	return (int64_t)done;
}

static int64_t do_read(struct guest *g, struct guest_fd *f, uint8_t *host, uint64_t buf, uint64_t len,
                       int64_t at, struct ivx_err *err, int *stop)
{
	if (f->flags & G_O_PATH)
		return -EBADF;
	if (GFD_IS_PIPE(f))
		return at >= 0 ? -ESPIPE : pipe_read(g, f, host, buf, len, err, stop);
	if (f->kind == GFD_DEV)
		return dev_read(g, f, host, buf, len);
	if (f->kind == GFD_STDIN) {
		size_t pos = at >= 0 ? (size_t)at : g->stdin_pos;
		size_t left = pos < g->stdin_len ? g->stdin_len - pos : 0;
		size_t n = len < left ? (size_t)len : left;
		if (n && (n = xfer_put_some(g, host, buf, g->stdin_data + pos, n)) == 0)
			return -EFAULT;     /* (a fault part way returns the bytes before it) */
		if (at < 0)
			g->stdin_pos = pos + n;
		return (int64_t)n;
	}
	if (f->kind != GFD_FILE)
		return f->kind == GFD_DIR || f->kind == GFD_DEVDIR ? -EISDIR : -EBADF;
	if ((f->flags & G_O_ACCMODE) == 1)
		return -EBADF;
	int hfd = sandbox_fd(g->sandbox, f->file);
	uint64_t pos = at >= 0 ? (uint64_t)at : f->off;
	/* a file the guest changed ends where the guest's size says: the
	 * host's bytes past it are a later point's (and should the host have
	 * fewer, shortened by something else, the rest reads as zeros) */
	uint64_t size;
	int sized = file_size_known(g, f->file, &size);
	if (sized)
		len = pos < size ? (len < size - pos ? len : size - pos) : 0;
	char chunk[CHUNK];
	uint64_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
		ssize_t r = pread(hfd, chunk, n, (off_t)(pos + done));
		if (r < 0) {
			if (!done)
				return -errno;
			break;
		}
		if (sized && (size_t)r < n) {
			memset(chunk + r, 0, n - (size_t)r);
			r = (ssize_t)n;
		}
		size_t put = r ? xfer_put_some(g, host, buf + done, chunk, (size_t)r) : 0;
		done += put;
		if (put < (size_t)r) {          /* a fault: the offset moves past what was copied */
			if (!done)
				return -EFAULT;
			break;
		}
		if ((size_t)r < n)
			break;
	}
	if (at < 0)
		f->off = pos + done;
	return (int64_t)done;
}

/* readv/writev (iov: an array of {base, len} pairs), and with at >= 0
 * preadv/pwritev: at that file offset, leaving the descriptor's alone. */
static int64_t do_vec(struct guest *g, struct guest_fd *f, uint64_t iov, uint64_t cnt, int writing,
                      int64_t at, struct ivx_err *err, int *stop)
{
	if (cnt > 1024)
		return -EINVAL;
	int64_t total = 0;
	for (uint64_t i = 0; i < cnt; i++) {
		uint64_t v[2];
		if (mem_read_bytes(g->mem, iov + 16 * i, v, sizeof v, 1, NULL) < 0)
			return total ? total : -EFAULT;
		if (!v[1])
			continue;
		if (at >= 0 && (uint64_t)total + v[1] > (uint64_t)INT64_MAX - (uint64_t)at)
			return total ? total : -EINVAL;   /* past the largest offset, as Linux */
		int64_t pos = at < 0 ? -1 : at + total;
		int64_t r = writing ? do_write(g, f, NULL, v[0], v[1], pos, err, stop)
				    : do_read(g, f, NULL, v[0], v[1], pos, err, stop);
		if (*stop)
			return r;
		if (r < 0)
			return total ? total : r;
		total += r;
		if ((uint64_t)r < v[1])
			break;
	}
	return total;
}

static int64_t sys_openat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint64_t flags, uint64_t mode)
{
	char path[SANDBOX_PATH_MAX];
	const char *dir;
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0 || (rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	/* O_PATH: Linux ignores every other flag but these (no creation, no
	 * truncation, no access); reads and writes are then EBADF */
	if (flags & G_O_PATH)
		flags &= G_O_PATH | G_O_CLOEXEC | G_O_DIRECTORY | G_O_NOFOLLOW;
	int dev = dev_lookup(dir, path);
	if (dev < -1)
		return dev;
	if (dev >= 0 && (flags & G_O_DIRECTORY))
		return -ENOTDIR;
	if (dev >= 0 && (flags & 0300) == 0300)
		return -EEXIST;               /* O_CREAT | O_EXCL */
	int dev_dir = dev < 0 && dev_dir_virtual(g, dir, path);
	if (dev_dir && (flags & 0300) == 0300)
		return -EEXIST;
	if (dev_dir && (flags & (G_O_ACCMODE | 0100)))
		return -EISDIR;               /* written or O_CREAT, as Linux answers for a directory */
	int fd = lowest_free(g, 0);
	if (fd < 0)
		return fd;
	if (dev_dir) {
		g->fds[fd] = (struct guest_fd){
			.kind = GFD_DEVDIR, .cloexec = (flags & G_O_CLOEXEC) != 0, .flags = (uint32_t)flags,
		};
		return fd;
	}
	if (dev >= 0) {
		g->fds[fd] = (struct guest_fd){
			.kind = GFD_DEV, .cloexec = (flags & G_O_CLOEXEC) != 0, .file = dev, .flags = (uint32_t)flags,
		};
		return fd;
	}
	int idx = sandbox_open(g->sandbox, dir, path, (int)flags, (int)(mode & ~g->umask));
	if (idx < 0)
		return idx;
	if ((flags & G_O_TRUNC) && !sandbox_dir_path(g->sandbox, idx)) {
		/* the sandbox leaves the truncation to us (file_sizes.c), through
		 * a descriptor that can make it: O_RDONLY | O_TRUNC truncates too */
		int w = (flags & G_O_ACCMODE) ? idx : sandbox_open(g->sandbox, dir, path, 1 /* O_WRONLY */, 0);
		if (w < 0 || (w = file_truncate(g, w, 0)) < 0)
			return w;
	}
	g->fds[fd] = (struct guest_fd){
		.kind = sandbox_dir_path(g->sandbox, idx) ? GFD_DIR : GFD_FILE,
		.cloexec = (flags & G_O_CLOEXEC) != 0, .file = idx, .flags = (uint32_t)flags,
	};
	return fd;
}

static int64_t sys_lseek(struct guest *g, struct guest_fd *f, int64_t off, uint64_t whence)
{
	int64_t base;
	if (f->kind == GFD_DEV)
		return 0;                /* any whence, any offset, as Linux's devices */
	if (f->kind == GFD_OUT || GFD_IS_PIPE(f) ||
	    (f->kind == GFD_STDIN && !g->stdin_is_file))
		return -ESPIPE;          /* (fstat calls these pipes) */
	if (f->kind == GFD_DIR || f->kind == GFD_DEVDIR) {
		if (whence != SEEK_SET || off < 0)
			return -EINVAL;
		f->off = (uint64_t)off;
		return off;
	}
	uint64_t *pos = f->kind == GFD_STDIN ? (uint64_t *)NULL : &f->off;
	uint64_t cur = pos ? *pos : g->stdin_pos;
	if (whence == SEEK_SET) {
		base = 0;
	} else if (whence == SEEK_CUR) {
		base = (int64_t)cur;
	} else if (whence == SEEK_END || whence == SEEK_DATA || whence == SEEK_HOLE) {
		struct stat st;
		int rc = fd_stat(g, f, &st);
		if (rc < 0)
			return rc;
		base = st.st_size;
		if (whence != SEEK_END) {
			/* the whole file is data and its end the only hole, as
			 * Linux answers for file systems that track no holes:
			 * the same on every host */
			if (off < 0 || off >= base)
				return -ENXIO;
			base = whence == SEEK_DATA ? 0 : base;
			off = whence == SEEK_DATA ? off : 0;
		}
	} else {
		return -EINVAL;
	}
	if (off > 0 && base > INT64_MAX - off)
		return -EINVAL;          /* past the largest offset */
	int64_t n = base + off;
	if (n < 0)
		return -EINVAL;
	if (pos)
		*pos = (uint64_t)n;
	else
		g->stdin_pos = (size_t)n;
	return n;
}

static int64_t sys_getdents64(struct guest *g, struct guest_fd *f, uint64_t buf, uint64_t len)
{
	if (f->flags & G_O_PATH)
		return -EBADF;
	if (f->kind == GFD_DEVDIR)
		return dev_dir_getdents(g, f, buf, len);
	if (f->kind != GFD_DIR)
		return -ENOTDIR;
	int host = sandbox_fd(g->sandbox, f->file);
	char tmp[CHUNK];
	if (len > sizeof tmp)
		len = sizeof tmp;
	if (lseek(host, (off_t)f->off, SEEK_SET) < 0)
		return -errno;
	long n = syscall(SYS_getdents64, host, tmp, (size_t)len);
	if (n < 0)
		return -errno;
	if (n && mem_write_bytes(g->mem, buf, tmp, (size_t)n, 1, NULL) < 0)
		return -EFAULT;
	off_t now = lseek(host, 0, SEEK_CUR);
	if (now >= 0)
		f->off = (uint64_t)now;
	return n;
}

static int64_t sys_readlinkat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint64_t buf, uint64_t size)
{
	char path[SANDBOX_PATH_MAX], clean[SANDBOX_PATH_MAX], target[SANDBOX_PATH_MAX];
	const char *dir;
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0 || (rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	if ((int64_t)size <= 0)
		return -EINVAL;
	int dev = dev_lookup(dir, path);
	if (dev != -1 || dev_dir_virtual(g, dir, path))
		return dev < -1 ? dev : -EINVAL;      /* no symlink */
	ssize_t n;
	if (path[0] == '/' && sandbox_clean_path(path, clean, sizeof clean) == 0 && !strcmp(clean, "/proc/self/exe")) {
		const char *exe = sandbox_exe(g->sandbox);
		n = (ssize_t)strlen(exe);
		memcpy(target, exe, (size_t)n);
	} else {
		int fd = sandbox_open_path(g->sandbox, dir, path, 1);
		if (fd < 0)
			return fd;
		n = readlinkat(fd, "", target, sizeof target);
		int e = errno;
		close(fd);
		if (n < 0)
			return e == ENOENT ? -EINVAL : -e;   /* "" on a non-link */
	}
	if ((uint64_t)n > size)
		n = (ssize_t)size;
	return mem_write_bytes(g->mem, buf, target, (size_t)n, 1, NULL) < 0 ? -EFAULT : n;
}

static int64_t sys_faccessat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint64_t mode, uint64_t flags)
{
	char path[SANDBOX_PATH_MAX];
	const char *dir;
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0 || (rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	int dev = dev_lookup(dir, path);
	if (dev != -1)
		return dev < 0 ? dev : (mode & X_OK) ? -EACCES : 0;    /* 0666, for root too */
	if (dev_dir_virtual(g, dir, path))
		return mode & W_OK ? -EROFS : 0;       /* as the directories above a grant */
	int fd = sandbox_open_path(g->sandbox, dir, path, (flags & G_AT_SYMLINK_NOFOLLOW) != 0);
	if (fd == -ENOENT) {
		struct stat st;
		if (sandbox_stat_above(g->sandbox, dir, path, &st) < 0)
			return fd;
		return mode & W_OK ? -EROFS : 0;
	}
	if (fd < 0)
		return fd;
	/* the guest is root: R_OK and W_OK hold (but for read-only grants),
	 * X_OK only for a directory or a file with an x bit */
	struct stat st;
	int executable = fstat(fd, &st) == 0 && (S_ISDIR(st.st_mode) || (st.st_mode & 0111));
	close(fd);
	if ((mode & X_OK) && !executable)
		return -EACCES;
	if (mode & W_OK) {
		/* writable only under an rw grant: ask the sandbox as an open would */
		int idx = sandbox_open(g->sandbox, dir, path, 1 /* O_WRONLY */, 0);
		if (idx == -EROFS)
			return -EROFS;
	}
	return 0;
}

/* A *at call's path argument into buf, and the directory it starts from. */
static int at_path(struct guest *g, int64_t dirfd, uint64_t addr, char *buf, size_t n, const char **dir)
{
	int rc = read_path(g, addr, buf, n);
	return rc < 0 ? rc : at_dir(g, dirfd, buf, dir);
}

/* sendfile: in_fd's bytes to out_fd through a host buffer, by the read and
 * write paths, so every kind of descriptor behaves as for read and write
 * (Linux allows any readable in_fd since 5.12). With off_addr the input is
 * read at *off_addr, which is advanced, and its own offset is left alone. */
static int64_t sys_sendfile(struct guest *g, uint64_t out_slot, uint64_t in_slot, uint64_t off_addr, uint64_t count,
                            struct ivx_err *err, int *stop)
{
	struct guest_fd *in = get_fd(g, in_slot), *out = get_fd(g, out_slot);
	if (!in || !out)
		return -EBADF;
	if (out->kind == GFD_FILE && (out->flags & G_O_APPEND))
		return -EINVAL;                  /* as Linux: callers fall back to read/write */
	int64_t pos = -1;
	if (off_addr) {
		if (mem_read_bytes(g->mem, off_addr, &pos, sizeof pos, 1, NULL) < 0)
			return -EFAULT;
		if (pos < 0 || (count && count - 1 > (uint64_t)(INT64_MAX - pos)))
			return -EINVAL;          /* (so is reading past the largest offset) */
		if (in->kind != GFD_FILE && in->kind != GFD_STDIN && in->kind != GFD_DEV)
			return -ESPIPE;
	}
	if (count > 0x7ffff000)
		count = 0x7ffff000;              /* Linux's MAX_RW_COUNT */
	uint8_t buf[CHUNK];
	uint64_t done = 0;
	int64_t rc = 0;
	while (done < count) {
		uint64_t n = count - done < sizeof buf ? count - done : sizeof buf;
		int64_t r = do_read(g, in, buf, 0, n, pos >= 0 ? pos + (int64_t)done : -1, err, stop);
		if (*stop)
			return r;
		if (r <= 0) {
			rc = r;
			break;
		}
		int64_t w = do_write(g, out, buf, 0, (uint64_t)r, -1, err, stop);
		if (*stop)
			return w;
		int64_t unsent = w < 0 ? r : r - w;
		if (unsent && pos < 0) {
			/* give back what was read and not written (a pipe's bytes are gone) */
			if (in->kind == GFD_FILE)
				in->off -= (uint64_t)unsent;
			else if (in->kind == GFD_STDIN)
				g->stdin_pos -= (size_t)unsent;
		}
		if (w < 0) {
			rc = w;
			break;
		}
		done += (uint64_t)w;
		if (unsent || (uint64_t)r < n)
			break;
	}
	if (off_addr) {
		/* a device leaves the offset where it was, as Linux's do */
		int64_t np = in->kind == GFD_DEV ? pos : pos + (int64_t)done;
		if (mem_write_bytes(g->mem, off_addr, &np, sizeof np, 1, NULL) < 0)
			return -EFAULT;
	}
	return done ? (int64_t)done : rc;
}

static int64_t sys_chdir(struct guest *g, uint64_t path_addr)
{
	char path[SANDBOX_PATH_MAX];
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0)
		return rc;
	if (dev_lookup(cwd_of(g), path) != -1)
		return -ENOTDIR;
	if (dev_dir_virtual(g, cwd_of(g), path))
		return -EACCES;               /* no host directory to enter (see sandbox_open) */
	int idx = sandbox_open(g->sandbox, cwd_of(g), path, G_O_DIRECTORY, 0);
	if (idx < 0)
		return idx;
	g->cwd_file = idx + 1;
	return 0;
}

static int64_t sys_renameat2(struct guest *g, int64_t odirfd, uint64_t opath_addr, int64_t ndirfd,
                             uint64_t npath_addr, uint64_t flags)
{
	char opath[SANDBOX_PATH_MAX], npath[SANDBOX_PATH_MAX];
	const char *odir, *ndir;
	int rc;
	if ((rc = at_path(g, odirfd, opath_addr, opath, sizeof opath, &odir)) < 0 ||
	    (rc = at_path(g, ndirfd, npath_addr, npath, sizeof npath, &ndir)) < 0)
		return rc;
	if ((flags & ~(uint64_t)(G_RENAME_NOREPLACE | G_RENAME_EXCHANGE)) ||
	    flags == (G_RENAME_NOREPLACE | G_RENAME_EXCHANGE))
		return -EINVAL;
	return sandbox_rename(g->sandbox, odir, opath, ndir, npath, (unsigned)flags);
}

static int64_t sys_linkat(struct guest *g, int64_t odirfd, uint64_t opath_addr, int64_t ndirfd,
                          uint64_t npath_addr, uint64_t flags)
{
	char opath[SANDBOX_PATH_MAX], npath[SANDBOX_PATH_MAX];
	const char *odir, *ndir;
	int rc;
	if (flags & ~(uint64_t)G_AT_SYMLINK_FOLLOW)
		return -EINVAL;          /* AT_EMPTY_PATH needs a privilege the guest lacks */
	if ((rc = at_path(g, odirfd, opath_addr, opath, sizeof opath, &odir)) < 0 ||
	    (rc = at_path(g, ndirfd, npath_addr, npath, sizeof npath, &ndir)) < 0)
		return rc;
	return sandbox_link(g->sandbox, odir, opath, ndir, npath, (flags & G_AT_SYMLINK_FOLLOW) != 0);
}

static int64_t sys_symlinkat(struct guest *g, uint64_t target_addr, int64_t dirfd, uint64_t path_addr)
{
	char target[SANDBOX_PATH_MAX], path[SANDBOX_PATH_MAX];
	const char *dir;
	int rc = read_path(g, target_addr, target, sizeof target);
	if (rc < 0 || (rc = at_path(g, dirfd, path_addr, path, sizeof path, &dir)) < 0)
		return rc;
	return target[0] ? sandbox_symlink(g->sandbox, target, dir, path) : -ENOENT;
}

/* utimensat, and futimens (a NULL path): times NULL or UTIME_NOW are the
 * host's clock, as for a file the guest writes. */
static int64_t sys_utimensat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint64_t times_addr, uint64_t flags)
{
	struct timespec ts[2], *tsp = NULL;
	if (flags & ~(uint64_t)(G_AT_SYMLINK_NOFOLLOW | G_AT_EMPTY_PATH))
		return -EINVAL;
	if (times_addr) {
		int64_t t[4];
		if (mem_read_bytes(g->mem, times_addr, t, sizeof t, 1, NULL) < 0)
			return -EFAULT;
		ts[0] = (struct timespec){ .tv_sec = t[0], .tv_nsec = t[1] };
		ts[1] = (struct timespec){ .tv_sec = t[2], .tv_nsec = t[3] };
		tsp = ts;
	}
	char path[SANDBOX_PATH_MAX];
	const char *dir;
	int rc;
	if (path_addr && (rc = read_path(g, path_addr, path, sizeof path)) < 0)
		return rc;
	if (!path_addr || (!path[0] && (flags & G_AT_EMPTY_PATH))) {
		/* on a descriptor: only one opened for writing passed the grant's check */
		const struct guest_fd *f = get_fd(g, (uint32_t)dirfd);
		if (!f)
			return -EBADF;
		if (f->kind != GFD_FILE || !sandbox_file_writable(g->sandbox, f->file))
			return -EROFS;
		return futimens(sandbox_fd(g->sandbox, f->file), tsp) < 0 ? -errno : 0;
	}
	if ((rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	return sandbox_utimens(g->sandbox, dir, path, tsp, !(flags & G_AT_SYMLINK_NOFOLLOW));
}

/* Set-id and sticky bits are dropped: a guest running as "root" must not
 * leave a set-uid file on the host. */
#define CHMOD_BITS 0777

/* fchmod and fchown on a descriptor: a directory by its path; a file only
 * if opened for writing (the only opens checked against the grant). */
static int64_t fd_chattr(struct guest *g, const struct guest_fd *f, int chown, uint64_t mode, uint32_t uid,
                         uint32_t gid)
{
	if (f->kind == GFD_DIR) {
		const char *p = sandbox_dir_path(g->sandbox, f->file);
		return chown ? sandbox_chown(g->sandbox, NULL, p, uid, gid, 1)
			     : sandbox_chmod(g->sandbox, NULL, p, (int)(mode & CHMOD_BITS));
	}
	if (f->kind != GFD_FILE || !sandbox_file_writable(g->sandbox, f->file))
		return -EROFS;
	int host = sandbox_fd(g->sandbox, f->file);
	if (!chown)
		return fchmod(host, (mode_t)(mode & CHMOD_BITS)) < 0 ? -errno : 0;
	struct stat st;
	if (fstat(host, &st) < 0)
		return -errno;
	return (uid != UINT32_MAX && uid != st.st_uid) || (gid != UINT32_MAX && gid != st.st_gid) ? -EPERM : 0;
}

static int64_t sys_fchownat(struct guest *g, int64_t dirfd, uint64_t path_addr, uint32_t uid, uint32_t gid,
                            uint64_t flags)
{
	char path[SANDBOX_PATH_MAX];
	const char *dir;
	int rc = read_path(g, path_addr, path, sizeof path);
	if (rc < 0)
		return rc;
	if (flags & ~(uint64_t)(G_AT_SYMLINK_NOFOLLOW | G_AT_EMPTY_PATH))
		return -EINVAL;
	if (!path[0] && (flags & G_AT_EMPTY_PATH)) {
		const struct guest_fd *f = get_fd(g, (uint32_t)dirfd);
		return f ? fd_chattr(g, f, 1, 0, uid, gid) : -EBADF;
	}
	if ((rc = at_dir(g, dirfd, path, &dir)) < 0)
		return rc;
	return sandbox_chown(g->sandbox, dir, path, uid, gid, !(flags & G_AT_SYMLINK_NOFOLLOW));
}

static int64_t sys_fcntl(struct guest *g, uint64_t fd, uint64_t cmd, uint64_t arg)
{
	struct guest_fd *f = get_fd(g, fd);
	if (!f)
		return -EBADF;
	switch (cmd) {
	case G_F_DUPFD:
	case G_F_DUPFD_CLOEXEC: {
		if (arg >= GUEST_MAX_FDS)
			return -EINVAL;
		int n = lowest_free(g, arg);
		if (n < 0)
			return n;
		g->fds[n] = *f;
		g->fds[n].cloexec = cmd == G_F_DUPFD_CLOEXEC;
		fd_retain(g, f);
		return n;
	}
	case G_F_GETFD: return f->cloexec;
	case G_F_SETFD: f->cloexec = arg & 1; return 0;
	case G_F_GETFL: return f->flags & ~(uint32_t)G_O_CLOEXEC;
	case G_F_SETFL: f->flags = (f->flags & ~(uint32_t)(G_O_APPEND | 04000)) | (uint32_t)(arg & (G_O_APPEND | 04000)); return 0;
	case G_F_SETLK:
	case G_F_SETLKW:
	case G_F_OFD_SETLK:         /* (open file description locks: the same here) */
	case G_F_OFD_SETLKW: {
		/* one process: every lock is granted, if the descriptor allows
		 * its kind (a read lock needs read access, a write lock write) */
		uint16_t type;
		if (mem_read_bytes(g->mem, arg, &type, 2, 1, NULL) < 0)
			return -EFAULT;
		if (type > 2)                       /* F_RDLCK, F_WRLCK, F_UNLCK */
			return -EINVAL;
		uint32_t acc = f->flags & G_O_ACCMODE;
		if (f->kind == GFD_FILE && ((type == 0 && acc == 1) || (type == 1 && acc == 0)))
			return -EBADF;
		return 0;
	}
	case G_F_GETLK:
	case G_F_OFD_GETLK: {
		uint16_t unlocked = 2;   /* F_UNLCK in struct flock's l_type */
		return mem_write_bytes(g->mem, arg, &unlocked, 2, 1, NULL) < 0 ? -EFAULT : 0;
	}
	default:
		return -EINVAL;
	}
}

static int64_t fs_call(struct guest *g, uint64_t nr, const uint64_t *a, int *handled,
                       struct ivx_err *err, int *stop);

/* The name of call nr with arguments a if, when it succeeds, it changes
 * the host's directories so that making it again would fail (see
 * guest_host_changes), else NULL. */
static const char *host_change(uint64_t nr, const uint64_t *a)
{
	switch (nr) {
	case NR_mkdirat: return "mkdirat";
	case NR_unlinkat: return ((uint32_t)a[2] & G_AT_REMOVEDIR) ? "rmdir" : "unlinkat";
	case NR_renameat: return "renameat";
	case NR_renameat2: return "renameat2";
	case NR_linkat: return "linkat";
	case NR_symlinkat: return "symlinkat";
	case NR_openat: return (a[2] & 0300) == 0300 ? "openat(O_CREAT|O_EXCL)" : NULL;
	default: return NULL;
	}
}

int64_t syscall_fs(struct guest *g, uint64_t nr, const uint64_t *a, int *handled,
                   struct ivx_err *err, int *stop)
{
	const char *name;
	if (sandbox_frozen(g->sandbox) && (name = host_change(nr, a))) {
		char where[200];
		guest_describe_pc(g, g->cpu.pc, where, sizeof where);
		g->state = GUEST_STOPPED;
		*handled = *stop = 1;
		return ivx_error(err, IVX_EUSAGE, "the program calls %s at %s, which would change the host's "
				 "directories in a run made only to measure", name, where);
	}
	int64_t r = fs_call(g, nr, a, handled, err, stop);
	if (*handled && !*stop && r >= 0 && (name = host_change(nr, a))) {
		g->host_changes++;
		g->host_change_call = name;
	}
	return r;
}

/* Extended attributes: the sandbox keeps none and sets none. The file
 * must exist (stat as the call would: l* and f* variants as theirs); then
 * get and remove are ENODATA (no such attribute), list is 0 (an empty
 * list) and set is ENOTSUP (the file system does not take them). */
static int64_t sys_xattr(struct guest *g, uint64_t nr, const uint64_t *a)
{
	struct stat st;
	int rc, base = (int)((nr - NR_setxattr) % 3);   /* 0 path, 1 l-path, 2 fd */
	int kind = (int)((nr - NR_setxattr) / 3);       /* 0 set, 1 get, 2 list, 3 remove */
	if (base == 2)
		rc = get_fd(g, (uint32_t)a[0]) ? 0 : -EBADF;
	else
		rc = at_stat(g, G_AT_FDCWD, a[0], base == 1 ? G_AT_SYMLINK_NOFOLLOW : 0, &st);
	if (rc < 0)
		return rc;
	return kind == 0 ? -ENOTSUP : kind == 2 ? 0 : -ENODATA;
}

/* close_range(first, last, flags): close the guest's descriptors in the
 * range; CLOSE_RANGE_CLOEXEC (4) marks them instead. CLOSE_RANGE_UNSHARE
 * (2) changes nothing for one process. */
static int64_t sys_close_range(struct guest *g, uint64_t first, uint64_t last, uint64_t flags)
{
	if (first > UINT32_MAX || last > UINT32_MAX || first > last || (flags & ~6ull))
		return -EINVAL;
	for (uint64_t fd = first; fd <= last && fd < GUEST_MAX_FDS; fd++) {
		struct guest_fd *f = get_fd(g, fd);
		if (f && (flags & 4))
			f->cloexec = 1;
		else if (f)
			fd_release(g, f);
	}
	return 0;
}

static int64_t fs_call(struct guest *g, uint64_t nr, const uint64_t *a, int *handled,
                       struct ivx_err *err, int *stop)
{
	*handled = 1;
	*stop = 0;
	/* Descriptors are C ints: the kernel reads only the register's low 32
	 * bits (klibc passes AT_FDCWD as 0xffffff9c), so must we. */
	int32_t fd = (int32_t)a[0];
	uint64_t fd_slot = (uint32_t)fd;      /* a negative one is out of range */
	struct stat st;
	struct guest_fd *f;
	int rc;
	switch (nr) {
	case NR_openat:
		return sys_openat(g, fd, a[1], a[2], a[3]);
	/* the guest has no sockets (socket is ENOSYS): bash asks whether its
	 * input is one */
	case NR_getsockname:
	case NR_getpeername:
		return get_fd(g, fd_slot) ? -ENOTSOCK : -EBADF;
	case NR_close:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		fd_release(g, f);
		return 0;
	case NR_read:
		return (f = get_fd(g, fd_slot)) ? do_read(g, f, NULL, a[1], a[2], -1, err, stop) : -EBADF;
	case NR_write:
		return (f = get_fd(g, fd_slot)) ? do_write(g, f, NULL, a[1], a[2], -1, err, stop) : -EBADF;
	case NR_pread64:
		return (f = get_fd(g, fd_slot)) ? ((int64_t)a[3] < 0 ? -EINVAL : do_read(g, f, NULL, a[1], a[2], (int64_t)a[3], err, stop)) : -EBADF;
	case NR_pwrite64:
		return (f = get_fd(g, fd_slot)) ? ((int64_t)a[3] < 0 ? -EINVAL : do_write(g, f, NULL, a[1], a[2], (int64_t)a[3], err, stop)) : -EBADF;
	case NR_readv:
		return (f = get_fd(g, fd_slot)) ? do_vec(g, f, a[1], a[2], 0, -1, err, stop) : -EBADF;
	case NR_writev:
		return (f = get_fd(g, fd_slot)) ? do_vec(g, f, a[1], a[2], 1, -1, err, stop) : -EBADF;
	case NR_preadv:
	case NR_pwritev:
		/* (one 64-bit offset: pos_h is for 32-bit callers) */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return (int64_t)a[3] < 0 ? -EINVAL : do_vec(g, f, a[1], a[2], nr == NR_pwritev, (int64_t)a[3], err, stop);
	case NR_preadv2:
	case NR_pwritev2:
		/* offset -1: the descriptor's, as readv; RWF_HIPRI, DSYNC,
		 * SYNC and NOWAIT change nothing here (RWF_APPEND is not done) */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if (a[5] & ~(uint64_t)0xf)
			return -EOPNOTSUPP;
		if ((int64_t)a[3] < -1)
			return -EINVAL;
		return do_vec(g, f, a[1], a[2], nr == NR_pwritev2, (int64_t)a[3], err, stop);
	case NR_lseek:
		return (f = get_fd(g, fd_slot)) ? sys_lseek(g, f, (int64_t)a[1], a[2]) : -EBADF;
	case NR_getdents64:
		return (f = get_fd(g, fd_slot)) ? sys_getdents64(g, f, a[1], a[2]) : -EBADF;
	case NR_fstat:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return (rc = fd_stat(g, f, &st)) < 0 ? rc : put_stat(g, &st, a[1]);
	case NR_newfstatat:
		return (rc = at_stat(g, fd, a[1], a[3], &st)) < 0 ? rc : put_stat(g, &st, a[2]);
	case NR_statx:
		return (rc = at_stat(g, fd, a[1], a[2], &st)) < 0 ? rc : put_statx(g, &st, a[4]);
	case NR_readlinkat:
		return sys_readlinkat(g, fd, a[1], a[2], a[3]);
	case NR_faccessat:
		return sys_faccessat(g, fd, a[1], a[2], 0);
	case NR_faccessat2:
		return sys_faccessat(g, fd, a[1], a[2], a[3]);
	case NR_ioctl:
		/* nothing the guest holds is a terminal, and its devices take
		 * no ioctl a program needs (random's driver answers EINVAL to
		 * what it does not know, the others ENOTTY) */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return f->kind == GFD_DEV && f->file >= GDEV_RANDOM ? -EINVAL : -ENOTTY;
	case NR_dup:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if ((rc = lowest_free(g, 0)) < 0)
			return rc;
		g->fds[rc] = *f;
		g->fds[rc].cloexec = 0;
		fd_retain(g, f);
		return rc;
	case NR_dup3:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if ((uint32_t)a[1] >= GUEST_MAX_FDS)
			return -EBADF;
		if (fd == (int32_t)a[1] || ((uint32_t)a[2] & ~(uint32_t)G_O_CLOEXEC))
			return -EINVAL;
		fd_retain(g, f);      /* before the release: the target may hold f's last copy's pipe */
		if (g->fds[(uint32_t)a[1]].kind != GFD_FREE)
			fd_release(g, &g->fds[(uint32_t)a[1]]);     /* Linux closes it quietly */
		g->fds[(uint32_t)a[1]] = *f;
		g->fds[(uint32_t)a[1]].cloexec = ((uint32_t)a[2] & G_O_CLOEXEC) != 0;
		return (int32_t)a[1];
	case NR_fcntl:
		return sys_fcntl(g, fd_slot, (uint32_t)a[1], a[2]);
	case NR_sendfile:
		return sys_sendfile(g, fd_slot, (uint32_t)a[1], a[2], a[3], err, stop);
	case NR_chdir:
		return sys_chdir(g, a[0]);
	case NR_fchdir:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if (f->kind == GFD_DEVDIR)
			return -EACCES;
		if (f->kind != GFD_DIR)
			return -ENOTDIR;
		g->cwd_file = f->file + 1;
		return 0;
	case NR_mkdirat: {
		char path[SANDBOX_PATH_MAX];
		const char *dir;
		if ((rc = at_path(g, fd, a[1], path, sizeof path, &dir)) < 0)
			return rc;
		if (dev_dir_virtual(g, dir, path))
			return -EEXIST;
		return sandbox_mkdir(g->sandbox, dir, path, (int)(a[2] & 07777 & ~g->umask));
	}
	case NR_unlinkat: {
		char path[SANDBOX_PATH_MAX];
		const char *dir;
		if ((rc = at_path(g, fd, a[1], path, sizeof path, &dir)) < 0)
			return rc;
		if ((uint32_t)a[2] & ~(uint32_t)G_AT_REMOVEDIR)
			return -EINVAL;
		return sandbox_unlink(g->sandbox, dir, path, ((uint32_t)a[2] & G_AT_REMOVEDIR) != 0);
	}
	case NR_renameat:
		return sys_renameat2(g, fd, a[1], (int32_t)a[2], a[3], 0);
	case NR_renameat2:
		return sys_renameat2(g, fd, a[1], (int32_t)a[2], a[3], (uint32_t)a[4]);
	case NR_linkat:
		return sys_linkat(g, fd, a[1], (int32_t)a[2], a[3], (uint32_t)a[4]);
	case NR_symlinkat:
		return sys_symlinkat(g, a[0], (int32_t)a[1], a[2]);
	case NR_utimensat:
		return sys_utimensat(g, fd, a[1], a[2], (uint32_t)a[3]);
	case NR_ftruncate:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if (f->kind != GFD_FILE || !(f->flags & G_O_ACCMODE) || (int64_t)a[1] < 0)
			return -EINVAL;       /* Linux's answer for a descriptor not open for writing */
		return file_truncate(g, f->file, a[1]);
	case NR_truncate: {
		char path[SANDBOX_PATH_MAX];
		if ((rc = read_path(g, a[0], path, sizeof path)) < 0)
			return rc;
		if ((int64_t)a[1] < 0)
			return -EINVAL;
		if ((rc = dev_lookup(cwd_of(g), path)) != -1)
			return rc < 0 ? rc : -EINVAL;        /* not a regular file */
		if ((rc = sandbox_open(g->sandbox, cwd_of(g), path, 1 /* O_WRONLY */, 0)) < 0)
			return rc;
		return file_truncate(g, rc, a[1]);
	}
	case NR_fchmod:
		return (f = get_fd(g, fd_slot)) ? fd_chattr(g, f, 0, a[1], 0, 0) : -EBADF;
	case NR_fchmodat: {
		char path[SANDBOX_PATH_MAX];
		const char *dir;
		if ((rc = at_path(g, fd, a[1], path, sizeof path, &dir)) < 0)
			return rc;
		return sandbox_chmod(g->sandbox, dir, path, (int)(a[2] & CHMOD_BITS));
	}
	case NR_fchown:
		return (f = get_fd(g, fd_slot)) ? fd_chattr(g, f, 1, 0, (uint32_t)a[1], (uint32_t)a[2]) : -EBADF;
	case NR_fchownat:
		return sys_fchownat(g, fd, a[1], (uint32_t)a[2], (uint32_t)a[3], (uint32_t)a[4]);
	case NR_sync:
		return 0;             /* the host has every write already; durability is its business */
	case NR_fsync:
	case NR_fdatasync:
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return f->kind == GFD_DEV ? -EINVAL : 0;    /* Linux's devices have no fsync */
	case NR_syncfs:
		return get_fd(g, fd_slot) ? 0 : -EBADF;
	case NR_sync_file_range:      /* (fd, offset, nbytes, flags) */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if (((uint32_t)a[3] & ~7u) || (int64_t)a[1] < 0 || (int64_t)a[2] < 0)
			return -EINVAL;
		return GFD_IS_PIPE(f) || f->kind == GFD_DEV ? -ESPIPE : 0;
	case NR_readahead:            /* the host's page cache is its own business */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return f->kind == GFD_FILE && (f->flags & G_O_ACCMODE) != 1 ? 0 : -EINVAL;
	case NR_setxattr: case NR_lsetxattr: case NR_fsetxattr: case NR_getxattr: case NR_lgetxattr:
	case NR_fgetxattr: case NR_listxattr: case NR_llistxattr: case NR_flistxattr:
	case NR_removexattr: case NR_lremovexattr: case NR_fremovexattr:
		return sys_xattr(g, nr, a);
	case NR_flock:          /* one process: every lock is granted */
		if (!get_fd(g, fd_slot))
			return -EBADF;
		return (a[1] & ~4ull) == 1 || (a[1] & ~4ull) == 2 || (a[1] & ~4ull) == 8 ? 0 : -EINVAL;
	case NR_fadvise64:      /* advice only */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		return GFD_IS_PIPE(f) ? -ESPIPE : a[3] > 5 ? -EINVAL : 0;
	case NR_fallocate:
		/* EOPNOTSUPP, as a file system without it: glibc's
		 * posix_fallocate then writes the blocks itself, through the
		 * sandbox's write path */
		if (!(f = get_fd(g, fd_slot)))
			return -EBADF;
		if ((int64_t)a[2] < 0 || (int64_t)a[3] <= 0)
			return -EINVAL;
		return f->kind == GFD_DEV ? -ENODEV : -EOPNOTSUPP;
	case NR_close_range:
		return sys_close_range(g, (uint32_t)a[0], (uint32_t)a[1], a[2]);
	case NR_getcwd: {
		const char *cwd = cwd_of(g);
		size_t n = strlen(cwd) + 1;
		if (a[1] < n)
			return -ERANGE;
		return mem_write_bytes(g->mem, a[0], cwd, n, 1, NULL) < 0 ? -EFAULT : (int64_t)n;
	}
	default:
		*handled = 0;
		return 0;
	}
}
