/*
 * cmd_profile.c — `ivx profile`: run a program on the timing model with
 * the DCPI sampler attached (engine/dcpi), then let the daemon write the
 * samples and the simulator's truth into the profile database.
 *
 * One samples file per sampled event and one truth file per event go to
 * the current epoch of --db (default ivx.db), merged with what an earlier
 * run left there. The image is the program's absolute path, so dcpiprof
 * can read its symbols from anywhere; pcs outside it (none for the static
 * programs ivx runs) would go to the image "[unknown]".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "core/config.h"
#include "core/core.h"
#include "dcpi/dcpi.h"
#include "dcpi/dcpi_db.h"
#include "dcpi_opts.h"
#include "dcpicalc_truth.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "isa/mem.h"
#include "outfile.h"
#include "progress.h"
#include "runopts.h"

struct profile_flags {
	struct dcpi_config cfg;
	const char *db;
	int new_epoch;
	const char *json_path;
	int bench;
};

static int profile_extra(void *ctx, int argc, char **argv, int i)
{
	struct profile_flags *f = ctx;
	struct ivx_err err = { 0 };
	int used = dcpi_opts_parse(&f->cfg, argc, argv, i, &err);
	if (used) {
		if (used < 0)
			cli_error("%s", err.msg);
		return used;
	}
	if (!strcmp(argv[i], "--new-epoch"))
		return f->new_epoch = 1;
	if (!strcmp(argv[i], "--bench"))
		return f->bench = 1;
	const char **path = !strcmp(argv[i], "--db") ? &f->db : !strcmp(argv[i], "--json") ? &f->json_path : NULL;
	if (!path)
		return 0;
	if (i + 1 >= argc) {
		cli_error("option %s needs a value", argv[i]);
		return -1;
	}
	if (path == &f->db && !strcmp(argv[i + 1], "-")) {   /* (- is standard output for --json) */
		cli_error("--db -: a profile database is a directory: name one");
		return -1;
	}
	*path = argv[i + 1];
	return 2;
}


/* Profiles [image][kind][event]: image 0 is the program, 1 "[unknown]". */
struct run_profiles {
	struct dcpi_profile *p[2][2][DCPI_EVENT_COUNT];
};

static struct dcpi_profile *slot(struct run_profiles *rp, int img, int kind, int ev, const char *image,
				 struct ivx_err *err)
{
	struct dcpi_profile **pp = &rp->p[img][kind == DCPI_KIND_TRUTH][ev];
	if (!*pp)
		*pp = dcpi_profile_new(kind, ev, img ? "[unknown]" : image, err);
	return *pp;
}

