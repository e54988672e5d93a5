/*
 * outfile.c — output files written whole or not at all (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"

struct outfile {
	FILE *f;
	char path[PATH_MAX];
	int slot;               /* its temporary's entry in pending[], or -1: written in place */
};

/* ---- ivx's own descriptors ----------------------------------------------- */

/* The descriptor an output name means, or -1: "-" and /dev/stdout are
 * standard output, /dev/stderr, /dev/fd/N and /proc/self/fd/N name the
 * descriptor itself. Such an output is written through the descriptor:
 * followed as a link, /dev/stdout leads to "pipe:[N]" for a pipe, and to
 * the file itself for `> file`, which a rename would replace (and with
 * `>>`, its earlier contents) instead of writing where the shell put
 * standard output. */
static int own_descriptor(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		size_t len = strlen(dirs[i]);
		if (strncmp(path, dirs[i], len) || !path[len])
			continue;
		char *end;
		long fd = strtol(path + len, &end, 10);
		if (*end || path[len] < '0' || path[len] > '9' || fd > INT_MAX)
			return -1;
		return (int)fd;
	}
	return -1;
}

/* NULL if descriptor fd may be written, or why not. */
static const char *descriptor_unwritable(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0)
		return "no such open descriptor";
	if ((flags & O_ACCMODE) == O_RDONLY)
		return "the descriptor is not open for writing";
	return NULL;
}

/* ---- temporaries left behind by a signal --------------------------------- */

/* The temporaries being written, for the signal handler to remove: a
 * Ctrl-C during a long run would otherwise leave one beside the target. */
#define MAX_PENDING 8
static char pending[MAX_PENDING][PATH_MAX];
static volatile sig_atomic_t pending_used[MAX_PENDING];
/* (every signal whose default ends the process without a core dump, and
 * SIGQUIT: `ivx run --kanata t.log | head` dies of SIGPIPE mid-run) */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2,
				       SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };

static void remove_pending_and_die(int sig)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending_used[i])
			unlink(pending[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_cleanup(void)
{
	static int installed;
	if (installed)
		return;
	installed = 1;
	for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++)
		cli_catch_signal(cleanup_signals[i], remove_pending_and_die, 0);
}

/* ---- symbolic links -------------------------------------------------------- */

/* The file path names once its symbolic links are followed, whether that
 * file exists or not: an output named through a link goes to the link's
 * target, and a dangling link's target is created (the link stays), as a
 * plain fopen would do. 0, or -1 for a loop or a path too long. */
static int resolve_links(const char *path, char *out)
{
	char cur[PATH_MAX], target[PATH_MAX];
	if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
		return -1;
	for (int hops = 0; hops < 40; hops++) {   /* Linux's MAXSYMLINKS */
		struct stat st;
		if (own_descriptor(cur) >= 0 || lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
			memcpy(out, cur, sizeof cur);
			return 0;
		}
		ssize_t n = readlink(cur, target, sizeof target - 1);
		if (n < 0)
			return -1;
		target[n] = 0;
		const char *slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {   /* absolute, or relative to . */
			memcpy(cur, target, (size_t)n + 1);
		} else {                            /* relative to the link's directory */
			int dir_len = (int)(slash - cur) + 1;
			if (dir_len + n >= (int)sizeof cur)
				return -1;
			memcpy(cur + dir_len, target, (size_t)n + 1);
		}
	}
	errno = ELOOP;
	return -1;
}

/* ---- collisions ---------------------------------------------------------- */

/* The absolute path path will have once created: its directory resolved,
 * its name as given. 0, or -1 if the directory does not exist. */
static int future_path(const char *path, char *out)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real))
		return -1;
	int n = snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "", name);
	return n < PATH_MAX ? 0 : -1;
}

/* a and b are the same regular file, existing or to be created. Devices
 * and pipes never collide: writing /dev/null twice is harmless. Nor do
 * ivx's own descriptors: both outputs are written to it, one after the
 * other, as `cmd > out 2>&1` writes both streams to one file. */
static int same_file(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if ((resolve_links(a, ra) == 0 && own_descriptor(ra) >= 0) ||
	    (resolve_links(b, rb) == 0 && own_descriptor(rb) >= 0))
		return 0;
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb)
		return 0;
	char fa[PATH_MAX], fb[PATH_MAX];
	return future_path(a, fa) == 0 && future_path(b, fb) == 0 && !strcmp(fa, fb);
}

static int temp_template(const char *path, char *temp);

/* Whether the output can be written, told before the run rather than
 * after it: a file can be created beside path (the temporary), or path
 * is a file that may be written in place. NULL, or why not. */
