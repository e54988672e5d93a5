/*
 * replay_main.c — runs a libFuzzer harness without libFuzzer.
 *
 *   replay-HARNESS PATH...     each PATH a file or a directory of files
 *
 * Feeds every file to LLVMFuzzerTestOneInput once, in name order, so
 * `make test` replays the seed corpus and every regression input through
 * the same harness code with gcc and no clang. A crash, a sanitizer report
 * (under `make check`) or an abort in the harness fails the run; otherwise
 * it prints how many inputs ran.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: cannot open\n", path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		free(buf);
		fprintf(stderr, "replay: %s: cannot read\n", path);
		return -1;
	}
	/* An exact-size copy, so ASan sees reads past the input's end. */
	uint8_t *in = malloc(len ? len : 1);
	if (!in) {
		free(buf);
		return -1;
	}
	memcpy(in, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(in, len);
	free(in);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order (hidden files skipped); count or -1. */
static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: %s: cannot open\n", dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof *names);
		if (!nn || !(nn[n] = malloc(strlen(dir) + strlen(e->d_name) + 2)))
			abort();
		names = nn;
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		if (count >= 0 && run_file(names[i]) < 0)
			count = -1;
		else if (count >= 0)
			count++;
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	int total = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
			return 2;
		}
		int n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) < 0 ? -1 : 1;
		if (n < 0)
			return 2;
		total += n;
	}
	printf("%s: %d inputs replayed\n", argv[0], total);
	return 0;
}
