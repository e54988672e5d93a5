/*
 * sandbox.c — granted directories and safe path resolution (see sandbox.h).
 *
 * Flow of one sandbox_open:
 *
 *   guest path --clean--> "/a/b/c" --match grants--> grant k, rest "b/c"
 *        --resolve beneath grant k's directory fd--> host fd
 *          (an open that may write: locate() -> the directory it lands in
 *           and that directory's innermost grant, which must be rw)
 *        --dedupe by (dev, inode, access mode)--> file index
 *
 * Resolution never looks at a host path string after sandbox_new: every
 * lookup starts from the grant's O_PATH descriptor, so renaming things on
 * the host cannot widen what the guest sees.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/alloc.h"
#include "sandbox.h"

/* AArch64 Linux open flags (they differ from x86's for DIRECTORY and
 * NOFOLLOW, so they are translated, never passed through). */
#define G_O_ACCMODE   03
#define G_O_CREAT     0100
#define G_O_EXCL      0200
#define G_O_TRUNC     01000
#define G_O_APPEND    02000
#define G_O_DIRECTORY 040000
#define G_O_NOFOLLOW  0100000

/* The mode bits a file or directory the guest creates may have: never
 * set-uid, set-gid or sticky (the guest runs as "root"; a set-uid file
 * left on the host would run with the user's rights for anyone). */
#define CREATE_BITS 0777

#define MAX_GRANTS 32
#define MAX_FILES  4096

struct grant {
	int dirfd;                 /* O_PATH descriptor of the host directory */
	int rw;
	char *guest;               /* clean absolute guest path */
	size_t guest_len;
	char *host_real;           /* realpath of the host directory */
	dev_t dev;                 /* the directory's identity, for locate() */
	ino_t ino;
};

struct sfile {
	int fd;                    /* host descriptor */
	char *dir_path;            /* a directory's clean guest path (for *at calls), else NULL */
	dev_t dev;
	ino_t ino;
	int acc;                   /* O_RDONLY / O_WRONLY / O_RDWR, | O_DIRECTORY */
};

/* A file the run changed (sandbox_keep_size). Its host file is never
 * made shorter while the run may go back (see sandbox_file_change_done):
 * the host holds at least every byte any point of the run wrote. */
struct changed_file {
	uint64_t dev, ino;
	uint64_t original;         /* its size before the run's first change */
	uint64_t final;            /* its size as the run's furthest change left it */
	uint64_t host;             /* its size on the host, as the run's changes made it */
	int file;                  /* an index open for writing, to shrink it at the end */
};

struct sandbox {
	int refs;
	int force_walk;            /* never try openat2 */
	int no_openat2;            /* the kernel refused it: walk from now on */
	int n_grants;
	struct grant grants[MAX_GRANTS];
	int n_files, cap_files;
	struct sfile *files;
	char cwd[SANDBOX_PATH_MAX];    /* the guest's working directory, clean */
	char *exe;                 /* what readlink("/proc/self/exe") gives */
	int frozen;                /* sandbox_freeze: no call may change the host's directories */
	struct changed_file *changed;  /* sandbox_keep_size's records, in the order made */
	int n_changed, cap_changed;
	uint64_t file_changes;     /* the run's numbered file changes made on the host so far */
};

int sandbox_clean_path(const char *path, char *out, size_t outsz)
{
	size_t len = strlen(path);
	if (len >= SANDBOX_PATH_MAX || outsz < 2)
		return -ENAMETOOLONG;
	size_t o = 0;
	out[o++] = '/';
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		const char *q = p;
		while (*q && *q != '/')
			q++;
		size_t n = (size_t)(q - p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 1 && out[o - 1] != '/')
				o--;
			if (o > 1)
				o--;           /* the slash before the dropped component */
		} else {
			if (o > 1) {
				if (o + 1 >= outsz)
					return -ENAMETOOLONG;
				out[o++] = '/';
			}
			if (o + n >= outsz)
				return -ENAMETOOLONG;
			memcpy(out + o, p, n);
			o += n;
		}
		p = q;
	}
	out[o] = 0;
	return 0;
}

/* 1 if a guest path ends in "/" or "/." (or is "."): cleaning drops that,
 * but Linux then wants the last component to be a directory, following
 * a final symlink ("a/" is ENOTDIR for a file, "link/" its target). */
static int ends_as_dir(const char *path)
{
	size_t n = strlen(path);
	return n && (path[n - 1] == '/' || (path[n - 1] == '.' && (n == 1 || path[n - 2] == '/')));
}

/* 1 if a guest path's last component is ".", 2 if "..", else 0. Cleaning
 * folds them into the directory they name, but Linux refuses to remove,
 * rename or make an entry by such a name (rmdir("d/.") is EINVAL, not
 * the removal of d). */
static int last_dots(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n >= 1 && path[n - 1] == '.' && (n == 1 || path[n - 2] == '/'))
		return 1;
	if (n >= 2 && path[n - 1] == '.' && path[n - 2] == '.' && (n == 2 || path[n - 3] == '/'))
		return 2;
	return 0;
}

