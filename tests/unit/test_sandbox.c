/*
 * test_sandbox.c — the file sandbox: guest paths are cleaned lexically,
 * matched against grants on whole components, and resolved beneath the
 * granted directory so that neither "..", nor absolute paths, nor symlinks
 * (relative, absolute, looping) reach anything outside it; read-only grants
 * refuse writes with EROFS, and a grant nested in another rules its subtree
 * even through a symlink, for opens and for mkdir, unlink, rename, link,
 * utimens, chmod and chown; FIFOs are refused, not waited on; both resolvers (openat2 and the component walk)
 * are held to the same rules.
 */
#define _GNU_SOURCE
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

#include "guest/sandbox.h"

/* AArch64 open flags */
#define G_WRONLY 01
#define G_CREAT 0100
#define G_TRUNC 01000
#define G_DIRECTORY 040000

static char root[256];        /* temporary: root/in (granted), root/out (granted rw), root/secret */

static void put_file(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_dir(const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void link_at(const char *target, const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	snprintf(root, sizeof root, "/tmp/ivx-sandbox-XXXXXX");
	assert_non_null(mkdtemp(root));
	make_dir("in");
	make_dir("in/sub");
	make_dir("out");
	put_file("secret", "s\n");
	put_file("in/a.txt", "a\n");
	put_file("in/sub/b.txt", "b\n");
	link_at("a.txt", "in/link_in");
	link_at("../secret", "in/link_up");
	link_at("sub/../../secret", "in/link_up2");
	link_at("/etc/passwd", "in/link_abs");
	link_at("loop2", "in/loop1");
	link_at("loop1", "in/loop2");
	link_at("..", "in/sub/parent");     /* inside: sub/parent is "in" itself */
	link_at("../..", "in/sub/grandparent");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static struct sandbox *make(int walk)
{
	char in[512], out[512];
	snprintf(in, sizeof in, "%s/in", root);
	snprintf(out, sizeof out, "%s/out", root);
	struct sandbox_grant g[] = { { in, "/data", 0 }, { out, "/data/out", 1 } };
	struct ivx_err err = { 0 };
	struct sandbox *s = sandbox_new(g, 2, walk, &err);
	if (!s)
		fail_msg("%s", err.msg);
	return s;
}

static void clean(const char *in, const char *want)
{
	char out[SANDBOX_PATH_MAX];
	assert_int_equal(sandbox_clean_path(in, out, sizeof out), 0);
	assert_string_equal(out, want);
}

static void paths_are_cleaned_lexically_and_never_climb_above_root(void **s)
{
	clean("/", "/");
	clean("", "/");
	clean("a/b", "/a/b");
	clean("//a///b/./c/", "/a/b/c");
	clean("/a/b/../c", "/a/c");
	clean("/..", "/");
	clean("/../../..", "/");
	clean("../../etc/passwd", "/etc/passwd");
	clean("/a/../../b", "/b");
	clean("/a/..b/.c", "/a/..b/.c");
	char longp[SANDBOX_PATH_MAX + 10], out[SANDBOX_PATH_MAX];
	memset(longp, 'x', sizeof longp - 1);
	longp[sizeof longp - 1] = 0;
	assert_int_equal(sandbox_clean_path(longp, out, sizeof out), -ENAMETOOLONG);
}

static void parse(const char *spec, const char *host, const char *guest, int rw)
{
	char buf[256];
	struct sandbox_grant g;
	struct ivx_err err = { 0 };
	assert_int_equal(sandbox_parse_grant(spec, buf, sizeof buf, &g, &err), 0);
	assert_string_equal(g.host, host);
	if (guest)
		assert_string_equal(g.guest, guest);
	else
		assert_null(g.guest);
	assert_int_equal(g.rw, rw);
}

static void bad_grant(const char *spec)
{
	char buf[256];
	struct sandbox_grant g;
	struct ivx_err err = { 0 };
	assert_int_not_equal(sandbox_parse_grant(spec, buf, sizeof buf, &g, &err), 0);
	assert_non_null(strstr(err.msg, "--dir"));
}

static void grants_parse_as_host_guest_mode(void **s)
{
	parse("dir", "dir", NULL, 0);
	parse("dir:ro", "dir", NULL, 0);
	parse("dir:rw", "dir", NULL, 1);
	parse("dir:/g", "dir", "/g", 0);
	parse("dir:/g:rw", "dir", "/g", 1);
	bad_grant("");
	bad_grant(":/g");
	bad_grant("dir:g");
	bad_grant("dir:/g:x");
	bad_grant("dir:/g:rw:extra");
	bad_grant("dir:rw:/g");
}

/* Open p read-only; 0 if it opened, else the -errno. */
static int try_open(struct sandbox *sb, const char *p, int flags)
{
	int r = sandbox_open(sb, NULL, p, flags, 0644);
	return r >= 0 ? 0 : r;
}

static void escapes(int walk)
{
	struct sandbox *sb = make(walk);
	assert_int_equal(try_open(sb, "/data/a.txt", 0), 0);
	assert_int_equal(try_open(sb, "/data/sub/b.txt", 0), 0);
	assert_int_equal(try_open(sb, "/data/sub/../a.txt", 0), 0);
	/* outside every grant */
	assert_int_equal(try_open(sb, "/", G_DIRECTORY), -EACCES);      /* above a grant: exists, closed */
	assert_int_equal(try_open(sb, "/etc/passwd", 0), -ENOENT);
	assert_int_equal(try_open(sb, "/data/../secret", 0), -ENOENT);
	assert_int_equal(try_open(sb, "../../../secret", 0), -ENOENT);
	assert_int_equal(try_open(sb, "/datax/a.txt", 0), -ENOENT);    /* not a whole-component match */
	assert_int_equal(try_open(sb, "", 0), -ENOENT);
	/* symlinks: out of the grant is never reachable */
	int out_link = walk ? -ELOOP : -ENOENT;
	assert_int_equal(try_open(sb, "/data/link_up", 0), out_link);
	assert_int_equal(try_open(sb, "/data/link_up2", 0), out_link);
	assert_int_equal(try_open(sb, "/data/link_abs", 0), out_link);
	assert_int_equal(try_open(sb, "/data/sub/grandparent/secret", 0), out_link);
	assert_int_equal(try_open(sb, "/data/loop1", 0), -ELOOP);
	/* inside the grant, openat2 follows symlinks; the walk follows none */
	assert_int_equal(try_open(sb, "/data/link_in", 0), walk ? -ELOOP : 0);
	assert_int_equal(try_open(sb, "/data/sub/parent/a.txt", 0), walk ? -ELOOP : 0);
	/* O_PATH lookups for stat obey the same rules */
	int fd = sandbox_open_path(sb, NULL, "/data/link_abs", 1);
	assert_true(fd >= 0);                 /* the link itself (lstat) is inside */
	close(fd);
	assert_int_equal(sandbox_open_path(sb, NULL, "/data/link_abs", 0), out_link);
	/* very long paths */
	char longp[SANDBOX_PATH_MAX + 100];
	memset(longp, 'a', sizeof longp - 1);
	memcpy(longp, "/data/", 6);
	longp[sizeof longp - 1] = 0;
	assert_int_equal(try_open(sb, longp, 0), -ENAMETOOLONG);
	char many[SANDBOX_PATH_MAX - 100] = "/data";
	while (strlen(many) + 3 < sizeof many - 20)
		strcat(many, "/..");                  /* cleans to "/": a directory, outside */
	assert_int_equal(try_open(sb, many, 0), -EACCES);
	sandbox_unref(sb);
}

static void nothing_outside_a_grant_is_reachable_with_openat2(void **s) { escapes(0); }
static void nothing_outside_a_grant_is_reachable_with_the_walk(void **s) { escapes(1); }

static void writes_need_a_read_write_grant(void **s)
{
	for (int walk = 0; walk < 2; walk++) {
		struct sandbox *sb = make(walk);
		assert_int_equal(try_open(sb, "/data/a.txt", G_WRONLY), -EROFS);
		assert_int_equal(try_open(sb, "/data/new.txt", G_WRONLY | G_CREAT), -EROFS);
		assert_int_equal(try_open(sb, "/data/a.txt", G_TRUNC), -EROFS);
		assert_int_equal(try_open(sb, "/data/nodir/new.txt", G_WRONLY | G_CREAT), -ENOENT);
		/* the nested rw grant wins over the ro one around it */
		int i = sandbox_open(sb, NULL, "/data/out/w.txt", G_WRONLY | G_CREAT | G_TRUNC, 0644);
		assert_true(i >= 0);
		assert_int_equal(pwrite(sandbox_fd(sb, i), "xy", 2, 0), 2);
		char p[512], b[8] = { 0 };
		snprintf(p, sizeof p, "%s/out/w.txt", root);
		FILE *f = fopen(p, "r");
		assert_non_null(f);
		assert_int_equal(fread(b, 1, sizeof b, f), 2);
		fclose(f);
		assert_string_equal(b, "xy");
		unlink(p);
		/* nothing was created in the ro grant */
		snprintf(p, sizeof p, "%s/in/new.txt", root);
		assert_int_equal(access(p, F_OK), -1);
		sandbox_unref(sb);
	}
}

/* A sandbox over root/nest: the whole of it granted `outer_rw`, its
 * subdirectory "sub" granted the other way; nest/sublink -> sub. */
static struct sandbox *make_nested(int walk, int outer_rw)
{
	char outer[512], inner[512];
	snprintf(outer, sizeof outer, "%s/nest", root);
	snprintf(inner, sizeof inner, "%s/nest/sub", root);
	struct sandbox_grant g[] = { { outer, "/n", outer_rw }, { inner, "/n/sub", !outer_rw } };
	struct ivx_err err = { 0 };
	struct sandbox *s = sandbox_new(g, 2, walk, &err);
	if (!s)
		fail_msg("%s", err.msg);
	return s;
}

static void a_nested_grant_rules_its_subtree_however_the_path_reaches_it(void **s)
{
	char p[512];
	make_dir("nest");
	make_dir("nest/sub");
	put_file("nest/sub/prot", "p\n");
	link_at("sub", "nest/sublink");
	link_at("sub/prot", "nest/protlink");
	link_at("../nest/sub", "nest/uplink");     /* out and back in: out */
	for (int walk = 0; walk < 2; walk++) {
		/* read-only inside read-write: the symlinks do not get around it */
		struct sandbox *sb = make_nested(walk, 1);
		int via_link = walk ? -ELOOP : -EROFS;   /* the walk follows no symlink */
		assert_int_equal(try_open(sb, "/n/sub/prot", G_WRONLY), -EROFS);
		assert_int_equal(try_open(sb, "/n/sublink/prot", G_WRONLY), via_link);
		assert_int_equal(try_open(sb, "/n/sublink/prot", G_TRUNC), via_link);
		assert_int_equal(try_open(sb, "/n/sublink/new", G_WRONLY | G_CREAT), via_link);
		assert_int_equal(try_open(sb, "/n/protlink", G_WRONLY), via_link);
		assert_int_equal(try_open(sb, "/n/uplink/prot", G_WRONLY), walk ? -ELOOP : -ENOENT);
		assert_int_equal(try_open(sb, "/n/sublink/prot", 0), walk ? -ELOOP : 0);
		assert_int_equal(try_open(sb, "/n/top", G_WRONLY | G_CREAT), 0);
		sandbox_unref(sb);
		/* read-write inside read-only: writable through the link too */
		sb = make_nested(walk, 0);
		assert_int_equal(try_open(sb, "/n/sub/prot", G_WRONLY), 0);
		assert_int_equal(try_open(sb, "/n/sublink/prot", G_WRONLY), walk ? -ELOOP : 0);
		assert_int_equal(try_open(sb, "/n/protlink", G_WRONLY), walk ? -ELOOP : 0);
		assert_int_equal(try_open(sb, "/n/top2", G_WRONLY | G_CREAT), -EROFS);
		assert_int_equal(try_open(sb, "/n/sub/../top2", G_WRONLY | G_CREAT), -EROFS);
		sandbox_unref(sb);
	}
	snprintf(p, sizeof p, "%s/nest/sub/new", root);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof p, "%s/nest/top2", root);
	assert_int_equal(access(p, F_OK), -1);
	FILE *f = fopen(p, "r");
	assert_null(f);
	snprintf(p, sizeof p, "%s/nest/sub/prot", root);
	char b[8] = { 0 };
	f = fopen(p, "r");
	assert_non_null(f);
	assert_int_equal(fread(b, 1, sizeof b, f), 2);
	fclose(f);
	assert_string_equal(b, "p\n");
}

static void a_fifo_is_refused_without_waiting_for_a_writer(void **s)
{
	char p[512];
	snprintf(p, sizeof p, "%s/out/fifo", root);
	assert_int_equal(mkfifo(p, 0644), 0);
	for (int walk = 0; walk < 2; walk++) {
		struct sandbox *sb = make(walk);
		assert_int_equal(try_open(sb, "/data/out/fifo", 0), -ENXIO);
		assert_int_equal(try_open(sb, "/data/out/fifo", G_WRONLY), -ENXIO);
		assert_int_equal(try_open(sb, "/data/out/fifo", 2 /* O_RDWR */), -ENXIO);
		sandbox_unref(sb);
	}
	unlink(p);
}

static void directory_changes_obey_the_grant_they_land_in(void **s)
{
	for (int walk = 0; walk < 2; walk++) {
		struct sandbox *sb = make(walk);   /* /data read-only, /data/out rw inside it */
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/d", 0755), 0);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/d", 0755), -EEXIST);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/d", 0755), -EROFS);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/elsewhere/d", 0755), -ENOENT);
		/* "/" and the grants' own guest paths exist, as on Linux (mkdir -p) */
		assert_int_equal(sandbox_mkdir(sb, NULL, "/", 0755), -EEXIST);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data", 0755), -EEXIST);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out", 0755), -EEXIST);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/dat", 0755), -ENOENT);
		struct stat st;
		assert_int_equal(sandbox_stat_above(sb, NULL, "/", &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(sandbox_stat_above(sb, NULL, "/data", &st), -ENOENT);   /* a grant: the host's */
		assert_int_equal(sandbox_stat_above(sb, NULL, "/dat", &st), -ENOENT);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/d", NULL, "/data/out/e", 0), 0);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/e", NULL, "/data/e", 0), -EROFS);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/e", NULL, "/data/out/../../secret", 0), -ENOENT);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/e", NULL, "/elsewhere/e", 0), -ENOENT);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/a.txt", NULL, "/data/out/a.txt", 0), -EROFS);
		/* a granted directory is a mount point: not removed nor renamed */
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out", 1), -EBUSY);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/a.txt", 0), -EROFS);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/e", 1), 0);
		/* a link the guest makes may point out; nothing is reached through it */
		assert_int_equal(sandbox_symlink(sb, "../../secret", NULL, "/data/out/up"), 0);
		assert_int_equal(try_open(sb, "/data/out/up", 0), walk ? -ELOOP : -ENOENT);
		assert_int_equal(try_open(sb, "/data/out/up", G_WRONLY | G_TRUNC), walk ? -ELOOP : -ENOENT);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/up", 0), 0);
		/* O_EXCL creates nothing through a dangling link, as on Linux */
		assert_int_equal(sandbox_symlink(sb, "target", NULL, "/data/out/dangling"), 0);
		assert_int_equal(try_open(sb, "/data/out/dangling", G_WRONLY | G_CREAT | 0200 /* O_EXCL */), -EEXIST);
		char t[512];
		snprintf(t, sizeof t, "%s/out/target", root);
		assert_int_equal(access(t, F_OK), -1);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/dangling", 0), 0);
		/* a hard link between grants is EXDEV */
		assert_int_equal(sandbox_link(sb, NULL, "/data/a.txt", NULL, "/data/out/a2", 0), -EXDEV);
		struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
		assert_int_equal(sandbox_utimens(sb, NULL, "/data/a.txt", ts, 1), -EROFS);
		assert_int_equal(sandbox_utimens(sb, NULL, "/data/nothing", ts, 1), -ENOENT);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/t", 0755), 0);
		assert_int_equal(sandbox_utimens(sb, NULL, "/data/out/t", ts, 1), 0);   /* a plain directory */
		assert_int_equal(sandbox_utimens(sb, NULL, "/data/out", ts, 1), 0);     /* the rw grant itself */
		assert_int_equal(sandbox_chmod(sb, NULL, "/data/out/t", 0700), 0);
		assert_int_equal(sandbox_chmod(sb, NULL, "/data/sub", 0700), -EROFS);
		assert_int_equal(sandbox_chown(sb, NULL, "/data/out/t", getuid() + 1, UINT32_MAX, 1), -EPERM);
		assert_int_equal(sandbox_chown(sb, NULL, "/data/out/t", getuid(), UINT32_MAX, 1), 0);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/t", 1), 0);
		sandbox_unref(sb);
	}
	char p[512];
	snprintf(p, sizeof p, "%s/secret", root);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof p, "%s/in/e", root);
	assert_int_equal(access(p, F_OK), -1);
}