static const char *cannot_create(const char *path, int exists)
{
	static char why[128];
	char temp[PATH_MAX];
	if (temp_template(path, temp) < 0)
		return "file name too long";
	int fd = mkstemp(temp);
	if (fd >= 0) {
		close(fd);
		unlink(temp);
		return NULL;
	}
	int e = errno;
	if ((e == EACCES || e == EPERM) && exists && access(path, W_OK) == 0)
		return NULL;
	snprintf(why, sizeof why, "cannot create a file there: %s", strerror(e));
	return why;
}

int outfile_check(const struct named_file *outputs, int n_out, const struct named_file *inputs, int n_in)
{
	for (int i = 0; i < n_out; i++) {
		if (!outputs[i].path)
			continue;
		/* what can be told before a long run should be */
		struct stat st;
		char where[PATH_MAX], target[PATH_MAX];
		const char *why = NULL;
		int exists = 0;
		if (!outputs[i].path[0])
			why = "empty file name";
		else if (resolve_links(outputs[i].path, target) < 0)
			why = errno == ELOOP ? "too many symbolic links" : "path too long";
		else if (own_descriptor(target) >= 0)
			why = descriptor_unwritable(own_descriptor(target));
		else if ((exists = stat(target, &st) == 0) && S_ISDIR(st.st_mode))
			why = "is a directory";
		else if (!exists && future_path(target, where) < 0)
			why = "no such directory";
		else if (!exists || S_ISREG(st.st_mode))   /* (devices and pipes are written in place) */
			why = cannot_create(target, exists);
		if (why) {
			cli_error("%s%s%s: %s", outputs[i].option, outputs[i].path[0] ? " " : "", outputs[i].path, why);
			return -1;
		}
		for (int k = 0; k < n_in; k++)
			if (inputs[k].path && same_file(outputs[i].path, inputs[k].path)) {
				cli_error("%s %s would overwrite %s", outputs[i].option, outputs[i].path,
					  inputs[k].option);
				return -1;
			}
		for (int k = 0; k < i; k++)
			if (outputs[k].path && same_file(outputs[i].path, outputs[k].path)) {
				cli_error("%s and %s name the same file, %s", outputs[k].option, outputs[i].option,
					  outputs[i].path);
				return -1;
			}
	}
	return 0;
}

int outfile_descriptor(const char *path)
{
	char target[PATH_MAX];
	return path && resolve_links(path, target) == 0 ? own_descriptor(target) : -1;
}

int outfile_within(const char *path, const char *dir)
{
	char real_dir[PATH_MAX], target[PATH_MAX], where[PATH_MAX];
	if (!path || !path[0] || !dir || !realpath(dir, real_dir))
		return 0;   /* (no such directory yet: nothing in it to overwrite) */
	if (resolve_links(path, target) < 0 || future_path(target, where) < 0)
		return 0;   /* (outfile_check says what is wrong with it) */
	if (own_descriptor(target) >= 0)
		return 0;   /* (written where the descriptor already points) */
	size_t len = strcmp(real_dir, "/") ? strlen(real_dir) : 0;
	return !strncmp(where, real_dir, len) && where[len] == '/';
}

/* path names dir itself (links followed, trailing slashes aside), which
 * may not exist yet: a command that makes its database after the run
 * would only then find its output is that directory. */
static int names_dir(const char *path, const char *dir)
{
	char p[PATH_MAX], d[PATH_MAX], rp[PATH_MAX], rd[PATH_MAX], fp[PATH_MAX], fd[PATH_MAX];
	if (!path || !path[0] || !dir || !dir[0] || snprintf(p, sizeof p, "%s", path) >= (int)sizeof p ||
	    snprintf(d, sizeof d, "%s", dir) >= (int)sizeof d)
		return 0;
	for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
		p[n - 1] = 0;
	for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
		d[n - 1] = 0;
	if (resolve_links(p, rp) < 0 || resolve_links(d, rd) < 0 || own_descriptor(rp) >= 0)
		return 0;
	return future_path(rp, fp) == 0 && future_path(rd, fd) == 0 && !strcmp(fp, fd);
}

int outfile_check_within(const struct named_file *outputs, int n_out, const char *dir, const char *what)
{
	for (int i = 0; i < n_out; i++)
		if (names_dir(outputs[i].path, dir)) {
			cli_error("%s %s is %s %s itself (a directory)", outputs[i].option, outputs[i].path, what, dir);
			return -1;
		} else if (outfile_within(outputs[i].path, dir)) {
			cli_error("%s %s is inside %s %s", outputs[i].option, outputs[i].path, what, dir);
			return -1;
		}
	return 0;
}

/* ---- writing ------------------------------------------------------------- */

/* The temporary's mkstemp template beside path: ".NAME.ivx-XXXXXX".
 * 0, or -1 if it is too long for a path or a file name. */
static int temp_template(const char *path, char *temp)
{
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path) + 1 : 0;
	if (strlen(path + dir_len) + sizeof ".ivx-XXXXXX" > NAME_MAX)
		return -1;
	return snprintf(temp, PATH_MAX, "%.*s.%s.ivx-XXXXXX", dir_len, path, path + dir_len) < PATH_MAX ? 0 : -1;
}