static int collect(struct dcpi *d, struct core *c, const struct program *prog, const char *image,
		   struct run_profiles *rp, struct ivx_err *err)
{
	const struct dcpi_config *cfg = dcpi_config(d);
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	/* every profile of the run exists, even when empty: the header carries
	 * the run's cycles, so merged runs keep their weights */
	for (int ev = 0; ev < DCPI_EVENT_COUNT; ev++) {
		if ((cfg->events >> ev & 1) && !slot(rp, 0, DCPI_KIND_SAMPLES, ev, image, err))
			return IVX_ESYS;
		if (cfg->truth_capacity && !slot(rp, 0, DCPI_KIND_TRUTH, ev, image, err))
			return IVX_ESYS;
	}
	for (size_t i = 0; i < dcpi_profile_size(d); i++) {
		uint64_t pc, n;
		int ev;
		if (dcpi_profile_at(d, i, &pc, &ev, &n) < 0)
			continue;
		struct dcpi_profile *p = slot(rp, !program_is_code(prog, pc), DCPI_KIND_SAMPLES, ev, image, err);
		if (!p || dcpi_profile_add(p, pc, n, err) < 0)
			return IVX_ESYS;
	}
	for (size_t i = 0; i < dcpi_truth_size(d); i++) {
		struct dcpi_truth t;
		if (dcpi_truth_at(d, i, &t) < 0)
			continue;
		for (int ev = DCPI_IMISS; ev < DCPI_RETIRED; ev++) {
			uint64_t n = dcpi_truth_count(d, &t, ev);
			struct dcpi_profile *p = n ? slot(rp, !program_is_code(prog, t.pc), DCPI_KIND_TRUTH, ev, image, err) : NULL;
			if (n && (!p || dcpi_profile_add(p, t.pc, n, err) < 0))
				return IVX_ESYS;
		}
	}
	/* cycles at the head and retired: the core's per-pc counters, over
	 * the decoded code */
	for (int i = 0; cfg->truth_capacity && i < program_segment_count(prog); i++) {
		const struct program_segment *s = program_segment(prog, i);
		if (!(s->prot & MEM_X))
			continue;
		for (uint64_t pc = s->vaddr & ~3ull; pc < s->vaddr + s->filesz; pc += 4) {
			uint64_t n = dcpi_truth_cycles_at(d, pc);
			if (n && dcpi_profile_add(rp->p[0][1][DCPI_CYCLES], pc, n, err) < 0)
				return IVX_ESYS;
			n = core_commits_at(c, pc);
			if (n && dcpi_profile_add(rp->p[0][1][DCPI_RETIRED], pc, n, err) < 0)
				return IVX_ESYS;
		}
	}
	for (int img = 0; img < 2; img++)
		for (int k = 0; k < 2; k++)
			for (int ev = 0; ev < DCPI_EVENT_COUNT; ev++) {
				struct dcpi_profile *p = rp->p[img][k][ev];
				if (!p)
					continue;
				dcpi_profile_normalize(p);
				p->runs = 1;
				p->cycles = st.cycles;
				p->enabled_cycles = k ? st.cycles : st.enabled_cycles[ev];
				p->period_events = k ? 0 : st.period_events[ev];
			}
	return IVX_OK;
}

static void print_stats(FILE *out, const struct dcpi *d, const char *epoch)
{
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	const struct dcpi_config *cfg = dcpi_config(d);
	double secs = (double)st.cycles / (cfg->clock_mhz * 1e6);
	fprintf(out, "ivx: dcpi: %llu samples (", (unsigned long long)st.samples_total);
	int first = 1;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++)
		if (cfg->events >> e & 1) {
			fprintf(out, "%s%s %llu", first ? "" : ", ", dcpi_event_name(e),
				(unsigned long long)st.samples[e]);
			first = 0;
		}
	fprintf(out, "), %.0f per simulated second at %u MHz\n", secs > 0 ? st.samples_total / secs : 0.0,
		cfg->clock_mhz);
	fprintf(out, "ivx: dcpi: hash table hit rate %.1f%%, %llu evictions, %llu buffer drains, %llu lost\n",
		st.samples_total ? 100.0 * st.hits / st.samples_total : 0.0, (unsigned long long)st.evictions,
		(unsigned long long)st.drains, (unsigned long long)st.lost);
	fprintf(out, "ivx: dcpi: overhead %.2f%% (handler %llu, daemon %llu cycles%s)\n", dcpi_overhead_pct(d),
		(unsigned long long)st.handler_cycles, (unsigned long long)st.daemon_cycles,
		cfg->charge ? ", charged to the program" : ", not charged");
	if (st.daemon_lost || st.truth_lost)
		fprintf(out, "ivx: dcpi: no room for %llu samples in the daemon, %llu truth counts\n",
			(unsigned long long)st.daemon_lost, (unsigned long long)st.truth_lost);
	if (epoch)
		fprintf(out, "ivx: dcpi: profiles in %s\n", epoch);
}

