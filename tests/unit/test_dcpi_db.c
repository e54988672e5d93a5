/*
 * test_dcpi_db.c — the profile database: a profile survives encoding; a
 * write replaces the file atomically (no temporary left, the old file
 * intact when the write fails); runs merge into the current epoch and a
 * new epoch starts empty; a corrupt, truncated or foreign file gets an
 * error naming it while the other profiles stay readable; culprit
 * profiles (kind 5, version 2) keep several culprit pcs per pc, merge per
 * (pc, culprit), and version 1 files are read except for that kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "dcpi/dcpi.h"
#include "dcpi/dcpi_db.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/ivx-test-dcpi-db.%ld", (long)getpid());
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	return setup(state);
}

static struct dcpi_profile *sample_profile(const char *image, int ev, uint64_t scale)
{
	struct dcpi_profile *p = dcpi_profile_new(DCPI_KIND_SAMPLES, ev, image, NULL);
	assert_non_null(p);
	for (uint64_t pc = 0x400000; pc < 0x400400; pc += 12)
		assert_int_equal(dcpi_profile_add(p, pc, scale * (1 + pc % 7), NULL), 0);
	assert_int_equal(dcpi_profile_add(p, 0x400000, scale, NULL), 0);   /* a duplicate merges */
	dcpi_profile_normalize(p);
	p->runs = 1;
	p->cycles = 1000000 * scale;
	p->enabled_cycles = 500000;
	p->period_events = 123456;
	return p;
}

static void a_profile_survives_encoding(void **state)
{
	(void)state;
	struct dcpi_profile *p = sample_profile("/bin/prog", DCPI_IMISS, 3);
	uint8_t *buf;
	size_t len;
	assert_int_equal(dcpi_profile_encode(p, &buf, &len, NULL), 0);
	assert_true(len < 16 * p->n);    /* compact: under 16 bytes per record */
	struct dcpi_profile *q;
	assert_int_equal(dcpi_profile_decode(buf, len, &q, NULL), 0);
	assert_string_equal(q->path, "/bin/prog");
	assert_int_equal(q->event, DCPI_IMISS);
	assert_int_equal(q->kind, DCPI_KIND_SAMPLES);
	assert_int_equal(q->n, p->n);
	assert_int_equal(q->total, p->total);
	assert_int_equal(q->period_events, 123456);
	assert_memory_equal(q->rec, p->rec, p->n * sizeof *p->rec);
	/* every single-byte change and every truncation is caught */
	for (size_t i = 0; i < len; i++) {
		struct ivx_err err = { 0 };
		struct dcpi_profile *r;
		buf[i] ^= 0x20;
		assert_true(dcpi_profile_decode(buf, len, &r, &err) < 0);
		assert_null(r);
		buf[i] ^= 0x20;
		assert_true(dcpi_profile_decode(buf, i, &r, &err) < 0);
	}
	free(buf);
	dcpi_profile_free(p);
	dcpi_profile_free(q);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

static int count_entries(const char *d)
{
	DIR *dd = opendir(d);
	assert_non_null(dd);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dd)))
		n += de->d_name[0] != '.' || (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."));
	closedir(dd);
	return n;
}