/* Write o->path where it is: no temporary, no rename. 0, or -1 (errno). */
static int open_in_place(struct outfile *o)
{
	o->slot = -1;
	o->f = fopen(o->path, "w");
	return o->f ? 0 : -1;
}

struct outfile *outfile_open(const char *path, struct ivx_err *err)
{
	struct outfile *o = calloc(1, sizeof *o);
	if (!o) {
		ivx_error(err, IVX_ESYS, "out of host memory");
		return NULL;
	}
	/* Through a symbolic link, the file it names is replaced (or created,
	 * for a dangling link), not the link, as writing through it would */
	char real[PATH_MAX];
	struct stat st;
	if (resolve_links(path, real) < 0) {
		ivx_error(err, IVX_ESYS, "cannot write %s: %s", path, strerror(errno ? errno : ENAMETOOLONG));
		free(o);
		return NULL;
	}
	path = real;
	snprintf(o->path, sizeof o->path, "%s", path);
	int fd = own_descriptor(path);
	if (fd >= 0) {   /* through the descriptor, after what ivx wrote to it */
		const char *why = descriptor_unwritable(fd);
		int copy = why ? -1 : dup(fd);
		o->slot = -1;
		fflush(NULL);
		if (copy >= 0 && (o->f = fdopen(copy, "w")))
			return o;
		ivx_error(err, IVX_ESYS, "cannot write %s: %s", path, why ? why : strerror(errno));
		if (copy >= 0)
			close(copy);
		free(o);
		return NULL;
	}
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		free(o);
		ivx_error(err, IVX_ESYS, "cannot write %s: it is a directory", path);
		return NULL;
	}
	if (exists && !S_ISREG(st.st_mode)) {   /* a device or a pipe: no rename possible */
		if (open_in_place(o) == 0)
			return o;
		ivx_error(err, IVX_ESYS, "cannot write %s: %s", path, strerror(errno));
		free(o);
		return NULL;
	}
	o->slot = -1;
	for (int i = 0; i < MAX_PENDING && o->slot < 0; i++)
		if (!pending_used[i])
			o->slot = i;
	char temp[PATH_MAX];
	if (o->slot < 0 || temp_template(path, temp) < 0) {
		free(o);
		ivx_error(err, IVX_ESYS, "cannot write %s: too many outputs or too long a path", path);
		return NULL;
	}
	install_cleanup();
	fd = mkstemp(temp);
	int temp_errno = errno;
	/* a file the user may write in a directory they may not add to: only
	 * in place, as a plain fopen would */
	if (fd < 0 && (temp_errno == EACCES || temp_errno == EPERM) && exists && open_in_place(o) == 0)
		return o;
	if (fd < 0) {
		ivx_error(err, IVX_ESYS, "cannot write %s: cannot create a file beside it: %s", path,
			  strerror(temp_errno));
		free(o);
		return NULL;
	}
	/* the mode a plain fopen would give, or the file's own if it exists */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask);
	memcpy(pending[o->slot], temp, sizeof temp);
	pending_used[o->slot] = 1;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		ivx_error(err, IVX_ESYS, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		outfile_discard(o);
		return NULL;
	}
	return o;
}

FILE *outfile_stream(struct outfile *o)
{
	return o->f;
}

static void release(struct outfile *o, int remove_temp)
{
	if (o->slot >= 0) {
		if (remove_temp)
			unlink(pending[o->slot]);
		pending_used[o->slot] = 0;
	}
	free(o);
}

int outfile_commit(struct outfile *o, struct ivx_err *err)
{
	int why = 0;
	/* (fflush retries what a failed write left buffered, so errno says why) */
	int flush_failed = fflush(o->f) != 0;
	if (flush_failed || ferror(o->f))
		why = flush_failed && errno ? errno : EIO;
	if (fclose(o->f) != 0 && !why)
		why = errno;
	if (!why && o->slot >= 0 && rename(pending[o->slot], o->path) != 0)
		why = errno;
	int rc = why ? ivx_error(err, IVX_ESYS, "cannot write %s: %s", o->path, strerror(why)) : IVX_OK;
	release(o, why != 0);
	return rc;
}

void outfile_discard(struct outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	release(o, 1);
}

struct outfile *outfile_open_cli(const char *path)
{
	struct ivx_err err = { 0 };
	struct outfile *o = outfile_open(path, &err);
	if (!o)
		cli_error("%s", err.msg);
	return o;
}

int outfile_commit_cli(struct outfile *o)
{
	struct ivx_err err = { 0 };
	int rc = outfile_commit(o, &err);
	if (rc < 0)
		cli_error("%s", err.msg);
	return rc;
}

/* ---- escaping ------------------------------------------------------------ */

void outfile_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void outfile_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', f);       /* not allowed in XML 1.0 at all */
		else
			fputc(c, f);
	}
}
