/*
 * file_sizes.c — host files' sizes as the guest made them, and the writes
 * and truncations that change them.
 *
 * Host files are not part of a snapshot: a guest restored to an earlier
 * point finds its files as the run's furthest point left them. The bytes
 * at the offsets it wrote are the ones a replay would write again; the
 * size is not: an O_APPEND write replayed at the host's end would add its
 * bytes a second time, and a replayed read, fstat or lseek(SEEK_END) would
 * see what a later point wrote. So the guest keeps, in its own state
 * (copied by snapshots), the size of each file it has written to or
 * truncated, by host identity. Before its first change a file's size is
 * the one the sandbox kept at that change (sandbox_keep_size: snapshots
 * do not reach the sandbox); a file the run never changed is as the host
 * has it. Reads stop at the guest's size, stat reports it, appends go to
 * it, mmap copies up to it.
 *
 * Truncations are the guest's only: the host file is not made shorter
 * while the run may still go back to a point that reads the bytes cut
 * (the sandbox cuts it when the run is over: sandbox.h), and bytes past
 * the guest's size become zeros on the host when the file grows over
 * them. A replay makes its writes on the host again: the same bytes at
 * the same offsets, so the reads after them see what they first saw. Not
 * so a run made only to measure (the sandbox is frozen: ivx cost's second
 * pass, the explorer's info cost), which must leave the files as the real
 * run has them: every write and truncation is numbered in the guest's
 * state, the sandbox remembers how many the host has had, and such a run
 * makes one the host has had in the guest's sizes only.
 *
 * The table holds GUEST_MAX_SIZED_FILES files; files changed once it is
 * full keep the host's size (docs/guest-abi.md says what that costs).
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "guest_internal.h"

/* The index of the table's entry for a host identity, or -1. */
static int find(const struct guest *g, uint64_t dev, uint64_t ino)
{
	for (uint32_t i = 0; i < g->n_file_sizes; i++)
		if (g->file_sizes[i].dev == dev && g->file_sizes[i].ino == ino)
			return (int)i;
	return -1;
}

static int size_by_id(const struct guest *g, uint64_t dev, uint64_t ino, uint64_t *size)
{
	int i = find(g, dev, ino);
	if (i >= 0) {
		*size = g->file_sizes[i].size;
		return 1;
	}
	return sandbox_kept_size(g->sandbox, dev, ino, size);
}

int file_size_known(const struct guest *g, int file, uint64_t *size)
{
	uint64_t dev, ino;
	sandbox_file_id(g->sandbox, file, &dev, &ino);
	return size_by_id(g, dev, ino, size);
}

void file_size_stat(const struct guest *g, struct stat *st)
{
	uint64_t size;
	if (!S_ISREG(st->st_mode) || !size_by_id(g, (uint64_t)st->st_dev, (uint64_t)st->st_ino, &size))
		return;
	st->st_size = (off_t)size;
	/* the host's allocation differs between passes: whole 4 KB blocks */
	st->st_blocks = (blkcnt_t)((size + 4095) / 4096 * 8);
}

int file_size_end(const struct guest *g, int file, uint64_t *end)
{
	if (file_size_known(g, file, end))
		return 0;
	struct stat st;
	if (fstat(sandbox_fd(g->sandbox, file), &st) < 0)
		return -errno;
	*end = (uint64_t)st.st_size;
	return 0;
}

/* Whether change n (a guest's next) is to be made on the host: not by a
 * run made only to measure that replays it. */
static int host_takes(const struct guest *g, uint64_t n)
{
	return !sandbox_frozen(g->sandbox) || !sandbox_file_change_made(g->sandbox, n);
}

/* The entry for file index `file`, made at its first change with the size
 * it had then (kept in the sandbox too); NULL when the table is full. */
static struct guest_file_size *track(struct guest *g, int file)
{
	uint64_t dev, ino, size;
	sandbox_file_id(g->sandbox, file, &dev, &ino);
	int i = find(g, dev, ino);
	if (i >= 0 || g->n_file_sizes == GUEST_MAX_SIZED_FILES)
		return i >= 0 ? &g->file_sizes[i] : NULL;
	if (!sandbox_kept_size(g->sandbox, dev, ino, &size)) {
		struct stat st;
		if (fstat(sandbox_fd(g->sandbox, file), &st) < 0 ||
		    sandbox_keep_size(g->sandbox, file, (uint64_t)st.st_size) < 0)
			return NULL;     /* untracked: the host's size, as when full */
		size = (uint64_t)st.st_size;
	}
	struct guest_file_size *e = &g->file_sizes[g->n_file_sizes++];
	*e = (struct guest_file_size){ .dev = dev, .ino = ino, .size = size };
	return e;
}

/* The file grows from the guest's size `from` to `to`: the host's bytes
 * there, left by a point that wrote them before a truncation the host did
 * not make, become zeros, as Linux's are. 0 or -errno. */
static int zero_gap(struct guest *g, int file, uint64_t from, uint64_t to)
{
	int fd = sandbox_fd(g->sandbox, file);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (to > (uint64_t)st.st_size)
		to = (uint64_t)st.st_size;
	static const char zeros[4096];
	while (from < to) {
		size_t n = to - from < sizeof zeros ? (size_t)(to - from) : sizeof zeros;
		ssize_t w = pwrite(fd, zeros, n, (off_t)from);
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		from += (uint64_t)w;
	}
	return 0;
}

int64_t file_write(struct guest *g, int file, const void *buf, size_t n, uint64_t pos)
{
	struct guest_file_size *e = track(g, file);
	uint64_t change = g->file_changes + 1;
	ssize_t w = (ssize_t)n;
	if (host_takes(g, change)) {
		int rc = e && pos > e->size ? zero_gap(g, file, e->size, pos) : 0;
		if (rc < 0)
			return rc;
		if ((w = pwrite(sandbox_fd(g->sandbox, file), buf, n, (off_t)pos)) < 0)
			return -errno;       /* not made: not counted */
		uint64_t end = pos + (uint64_t)w;
		sandbox_file_change_done(g->sandbox, change, file, e && e->size > end ? e->size : end, end);
	}
	g->file_changes = change;
	if (e && pos + (uint64_t)w > e->size)
		e->size = pos + (uint64_t)w;
	return w;
}

int file_truncate(struct guest *g, int file, uint64_t size)
{
	struct guest_file_size *e = track(g, file);
	uint64_t change = g->file_changes + 1;
	if (host_takes(g, change)) {
		int fd = sandbox_fd(g->sandbox, file), rc = 0;
		struct stat st;
		if (!e) {                 /* untracked: the host's size is the guest's */
			rc = ftruncate(fd, (off_t)size) < 0 ? -errno : 0;
		} else if ((rc = size > e->size ? zero_gap(g, file, e->size, size) : 0) == 0) {
			/* a shorter size is the guest's only (see sandbox.h) */
			if (fstat(fd, &st) < 0)
				rc = -errno;
			else if (size > (uint64_t)st.st_size && ftruncate(fd, (off_t)size) < 0)
				rc = -errno;
		}
		if (rc < 0)
			return rc;
		sandbox_file_change_done(g->sandbox, change, file, size, size);
	}
	g->file_changes = change;
	if (e)
		e->size = size;
	return 0;
}