int sandbox_parse_grant(const char *spec, char *buf, size_t bufsz, struct sandbox_grant *g, struct ivx_err *err)
{
	if (strlen(spec) >= bufsz)
		return ivx_error(err, IVX_EUSAGE, "--dir '%s': too long", spec);
	strcpy(buf, spec);
	char *part[4];
	int n = 0;
	for (char *p = buf; n < 4;) {
		part[n++] = p;
		char *c = strchr(p, ':');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	if (n == 4 || part[0][0] == 0)
		return ivx_error(err, IVX_EUSAGE, "--dir '%s': expected HOST[:GUEST][:ro|rw]", spec);
	g->host = part[0];
	g->guest = NULL;
	g->rw = 0;
	for (int i = 1; i < n; i++) {
		int last = i == n - 1;
		if (last && (!strcmp(part[i], "ro") || !strcmp(part[i], "rw"))) {
			g->rw = part[i][1] == 'w';
		} else if (i == 1 && part[i][0] == '/') {
			g->guest = part[i];
		} else {
			return ivx_error(err, IVX_EUSAGE,
					 "--dir '%s': '%s' is neither an absolute guest path nor ro/rw", spec, part[i]);
		}
	}
	return IVX_OK;
}

struct sandbox *sandbox_new(const struct sandbox_grant *grants, int n, int force_walk, struct ivx_err *err)
{
	if (n > MAX_GRANTS) {
		ivx_error(err, IVX_EUSAGE, "more than %d --dir grants", MAX_GRANTS);
		return NULL;
	}
	struct sandbox *s = ivx_calloc(1, sizeof *s);
	if (!s) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	s->refs = 1;
	s->force_walk = force_walk;
	strcpy(s->cwd, "/");
	for (int i = 0; i < n; i++) {
		struct grant *g = &s->grants[s->n_grants];
		g->dirfd = open(grants[i].host, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (g->dirfd < 0) {
			ivx_error(err, IVX_EUSAGE, "--dir %s: cannot open the directory: %s", grants[i].host, strerror(errno));
			sandbox_unref(s);
			return NULL;
		}
		s->n_grants++;
		g->rw = grants[i].rw;
		struct stat st;
		if (fstat(g->dirfd, &st) < 0) {
			ivx_error(err, IVX_ESYS, "--dir %s: %s", grants[i].host, strerror(errno));
			sandbox_unref(s);
			return NULL;
		}
		g->dev = st.st_dev;
		g->ino = st.st_ino;
		g->host_real = realpath(grants[i].host, NULL);
		if (!g->host_real) {
			ivx_error(err, IVX_ESYS, "--dir %s: %s", grants[i].host, strerror(errno));
			sandbox_unref(s);
			return NULL;
		}
		const char *gp = grants[i].guest ? grants[i].guest : g->host_real;
		char clean[SANDBOX_PATH_MAX];
		if (gp[0] != '/' || sandbox_clean_path(gp, clean, sizeof clean) < 0 || !(g->guest = ivx_strdup(clean))) {
			ivx_error(err, IVX_EUSAGE, "--dir %s: guest path '%s' must be absolute and shorter than %d",
				  grants[i].host, gp, SANDBOX_PATH_MAX);
			sandbox_unref(s);
			return NULL;
		}
		g->guest_len = strlen(g->guest);
		/* (the first would win silently, and the user meant both) */
		for (int j = 0; j < s->n_grants - 1; j++)
			if (!strcmp(s->grants[j].guest, g->guest)) {
				ivx_error(err, IVX_EUSAGE, "--dir %s and --dir %s: both at guest path %s",
					  grants[j].host, grants[i].host, g->guest);
				sandbox_unref(s);
				return NULL;
			}
	}
	return s;
}

struct sandbox *sandbox_ref(struct sandbox *s)
{
	if (s)
		s->refs++;
	return s;
}

/* The run is over: each file it changed gets the size the run's furthest
 * point gave it, unless something else changed the host's meanwhile. */
static void shrink_changed(struct sandbox *s)
{
	for (int i = 0; i < s->n_changed; i++) {
		const struct changed_file *c = &s->changed[i];
		int fd = s->files[c->file].fd;
		struct stat st;
		if (c->final < c->host && fstat(fd, &st) == 0 && (uint64_t)st.st_size == c->host)
			(void)!ftruncate(fd, (off_t)c->final);    /* (no one to tell of a failure) */
	}
}

void sandbox_unref(struct sandbox *s)
{
	if (!s || --s->refs > 0)
		return;
	for (int i = 0; i < s->n_grants; i++) {
		close(s->grants[i].dirfd);
		ivx_free(s->grants[i].host_real);
		ivx_free(s->grants[i].guest);
	}
	shrink_changed(s);
	for (int i = 0; i < s->n_files; i++) {
		close(s->files[i].fd);
		ivx_free(s->files[i].dir_path);
	}
	ivx_free(s->files);
	ivx_free(s->changed);
	ivx_free(s->exe);
	ivx_free(s);
}

void sandbox_freeze(struct sandbox *s, int on) { s->frozen = on; }
int sandbox_frozen(const struct sandbox *s) { return s && s->frozen; }

int sandbox_grant_count(const struct sandbox *s) { return s ? s->n_grants : 0; }
int sandbox_uses_openat2(const struct sandbox *s) { return s && !s->force_walk && !s->no_openat2; }
int sandbox_fd(const struct sandbox *s, int i) { return s->files[i].fd; }

void sandbox_file_id(const struct sandbox *s, int i, uint64_t *dev, uint64_t *ino)
{
	*dev = (uint64_t)s->files[i].dev;
	*ino = (uint64_t)s->files[i].ino;
}

static struct changed_file *changed_of(const struct sandbox *s, uint64_t dev, uint64_t ino)
{
	for (int i = 0; s && i < s->n_changed; i++)
		if (s->changed[i].dev == dev && s->changed[i].ino == ino)
			return &s->changed[i];
	return NULL;
}

int sandbox_kept_size(const struct sandbox *s, uint64_t dev, uint64_t ino, uint64_t *size)
{
	const struct changed_file *c = changed_of(s, dev, ino);
	if (c)
		*size = c->original;
	return c != NULL;
}

int sandbox_keep_size(struct sandbox *s, int i, uint64_t size)
{
	uint64_t dev, ino;
	sandbox_file_id(s, i, &dev, &ino);
	if (changed_of(s, dev, ino))
		return 0;
	if (s->n_changed == s->cap_changed) {
		int cap = s->cap_changed ? 2 * s->cap_changed : 16;
		struct changed_file *c = ivx_realloc(s->changed, (size_t)cap * sizeof *c);
		if (!c)
			return -ENOMEM;
		s->changed = c;
		s->cap_changed = cap;
	}
	s->changed[s->n_changed++] = (struct changed_file){
		.dev = dev, .ino = ino, .original = size, .final = size, .host = size, .file = i,
	};
	return 0;
}

int sandbox_file_change_made(const struct sandbox *s, uint64_t n) { return n <= s->file_changes; }

void sandbox_file_change_done(struct sandbox *s, uint64_t n, int i, uint64_t size, uint64_t host_end)
{
	uint64_t dev, ino;
	sandbox_file_id(s, i, &dev, &ino);
	struct changed_file *c = changed_of(s, dev, ino);
	if (c && host_end > c->host)
		c->host = host_end;
	if (n > s->file_changes) {
		s->file_changes = n;
		if (c)
			c->final = size;
	}
}

/* The grant covering clean path p (longest guest prefix on a component
 * boundary), with *rest pointing at the remainder ("" for the grant
 * itself). NULL if none. */
static const struct grant *match(const struct sandbox *s, const char *p, const char **rest)
{
	const struct grant *best = NULL;
	for (int i = 0; i < s->n_grants; i++) {
		const struct grant *g = &s->grants[i];
		size_t n = g->guest_len;
		if (n == 1) {                        /* the grant is "/" */
			if (!best) {
				best = g;
				*rest = p + 1;
			}
			continue;
		}
		if (strncmp(p, g->guest, n) != 0 || (p[n] != 0 && p[n] != '/'))
			continue;
		if (!best || n > best->guest_len) {
			best = g;
			*rest = p[n] ? p + n + 1 : p + n;
		}
	}
	return best;
}

/* Component-by-component resolution of rest beneath dirfd, following no
 * symlink: every intermediate must be a real directory, the last is
 * opened with flags | O_NOFOLLOW. Returns a host fd or -errno. */
static int walk_open(int dirfd, const char *rest, int flags, int mode)
{
	if (!*rest)
		rest = ".";
	int cur = dirfd;
	char comp[NAME_MAX + 1];
	for (;;) {
		const char *slash = strchr(rest, '/');
		size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
		if (n > NAME_MAX) {
			if (cur != dirfd)
				close(cur);
			return -ENAMETOOLONG;
		}
		memcpy(comp, rest, n);
		comp[n] = 0;
		int fd;
		if (slash) {
			fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && errno == ENOTDIR) {
				struct stat st;
				if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
					errno = ELOOP;
			}
		} else {
			fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC, mode);
		}
		int e = errno;
		if (cur != dirfd)
			close(cur);
		if (fd < 0)
			return -e;
		if (!slash)
			return fd;
		cur = fd;
		rest = slash + 1;
	}
}