/* The mode of a file or directory the sandbox creates on the host (host
 * path rel under root). */
static unsigned host_mode(const char *rel)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", root, rel);
	assert_int_equal(lstat(p, &st), 0);
	return st.st_mode & 07777;
}

static void nothing_created_is_set_id_or_sticky(void **s)
{
	for (int walk = 0; walk < 2; walk++) {
		struct sandbox *sb = make(walk);
		assert_true(sandbox_open(sb, NULL, "/data/out/suid", G_WRONLY | G_CREAT, 06755) >= 0);
		assert_int_equal(host_mode("out/suid") & 07000, 0);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/sticky", 07777), 0);
		assert_int_equal(host_mode("out/sticky") & 07000, 0);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/suid", 0), 0);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/sticky", 1), 0);
		sandbox_unref(sb);
	}
}

/* With root/anc granted rw and root/anc/p/inner read-only, moving p (or
 * anything holding inner) would let the guest refill the host path of the
 * read-only grant with its own files: every directory that holds a grant
 * is as immovable as the grant itself. */
static void a_directory_holding_a_grant_cannot_be_moved_or_removed(void **s)
{
	char p[512], cmd[1600];
	snprintf(p, sizeof p, "%s/anc/p/inner", root);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/anc/other' '%s/anc/loose'", p, root, root);
	assert_int_equal(system(cmd), 0);
	put_file("anc/p/inner/i", "i\n");
	for (int walk = 0; walk < 2; walk++) {
		char outer[512];
		snprintf(outer, sizeof outer, "%s/anc", root);
		struct sandbox_grant g[] = { { outer, "/a", 1 }, { p, "/a/p/inner", 0 } };
		struct ivx_err err = { 0 };
		struct sandbox *sb = sandbox_new(g, 2, walk, &err);
		assert_non_null(sb);
		assert_int_equal(sandbox_rename(sb, NULL, "/a/p", NULL, "/a/q", 0), -EBUSY);
		assert_int_equal(sandbox_rename(sb, NULL, "/a/other", NULL, "/a/p", 2 /* RENAME_EXCHANGE */), -EBUSY);
		assert_int_equal(sandbox_rename(sb, NULL, "/a/p", NULL, "/a/other", 2), -EBUSY);
		assert_int_equal(sandbox_unlink(sb, NULL, "/a/p", 1), -EBUSY);
		assert_int_equal(sandbox_rename(sb, NULL, "/a/p/inner", NULL, "/a/q", 0), -EBUSY);
		/* a directory holding none moves as usual */
		assert_int_equal(sandbox_rename(sb, NULL, "/a/loose", NULL, "/a/loose2", 0), 0);
		assert_int_equal(sandbox_rename(sb, NULL, "/a/loose2", NULL, "/a/loose", 0), 0);
		sandbox_unref(sb);
	}
	snprintf(p, sizeof p, "%s/anc/p/inner/i", root);
	assert_int_equal(access(p, F_OK), 0);
}

