/*
 * sandbox.h — the host files a guest may see: directories the user granted
 * (`--dir HOST[:GUEST][:ro|rw]`), and nothing else.
 *
 * The guest names files by guest paths (absolute, or relative to its
 * working directory or an open directory). A guest path is first cleaned
 * lexically ("//", "." and ".." folded, ".." never climbing above "/";
 * a trailing "/" is remembered: the last component must be a directory),
 * then matched against the grants' guest directories, longest first, on
 * whole components; the rest of the path is resolved on the host beneath
 * the granted directory's descriptor, so neither ".." nor a symlink can
 * leave it:
 *
 *   - with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) where the
 *     kernel has it (Linux 5.6+): symlinks inside the grant work, one that
 *     points outside fails;
 *   - otherwise component by component with O_NOFOLLOW: symlinks are then
 *     not followed at all (ELOOP).
 *
 * Anything outside every grant, or reached through an escaping symlink, is
 * ENOENT, as if it did not exist; only "/" and the directories above a
 * grant exist for the guest, as closed empty ones (sandbox_stat_above). A grant is read-only unless it says rw:
 * opening for writing or creating under a read-only grant is EROFS. For
 * those opens the path is resolved here, component by component, so the
 * grant that decides is the innermost one whose directory the path lands
 * in, whatever grant its text names (a symlink cannot carry a write from
 * an rw grant into a read-only one nested in it). FIFOs, sockets and
 * devices are ENXIO: opening them could block, or reach past the files.
 *
 * The sandbox also keeps the host descriptors of the files the guest
 * opened. They stay open for the sandbox's life, one per distinct file and
 * access mode, so a snapshot of the guest (which records only the index of
 * the file and the guest's offset) can be restored after the guest closed
 * it. Sandboxes are shared by a guest and its snapshots through a
 * reference count (not thread-safe: a sandbox belongs to one thread's
 * guests).
 *
 * Error returns here are negated Linux errno values, ready for the guest.
 */
#ifndef IVX_SANDBOX_H
#define IVX_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "base/err.h"

struct sandbox;

struct sandbox_grant {
	const char *host;     /* host directory */
	const char *guest;    /* where the guest sees it (absolute) */
	int rw;               /* writes and creation allowed */
};

#define SANDBOX_PATH_MAX 4096   /* longer guest paths are ENAMETOOLONG */

/* Open every granted directory. force_walk = 1 uses the component-by-
 * component resolution even where openat2 exists (for tests). NULL with
 * err filled if a host directory cannot be opened or a guest path is not
 * absolute. */
struct sandbox *sandbox_new(const struct sandbox_grant *grants, int n, int force_walk, struct ivx_err *err);
struct sandbox *sandbox_ref(struct sandbox *s);
void sandbox_unref(struct sandbox *s);      /* NULL is a no-op */

/* Parse a --dir value "HOST[:GUEST][:ro|rw]" into g (pointing into buf,
 * which receives a copy of spec). 0, or -1 with a one-line reason in err. */
int sandbox_parse_grant(const char *spec, char *buf, size_t bufsz, struct sandbox_grant *g, struct ivx_err *err);

/* Clean a guest path lexically into out (see above). 0 or -ENAMETOOLONG. */
int sandbox_clean_path(const char *path, char *out, size_t outsz);

/* The working directory the guest starts in: relative paths with a NULL
 * dir start there. "/" unless set (to a clean absolute guest path); a
 * guest's chdir is its own state (guest_internal.h). 0 or -EINVAL. */
int sandbox_set_cwd(struct sandbox *s, const char *guest_dir);
const char *sandbox_cwd(const struct sandbox *s);

/* What readlink("/proc/self/exe") answers. 0 or -ENOMEM. */
int sandbox_set_exe(struct sandbox *s, const char *path);
const char *sandbox_exe(const struct sandbox *s);

/* Open a guest path; a relative one is taken from guest directory `dir`
 * (NULL: the working directory). flags are Linux/AArch64 open flags (O_ACCMODE,
 * O_CREAT, O_EXCL, O_TRUNC, O_DIRECTORY, O_NOFOLLOW, O_APPEND honoured);
 * mode for O_CREAT: a file the call creates gets exactly mode (less
 * set-id and sticky bits; the host's umask is not applied). O_TRUNC is
 * checked as a write is, but an existing regular file is not truncated:
 * the caller does it, so as to keep the file's size first (below).
 * Returns a file index >= 0 for sandbox_fd, or -errno. */
int sandbox_open(struct sandbox *s, const char *dir, const char *guest_path, int flags, int mode);

/* The clean guest path of file index i if it is a directory, else NULL. */
const char *sandbox_dir_path(const struct sandbox *s, int i);

/* The host descriptor of file index i (valid for the sandbox's life). */
int sandbox_fd(const struct sandbox *s, int i);
/* Its host identity (st_dev, st_ino): the file, whatever path or access
 * mode opened it. The sandbox holds it open, so no other file can take
 * that identity while the sandbox lives. */
