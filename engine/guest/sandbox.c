/*
 * sandbox.c — granted directories and safe path resolution (see sandbox.h).
 *
 * Flow of one sandbox_open:
 *
 *   guest path --clean--> "/a/b/c" --match grants--> grant k, rest "b/c"
 *        --resolve beneath grant k's directory fd--> host fd
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

#define MAX_GRANTS 32
#define MAX_FILES  4096

struct grant {
	int dirfd;                 /* O_PATH descriptor of the host directory */
	int rw;
	char *guest;               /* clean absolute guest path */
	size_t guest_len;
	char *host_real;           /* realpath of the host directory */
};

struct sfile {
	int fd;                    /* host descriptor */
	char *dir_path;            /* a directory's clean guest path (for *at calls), else NULL */
	dev_t dev;
	ino_t ino;
	int acc;                   /* O_RDONLY / O_WRONLY / O_RDWR, | O_DIRECTORY */
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
	}
	return s;
}

struct sandbox *sandbox_ref(struct sandbox *s)
{
	if (s)
		s->refs++;
	return s;
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
	for (int i = 0; i < s->n_files; i++) {
		close(s->files[i].fd);
		ivx_free(s->files[i].dir_path);
	}
	ivx_free(s->files);
	ivx_free(s->exe);
	ivx_free(s);
}

int sandbox_grant_count(const struct sandbox *s) { return s ? s->n_grants : 0; }
int sandbox_uses_openat2(const struct sandbox *s) { return s && !s->force_walk && !s->no_openat2; }
int sandbox_fd(const struct sandbox *s, int i) { return s->files[i].fd; }

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

/* What creating rest would give under a read-only grant: EROFS if its
 * directory exists, else that lookup's error (ENOENT, ELOOP ...). */
static int create_refused(struct sandbox *s, const struct grant *g, const char *rest)
{
	char parent[SANDBOX_PATH_MAX];
	const char *slash = strrchr(rest, '/');
	size_t n = slash ? (size_t)(slash - rest) : 0;
	memcpy(parent, rest, n);
	parent[n] = 0;
	int probe = resolve(s, g, parent, O_PATH | O_DIRECTORY, 0);
	if (probe < 0)
		return probe;
	close(probe);
	return -EROFS;
}

int sandbox_open(struct sandbox *s, const char *dir, const char *guest_path, int flags, int mode)
{
	const char *rest;
	const struct grant *g;
	char clean[SANDBOX_PATH_MAX];
	if (!s)
		return -ENOENT;
	int rc = lookup(s, dir, guest_path, clean, sizeof clean, &rest, &g);
	if (rc < 0)
		return rc;
	int hf = host_flags(flags);
	if (!g->rw) {
		/* Linux's answers on a read-only file system: writing or
		 * truncating an existing file is EROFS, so is creating one;
		 * O_CREAT on a file that exists just opens it. */
		if ((hf & O_ACCMODE) != O_RDONLY || (hf & O_TRUNC)) {
			int probe = resolve(s, g, rest, O_PATH, 0);
			if (probe >= 0) {
				close(probe);
				return -EROFS;
			}
			return (hf & O_CREAT) && probe == -ENOENT ? create_refused(s, g, rest) : probe;
		}
		if (hf & O_CREAT) {
			int probe = resolve(s, g, rest, O_PATH, 0);
			if (probe >= 0)
				close(probe);
			if (probe >= 0 && (hf & O_EXCL))
				return -EEXIST;
			if (probe < 0)
				return probe == -ENOENT ? create_refused(s, g, rest) : probe;
			hf &= ~(O_CREAT | O_EXCL);
		}
	}
	if (s->n_files == MAX_FILES)
		return -EMFILE;
	int fd = resolve(s, g, rest, hf, mode & 07777);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return -e;
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