/* Cleaning drops a trailing "/", but Linux reads it as "a directory":
 * a call naming a file "f/" must not act on the file. */
static void a_trailing_slash_asks_for_a_directory(void **s)
{
	put_file("out/f", "f\n");
	char p[512];
	snprintf(p, sizeof p, "%s/out/dd", root);
	assert_int_equal(mkdir(p, 0755), 0);
	link_at("dd", "out/ld");
	for (int walk = 0; walk < 2; walk++) {
		struct sandbox *sb = make(walk);
		struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/f/", 0), -ENOTDIR);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/dd/", 0), -EISDIR);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/ld/", 0), -ENOTDIR);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/f/", NULL, "/data/out/z", 0), -ENOTDIR);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/f", NULL, "/data/out/nodir/", 0), -ENOTDIR);
		assert_int_equal(sandbox_chmod(sb, NULL, "/data/out/f/", 0600), -ENOTDIR);
		assert_int_equal(sandbox_utimens(sb, NULL, "/data/out/f/", ts, 0), -ENOTDIR);
		assert_int_equal(sandbox_chown(sb, NULL, "/data/out/f/", getuid(), UINT32_MAX, 0), -ENOTDIR);
		assert_int_equal(sandbox_symlink(sb, "t", NULL, "/data/out/new/"), -ENOENT);
		assert_int_equal(sandbox_link(sb, NULL, "/data/out/f", NULL, "/data/out/new/", 0), -ENOENT);
		assert_int_equal(sandbox_link(sb, NULL, "/data/out/f/", NULL, "/data/out/new", 0), -ENOTDIR);
		assert_int_equal(try_open(sb, "/data/out/f/", 0), -ENOTDIR);
		assert_int_equal(try_open(sb, "/data/out/f/.", 0), -ENOTDIR);
		assert_int_equal(try_open(sb, "/data/out/f/", G_WRONLY), -ENOTDIR);      /* truncate("f/") */
		assert_int_equal(try_open(sb, "/data/out/new/", G_WRONLY | G_CREAT), -EISDIR);
		assert_int_equal(try_open(sb, "/data/out/dd/", 0), 0);
		assert_int_equal(sandbox_open_path(sb, NULL, "/data/out/f/", 1), -ENOTDIR);
		/* "." and ".." name no entry: nothing is removed, renamed or made */
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/dd/.", 1), -EINVAL);
		assert_int_equal(sandbox_unlink(sb, NULL, "/data/out/dd/..", 1), -ENOTEMPTY);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/dd/.", NULL, "/data/out/z", 0), -EBUSY);
		assert_int_equal(sandbox_rename(sb, NULL, "/data/out/f", NULL, "/data/out/dd/.", 0), -EBUSY);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/new/.", 0755), -ENOENT);
		assert_int_equal(sandbox_mkdir(sb, NULL, "/data/out/dd/.", 0755), -EEXIST);
		if (!walk) {
			/* lstat("ld/") is the directory's, not the link's */
			int fd = sandbox_open_path(sb, NULL, "/data/out/ld/", 1);
			struct stat st;
			assert_true(fd >= 0);
			assert_int_equal(fstat(fd, &st), 0);
			assert_true(S_ISDIR(st.st_mode));
			close(fd);
			assert_int_equal(sandbox_chmod(sb, NULL, "/data/out/ld/", 0700), 0);
		}
		sandbox_unref(sb);
	}
	assert_int_equal(host_mode("out/f"), 0644);
	snprintf(p, sizeof p, "%s/out/nodir", root);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof p, "%s/out/new", root);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof p, "%s/out/dd", root);
	assert_int_equal(access(p, F_OK), 0);
	char cmd[1600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/out/f' '%s/out/dd' '%s/out/ld'", root, root, root);
	assert_int_equal(system(cmd), 0);
}