static int write_json(const char *path, const struct program *prog, const struct dcpi *d, const char *epoch,
		      const struct run_options *ro, int exited, int exit_code, uint64_t committed)
{
	struct outfile *o = outfile_open_cli(path);
	if (!o)
		return -1;
	FILE *f = outfile_stream(o);
	struct dcpi_stats st;
	dcpi_get_stats(d, &st);
	const struct dcpi_config *cfg = dcpi_config(d);
	fprintf(f, "{\"program\":");
	outfile_json_string(f, program_name(prog));
	fprintf(f, ",\"epoch\":");
	outfile_json_string(f, epoch);
	fputc(',', f);
	run_options_json_end(f, ro, exited, exit_code, committed);
	fprintf(f, ",\"cycles\":%llu,\"skid\":%u,\"seed\":%llu,\"counters\":%d,\"events\":{",
		(unsigned long long)st.cycles, cfg->skid, (unsigned long long)cfg->seed, cfg->counters);
	int first = 1;
	for (int e = 0; e < DCPI_EVENT_COUNT; e++) {
		if (!(cfg->events >> e & 1))
			continue;
		fprintf(f, "%s\"%s\":{\"period\":%llu,\"delta\":%llu,\"samples\":%llu,\"overflows\":%llu,"
			"\"enabled_cycles\":%llu,\"period_events\":%llu,\"events\":%llu}",
			first ? "" : ",", dcpi_event_name(e), (unsigned long long)cfg->period[e],
			(unsigned long long)cfg->delta[e], (unsigned long long)st.samples[e],
			(unsigned long long)st.overflows[e], (unsigned long long)st.enabled_cycles[e],
			(unsigned long long)st.period_events[e], (unsigned long long)st.events[e]);
		first = 0;
	}
	fprintf(f, "},\"samples\":%llu,\"hits\":%llu,\"misses\":%llu,\"evictions\":%llu,\"drains\":%llu,"
		"\"lost\":%llu,\"handler_cycles\":%llu,\"daemon_cycles\":%llu,\"overhead_pct\":%.4f,\"charged\":%s}\n",
		(unsigned long long)st.samples_total, (unsigned long long)st.hits, (unsigned long long)st.misses,
		(unsigned long long)st.evictions, (unsigned long long)st.drains, (unsigned long long)st.lost,
		(unsigned long long)st.handler_cycles, (unsigned long long)st.daemon_cycles, dcpi_overhead_pct(d),
		cfg->charge ? "true" : "false");
	return outfile_commit_cli(o);
}

/* Without RETIRED, the sampler polls: the core runs to each
 * of its stops instead of publishing every cycle to it (docs/dcpi.md). */
static int run_sampled(struct core *c, struct dcpi *d, const struct run_options *o, struct progress *pr,
		       struct ivx_err *err)
{
	if (!d || !dcpi_config(d)->poll)
		return progress_core_run(pr, c, o->max_cycles, o->max_insns, err);
	int rc = IVX_OK;
	while (rc == IVX_OK && !core_done(c)) {
		uint64_t stop = dcpi_poll_target(d);
		if (o->max_cycles && stop > o->max_cycles)
			stop = o->max_cycles;
		/* (not progress_core_run: the sampler's stop requests end this
		 * run, and the counters overflow often enough to redraw here) */
		rc = core_run(c, stop == UINT64_MAX ? 0 : stop, o->max_insns, err);
		dcpi_poll(d);
		progress_core_update(pr, c);
		if ((o->max_cycles && core_cycles(c) >= o->max_cycles) ||
		    (o->max_insns && core_committed(c) >= o->max_insns))
			break;
	}
	return rc;
}

/* --bench: the same run without the sampler, with it but no truth, and
 * with both (the sampler's truth and the wait truth, as `ivx profile`
 * runs them), alternately, five times each; the least CPU time of each
 * (noise on a shared machine only adds time). Nothing is written to the
 * database. Under callgrind, once each, one dump per run (cli.h). */
