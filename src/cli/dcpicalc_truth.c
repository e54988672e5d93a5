/*
 * dcpicalc_truth.c — writes dcpicalc's truth, and every run's machine
 * description, into a profile epoch (see dcpicalc_truth.h). Wait and taken truth use
 * the database's file format with kinds DCPI_KIND_WAIT and DCPI_KIND_TAKEN,
 * the culprits with DCPI_KIND_CULPRIT (docs/dcpicalc.md, "The truth");
 * pcs outside the image are left out.
 */
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "dcpi/dcpi_db.h"
#include "dcpicalc_truth.h"
#include "guest/program.h"


int dcpicalc_write_machine(const char *file, const struct machine_config *mc)
{
	/* a temporary of this process's own, beside the file: two runs
	 * storing at once never write into one temporary */
	char tmp[4300];
	const char *slash = strrchr(file, '/');
	int dl = slash ? (int)(slash - file + 1) : 0;
	if (snprintf(tmp, sizeof tmp, "%.*s.%s.tmp%ld", dl, file, file + dl, (long)getpid()) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "; the machine of the runs profiled in this epoch (ivx profile)\n");
	char section[64] = "";
	for (size_t i = 0; config_key_name(i); i++) {
		const char *key = config_key_name(i), *dot = strchr(key, '.');
		char val[128];
		struct ivx_err e = { 0 };
		if (!dot || config_get(mc, key, val, sizeof val, &e) < 0)
			continue;
		if ((size_t)(dot - key) >= sizeof section)
			continue;
		if (strncmp(section, key, (size_t)(dot - key)) || section[dot - key]) {
			memcpy(section, key, (size_t)(dot - key));
			section[dot - key] = 0;
			fprintf(f, "[%s]\n", section);
		}
		fprintf(f, "%s = %s\n", dot + 1, val);
	}
	int bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, file) != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

int dcpicalc_machine_check(const char *epoch, const struct machine_config *mc)
{
	char file[4300];
	snprintf(file, sizeof file, "%s/machine.ini", epoch);
	if (access(file, F_OK) != 0)
		return 0;   /* (a new epoch; or one written before every run left it) */
	struct machine_config old;
	struct ivx_err err = { 0 };
	config_defaults(&old);
	if (config_load(&old, file, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	for (size_t i = 0; config_key_name(i); i++) {
		const char *key = config_key_name(i);
		char there[128], here[128];
		if (!strchr(key, '.') || config_get(&old, key, there, sizeof there, &err) < 0 ||
		    config_get(mc, key, here, sizeof here, &err) < 0)
			continue;
		if (strcmp(there, here)) {
			cli_error("%s holds runs of another machine (%s = %s there, %s here): profile into a new epoch "
				  "with --new-epoch, or with the same --config and -o", epoch, key, there, here);
			return -1;
		}
	}
	return 0;
}

int dcpicalc_truth_store(const char *epoch, const struct dcpi_wait *w, const struct program *prog,
			 const char *image, uint64_t cycles)
{
	struct ivx_err err = { 0 };
	/* p[0..W): wait per reason, p[W]: taken, p[W+1..2W+1): culprits per reason */
	enum { W = ISSUE_WAIT_COUNT, NP = 2 * ISSUE_WAIT_COUNT + 1 };
	struct dcpi_profile *p[NP] = { 0 };
	int rc = 0;
	for (int k = 0; k < NP && rc == 0; k++) {
		p[k] = k < W ? dcpi_profile_new(DCPI_KIND_WAIT, k, image, &err) :
		       k == W ? dcpi_profile_new(DCPI_KIND_TAKEN, 0, image, &err) :
				dcpi_profile_new(DCPI_KIND_CULPRIT, k - W - 1, image, &err);
		if (!p[k])
			rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < dcpi_wait_size(w); i++) {
		struct dcpi_wait_pc e;
		if (!dcpi_wait_at(w, i, &e) || !program_is_code(prog, e.pc))
			continue;
		for (int k = 0; k < ISSUE_WAIT_COUNT && rc == 0; k++)
			if (e.cycles[k] && dcpi_profile_add(p[k], e.pc, e.cycles[k], &err) < 0)
				rc = -1;
		if (rc == 0 && e.taken && dcpi_profile_add(p[W], e.pc, e.taken, &err) < 0)
			rc = -1;
	}
	/* culprits: every slot, and what found no slot as culprit 0 */
	for (size_t i = 0; rc == 0 && i < dcpi_wait_culprit_size(w); i++) {
		struct dcpi_wait_culprit c;
		if (!dcpi_wait_culprit_at(w, i, &c) || !program_is_code(prog, c.pc) || c.reason < 0 || c.reason >= W)
			continue;
		struct dcpi_profile *q = p[W + 1 + c.reason];
		for (int k = 0; k < DCPI_WAIT_TOPK && rc == 0; k++)
			if (c.culprit[k] && dcpi_profile_add_aux(q, c.pc, c.culprit[k], c.cycles[k], &err) < 0)
				rc = -1;
		if (rc == 0 && c.other && dcpi_profile_add_aux(q, c.pc, 0, c.other, &err) < 0)
			rc = -1;
	}
	for (int k = 0; k < NP && rc == 0; k++) {
		dcpi_profile_normalize(p[k]);
		p[k]->runs = 1;
		p[k]->cycles = p[k]->enabled_cycles = cycles;
		if (p[k]->n && dcpi_db_store(epoch, p[k], &err) < 0)
			rc = -1;
	}
	for (int k = 0; k < NP; k++)
		dcpi_profile_free(p[k]);
	if (rc < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return 0;
}

int dcpicalc_machine_store(const char *epoch, const struct machine_config *mc, int fresh)
{
	char file[4300];
	snprintf(file, sizeof file, "%s/machine.ini", epoch);
	/* an epoch of runs stored before every run wrote it (--no-truth):
	 * whose machine they ran on is unknown, and this run cannot vouch
	 * for them */
	if (!fresh && access(file, F_OK) != 0)
		return 0;
	if (dcpicalc_write_machine(file, mc) < 0) {
		cli_error("%s: cannot write the machine description: %s", file, strerror(errno));
		return -1;
	}
	return 0;
}