static void the_same_file_opened_twice_shares_one_host_descriptor(void **s)
{
	struct sandbox *sb = make(0);
	int a = sandbox_open(sb, NULL, "/data/a.txt", 0, 0);
	int b = sandbox_open(sb, "/data/sub", "../a.txt", 0, 0);
	int c = sandbox_open(sb, NULL, "/data/sub/b.txt", 0, 0);
	assert_true(a >= 0);
	assert_int_equal(a, b);
	assert_int_not_equal(a, c);
	int d = sandbox_open(sb, NULL, "/data/sub", G_DIRECTORY, 0);
	assert_string_equal(sandbox_dir_path(sb, d), "/data/sub");
	assert_null(sandbox_dir_path(sb, a));
	sandbox_unref(sb);
}

static void host_paths_map_to_guest_paths(void **s)
{
	struct sandbox *sb = make(0);
	char host[600], out[SANDBOX_PATH_MAX], *real = realpath(root, NULL);
	snprintf(host, sizeof host, "%s/in/sub/b.txt", real);
	assert_int_equal(sandbox_guest_path(sb, host, out, sizeof out), 0);
	assert_string_equal(out, "/data/sub/b.txt");
	snprintf(host, sizeof host, "%s/out", real);
	assert_int_equal(sandbox_guest_path(sb, host, out, sizeof out), 0);
	assert_string_equal(out, "/data/out");
	snprintf(host, sizeof host, "%s/secret", real);
	assert_int_equal(sandbox_guest_path(sb, host, out, sizeof out), -1);
	free(real);
	sandbox_unref(sb);
}