static int profile_bench(const struct run_options *o, struct profile_flags *f, const struct machine_config *mc,
			 const struct program *prog)
{
	enum { MODES = 3 };
	static const char *const mode_name[MODES] = { "timing model", "sampling without truth", "with truth" };
	double best[MODES] = { 0 };
	uint64_t cycles = 0, samples = 0;
	int reps = cli_bench_reps(5);
	for (int rep = 0; rep < reps; rep++)
		for (int mode = 0; mode < MODES; mode++) {
			struct ivx_err err = { 0 };
			struct dcpi_config cfg = f->cfg;
			if (mode == 1 && !(cfg.events >> DCPI_RETIRED & 1)) {
				cfg.truth_capacity = 0;
				cfg.poll = 1;
			}
			struct guest *g = run_options_make_guest(prog, o);
			if (!g)
				return EXIT_INPUT;
			struct core *c = core_new(mc, g, &err);
			struct dcpi *d = c && mode ? dcpi_new(&cfg, c, &err) : NULL;
			struct dcpi_wait *w = d && cfg.truth_capacity ? dcpi_wait_new(c, cfg.truth_capacity, DCPI_WAIT_TAKEN, &err) : NULL;
			int rc = !c || (mode && !d) || (d && cfg.truth_capacity && !w) ? -1 : 0;
			struct progress off;   /* (none while timing) */
			progress_start(&off, 1, 0, 0);
			double t0 = cli_bench_start();
			if (rc == 0)
				rc = run_sampled(c, d, o, &off, &err);
			double t = cli_bench_stop(t0, mode_name[mode]);
			if (rc == 0) {
				cycles = core_cycles(c);
				if (d) {
					struct dcpi_stats st;
					dcpi_get_stats(d, &st);
					samples = st.samples_total;
				}
			}
			dcpi_wait_free(w);
			dcpi_free(d);
			core_free(c);
			guest_free(g);
			if (rc < 0) {
				cli_error("%s", err.msg);
				return EXIT_GUEST;
			}
			if (!rep || t < best[mode])
				best[mode] = t;
		}
	int timed = best[0] > 0 && best[1] > 0 && best[2] > 0;
	double rate[MODES];
	for (int m = 0; m < MODES; m++)
		rate[m] = timed ? (double)cycles / best[m] / 1e6 : 0.0;
	fprintf(stderr, "ivx: bench %s: %llu cycles, %llu samples; timing model %.3f s (%.2f M cycles/s), "
		"sampling without truth %.3f s (%.2f M cycles/s, speed %+.1f%%), "
		"with truth %.3f s (%.2f M cycles/s, speed %+.1f%%)\n", program_name(prog),
		(unsigned long long)cycles, (unsigned long long)samples, best[0], rate[0], best[1], rate[1],
		timed ? 100.0 * (best[0] / best[1] - 1.0) : 0.0, best[2], rate[2],
		timed ? 100.0 * (best[0] / best[2] - 1.0) : 0.0);
	return 0;
}

/* 0 if epoch holds no runs of another build of image (its identity is
 * *id); -1 after an error line: the samples of two builds at one path
 * would be matched to one build's code. */
