/*
 * libc_dev.c — /dev/null, /dev/zero, /dev/random and /dev/urandom as a
 * program sees them through glibc: built with aarch64-linux-gnu-gcc
 * -static by tests/realprog-isa.sh, it must print the same under
 * qemu-aarch64 (the host's devices) and ivx (its virtual ones, with no
 * --dir grant).
 *
 *   null     open in every access mode; reads 0, writes succeed; the
 *            wrong direction is EBADF; pread/pwrite; stdio; sendfile
 *   zero     reads zeros (read, pread, readv, stdio), writes discard;
 *            a mapping is zero pages (any needs read access, a shared
 *            writable one O_RDWR), /dev/null cannot be mapped
 *   random   reads return what was asked, two reads differ (the bytes
 *            themselves are the host's under qemu: never printed)
 *   meta     stat/lstat/fstat/fstatat/statx: a character device 0666
 *            with Linux's numbers; lseek 0; access R/W but not X; not a
 *            terminal; dup, dup3, fcntl, close; poll ready both ways;
 *            fsync, ftruncate, truncate, readlink refused as Linux does
 *   paths    /dev/./null and //dev/zero name them; "null/" is ENOTDIR,
 *            O_DIRECTORY ENOTDIR, O_CREAT|O_EXCL EEXIST
 *   dir      /dev is a directory (and so is /, above it) that lists the
 *            four as character devices, again after a rewind; openat
 *            from it; read, write-open, mkdir, readlink refused as Linux
 *            does; a getdents64 buffer too small for one entry is EINVAL
 *            (what else the host's /dev holds is never printed)
 *
 * `ivx` alone also runs it with "seed" as its argument: then it prints
 * the /dev/urandom bytes, for tests/realprog-isa.sh to compare two runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

static void show(const char *what, long r)
{
	printf("%s: %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerrorname_np(errno) : "");
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void show_stat(const char *what, int r, const struct stat *st)
{
	if (r < 0) {
		show(what, r);
		return;
	}
	printf("%s: chr %d mode %o rdev %u,%u size %lld blocks %lld\n", what, S_ISCHR(st->st_mode),
	       st->st_mode & 07777, major(st->st_rdev), minor(st->st_rdev), (long long)st->st_size,
	       (long long)st->st_blocks);
}

static void null_case(void)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	char buf[64];
	for (int i = 0; i < 3; i++) {
		int fd = open("/dev/null", modes[i]);
		printf("open(/dev/null, %d): %s\n", modes[i], fd >= 0 ? "ok" : strerrorname_np(errno));
		show("  read", read(fd, buf, sizeof buf));
		show("  write", write(fd, "abc", 3));
		show("  pread at 100", pread(fd, buf, sizeof buf, 100));
		show("  pwrite at 100", pwrite(fd, "abcd", 4, 100));
		show("  fcntl(F_GETFL) & O_ACCMODE", fcntl(fd, F_GETFL) & O_ACCMODE);
		show("  close", close(fd));
	}
	FILE *f = fopen("/dev/null", "w");
	printf("fopen(/dev/null, w): %s\n", f ? "ok" : strerrorname_np(errno));
	if (f) {
		show("  fprintf", fprintf(f, "discarded %d\n", 42));
		show("  fflush", fflush(f));
		show("  fclose", fclose(f));
	}
	f = fopen("/dev/null", "r");
	if (f) {
		show("fgetc(/dev/null) is EOF", fgetc(f) == EOF);
		fclose(f);
	}
	int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);
	show("sendfile(/dev/null <- /dev/zero, 100000)", sendfile(out, in, NULL, 100000));
	off_t at = 7;
	show("sendfile with an offset", sendfile(out, in, &at, 10));
	printf("  offset now %lld\n", (long long)at);
	close(in);
	close(out);
}

static void zero_case(void)
{
	unsigned char buf[10000];
	int fd = open("/dev/zero", O_RDWR);
	memset(buf, 0xff, sizeof buf);
	show("read(/dev/zero, 10000)", read(fd, buf, sizeof buf));
	printf("  all zero: %d\n", all_zero(buf, sizeof buf));
	memset(buf, 0xff, sizeof buf);
	show("pread(/dev/zero, 100, at 5)", pread(fd, buf, 100, 5));
	printf("  all zero: %d, next byte %#x\n", all_zero(buf, 100), buf[100]);
	memset(buf, 0xff, sizeof buf);
	struct iovec iov[2] = { { buf, 3 }, { buf + 10, 5 } };
	show("readv(/dev/zero, 3 + 5)", readv(fd, iov, 2));
	printf("  %d %d %#x\n", all_zero(buf, 3), all_zero(buf + 10, 5), buf[5]);
	show("write(/dev/zero, 5)", write(fd, "hello", 5));
	show("lseek(/dev/zero, 0, SEEK_CUR)", lseek(fd, 0, SEEK_CUR));
	FILE *f = fopen("/dev/zero", "r");
	if (f) {
		show("fread(/dev/zero, 5000)", (long)fread(buf, 1, 5000, f));
		fclose(f);
	}

	unsigned char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf("mmap(/dev/zero, MAP_PRIVATE): %s\n", p != MAP_FAILED ? "ok" : strerrorname_np(errno));
	if (p != MAP_FAILED) {
		printf("  all zero: %d\n", all_zero(p, 8192));
		p[4000] = 7;
		printf("  written back: %d\n", p[4000]);
		show("  munmap", munmap(p, 8192));
	}
	close(fd);
	fd = open("/dev/zero", O_WRONLY);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	show("mmap(/dev/zero opened O_WRONLY)", p == MAP_FAILED ? -1 : 0);
	close(fd);
	for (int rw = 0; rw < 2; rw++) {
		fd = open("/dev/zero", rw ? O_RDWR : O_RDONLY);
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		printf("mmap(/dev/zero %s, MAP_SHARED, PROT_WRITE): %s\n", rw ? "O_RDWR" : "O_RDONLY",
		       p != MAP_FAILED ? "ok" : strerrorname_np(errno));
		if (p != MAP_FAILED) {
			printf("  all zero: %d\n", all_zero(p, 4096));
			p[10] = 1;
			munmap(p, 4096);
		}
		close(fd);
	}
	fd = open("/dev/null", O_RDWR);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	show("mmap(/dev/null)", p == MAP_FAILED ? -1 : 0);
	close(fd);
}

static void random_case(const char *path)
{
	unsigned char a[32], b[32];
	int fd = open(path, O_RDONLY);
	printf("open(%s): %s\n", path, fd >= 0 ? "ok" : strerrorname_np(errno));
	show("  read 32", read(fd, a, sizeof a));
	show("  read 32 again", read(fd, b, sizeof b));
	printf("  the two differ: %d\n", memcmp(a, b, sizeof a) != 0);
	show("  read 3", read(fd, a, 3));
	show("  pread 5 at 1000", pread(fd, a, 5, 1000));
	show("  lseek(0, SEEK_END)", lseek(fd, 0, SEEK_END));
	close(fd);
	fd = open(path, O_WRONLY);
	show("  write 4 (O_WRONLY)", write(fd, "seed", 4));
	show("  read (O_WRONLY)", read(fd, a, 4));
	close(fd);
	FILE *f = fopen(path, "r");
	if (f) {
		show("  fread 8", (long)fread(a, 1, 8, f));
		fclose(f);
	}
}

static void meta_case(void)
{
	static const char *const paths[] = { "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom" };
	struct stat st;
	char name[80];
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof name, "stat(%s)", paths[i]);
		show_stat(name, stat(paths[i], &st), &st);
		snprintf(name, sizeof name, "lstat(%s)", paths[i]);
		show_stat(name, lstat(paths[i], &st), &st);
		int fd = open(paths[i], O_RDONLY);
		snprintf(name, sizeof name, "fstat(open %s)", paths[i]);
		show_stat(name, fstat(fd, &st), &st);
		snprintf(name, sizeof name, "fstatat(fd, \"\", AT_EMPTY_PATH)");
		show_stat(name, fstatat(fd, "", &st, AT_EMPTY_PATH), &st);
		struct statx sx;
		int r = statx(AT_FDCWD, paths[i], 0, STATX_BASIC_STATS, &sx);
		if (r < 0)
			show("  statx", r);
		else
			printf("  statx: chr %d mode %o rdev %u,%u size %llu\n", S_ISCHR(sx.stx_mode),
			       sx.stx_mode & 07777, sx.stx_rdev_major, sx.stx_rdev_minor,
			       (unsigned long long)sx.stx_size);
		show("  access(R_OK|W_OK)", access(paths[i], R_OK | W_OK));
		show("  access(X_OK)", access(paths[i], X_OK));
		show("  isatty", isatty(fd));
		printf("  errno %s\n", strerrorname_np(errno));
		show("  lseek(5, SEEK_SET)", lseek(fd, 5, SEEK_SET));
		show("  lseek(-5, SEEK_END)", lseek(fd, -5, SEEK_END));
		struct pollfd pfd = { fd, POLLIN | POLLOUT, 0 };
		show("  poll", poll(&pfd, 1, 0));
		printf("  revents %#x\n", pfd.revents);
		show("  fsync", fsync(fd));
		show("  ftruncate", ftruncate(fd, 0));
		close(fd);
	}
	int fd = open("/dev/null", O_WRONLY);
	int d = dup(fd);
	show("dup(/dev/null) is a new descriptor", d > fd);
	show("  write on the copy", write(d, "xy", 2));
	show("  dup3 onto 20", dup3(fd, 20, O_CLOEXEC));
	show("  fcntl(20, F_GETFD)", fcntl(20, F_GETFD));
	show("  fcntl(F_DUPFD, 30)", fcntl(fd, F_DUPFD, 30));
	show("  close(fd)", close(fd));
	show("  write on the copy after close", write(d, "xy", 2));
	show("  write on 30", write(30, "z", 1));
	show("  close(d)", close(d));
	show("  close(20)", close(20));
	show("  close(30)", close(30));
	show("  close(d) again", close(d));
	show("truncate(/dev/null)", truncate("/dev/null", 0));
	char link[64];
	show("readlink(/dev/null)", readlink("/dev/null", link, sizeof link));
}

static void paths_case(void)
{
	static const char *const paths[] = { "/dev/./null", "//dev/zero", "/dev/../dev/urandom", "/dev/null/" };
	for (int i = 0; i < 4; i++) {
		int fd = open(paths[i], O_RDONLY);
		printf("open(%s): %s\n", paths[i], fd >= 0 ? "ok" : strerrorname_np(errno));
		if (fd >= 0)
			close(fd);
	}
	show("open(/dev/null, O_DIRECTORY)", open("/dev/null", O_RDONLY | O_DIRECTORY));
	show("open(/dev/null, O_CREAT|O_EXCL)", open("/dev/null", O_WRONLY | O_CREAT | O_EXCL, 0600));
	int fd = open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	printf("open(/dev/null, O_CREAT|O_TRUNC): %s\n", fd >= 0 ? "ok" : strerrorname_np(errno));
	close(fd);
	struct stat st;
	show("stat(/dev/zero/)", stat("/dev/zero/", &st));
}

/* which of the four devices (and "." and "..") a listing of /dev holds, and as what */
static void list_dev(DIR *d)
{
	static const char *const names[] = { ".", "..", "null", "zero", "random", "urandom" };
	int type[6] = { -1, -1, -1, -1, -1, -1 };
	for (struct dirent *e; (e = readdir(d));)
		for (int i = 0; i < 6; i++)
			if (!strcmp(e->d_name, names[i]))
				type[i] = e->d_type;
	for (int i = 0; i < 6; i++)
		printf("  %s: %s\n", names[i], type[i] == DT_DIR ? "dir" : type[i] == DT_CHR ? "chr" : "missing");
}