static void runs_merge_into_the_current_epoch(void **state)
{
	(void)state;
	char epoch[512], again[512], fresh[512];
	assert_int_equal(dcpi_db_epoch(dir, 0, 0, epoch, sizeof epoch, NULL), IVX_EINPUT);   /* no db yet */
	assert_int_equal(dcpi_db_epoch(dir, 1, 0, epoch, sizeof epoch, NULL), 0);
	struct dcpi_profile *a = sample_profile("/bin/prog", DCPI_CYCLES, 1);
	struct dcpi_profile *b = sample_profile("/bin/prog", DCPI_CYCLES, 2);
	assert_int_equal(dcpi_db_store(epoch, a, NULL), 0);
	assert_int_equal(dcpi_db_epoch(dir, 1, 0, again, sizeof again, NULL), 0);
	assert_string_equal(again, epoch);
	assert_int_equal(dcpi_db_store(again, b, NULL), 0);
	assert_int_equal(count_entries(epoch), 1);   /* one file, no temporary left */
	struct dcpi_profile **list;
	size_t n;
	assert_int_equal(dcpi_db_load(epoch, &list, &n, NULL, NULL, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(list[0]->runs, 2);
	assert_int_equal(list[0]->total, a->total + b->total);
	assert_int_equal(list[0]->cycles, a->cycles + b->cycles);
	dcpi_db_free_list(list, n);
	assert_int_equal(dcpi_db_epoch(dir, 1, 1, fresh, sizeof fresh, NULL), 0);
	assert_string_not_equal(fresh, epoch);
	assert_int_equal(dcpi_db_load(fresh, &list, &n, NULL, NULL, NULL), 0);
	assert_int_equal(n, 0);
	free(list);
	dcpi_profile_free(a);
	dcpi_profile_free(b);
}

/* An epoch's path joins the database's with one slash, however the user
 * wrote --db ("db/" gave "db//epoch-0001" in JSON and messages). */
static void epoch_paths_have_one_slash(void **state)
{
	(void)state;
	char p[64];
	dcpi_db_epoch_path(p, sizeof p, "db", 1);
	assert_string_equal(p, "db/epoch-0001");
	dcpi_db_epoch_path(p, sizeof p, "z/tdb/", 1);
	assert_string_equal(p, "z/tdb/epoch-0001");
	dcpi_db_epoch_path(p, sizeof p, "z/tdb///", 12);
	assert_string_equal(p, "z/tdb/epoch-0012");
	dcpi_db_epoch_path(p, sizeof p, "/", 2);
	assert_string_equal(p, "/epoch-0002");
	assert_true(dcpi_db_epoch_path(p, 8, "db", 1) >= 8);   /* cut: the length it needed */
}

/* Headers no run can write are corrupt: samples without elapsed periods
 * (a mean period of 0), more samples than cycles (a count near 2^64 would
 * overflow the readers' sums); bytes after the records are named so. */
static void implausible_headers_are_refused(void **state)
{
	(void)state;
	static const struct {
		uint64_t cycles, enabled, period_events, extra;
		const char *msg;
	} bad[] = {
		{ 1000000, 500000, 0, 0, "0 period events" },
		{ 1000000, 0, 123456, 0, "0 enabled cycles" },
		{ 100, 100, 123456, 0, "more than 100 cycles allow" },
		{ 1000000, 500000, 123456, UINT64_MAX / 2, "more than 1000000 cycles allow" },
		{ UINT64_MAX, UINT64_MAX, 123456, 0, "corrupt header" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		struct dcpi_profile *p = sample_profile("/bin/prog", DCPI_CYCLES, 1);
		p->cycles = bad[k].cycles;
		p->enabled_cycles = bad[k].enabled;
		p->period_events = bad[k].period_events;
		if (bad[k].extra)
			assert_int_equal(dcpi_profile_add(p, 0x500000, bad[k].extra, NULL), 0);
		uint8_t *buf;
		size_t len;
		assert_int_equal(dcpi_profile_encode(p, &buf, &len, NULL), 0);
		struct dcpi_profile *q = NULL;
		struct ivx_err err = { 0 };
		assert_int_equal(dcpi_profile_decode(buf, len, &q, &err), IVX_EINPUT);
		assert_null(q);
		assert_non_null(strstr(err.msg, bad[k].msg));
		free(buf);
		dcpi_profile_free(p);
	}
}

/* An epoch remembers each image's size and hash; recording it again
 * replaces the line, other images' lines stay. */
static void image_identities_are_recorded_per_path(void **state)
{
	(void)state;
	char epoch[512], img[600];
	assert_int_equal(dcpi_db_epoch(dir, 1, 0, epoch, sizeof epoch, NULL), 0);
	assert_int_equal(dcpi_db_epoch_empty(epoch, NULL), 1);
	snprintf(img, sizeof img, "%s/prog", dir);
	FILE *f = fopen(img, "w");
	assert_non_null(f);
	fputs("abc", f);
	fclose(f);
	struct dcpi_image_id id, got;
	assert_int_equal(dcpi_image_id(img, &id, NULL), 0);
	assert_int_equal(id.size, 3);
	assert_true(id.hash == 0xe71fa2190541574bull);   /* FNV-1a 64 of "abc" */
	int has_file;
	assert_int_equal(dcpi_db_image_lookup(epoch, img, &got, &has_file, NULL), 0);
	assert_int_equal(has_file, 0);
	assert_int_equal(dcpi_db_image_record(epoch, img, &id, NULL), 0);
	struct dcpi_image_id other = { 7, 42 };
	assert_int_equal(dcpi_db_image_record(epoch, "/bin/other", &other, NULL), 0);
	id.size = 4;
	assert_int_equal(dcpi_db_image_record(epoch, img, &id, NULL), 0);
	assert_int_equal(dcpi_db_image_lookup(epoch, img, &got, &has_file, NULL), 1);
	assert_int_equal(got.size, 4);
	assert_int_equal(dcpi_db_image_lookup(epoch, "/bin/other", &got, &has_file, NULL), 1);
	assert_int_equal(got.hash, 42);
	assert_int_equal(dcpi_db_image_lookup(epoch, "/bin/none", &got, &has_file, NULL), 0);
	assert_int_equal(has_file, 1);
	assert_int_equal(dcpi_db_epoch_empty(epoch, NULL), 1);   /* (not a profile) */
	unlink(img);
}

static void a_failed_write_leaves_the_old_file(void **state)
{
	(void)state;
	char epoch[512], file[700], name[128];
	assert_int_equal(dcpi_db_epoch(dir, 1, 0, epoch, sizeof epoch, NULL), 0);
	struct dcpi_profile *a = sample_profile("/bin/prog", DCPI_CYCLES, 1);
	assert_int_equal(dcpi_db_store(epoch, a, NULL), 0);
	assert_int_equal(dcpi_db_file_name(a, name, sizeof name), 0);
	snprintf(file, sizeof file, "%s/%s", epoch, name);
	struct stat before, after;
	assert_int_equal(stat(file, &before), 0);
	/* the temporary cannot be created in a read-only directory */
	if (geteuid() != 0) {
		chmod(epoch, 0555);
		struct ivx_err err = { 0 };
		assert_true(dcpi_db_store(epoch, a, &err) < 0);
		chmod(epoch, 0755);
		assert_int_equal(stat(file, &after), 0);
		assert_int_equal(after.st_size, before.st_size);
	}
	/* a write of a path whose directory is missing fails and names it */
	struct ivx_err err = { 0 };
	char missing[700];
	snprintf(missing, sizeof missing, "%s/nope/x.samples", dir);
	assert_true(dcpi_profile_write(missing, a, &err) < 0);
	assert_non_null(strstr(err.msg, "nope"));
	assert_int_equal(count_entries(epoch), 1);
	dcpi_profile_free(a);
}

struct errs {
	int n;
	char last[600];
};

static void on_error(void *ctx, const char *msg)
{
	struct errs *e = ctx;
	e->n++;
	snprintf(e->last, sizeof e->last, "%s", msg);
	assert_null(strchr(msg, '\n'));
}

static void bad_files_are_named_and_the_rest_stay_readable(void **state)
{
	(void)state;
	char epoch[512], file[700], name[128];
	assert_int_equal(dcpi_db_epoch(dir, 1, 0, epoch, sizeof epoch, NULL), 0);
	struct dcpi_profile *a = sample_profile("/bin/good", DCPI_CYCLES, 1);
	struct dcpi_profile *b = sample_profile("/bin/bad", DCPI_CYCLES, 1);
	assert_int_equal(dcpi_db_store(epoch, a, NULL), 0);
	assert_int_equal(dcpi_db_store(epoch, b, NULL), 0);
	assert_int_equal(dcpi_db_file_name(b, name, sizeof name), 0);
	snprintf(file, sizeof file, "%s/%s", epoch, name);
	uint8_t *buf;
	size_t len;
	assert_int_equal(dcpi_profile_encode(b, &buf, &len, NULL), 0);
	static const struct {
		const char *what, *says;
	} cases[] = { { "corrupt", "checksum" }, { "truncated", "truncated" }, { "foreign", "not an ivx profile" },
		      { "version", "version" } };
	for (int c = 0; c < 4; c++) {
		uint8_t *copy = malloc(len);
		memcpy(copy, buf, len);
		size_t n = len;
		if (c == 0)
			copy[len / 2] ^= 1;
		else if (c == 1)
			n = len - 5;
		else if (c == 2)
			memcpy(copy, "\177ELF\2\1\1\0", 8);
		else
			copy[8] = 9;
		write_file(file, copy, n);
		free(copy);
		struct errs e = { 0 };
		struct dcpi_profile **list;
		size_t got;
		assert_int_equal(dcpi_db_load(epoch, &list, &got, on_error, &e, NULL), 0);
		assert_int_equal(e.n, 1);
		assert_non_null(strstr(e.last, name));
		if (!strstr(e.last, cases[c].says))
			fail_msg("%s: '%s' does not say '%s'", cases[c].what, e.last, cases[c].says);
		assert_int_equal(got, 1);
		assert_string_equal(list[0]->path, "/bin/good");
		dcpi_db_free_list(list, got);
		/* a run does not overwrite a file it cannot read */
		struct ivx_err err = { 0 };
		assert_true(dcpi_db_store(epoch, b, &err) < 0);
		assert_non_null(strstr(err.msg, name));
	}
	free(buf);
	dcpi_profile_free(a);
	dcpi_profile_free(b);
}

static uint32_t crc32_test(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

/* Rewrite an encoded profile's version (and its checksum). */
static void set_version(uint8_t *buf, size_t len, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		buf[8 + i] = (uint8_t)(v >> (8 * i));
	uint32_t c = crc32_test(buf, len - 4);
	for (int i = 0; i < 4; i++)
		buf[len - 4 + i] = (uint8_t)(c >> (8 * i));
}

static void culprit_records_keep_their_pcs(void **state)
{
	(void)state;
	struct dcpi_profile *p = dcpi_profile_new(DCPI_KIND_CULPRIT, ISSUE_WAIT_DEP_L2D, "/bin/prog", NULL);
	assert_non_null(p);
	/* pc 0x400100 waited on two loads and on culprits not kept apart (0) */
	assert_int_equal(dcpi_profile_add_aux(p, 0x400200, 0x4001f0, 5, NULL), 0);
	assert_int_equal(dcpi_profile_add_aux(p, 0x400100, 0x4000fc, 7, NULL), 0);
	assert_int_equal(dcpi_profile_add_aux(p, 0x400100, 0x400080, 3, NULL), 0);
	assert_int_equal(dcpi_profile_add_aux(p, 0x400100, 0, 1, NULL), 0);
	assert_int_equal(dcpi_profile_add_aux(p, 0x400100, 0x4000fc, 2, NULL), 0);   /* merges */
	dcpi_profile_normalize(p);
	p->runs = 1;
	p->cycles = p->enabled_cycles = 1000;
	assert_int_equal(p->n, 4);
	static const struct dcpi_rec want[] = { { 0x400100, 1, 0 }, { 0x400100, 3, 0x400080 },
						{ 0x400100, 9, 0x4000fc }, { 0x400200, 5, 0x4001f0 } };
	assert_memory_equal(p->rec, want, sizeof want);
	char name[128];
	assert_int_equal(dcpi_db_file_name(p, name, sizeof name), 0);
	assert_non_null(strstr(name, ".culprit-dep-l2d.truth"));
	uint8_t *buf;
	size_t len;
	assert_int_equal(dcpi_profile_encode(p, &buf, &len, NULL), 0);
	struct dcpi_profile *q;
	assert_int_equal(dcpi_profile_decode(buf, len, &q, NULL), 0);
	assert_int_equal(q->kind, DCPI_KIND_CULPRIT);
	assert_int_equal(q->event, ISSUE_WAIT_DEP_L2D);
	assert_int_equal(q->n, 4);
	assert_memory_equal(q->rec, want, sizeof want);
	/* every single-byte change and truncation is caught here too */
	for (size_t i = 0; i < len; i++) {
		struct dcpi_profile *r;
		buf[i] ^= 0x20;
		assert_true(dcpi_profile_decode(buf, len, &r, NULL) < 0);
		buf[i] ^= 0x20;
		assert_true(dcpi_profile_decode(buf, i, &r, NULL) < 0);
	}
	/* another run merges per (pc, culprit) */
	assert_int_equal(dcpi_profile_merge(q, p, NULL), 0);
	assert_int_equal(q->n, 4);
	assert_int_equal(q->rec[2].count, 18);
	assert_int_equal(q->rec[2].aux, 0x4000fc);
	/* a culprit file cannot claim version 1, which had no such kind */
	struct ivx_err err = { 0 };
	struct dcpi_profile *r;
	set_version(buf, len, 1);
	assert_true(dcpi_profile_decode(buf, len, &r, &err) < 0);
	assert_non_null(strstr(err.msg, "culprit records in a version 1 file"));
	free(buf);
	/* ... but a version 1 samples file (the same layout) is read */
	struct dcpi_profile *s = sample_profile("/bin/old", DCPI_CYCLES, 1);
	assert_int_equal(dcpi_profile_encode(s, &buf, &len, NULL), 0);
	set_version(buf, len, 1);
	assert_int_equal(dcpi_profile_decode(buf, len, &r, NULL), 0);
	assert_int_equal(r->n, s->n);
	dcpi_profile_free(r);
	set_version(buf, len, 3);
	assert_true(dcpi_profile_decode(buf, len, &r, &err) < 0);
	assert_non_null(strstr(err.msg, "profile version 3, this ivx reads versions 1 to 2"));
	free(buf);
	dcpi_profile_free(s);
	dcpi_profile_free(p);
	dcpi_profile_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_profile_survives_encoding),
		cmocka_unit_test(culprit_records_keep_their_pcs),
		cmocka_unit_test_setup_teardown(runs_merge_into_the_current_epoch, setup, teardown),
		cmocka_unit_test(epoch_paths_have_one_slash),
		cmocka_unit_test(implausible_headers_are_refused),
		cmocka_unit_test_setup_teardown(image_identities_are_recorded_per_path, setup, teardown),
		cmocka_unit_test_setup_teardown(a_failed_write_leaves_the_old_file, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_files_are_named_and_the_rest_stay_readable, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