static void a_missing_host_directory_is_a_clear_error(void **s)
{
	struct sandbox_grant g = { "/nonexistent/ivx", NULL, 0 };
	struct ivx_err err = { 0 };
	assert_null(sandbox_new(&g, 1, 0, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/ivx"));
	sandbox_unref(NULL);
}

static void two_grants_at_one_guest_path_are_refused(void **s)
{
	struct sandbox_grant g[2] = { { "/tmp", "/data", 0 }, { "/", "/data/", 1 } };
	struct ivx_err err = { 0 };
	assert_null(sandbox_new(g, 2, 0, &err));
	assert_int_equal(err.code, IVX_EUSAGE);
	assert_non_null(strstr(err.msg, "both at guest path /data"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paths_are_cleaned_lexically_and_never_climb_above_root),
		cmocka_unit_test(grants_parse_as_host_guest_mode),
		cmocka_unit_test(nothing_outside_a_grant_is_reachable_with_openat2),
		cmocka_unit_test(nothing_outside_a_grant_is_reachable_with_the_walk),
		cmocka_unit_test(writes_need_a_read_write_grant),
		cmocka_unit_test(a_nested_grant_rules_its_subtree_however_the_path_reaches_it),
		cmocka_unit_test(a_fifo_is_refused_without_waiting_for_a_writer),
		cmocka_unit_test(directory_changes_obey_the_grant_they_land_in),
		cmocka_unit_test(nothing_created_is_set_id_or_sticky),
		cmocka_unit_test(a_directory_holding_a_grant_cannot_be_moved_or_removed),
		cmocka_unit_test(a_trailing_slash_asks_for_a_directory),
		cmocka_unit_test(the_same_file_opened_twice_shares_one_host_descriptor),
		cmocka_unit_test(host_paths_map_to_guest_paths),
		cmocka_unit_test(a_missing_host_directory_is_a_clear_error),
		cmocka_unit_test(two_grants_at_one_guest_path_are_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
