/*
 * libc_files.c — file calls through glibc on a directory it is given
 * (argv[1]): opens with odd flags, O_APPEND writes, locks, seeks,
 * descriptors, renames, links, modes and access checks. Built with
 * aarch64-linux-gnu-gcc -static by tests/realprog-isa.sh, run under
 * qemu-aarch64 on a host directory and under ivx with that directory
 * granted rw at the same path; both must print the same. Each line is a
 * call, its result (-1, 0..2, or 3 for "a descriptor or count above 2")
 * and errno's name. Cases that once differed:
 *
 *   pwrite on an O_APPEND descriptor appends, whatever its offset (Linux)
 *   F_SETLK: a write lock on a read-only descriptor is EBADF
 *   lseek SEEK_DATA and SEEK_HOLE: the whole file is data, ENXIO at its end
 *   faccessat X_OK (the guest is root): only a directory or a file with
 *   an x bit
 *   preadv, pwritev, preadv2, pwritev2, readahead, syncfs,
 *   sync_file_range and the open-file-description locks stopped the run
 *   O_PATH: the other flags are ignored (no truncation, no creation),
 *   reads and writes EBADF, fstat and fchdir work (ivx truncated,
 *   created and read)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define T(x) do { \
	errno = 0; \
	long r_ = (long)(x); \
	printf("%-56s %ld %s\n", #x, r_ < 0 ? -1L : r_ > 2 ? 3L : r_, r_ < 0 ? strerrorname_np(errno) : ""); \
} while (0)

int main(int argc, char **argv)
{
	struct stat st;
	char b[8];
	if (argc < 2 || chdir(argv[1]) < 0)
		return 1;
	close(open("f", O_CREAT | O_WRONLY | O_TRUNC, 0644));
	T(symlink("f", "l"));
	T(mkdir("d", 0755));
	T(symlink("nowhere", "dangling"));
	T(open("f", O_RDONLY | O_DIRECTORY));
	T(open("l", O_RDONLY | O_NOFOLLOW));
	T(open("f", O_CREAT | O_EXCL | O_WRONLY, 0644));
	T(open("d", O_WRONLY));
	T(open("dangling", O_RDONLY));
	T(access("nowhere", F_OK));
	T(unlink("nowhere"));
	T(open("d/", O_RDONLY));
	T(open("f/", O_RDONLY));
	T(open("", O_RDONLY));
	T(open("missing/x", O_CREAT | O_WRONLY, 0644));

	int fd = open("f", O_WRONLY | O_APPEND);
	T(write(fd, "abc", 3));
	T(pwrite(fd, "Z", 1, 0));
	T(lseek(fd, 0, SEEK_CUR));
	close(fd);
	fd = open("f", O_RDONLY);
	T(read(fd, b, sizeof b));
	printf("  contents [%.4s]\n", b);

	T(write(fd, "x", 1));
	T(ftruncate(fd, 0));
	T(flock(fd, LOCK_EX));
	T(fcntl(fd, F_SETLK, &(struct flock){ .l_type = F_WRLCK }));
	T(fcntl(fd, F_SETLK, &(struct flock){ .l_type = F_RDLCK }));
	T(fcntl(fd, F_SETLK, &(struct flock){ .l_type = F_UNLCK }));
	T(lseek(fd, -5, SEEK_SET));
	T(lseek(fd, 100, SEEK_END));
	T(lseek(fd, 1, SEEK_DATA));
	T(lseek(fd, 1, SEEK_HOLE));
	T(lseek(fd, 4, SEEK_DATA));
	T(lseek(fd, 9, SEEK_HOLE));
	T(lseek(fd, 0, 7));
	T(lseek(fd, 2, SEEK_SET));
	T(read(fd, b, 4));
	char v1[4] = { 0 }, v2[4] = { 0 };
	struct iovec iov[2] = { { v1, 3 }, { v2, 3 } };
	T(preadv(fd, iov, 2, 1));
	printf("  [%s] [%s]\n", v1, v2);
	T(preadv2(fd, iov, 2, -1, 0));
	printf("  [%s] [%s] then at %ld\n", v1, v2, (long)lseek(fd, 0, SEEK_CUR));
	T(preadv2(fd, iov, 2, 0, 0x1000));
	T(pwritev(fd, iov, 2, 0));
	T(readahead(fd, 0, 100));
	T(syncfs(fd));
	T(sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE));
	T(sync_file_range(fd, 0, 0, 8));
	T(fcntl(fd, F_OFD_SETLK, &(struct flock){ .l_type = F_RDLCK }));
	T(fcntl(fd, F_OFD_SETLK, &(struct flock){ .l_type = F_WRLCK }));
	T(dup2(fd, 63));
	T(fcntl(fd, F_DUPFD, 10));
	T(fcntl(fd, F_GETFL) & O_ACCMODE);
	T(close(fd));
	T(close(fd));
	T(read(fd, b, 1));

	T(rename("d", "d/sub"));
	T(rmdir("f"));
	T(unlink("d"));
	T(link("f", "hard"));
	T(stat("hard", &st));
	printf("  nlink %ld\n", (long)st.st_nlink);
	T(rmdir("d"));
	T(mkdir("d", 0755));
	T(rename("f", "d"));
	T(rename("hard", "hard"));
	T(truncate("f", 10));
	fd = open("f", O_RDWR);
	T(pwritev(fd, iov, 2, 4));
	T(pwritev2(fd, iov, 2, -1, 0));
	T(pread(fd, b, 8, 0));
	printf("  contents [%.8s] then at %ld\n", b, (long)lseek(fd, 0, SEEK_CUR));
	T(readahead(fd, 0, 100));
	T(close(fd));
	T(chmod("l", 0600));
	T(lchown("l", -1, -1));
	T(faccessat(AT_FDCWD, "f", R_OK | W_OK, 0));
	T(faccessat(AT_FDCWD, "f", X_OK, 0));
	T(chmod("f", 0610));
	T(faccessat(AT_FDCWD, "f", X_OK, 0));
	T(access("d", X_OK));
	T(readlink("f", b, 4));
	T(readlink("l", b, 4));
	T(fd = open("f", O_PATH | O_WRONLY | O_TRUNC));
	T(fstat(fd, &st));
	printf("  size %lld\n", (long long)st.st_size);
	T(write(fd, "zz", 2));
	T(read(fd, b, 4));
	T(close(fd));
	T(open("new", O_PATH | O_CREAT, 0644));
	T(access("new", F_OK));
	T(fd = open("d", O_PATH | O_DIRECTORY));
	T(fchdir(fd));
	T(access("../f", F_OK));
	T(chdir(".."));
	T(close(fd));
	unlink("f");
	unlink("l");
	unlink("hard");
	unlink("dangling");
	rmdir("d");
	return 0;
}
