/*
 * coproc_asm_replay.c — a plain main() for the coproc_asm harness: feed
 * it every file of the folders given (the seed corpus, regressions), so
 * `make test` exercises the harness with gcc, without libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "coproc_asm replay: cannot open %s\n", argv[i]);
			return 1;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
			struct stat st;
			if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))   /* (data/coproc/lib/) */
				continue;
			FILE *f = fopen(path, "rb");
			if (!f)
				continue;
			static uint8_t buf[1 << 20];
			size_t len = fread(buf, 1, sizeof buf, f);
			fclose(f);
			LLVMFuzzerTestOneInput(buf, len);
			n++;
		}
		closedir(d);
	}
	printf("coproc_asm replay: %d inputs, no failure\n", n);
	return n ? 0 : 1;
}