void sandbox_file_id(const struct sandbox *s, int i, uint64_t *dev, uint64_t *ino);

/* What the run changed in host files, kept here because snapshots share
 * the sandbox and do not reach it (the guest keeps each file's size as
 * it made it: file_sizes.c).
 *
 * sandbox_keep_size records the size of file index i before the run
 * first wrote to or truncated it (the first record for a file stays; 0 or
 * -ENOMEM); sandbox_kept_size gives it (1, or 0 if none was kept), for a
 * guest restored to a point before that first change.
 *
 * The run numbers its writes and truncations of files 1, 2, 3 ... and
 * says each one made on the host (through file index i) with
 * sandbox_file_change_done: the guest's size of the file after it, and
 * the end of what it put on the host. sandbox_file_change_made(s, n):
 * whether change n was made. A run made only to measure (frozen, below)
 * replays the same changes in the same order, and does not make again one
 * the host has had (a replayed write would overwrite what the run wrote
 * later). A changed file is never made shorter on the host while the run
 * may go back, so no point of the run loses bytes another point wrote:
 * the guest's size hides the rest, and when the sandbox is freed each
 * file is cut to the size the run's furthest change gave it (if nothing
 * else changed the file's size meanwhile). */
int sandbox_keep_size(struct sandbox *s, int i, uint64_t size);
int sandbox_kept_size(const struct sandbox *s, uint64_t dev, uint64_t ino, uint64_t *size);
int sandbox_file_change_made(const struct sandbox *s, uint64_t n);
void sandbox_file_change_done(struct sandbox *s, uint64_t n, int i, uint64_t size, uint64_t host_end);

/* The host path of a guest path, resolved safely as by sandbox_open but
 * without opening it for I/O: an O_PATH descriptor (caller closes) for
 * stat and readlink; nofollow = do not follow a final symlink. */
int sandbox_open_path(struct sandbox *s, const char *dir, const char *guest_path, int nofollow);

/* "/" and the directories above a grant's guest path that no grant
 * covers are not host directories, yet the guest must see that they
 * exist (`mkdir -p /home/me/x` stats and mkdirs each of them): for such a
 * path st is a read-only, empty directory's stat (fixed, per path) and 0;
 * else -ENOENT. They cannot be opened or entered (sandbox_open: EACCES):
 * the guest reaches only the grants beneath them. mkdir of one is EEXIST. */
struct stat;
int sandbox_stat_above(const struct sandbox *s, const char *dir, const char *path, struct stat *st);

/* Calls that change a directory (mkdir, unlink, rename, symlink, link,
 * utimensat), resolved as sandbox_open resolves a write: the grant the
 * path lands in must be rw (else EROFS), and the call is made with the
 * *at form beneath the directory found, on the last component itself
 * (a final symlink is followed only where `follow` says). A granted
 * directory, or one holding a grant at any depth, cannot be removed,
 * renamed or replaced (EBUSY, as a mount point); a hard link between two grants is EXDEV; mkdir gives exactly
 * mode, less set-id and sticky bits. 0 or -errno. */
int sandbox_mkdir(struct sandbox *s, const char *dir, const char *path, int mode);
int sandbox_unlink(struct sandbox *s, const char *dir, const char *path, int rmdir);
int sandbox_rename(struct sandbox *s, const char *odir, const char *opath, const char *ndir, const char *npath,
		   unsigned flags);
int sandbox_symlink(struct sandbox *s, const char *target, const char *dir, const char *path);
int sandbox_link(struct sandbox *s, const char *odir, const char *opath, const char *ndir, const char *npath,
		 int follow);
int sandbox_utimens(struct sandbox *s, const char *dir, const char *path, const struct timespec *ts, int follow);

/* chmod (the caller drops set-id and sticky bits) and chown, which only
 * accepts the file's own owner and group (EPERM otherwise: the guest
 * gives no file away); both in rw grants only. 0 or -errno. */
int sandbox_chmod(struct sandbox *s, const char *dir, const char *path, int mode);
int sandbox_chown(struct sandbox *s, const char *dir, const char *path, uint32_t uid, uint32_t gid, int follow);

/* 1 if file index i was opened for writing (and so passed the checks). */
int sandbox_file_writable(const struct sandbox *s, int i);

/* The guest path under which host path `host` (absolute, clean) is
 * visible, into out; -1 if no grant covers it. */
int sandbox_guest_path(const struct sandbox *s, const char *host, char *out, size_t outsz);

/* While frozen, the guest's calls that would change the host's
 * directories (guest_host_changes' calls) stop the run instead, and the
 * file changes the host has had are not made again (above): for runs
 * made only to be thrown away, which must not change what the real run
 * will find. Not part of any snapshot: the sandbox is shared. */
void sandbox_freeze(struct sandbox *s, int on);
int sandbox_frozen(const struct sandbox *s);

int sandbox_grant_count(const struct sandbox *s);
int sandbox_uses_openat2(const struct sandbox *s);

#endif
