/*
 * sys_append.c FILE — change FILE the ways that set its size, 24 times:
 * append to it (write, then pwrite, which appends too on an O_APPEND
 * descriptor), read it back, fstat and stat it, lseek to its end, map
 * it, and every few rounds shrink it (ftruncate, truncate, or an O_TRUNC
 * open and a rewrite), printing what it saw each round. Every byte it
 * writes is a function of the byte's offset, so the file's bytes never
 * change, only its size: what the host keeps of a later point is then
 * the same bytes, and a replay can see exactly what it first saw.
 * tests/guest-syscalls.sh runs it straight, in the explorer stepping back
 * and forth over those calls, and under `ivx cost`: the host file is not
 * part of a snapshot, so only if the guest kept the file's size as it
 * made it would the replayed appends land where they first did, and the
 * replayed reads and stats see what they first saw.
 */
#include "rt.h"
#include "raw_syscall.h"

enum { O_WRONLY = 01, O_RDWR = 02, O_CREAT = 0100, O_TRUNC = 01000, O_APPEND = 02000 };
enum { NR_truncate = 45, NR_ftruncate = 46, NR_openat = 56, NR_close = 57, NR_lseek = 62,
       NR_pwrite64 = 68, NR_newfstatat = 79, NR_fstat = 80 };

static long open_(const char *p, long flags) { return sc(NR_openat, -100, (long)p, flags, 0644); }

/* st_size of struct stat (AArch64): at byte 48 */
static long size_of(long fd, const char *path)
{
	long st[16];
	long rc = path ? sc(NR_newfstatat, -100, (long)path, (long)st, 0) : sc(NR_fstat, fd, (long)st, 0, 0);
	return rc < 0 ? rc : st[6];
}

static unsigned long sum_of(const unsigned char *p, long n)
{
	unsigned long h = 5381;
	for (long i = 0; i < n; i++)
		h = h * 33 + p[i];
	return h;
}

/* work between the calls, so the explorer's steps land among them */
static unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 4000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

static char buf[8192];

/* n bytes of the file from offset `at` */
static char *pattern(long at, int n)
{
	static char p[64];
	for (int i = 0; i < n; i++)
		p[i] = (char)((at + i) % 32 == 31 ? '\n' : 'a' + (at + i) % 26);
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	const char *path = argv[1];
	unsigned long x = 1;
	for (int k = 1; k <= 24; k++) {
		long a = open_(path, O_WRONLY | O_CREAT | O_APPEND);
		long was = size_of(a, NULL);
		int n = 20 + k % 7;
		if (a < 0 || was < 0 || write((int)a, pattern(was, n), (size_t)n) != n)
			return 3;
		int n2 = 9 + k % 5;
		if (sc(NR_pwrite64, a, (long)pattern(was + n, n2), n2, 0) != n2)    /* the offset is ignored */
			return 3;
		long at = sc(NR_lseek, a, 0, 1, 0);                   /* SEEK_CUR: past the append */
		sc(NR_close, a, 0, 0, 0);
		x = spin(x);

		long r = open_(path, O_RDWR);
		long got = r < 0 ? r : read((int)r, buf, sizeof buf);
		long fsz = size_of(r, NULL), psz = size_of(-1, path);
		long end = sc(NR_lseek, r, 0, 2, 0);                  /* SEEK_END */
		unsigned long msum = 0;
		if (fsz > 0) {
			long page = (fsz + 4095) & ~4095l;      /* zeros past the end */
			unsigned char *m = mmap(0, (size_t)fsz, PROT_READ, MAP_PRIVATE, (int)r, 0);
			if (MMAP_FAILED(m))
				return 4;
			msum = sum_of(m, page);
			munmap(m, (size_t)page);
		}
		printf("round %d: at %ld read %ld sum %lx fstat %ld stat %ld end %ld map %lx\n", k, at, got,
		       sum_of((unsigned char *)buf, got), fsz, psz, end, msum);
		x = spin(x);

		if (k % 4 == 1) {                 /* cut the last line */
			sc(NR_ftruncate, r, got - 15, 0, 0);
		} else if (k % 4 == 2) {
			sc(NR_truncate, (long)path, got / 2, 0, 0);
		} else if (k % 8 == 3) {          /* start again, from a short rewrite */
			long t = open_(path, O_WRONLY | O_TRUNC);
			write((int)t, pattern(0, 22), 22);
			sc(NR_close, t, 0, 0, 0);
		}
		sc(NR_close, r, 0, 0, 0);
		printf("round %d ends at %ld\n", k, size_of(-1, path));
		rt_flush();
		x = spin(x);
	}
	printf("done %lx\n", x & 0xffff);
	return 0;
}