static int image_check(const char *epoch, const char *image, const struct dcpi_image_id *id)
{
	struct dcpi_image_id old;
	struct ivx_err err = { 0 };
	int has_file;
	int found = dcpi_db_image_lookup(epoch, image, &old, &has_file, &err);
	if (found < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	if (found && (old.size != id->size || old.hash != id->hash)) {
		cli_error("%s holds runs of another build of %s (%llu bytes there, %llu here, or other contents): "
			  "profile into a new epoch with --new-epoch", epoch, image, (unsigned long long)old.size,
			  (unsigned long long)id->size);
		return -1;
	}
	return 0;
}

/* After the run's profiles are stored: the machine and the image's
 * identity, for the next run and the readers to hold to. fresh: the
 * epoch held nothing before this run (an older epoch lacking either file
 * is left without: what its runs ran on is unknown). 0, or -1 after an
 * error line. */
static int store_identity(const char *epoch, const struct machine_config *mc, const char *image,
			  const struct dcpi_image_id *id, int fresh)
{
	if (dcpicalc_machine_store(epoch, mc, fresh) < 0)
		return -1;
	struct dcpi_image_id old;
	struct ivx_err err = { 0 };
	int has_file;
	if (!id || dcpi_db_image_lookup(epoch, image, &old, &has_file, &err) != 0 || (!fresh && !has_file))
		return 0;   /* (recorded already, or unreadable: image_check said so) */
	if (dcpi_db_image_record(epoch, image, id, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

/* Add the run to the database, as one step: under a lock on DB/.lock, so
 * that runs storing at once each read what the other wrote, and with
 * SIGINT, SIGTERM and SIGHUP held until every file is written, so that an
 * interrupted run is in all of the epoch's files or in none. The epoch
 * (made here, for --new-epoch or a new database) goes to epoch. 0; -1
 * after an error line; -2 if the epoch holds another machine's runs. */
static int store_run(const struct profile_flags *f, struct run_profiles *rp, const struct dcpi_wait *w,
		     const struct program *prog, const char *image, const struct dcpi_image_id *id, uint64_t cycles,
		     const struct machine_config *mc, char *epoch, size_t epoch_len)
{
	sigset_t hold, old;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	char lock_path[4200];
	snprintf(lock_path, sizeof lock_path, "%s/.lock", f->db);
	int made = mkdir(f->db, 0755) == 0 || errno == EEXIST;   /* (new: see profile_run) */
	int lock = made ? open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1;
	int rc = 0;
	struct ivx_err err = { 0 };
	if (!made) {
		cli_error("%s: %s", f->db, strerror(errno));
		rc = -1;
	} else if (lock < 0 || flock(lock, LOCK_EX) < 0) {
		cli_error("%s: cannot lock the database: %s", lock_path, strerror(errno));
		rc = -1;
	} else if (dcpi_db_epoch(f->db, 1, f->new_epoch, epoch, epoch_len, &err) < 0) {
		cli_error("%s", err.msg);
		rc = -1;
	} else if (dcpicalc_machine_check(epoch, mc) < 0 || (id && image_check(epoch, image, id) < 0)) {
		rc = -2;   /* (checked again: another run may have stored since the start) */
	}
	int fresh = rc == 0 ? dcpi_db_epoch_empty(epoch, &err) : 0;
	if (fresh < 0) {
		cli_error("%s", err.msg);
		rc = -1;
	}
	for (int img = 0; img < 2 && rc == 0; img++)
		for (int k = 0; k < 2 && rc == 0; k++)
			for (int ev = 0; ev < DCPI_EVENT_COUNT && rc == 0; ev++)
				if (rp->p[img][k][ev] && dcpi_db_store(epoch, rp->p[img][k][ev], &err) < 0) {
					cli_error("%s", err.msg);
					rc = -1;
				}
	if (rc == 0 && w && dcpicalc_truth_store(epoch, w, prog, image, cycles) < 0)
		rc = -1;
	if (rc == 0 && store_identity(epoch, mc, image, id, fresh) < 0)
		rc = -1;
	if (lock >= 0)
		close(lock);   /* (releases the lock) */
	sigprocmask(SIG_SETMASK, &old, NULL);   /* a signal held meanwhile is delivered now */
	return rc;
}

static int profile_run(const struct run_options *o, struct profile_flags *f)
{
	struct machine_config mc;
	if (run_options_config(o, &mc) < 0)
		return EXIT_USAGE;
	struct ivx_err err = { 0 };
	f->cfg.seed = o->seed;
	/* Poll unless RETIRED is sampled or the handler is charged: a polled
	 * handler starts a cycle later (core_run has finished the delivery
	 * cycle), which would move every later sample of a charged run, and
	 * --no-truth must not change the run it records (nor differ from the
	 * explorer's, which never polls). */
	f->cfg.poll = !(f->cfg.events >> DCPI_RETIRED & 1) && !f->cfg.charge;
	if (dcpi_config_validate(&f->cfg, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_USAGE;
	}
	if (f->bench) {
		struct program *bp = cli_load_program(o->prog_path);
		int st = bp ? profile_bench(o, f, &mc, bp) : EXIT_INPUT;
		program_free(bp);
		return st;
	}
	char image[PATH_MAX];
	if (!o->prog_path)
		snprintf(image, sizeof image, "[builtin]");
	else if (!realpath(o->prog_path, image))
		snprintf(image, sizeof image, "%s", o->prog_path);
	/* the database is checked now, before a long run; it and the epoch
	 * are made only when there is a run to store in them (store_run), so
	 * that a failed run leaves the database as it was. A new one is
	 * made and removed here to find out that it can be. */
	char epoch[4200];
	int new_db = mkdir(f->db, 0755) == 0;
	if (!new_db && errno != EEXIST) {
		cli_error("%s: %s", f->db, strerror(errno));
		return EXIT_INPUT;
	}
	struct stat dst;
	if (stat(f->db, &dst) == 0 && !S_ISDIR(dst.st_mode)) {   /* (access() would say "Permission denied") */
		cli_error("%s: not a directory (--db names the profile database's directory)", f->db);
		return EXIT_INPUT;
	}
	if (access(f->db, R_OK | W_OK | X_OK) < 0) {
		cli_error("%s: %s", f->db, strerror(errno));
		if (new_db)
			rmdir(f->db);
		return EXIT_INPUT;
	}
	if (new_db)
		rmdir(f->db);
	int have_epoch = !new_db && !f->new_epoch && dcpi_db_epoch(f->db, 0, 0, epoch, sizeof epoch, &err) == 0;
	if (have_epoch && dcpicalc_machine_check(epoch, &mc) < 0)
		return EXIT_USAGE;
	err.msg[0] = 0;
	struct program *prog = cli_load_program(o->prog_path);
	if (!prog)
		return EXIT_INPUT;
	/* the image as it is now: a rebuild at the same path is another
	 * program (image_check) */
	struct dcpi_image_id id, *idp = NULL;
	if (o->prog_path) {
		if (dcpi_image_id(image, &id, &err) < 0) {
			cli_error("%s", err.msg);
			program_free(prog);
			return EXIT_INPUT;
		}
		idp = &id;
	}
	if (have_epoch && idp && image_check(epoch, image, idp) < 0) {
		program_free(prog);
		return EXIT_USAGE;
	}
	struct guest *g = run_options_make_guest(prog, o);
	if (!g) {
		program_free(prog);
		return EXIT_INPUT;
	}
	int status = EXIT_GUEST;
	struct run_profiles rp = { 0 };
	struct dcpi *d = NULL;
	struct dcpi_wait *w = NULL;
	struct core *c = core_new(&mc, g, &err);
	if (!c || !(d = dcpi_new(&f->cfg, c, &err)) ||
	    (f->cfg.truth_capacity && !(w = dcpi_wait_new(c, f->cfg.truth_capacity, DCPI_WAIT_TAKEN, &err))))
		goto out;
	fflush(stdout);
	if (run_options_warm(o, prog, c, &err) < 0)   /* --fastforward, --start-at */
		goto out;
	struct progress pr;
	progress_start(&pr, o->quiet, o->max_insns, o->max_cycles);
	int rc = run_sampled(c, d, o, &pr, &err);
	progress_end(&pr);
	fflush(stdout);
	int exited = rc == IVX_OK && core_done(c) && guest_state(g) == GUEST_EXITED;
	if (rc < 0)
		goto out;
	if (exited && guest_exit_code(g) != 0) {
		/* a failed run adds nothing to the database (docs/outputs.md) */
		cli_error_guest_status(guest_exit_code(g));
		goto out;
	}
	if (!exited) {
		run_options_note_limit(o, core_cycles(c), core_committed(c), "; the profile covers them");
	}
	dcpi_flush(d);
	if (collect(d, c, prog, image, &rp, &err) < 0)
		goto out;
	status = 0;   /* the guest exited, or the user's limit: a normal end */
	int stored = store_run(f, &rp, w, prog, image, idp, core_cycles(c), &mc, epoch, sizeof epoch);
	if (stored < 0) {
		status = stored == -2 ? EXIT_USAGE : EXIT_OUTPUT;
		err.msg[0] = 0;
		goto out;
	}
	if (!o->quiet)
		print_stats(stderr, d, epoch);
	if (f->json_path && write_json(f->json_path, prog, d, epoch, o, exited, exited ? guest_exit_code(g) : 0, core_committed(c)) < 0)
		status = EXIT_OUTPUT;
	err.msg[0] = 0;
out:
	if (err.msg[0])
		cli_error("%s", err.msg);
	for (int img = 0; img < 2; img++)
		for (int k = 0; k < 2; k++)
			for (int ev = 0; ev < DCPI_EVENT_COUNT; ev++)
				dcpi_profile_free(rp.p[img][k][ev]);
	dcpi_free(d);
	dcpi_wait_free(w);
	core_free(c);
	guest_free(g);
	program_free(prog);
	return err.code == IVX_EUSAGE ? EXIT_USAGE : status;
}

static int cmd_profile_main(int argc, char **argv)
{
	struct run_options o;
	struct profile_flags f = { .db = "ivx.db" };
	dcpi_config_defaults(&f.cfg);
	if (run_options_parse(&o, argc, argv, profile_extra, &f) < 0)
		return EXIT_USAGE;
	const struct named_file outputs[] = { { "--json", f.json_path } };
	/* (the database's files are written after the run too) */
	const struct named_file db[] = { { "--db", f.db } };
	/* (the database first: a --json naming it is not yet a directory when
	 * the run is to make it) */
	int status = outfile_check_within(outputs, 1, f.db, "the database") < 0 ||
			     run_options_check_outputs(&o, outputs, 1) < 0 || run_options_check_grants(&o, db, 1) < 0
		     ? EXIT_USAGE : profile_run(&o, &f);
	run_options_free(&o);
	return status;
}

const struct cli_command cmd_profile_entry = {
	.name = "profile",
	.summary = "sample a run DCPI-style into a profile database",
	.help =
	"usage: ivx profile [OPTIONS] [PROG] [-- ARGS...]\n\n"
	"Run PROG on the timing model with DCPI's data collection (Anderson et al.,\n"
	"SOSP 1997) on the simulated machine: performance counters overflowing after\n"
	"randomized periods, the interrupt arriving --skid cycles later, the driver's\n"
	"hash table and overflow buffers, the daemon. The samples, and the\n"
	"simulator's exact truth beside them, are added to the current epoch of\n"
	"the database (docs/dcpi.md). Read them with `ivx dcpiprof`.\n\n"
	"Sampling options:\n"
	DCPI_OPTS_HELP
	"  --db DIR            profile database (default ivx.db)\n"
	"  --new-epoch         start a new epoch before adding this run\n"
	"  --json FILE         the run's sampling statistics as JSON\n"
	"  -q, --quiet         no progress line (shown on stderr when it is a terminal)\n"
	"                      and no statistics on stderr\n"
	"  --bench             time the run without sampling, with sampling but no\n"
	"                      truth, and with both (least CPU time of 5 each,\n"
	"                      alternating); writes no profile\n"
	"  The seed (--seed) also seeds the counters' period generators.\n\n"
	"Run options:\n"
	RUN_OPTIONS_HELP,
	.main = cmd_profile_main,
};
