/*
 * test_file_sizes.c — a host file's size is the guest's state
 * (engine/guest/file_sizes.c): a guest restored from a copy made before a
 * write sees the size the file had then, appends where it first did, and
 * the host file neither grows with the replayed bytes nor loses the bytes
 * a truncation cut while the run may still go back; a run made only to
 * measure does not write again what the host has; the table's limit falls
 * back to the host's size.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "elf_builder.h"
#include "guest/guest_internal.h"
#include "guest/program.h"

#define G_WRONLY 01
#define G_CREAT  0100

static char root[256];
static struct program *prog;

static long host_size(const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", root, name);
	return stat(p, &st) < 0 ? -1 : (long)st.st_size;
}

static long host_read(const char *name, char *buf, size_t n)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, name);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	size_t got = fread(buf, 1, n, f);
	fclose(f);
	return (long)got;
}

static int setup(void **s)
{
	snprintf(root, sizeof root, "/tmp/ivx-file-sizes-XXXXXX");
	assert_non_null(mkdtemp(root));
	char p[512];
	snprintf(p, sizeof p, "%s/log", root);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("0123456789", f);
	fclose(f);
	const uint32_t code[] = { A64_MOVZ_X(8, 93), A64_SVC0 };
	struct eb_image im = eb_build(code, 2, 4096);
	struct ivx_err err = { 0 };
	prog = program_load_image(im.bytes, im.len, "t.elf", &err);
	free(im.bytes);
	assert_non_null(prog);
	return 0;
}

static int teardown(void **s)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	program_free(prog);
	return 0;
}

static struct guest *new_guest(void)
{
	char *argv[] = { "t.elf", NULL };
	struct sandbox_grant grant = { .host = root, .guest = "/w", .rw = 1 };
	struct guest_options opt = { .argc = 1, .argv = argv, .dirs = &grant, .n_dirs = 1 };
	struct ivx_err err = { 0 };
	struct guest *g = guest_new(prog, &opt, &err);
	assert_non_null(g);
	return g;
}

static int open_w(struct guest *g, const char *path)
{
	int i = sandbox_open(g->sandbox, NULL, path, G_WRONLY | G_CREAT, 0644);
	assert_true(i >= 0);
	return i;
}

static uint64_t append(struct guest *g, int file, const char *s)
{
	uint64_t at;
	assert_int_equal(file_size_end(g, file, &at), 0);
	assert_int_equal(file_write(g, file, s, strlen(s), at), (int64_t)strlen(s));
	return at;
}

static void a_replayed_append_lands_where_it_first_did(void **s)
{
	struct guest *g = new_guest(), *snap = new_guest();
	int f = open_w(g, "/w/log");
	uint64_t size;
	assert_int_equal(file_size_known(g, f, &size), 0);     /* untouched: the host's */
	assert_int_equal(guest_copy(snap, g, NULL), IVX_OK);
	assert_int_equal(append(g, f, "abc"), 10);
	assert_int_equal(append(g, f, "de"), 13);
	assert_int_equal(host_size("log"), 15);
	/* back to before the first append: the size it had then, and the
	 * same offsets again */
	assert_int_equal(guest_copy(g, snap, NULL), IVX_OK);
	assert_int_equal(file_size_known(g, f, &size), 1);
	assert_int_equal(size, 10);
	assert_int_equal(append(g, f, "abc"), 10);
	assert_int_equal(file_size_known(g, f, &size), 1);
	assert_int_equal(size, 13);
	assert_int_equal(host_size("log"), 15);
	struct stat st;
	assert_int_equal(fstat(sandbox_fd(g->sandbox, f), &st), 0);
	file_size_stat(g, &st);
	assert_int_equal(st.st_size, 13);
	guest_free(g);
	guest_free(snap);
}

static void a_truncation_cuts_the_host_file_only_when_the_run_is_over(void **s)
{
	struct guest *g = new_guest(), *snap = new_guest();
	int f = open_w(g, "/w/log");
	append(g, f, "abcdef");                              /* 16 bytes */
	assert_int_equal(guest_copy(snap, g, NULL), IVX_OK);
	assert_int_equal(file_truncate(g, f, 4), 0);
	uint64_t size;
	assert_int_equal(file_size_known(g, f, &size), 1);
	assert_int_equal(size, 4);
	assert_int_equal(host_size("log"), 16);              /* the snapshot may read them */
	/* growing over the cut bytes makes them zeros, as on Linux */
	assert_int_equal(file_truncate(g, f, 8), 0);
	char b[16];
	assert_int_equal(host_read("log", b, 8), 8);
	assert_memory_equal(b, "0123\0\0\0\0", 8);
	assert_int_equal(guest_copy(g, snap, NULL), IVX_OK);
	assert_int_equal(file_size_known(g, f, &size), 1);
	assert_int_equal(size, 16);
	assert_int_equal(file_truncate(g, f, 4), 0);           /* replayed */
	assert_int_equal(file_truncate(g, f, 8), 0);
	guest_free(snap);
	guest_free(g);                                       /* the furthest point's size */
	assert_int_equal(host_size("log"), 8);
}

static void a_run_made_only_to_measure_does_not_write_again(void **s)
{
	struct guest *g = new_guest(), *snap = new_guest();
	int f = open_w(g, "/w/log");
	assert_int_equal(guest_copy(snap, g, NULL), IVX_OK);
	append(g, f, "later");
	assert_int_equal(file_truncate(g, f, 0), 0);
	append(g, f, "xy");
	assert_int_equal(guest_copy(g, snap, NULL), IVX_OK);
	guest_freeze_host(g, 1);
	append(g, f, "later");                               /* replays: the host keeps "xy" */
	assert_int_equal(file_truncate(g, f, 0), 0);
	append(g, f, "xy");
	append(g, f, "!");                                   /* new: made */
	guest_freeze_host(g, 0);
	guest_free(snap);
	guest_free(g);
	char b[8] = { 0 };
	assert_int_equal(host_read("log", b, sizeof b), 3);
	assert_string_equal(b, "xy!");
}

static void past_the_tables_limit_files_keep_the_hosts_size(void **s)
{
	struct guest *g = new_guest();
	char path[64];
	int f = -1;
	for (int i = 0; i <= GUEST_MAX_SIZED_FILES; i++) {
		snprintf(path, sizeof path, "/w/f%d", i);
		f = open_w(g, path);
		append(g, f, "x");
	}
	uint64_t size;
	assert_int_equal(file_size_known(g, f, &size), 0);    /* the last: untracked */
	assert_int_equal(file_truncate(g, f, 0), 0);          /* (made on the host at once) */
	assert_int_equal(host_size("f64"), 0);
	assert_int_equal(file_size_known(g, open_w(g, "/w/f0"), &size), 1);
	assert_int_equal(size, 1);
	guest_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_replayed_append_lands_where_it_first_did, setup, teardown),
		cmocka_unit_test_setup_teardown(a_truncation_cuts_the_host_file_only_when_the_run_is_over, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_run_made_only_to_measure_does_not_write_again, setup, teardown),
		cmocka_unit_test_setup_teardown(past_the_tables_limit_files_keep_the_hosts_size, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