/* Resolve rest beneath the grant with host open flags. */
static int resolve(struct sandbox *s, const struct grant *g, const char *rest, int flags, int mode)
{
	if (!s->force_walk && !s->no_openat2) {
		struct open_how how = {
			.flags = (uint64_t)(flags | O_CLOEXEC),
			.mode = (flags & O_CREAT) ? (uint64_t)mode : 0,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};
		long fd = syscall(SYS_openat2, g->dirfd, *rest ? rest : ".", &how, sizeof how);
		if (fd >= 0)
			return (int)fd;
		if (errno == EXDEV)
			return -ENOENT;          /* a symlink pointing out: as if absent */
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		s->no_openat2 = 1;           /* no openat2 (or a filter forbids it) */
	}
	return walk_open(g->dirfd, rest, flags, mode);
}

/* The grant whose directory is the file st describes, if any (a
 * read-only one when one directory is granted twice). */
static const struct grant *grant_of(const struct sandbox *s, const struct stat *st)
{
	const struct grant *best = NULL;
	for (int i = 0; i < s->n_grants; i++) {
		const struct grant *g = &s->grants[i];
		if (g->dev == st->st_dev && g->ino == st->st_ino && (!best || !g->rw))
			best = g;
	}
	return best;
}

/* Where a call that changes the file system lands (see locate). */
struct landing {
	int dirfd;                 /* the directory holding the last component (caller closes) */
	char name[NAME_MAX + 1];   /* the last component; "." when the path ends on a directory */
	const struct grant *g;     /* the innermost grant whose directory holds dirfd */
	int slash;                 /* the path ended in "/" or "/.": it must name a directory */
	int dots;                  /* it ended in "." (1) or ".." (2): see last_dots */
};

