/*
 * sys_manyfiles.c DIR N — create and close N files DIR/f0 ... in turn,
 * printing how many opened before the first failure and its errno. Each
 * distinct file keeps a host descriptor for the whole run (the sandbox:
 * snapshots may need it), so under a low descriptor limit the guest must
 * get EMFILE while ivx keeps enough to write its own outputs
 * (tests/guest-syscalls.sh runs it with `ulimit -n`).
 */
#include "rt.h"
#include "raw_syscall.h"

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[2]), i;
	for (i = 0; i < n; i++) {
		char path[256];
		snprintf(path, sizeof path, "%s/f%ld", argv[1], i);
		long fd = sc(56 /* openat */, -100, (long)path, 0101 /* O_WRONLY|O_CREAT */, 0644);
		if (fd < 0) {
			printf("opened %ld, then errno %ld\n", i, -fd);
			return 0;
		}
		sc(57 /* close */, fd, 0, 0, 0);
	}
	printf("opened %ld\n", i);
	return 0;
}