static void dir_case(void)
{
	struct stat st;
	int r = stat("/dev", &st);
	printf("stat /dev: %d dir %d\n", r, r == 0 && S_ISDIR(st.st_mode));
	r = stat("/", &st);
	printf("stat /: %d dir %d\n", r, r == 0 && S_ISDIR(st.st_mode));
	r = stat("/dev/", &st);
	printf("stat /dev/: %d dir %d\n", r, r == 0 && S_ISDIR(st.st_mode));
	DIR *d = opendir("/dev");
	printf("opendir /dev: %s\n", d ? "ok" : strerrorname_np(errno));
	if (!d)
		return;
	list_dev(d);
	rewinddir(d);
	printf("after rewinddir:\n");
	list_dev(d);
	r = fstat(dirfd(d), &st);
	printf("fstat: %d dir %d\n", r, r == 0 && S_ISDIR(st.st_mode));
	int fd = openat(dirfd(d), "null", O_WRONLY);
	show("openat(/dev, null) write", fd < 0 ? -1 : write(fd, "x", 1));
	close(fd);
	char c;
	show("read /dev", read(dirfd(d), &c, 1));
	char small[8];
	show("lseek(/dev, 0)", lseek(dirfd(d), 0, SEEK_SET));
	show("getdents64 into 8 bytes", syscall(SYS_getdents64, dirfd(d), small, sizeof small));
	closedir(d);
	show("open /dev O_WRONLY", open("/dev", O_WRONLY));
	show("open /dev O_CREAT|O_EXCL", open("/dev", O_CREAT | O_EXCL | O_RDONLY, 0644));
	show("mkdir /dev", mkdir("/dev", 0755));
	show("readlink /dev", readlink("/dev", small, sizeof small));
	show("O_DIRECTORY /dev", (fd = open("/dev", O_DIRECTORY | O_RDONLY)) < 0 ? -1 : 0);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "seed")) {
		unsigned char b[16];
		int fd = open("/dev/urandom", O_RDONLY);
		if (fd < 0 || read(fd, b, sizeof b) != sizeof b)
			return 1;
		for (int i = 0; i < 16; i++)
			printf("%02x", b[i]);
		printf("\n");
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	null_case();
	zero_case();
	random_case("/dev/urandom");
	random_case("/dev/random");
	meta_case();
	paths_case();
	dir_case();
	return 0;
}