#define LOCATE_DEPTH 128           /* directories open at once while resolving */
#define LOCATE_LINKS 40            /* symlinks followed per path, as Linux's MAXSYMLINKS */

/* Resolve rest beneath grant g0 up to its last component, one component at
 * a time, following symlinks ourselves (the last one too if follow_last),
 * so as to know which grant's directory every step is in. The grant a
 * change obeys is the one the path really lands in, not the one its text
 * names: a symlink in an rw grant may lead into a read-only grant nested
 * in it (or the reverse), and the nested grant takes precedence for its
 * subtree however it is reached. The rules are openat2's RESOLVE_BENEATH:
 * ".." above g0 and absolute symlinks are ENOENT (as if absent), more
 * than 40 links ELOOP; with the walk resolver no symlink is followed
 * (ELOOP). 0 with *out filled, or -errno. */
static int locate(struct sandbox *s, const struct grant *g0, const char *rest, int follow_last,
		  struct landing *out)
{
	int follow = !s->force_walk && !s->no_openat2;
	char buf[2 * SANDBOX_PATH_MAX], comp[NAME_MAX + 1];
	int fds[LOCATE_DEPTH];
	const struct grant *gs[LOCATE_DEPTH];
	int depth = 0, links = 0, rc;
	size_t len = strlen(rest);
	if (len >= sizeof buf)
		return -ENAMETOOLONG;
	memcpy(buf, rest, len + 1);
	fds[0] = g0->dirfd;
	gs[0] = g0;
	char *p = buf;
	for (;;) {
		while (*p == '/')
			p++;
		char *q = p;
		while (*q && *q != '/')
			q++;
		size_t n = (size_t)(q - p);
		char *next = q;
		while (*next == '/')
			next++;
		int last = *next == 0;
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = 0;
		if (n == 0 || !strcmp(comp, ".") || !strcmp(comp, "..")) {
			if (n == 2) {
				if (depth == 0) {
					rc = -ENOENT;        /* above the grant */
					goto fail;
				}
				close(fds[depth--]);
			}
			if (last) {
				strcpy(comp, ".");
				break;
			}
			p = next;
			continue;
		}
		struct stat st;
		if (fstatat(fds[depth], comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
		    (!last || follow_last)) {
			char target[SANDBOX_PATH_MAX];
			ssize_t tl;
			if (!follow || ++links > LOCATE_LINKS) {
				rc = -ELOOP;
				goto fail;
			}
			if ((tl = readlinkat(fds[depth], comp, target, sizeof target)) < 0) {
				rc = -errno;
				goto fail;
			}
			if (tl == 0 || (size_t)tl == sizeof target || target[0] == '/') {
				rc = tl == 0 ? -ENOENT : tl == sizeof target ? -ENAMETOOLONG : -ENOENT;
				goto fail;                   /* an absolute link leads out */
			}
			/* splice: the target, then what followed the link */
			size_t rl = strlen(next);
			if ((size_t)tl + 1 + rl >= sizeof buf) {
				rc = -ENAMETOOLONG;
				goto fail;
			}
			memmove(buf + tl + 1, next, rl + 1);
			memcpy(buf, target, (size_t)tl);
			buf[tl] = rl ? '/' : 0;
			p = buf;
			continue;
		}
		if (last)
			break;
		if (depth + 1 == LOCATE_DEPTH) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		int fd = openat(fds[depth], comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			rc = -errno;
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		const struct grant *inner = grant_of(s, &st);
		fds[++depth] = fd;
		gs[depth] = inner ? inner : gs[depth - 1];
		p = next;
	}
	out->dirfd = depth ? fds[depth] : fcntl(fds[0], F_DUPFD_CLOEXEC, 0);
	if (out->dirfd < 0) {
		rc = -errno;
		goto fail;
	}
	strcpy(out->name, comp);
	out->g = gs[depth];
	while (--depth > 0)
		close(fds[depth]);
	return 0;
fail:
	while (depth > 0)
		close(fds[depth--]);
	return rc;
}

/* An open that may write, truncate or create: resolved by locate and
 * checked against the grant it lands in. A host fd or -errno. */
static int open_changing(struct sandbox *s, const struct grant *g, const char *rest, int hf, int mode, int slash)
{
	struct landing l;
	/* O_CREAT | O_EXCL follows no final symlink: a dangling one is EEXIST */
	int excl = (hf & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	int rc = locate(s, g, rest, !(hf & O_NOFOLLOW) && !excl, &l);
	if (rc < 0)
		return rc;
	if (slash && (hf & O_CREAT)) {
		close(l.dirfd);
		return -EISDIR;          /* Linux: open("x/", O_CREAT) creates no file, whatever x is */
	}
	struct stat st;
	int exists = fstatat(l.dirfd, l.name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	int e = exists ? 0 : errno;
	const struct grant *gov = l.g;
	if (exists && S_ISDIR(st.st_mode) && grant_of(s, &st))
		gov = grant_of(s, &st);          /* a granted directory itself */
	if (!gov->rw) {
		/* Linux's answers on a read-only file system: writing or
		 * truncating an existing file is EROFS, so is creating one;
		 * O_CREAT on a file that exists just opens it. */
		if (((hf & O_ACCMODE) != O_RDONLY || (hf & O_TRUNC)) && exists)
			rc = -EROFS;
		else if (!exists)
			rc = e == ENOENT && (hf & O_CREAT) ? -EROFS : -e;
		else if ((hf & O_EXCL) && (hf & O_CREAT))
			rc = -EEXIST;
		hf &= ~(O_CREAT | O_EXCL);
	} else if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
		rc = -ENXIO;                     /* a FIFO's open would block (see sandbox_open) */
	}
	if (rc == 0) {
		/* A file this call creates gets exactly `mode` (the guest's umask
		 * is already applied), not mode less the host process's umask:
		 * O_EXCL tells a creation from an open of a file that appeared
		 * meanwhile, whose mode is left alone. */
		int create = !exists && (hf & O_CREAT);
		/* O_TRUNC of a regular file is the caller's to do (see sandbox_open) */
		if (exists && S_ISREG(st.st_mode))
			hf &= ~O_TRUNC;
		rc = openat(l.dirfd, l.name, hf | (create ? O_EXCL : 0) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
		if (rc < 0 && errno == EEXIST && create && !(hf & O_EXCL)) {
			create = 0;
			rc = openat(l.dirfd, l.name, (hf & ~O_CREAT) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		}
		if (rc < 0)
			rc = -errno;
		else if (create && fchmod(rc, (mode_t)mode) < 0) {
			int e = errno;
			close(rc);
			rc = -e;
		}
	}
	close(l.dirfd);
	return rc;
}

static int host_flags(int gflags)
{
	int acc = gflags & G_O_ACCMODE;
	int f = acc == 1 ? O_WRONLY : acc == 2 ? O_RDWR : O_RDONLY;
	if (gflags & G_O_CREAT) f |= O_CREAT;
	if (gflags & G_O_EXCL) f |= O_EXCL;
	if (gflags & G_O_TRUNC) f |= O_TRUNC;
	if (gflags & G_O_DIRECTORY) f |= O_DIRECTORY;
	if (gflags & G_O_NOFOLLOW) f |= O_NOFOLLOW;
	return f | O_NOCTTY;
}

/* Clean `path` (relative to `dir`, or to the working directory when dir
 * is NULL) into buf and find its grant. 0 or -errno. */
static int lookup(const struct sandbox *s, const char *dir, const char *path, char *buf, size_t bufsz,
		  const char **rest, const struct grant **g)
{
	if (!path[0])
		return -ENOENT;
	if (path[0] != '/') {
		const char *base = dir ? dir : s->cwd;
		size_t bl = strlen(base), pl = strlen(path);
		if (bl + 1 + pl >= bufsz)
			return -ENAMETOOLONG;
		char joined[2 * SANDBOX_PATH_MAX + 2];
		memcpy(joined, base, bl);
		joined[bl] = '/';
		memcpy(joined + bl + 1, path, pl + 1);
		int rc = sandbox_clean_path(joined, buf, bufsz);
		if (rc < 0)
			return rc;
	} else {
		int rc = sandbox_clean_path(path, buf, bufsz);
		if (rc < 0)
			return rc;
	}
	*g = match(s, buf, rest);
	return *g ? 0 : -ENOENT;
}

/* 1 if clean guest path p is "/" or a directory above a grant's guest
 * path: the guest sees those exist (it reaches the grants through them). */
static int above_grant(const struct sandbox *s, const char *p)
{
	size_t n = strlen(p);
	if (n == 1)
		return 1;            /* "/" always: it holds /dev (syscall_dev.c) */
	for (int i = 0; i < s->n_grants; i++) {
		const char *gp = s->grants[i].guest;
		if (strncmp(gp, p, n) == 0 && (gp[n] == '/' || gp[n] == 0))
			return 1;
	}
	return 0;
}

/* lookup, telling apart the directories that hold grants ("/" and the
 * grants' ancestors: they exist, but are no host directory): LOOKUP_ABOVE */
#define LOOKUP_ABOVE 1
static int lookup_or_above(const struct sandbox *s, const char *dir, const char *path, char *buf, size_t bufsz,
			   const char **rest, const struct grant **g)
{
	if (!s)
		return -ENOENT;
	int rc = lookup(s, dir, path, buf, bufsz, rest, g);
	return rc == -ENOENT && path[0] && above_grant(s, buf) ? LOOKUP_ABOVE : rc;
}

int sandbox_set_cwd(struct sandbox *s, const char *guest_dir)
{
	char clean[SANDBOX_PATH_MAX];
	if (guest_dir[0] != '/' || sandbox_clean_path(guest_dir, clean, sizeof clean) < 0)
		return -EINVAL;
	strcpy(s->cwd, clean);
	return 0;
}

const char *sandbox_cwd(const struct sandbox *s) { return s ? s->cwd : "/"; }

int sandbox_set_exe(struct sandbox *s, const char *path)
{
	char *copy = ivx_strdup(path);
	if (!copy)
		return -ENOMEM;
	ivx_free(s->exe);
	s->exe = copy;
	return 0;
}

const char *sandbox_exe(const struct sandbox *s) { return s && s->exe ? s->exe : ""; }

const char *sandbox_dir_path(const struct sandbox *s, int i) { return s->files[i].dir_path; }

/* Whether the guest may take another host descriptor (the sandbox holds
 * n of them): not one of the last FD_RESERVE below ivx's limit, which its
 * own outputs and reads need when the run ends (a guest that opened
 * thousands of files left ivx unable to write its --json). */
#define FD_RESERVE 64
static int descriptor_to_spare(int n)
{
	struct rlimit r;
	return getrlimit(RLIMIT_NOFILE, &r) < 0 || r.rlim_cur == RLIM_INFINITY ||
	       (rlim_t)n + FD_RESERVE < r.rlim_cur;
}

int sandbox_open(struct sandbox *s, const char *dir, const char *guest_path, int flags, int mode)
{
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	int rc = lookup_or_above(s, dir, guest_path, clean, sizeof clean, &rest, &g);
	if (rc == LOOKUP_ABOVE)
		return -EACCES;          /* it exists (sandbox_stat_above) but is no host directory */
	if (rc < 0)
		return rc;
	int hf = host_flags(flags);
	int slash = ends_as_dir(guest_path);
	if (slash)
		hf = (hf & ~O_NOFOLLOW) | O_DIRECTORY;      /* "x/" follows x and must be a directory */
	if (s->n_files == MAX_FILES || !descriptor_to_spare(s->n_files))
		return -EMFILE;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer that cannot come */
	int fd = (hf & O_ACCMODE) != O_RDONLY || (hf & (O_CREAT | O_TRUNC))
			 ? open_changing(s, g, rest, hf, mode & CREATE_BITS, slash)
			 : resolve(s, g, rest, hf | O_NONBLOCK, 0);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENXIO;       /* FIFOs, sockets, devices: nothing a single process can use safely */
	}
	int acc = (hf & O_ACCMODE) | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0);
	for (int i = 0; i < s->n_files; i++)
		if (s->files[i].dev == st.st_dev && s->files[i].ino == st.st_ino && s->files[i].acc == acc &&
		    (!S_ISDIR(st.st_mode) || !strcmp(s->files[i].dir_path, clean))) {
			close(fd);
			return i;
		}
	if (s->n_files == s->cap_files) {
		int cap = s->cap_files ? 2 * s->cap_files : 16;
		struct sfile *f = ivx_realloc(s->files, (size_t)cap * sizeof *f);
		if (!f) {
			close(fd);
			return -ENOMEM;
		}
		s->files = f;
		s->cap_files = cap;
	}
	char *dp = NULL;
	if (S_ISDIR(st.st_mode) && !(dp = ivx_strdup(clean))) {
		close(fd);
		return -ENOMEM;
	}
	s->files[s->n_files] = (struct sfile){ .fd = fd, .dir_path = dp, .dev = st.st_dev, .ino = st.st_ino, .acc = acc };
	return s->n_files++;
}

int sandbox_open_path(struct sandbox *s, const char *dir, const char *guest_path, int nofollow)
{
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	if (!s)
		return -ENOENT;
	int rc = lookup(s, dir, guest_path, clean, sizeof clean, &rest, &g);
	if (rc < 0)
		return rc;
	if (ends_as_dir(guest_path))
		return resolve(s, g, rest, O_PATH | O_DIRECTORY, 0);   /* lstat("link/") is its target's */
	int fd = resolve(s, g, rest, O_PATH | (nofollow ? O_NOFOLLOW : 0), 0);
	if (fd >= 0 && !nofollow && (s->force_walk || s->no_openat2)) {
		/* the walk opened a final symlink itself: it may not be followed */
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
			close(fd);
			return -ELOOP;
		}
	}
	return fd;
}

int sandbox_guest_path(const struct sandbox *s, const char *host, char *out, size_t outsz)
{
	const struct grant *best = NULL;
	size_t best_len = 0;
	for (int i = 0; s && i < s->n_grants; i++) {
		const char *h = s->grants[i].host_real;
		size_t n = strlen(h);
		if (n == 1)
			n = 0;                       /* host "/" covers everything */
		if (strncmp(host, h, n) == 0 && (host[n] == 0 || host[n] == '/') && (!best || n > best_len)) {
			best = &s->grants[i];
			best_len = n;
		}
	}
	if (!best)
		return -1;
	const char *rest = host + best_len;
	int w = best->guest_len == 1 && *rest ? snprintf(out, outsz, "%s", rest)
					      : snprintf(out, outsz, "%s%s", best->guest, rest);
	return w < 0 || (size_t)w >= outsz ? -1 : 0;
}

/* ---- calls that change a directory ----------------------------------------- */

/* Resolve a guest path for a change (see locate). 0 or -errno. */
static int land(struct sandbox *s, const char *dir, const char *path, int follow_last, struct landing *l)
{
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	if (!s)
		return -ENOENT;
	int rc = lookup(s, dir, path, clean, sizeof clean, &rest, &g);
	if (rc < 0 || (rc = locate(s, g, rest, follow_last, l)) < 0)
		return rc;
	l->slash = ends_as_dir(path);
	l->dots = last_dots(path);
	return 0;
}

/* The answer to removing or renaming "x/." or "x/.." (Linux: the name is
 * no entry of a directory): -errno if x is missing, else `busy`. */
static int dots_entry(const struct landing *l, int busy)
{
	struct stat st;
	return fstatat(l->dirfd, l->name, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : busy;
}

/* Linux's answers for a path ending in "/" whose last component the call
 * does not follow: a name to create is ENOENT (EEXIST if taken); an entry
 * to remove must be a directory (unlink: EISDIR, a file or symlink:
 * ENOTDIR). `create` picks the first. 0 if no slash. */
static int slash_entry(const struct landing *l, int create)
{
	struct stat st;
	if (!l->slash)
		return 0;
	if (fstatat(l->dirfd, l->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return create ? -ENOENT : -errno;
	if (create)
		return -EEXIST;
	return S_ISDIR(st.st_mode) ? -EISDIR : -ENOTDIR;
}

/* 1 if l's last component (not followed) is a directory. */
static int entry_is_dir(const struct landing *l)
{
	struct stat st;
	return fstatat(l->dirfd, l->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/* 1 if directory st is a granted directory or holds one at any depth on
 * the host. Such a directory may not be removed or renamed (EBUSY, as a
 * mount point): moving a read-only grant's parent away would let the
 * guest make a new directory of its own at the grant's old host path.
 * Found by identity, going up from each grant's descriptor with "..",
 * so renames on the host cannot mislead it. */
static int holds_grant(const struct sandbox *s, const struct stat *dir)
{
	for (int i = 0; i < s->n_grants; i++) {
		int fd = s->grants[i].dirfd, found = 0;
		struct stat st;
		if (fstat(fd, &st) < 0)
			continue;
		for (;;) {
			if (st.st_dev == dir->st_dev && st.st_ino == dir->st_ino) {
				found = 1;
				break;
			}
			int up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			struct stat ust;
			if (up < 0 || fstat(up, &ust) < 0 || (ust.st_dev == st.st_dev && ust.st_ino == st.st_ino)) {
				if (up >= 0)
					close(up);
				break;                       /* the host's root */
			}
			if (fd != s->grants[i].dirfd)
				close(fd);
			fd = up;
			st = ust;
		}
		if (fd != s->grants[i].dirfd)
			close(fd);
		if (found)
			return 1;
	}
	return 0;
}

/* The checks every removal or renaming of l's last component makes. */
static int may_change_entry(const struct sandbox *s, const struct landing *l)
{
	struct stat st;
	if (fstatat(l->dirfd, l->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) && holds_grant(s, &st))
		return -EBUSY;
	return l->g->rw ? 0 : -EROFS;
}

/* Land on an existing file whose times, mode or owner a call changes:
 * 0 with l open (the caller closes it) and st its status, or an error with
 * nothing open. The grant the change obeys is a granted directory's own,
 * else its directory's: a read-only one is EROFS. */
static int land_file_to_change(struct sandbox *s, const char *dir, const char *path, int follow,
			       struct landing *l, struct stat *st)
{
	int rc = land(s, dir, path, follow, l);
	if (rc < 0)
		return rc;
	const struct grant *g = l->g;
	if (fstatat(l->dirfd, l->name, st, AT_SYMLINK_NOFOLLOW) < 0)
		rc = -errno;
	else if (l->slash && !S_ISDIR(st->st_mode))
		rc = -ENOTDIR;                   /* "file/" (a symlink was followed to get here) */
	else if (S_ISDIR(st->st_mode) && grant_of(s, st))
		g = grant_of(s, st);
	if (rc == 0 && !g->rw)
		rc = -EROFS;
	if (rc < 0)
		close(l->dirfd);
	return rc;
}

int sandbox_stat_above(const struct sandbox *s, const char *dir, const char *path, struct stat *st)
{
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	if (lookup_or_above(s, dir, path, clean, sizeof clean, &rest, &g) != LOOKUP_ABOVE)
		return -ENOENT;
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFDIR | 0555;
	st->st_nlink = 2;
	st->st_blksize = 4096;
	/* a fixed inode per path, never 0, so tools that compare (dev, inode)
	 * to spot loops tell these directories apart */
	uint64_t h = 1469598103934665603ull;
	for (const char *c = clean; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	st->st_ino = (ino_t)(h | 1);
	return 0;
}

int sandbox_mkdir(struct sandbox *s, const char *dir, const char *path, int mode)
{
	struct landing l;
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	int rc = lookup_or_above(s, dir, path, clean, sizeof clean, &rest, &g);
	if (rc == LOOKUP_ABOVE)
		return -EEXIST;                      /* what `mkdir -p /abs/path` skips */
	if (rc < 0 || (rc = locate(s, g, rest, 0, &l)) < 0)
		return rc;
	struct stat st;
	if (last_dots(path))
		rc = fstatat(l.dirfd, l.name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : -errno;
	else if (!l.g->rw)
		rc = fstatat(l.dirfd, l.name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : -EROFS;
	else if (mkdirat(l.dirfd, l.name, (mode_t)(mode & CREATE_BITS)) < 0 ||
		 fchmodat(l.dirfd, l.name, (mode_t)(mode & CREATE_BITS), 0) < 0)
		rc = -errno;     /* (the chmod: exactly mode, without the host's umask) */
	close(l.dirfd);
	return rc;
}

int sandbox_unlink(struct sandbox *s, const char *dir, const char *path, int rmdir)
{
	struct landing l;
	int rc = land(s, dir, path, 0, &l);
	if (rc < 0)
		return rc;
	if (rmdir && l.dots)
		rc = dots_entry(&l, l.dots == 1 ? -EINVAL : -ENOTEMPTY);
	else if ((rc = may_change_entry(s, &l)) == 0 && !rmdir)
		rc = slash_entry(&l, 0);     /* rmdir of a non-directory is ENOTDIR anyway */
	if (rc == 0 && unlinkat(l.dirfd, l.name, rmdir ? AT_REMOVEDIR : 0) < 0)
		rc = -errno;
	close(l.dirfd);
	return rc;
}

/* Both names of a two-name call (rename, link): 0 with both landed, or
 * an error with neither open. */
static int land_pair(struct sandbox *s, const char *odir, const char *opath, int follow_old, const char *ndir,
		     const char *npath, struct landing *from, struct landing *to)
{
	int rc = land(s, odir, opath, follow_old, from);
	if (rc < 0)
		return rc;
	if ((rc = land(s, ndir, npath, 0, to)) < 0)
		close(from->dirfd);
	return rc;
}

int sandbox_rename(struct sandbox *s, const char *odir, const char *opath, const char *ndir, const char *npath,
		   unsigned flags)
{
	struct landing from, to;
	int rc = land_pair(s, odir, opath, 0, ndir, npath, &from, &to);
	if (rc < 0)
		return rc;
	struct stat st;
	int exchange = (flags & RENAME_EXCHANGE) != 0;
	if (from.dots || to.dots)
		rc = dots_entry(from.dots ? &from : &to, -EBUSY);
	else if ((rc = may_change_entry(s, &from)) == 0 && (rc = may_change_entry(s, &to)) == 0 &&
		 fstatat(from.dirfd, from.name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		/* a trailing "/" on either name asks for a directory (Linux's
		 * rule: the new name's only matters when the old is no
		 * directory, or when the two are exchanged) */
		if (!S_ISDIR(st.st_mode) && (from.slash || (!exchange && to.slash)))
			rc = -ENOTDIR;
		else if (exchange && to.slash && fstatat(to.dirfd, to.name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			 !S_ISDIR(st.st_mode))
			rc = -ENOTDIR;
	}
	if (rc == 0 && syscall(SYS_renameat2, from.dirfd, from.name, to.dirfd, to.name, flags) < 0)
		rc = -errno;
	close(from.dirfd);
	close(to.dirfd);
	return rc;
}

int sandbox_symlink(struct sandbox *s, const char *target, const char *dir, const char *path)
{
	struct landing l;
	int rc = land(s, dir, path, 0, &l);
	if (rc < 0)
		return rc;
	/* the link may point anywhere: every lookup through it is checked */
	rc = slash_entry(&l, 1);
	if (rc == 0 && !l.g->rw)
		rc = -EROFS;
	if (rc == 0 && symlinkat(target, l.dirfd, l.name) < 0)
		rc = -errno;
	close(l.dirfd);
	return rc;
}

int sandbox_link(struct sandbox *s, const char *odir, const char *opath, const char *ndir, const char *npath,
		 int follow)
{
	struct landing from, to;
	int rc = land_pair(s, odir, opath, follow || ends_as_dir(opath), ndir, npath, &from, &to);
	if (rc < 0)
		return rc;
	if (from.slash)                      /* the old name is then a directory, or ENOTDIR */
		rc = entry_is_dir(&from) ? -EPERM : -ENOTDIR;
	else if ((rc = slash_entry(&to, 1)) < 0)
		;
	/* A second name for a file of another grant would carry writes into
	 * it if that grant is read-only: EXDEV, as across mount points. */
	else if (from.g != to.g)
		rc = -EXDEV;
	else if (!to.g->rw)
		rc = -EROFS;
	else if (linkat(from.dirfd, from.name, to.dirfd, to.name, 0) < 0)
		rc = -errno;
	close(from.dirfd);
	close(to.dirfd);
	return rc;
}

int sandbox_utimens(struct sandbox *s, const char *dir, const char *path, const struct timespec *ts, int follow)
{
	struct landing l;
	struct stat st;
	int rc = land_file_to_change(s, dir, path, follow || ends_as_dir(path), &l, &st);
	if (rc < 0)
		return rc;
	if (utimensat(l.dirfd, l.name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		rc = -errno;
	close(l.dirfd);
	return rc;
}

int sandbox_file_writable(const struct sandbox *s, int i)
{
	return (s->files[i].acc & O_ACCMODE) != O_RDONLY;
}

int sandbox_chmod(struct sandbox *s, const char *dir, const char *path, int mode)
{
	struct landing l;
	struct stat st;
	int rc = land_file_to_change(s, dir, path, 1, &l, &st);
	if (rc < 0)
		return rc;
	/* NOFOLLOW: what locate found is what changes, even if swapped since */
	if (fchmodat(l.dirfd, l.name, (mode_t)mode, AT_SYMLINK_NOFOLLOW) < 0)
		rc = -errno;
	close(l.dirfd);
	return rc;
}

int sandbox_chown(struct sandbox *s, const char *dir, const char *path, uint32_t uid, uint32_t gid, int follow)
{
	struct landing l;
	struct stat st;
	int rc = land_file_to_change(s, dir, path, follow || ends_as_dir(path), &l, &st);
	if (rc < 0)
		return rc;
	if ((uid != UINT32_MAX && uid != st.st_uid) || (gid != UINT32_MAX && gid != st.st_gid))
		rc = -EPERM;       /* files are never given away; keeping the owner is a no-op */
	close(l.dirfd);
	return rc;
}
