/*
 * core_snapshot.c — saving and restoring the whole engine state.
 *
 * A snapshot holds copies of: the core's scalar state, its one block of
 * arrays, its pending store-miss events and its commit counts
 * (core_internal.h), the memory system and predictor (their own
 * _copy functions), the guest (a private guest object, guest_copy), and
 * each observer's blob (state_size/save/restore). Instruction records
 * point at the program's uops, which are immutable and shared, so the copy
 * needs no fix-ups. Restoring copies everything back, so re-running from a
 * restored state produces the same cycles and events as the first time.
 *
 * What cannot be taken back: guest output already written to the host.
 */
#include <string.h>
#include "base/alloc.h"
#include "core_internal.h"
#include "isa/mem.h"

struct obs_blob {
	void *ctx;                /* whose blob */
	size_t size;
	void *data;
};

struct core_snapshot {
	struct core_state s;
	void *block;
	size_t block_bytes;
	struct core_smiss *smiss; /* s.n_smiss of them */
	uint64_t *commit_counts;  /* NULL if the core did not count */
	uint64_t *head_counts;    /* NULL if the core did not count */
	uint64_t *taken_counts;   /* NULL if the core did not count */
	struct memsys *ms;
	struct bpred *bp;
	struct guest *g;
	int n_blobs;
	struct obs_blob blobs[CORE_MAX_OBSERVERS];
	size_t bytes;             /* total, for core_snapshot_bytes */
};

void core_snapshot_free(struct core_snapshot *sn)
{
	if (!sn)
		return;
	ivx_free(sn->block);
	ivx_free(sn->smiss);
	ivx_free(sn->commit_counts);
	ivx_free(sn->head_counts);
	ivx_free(sn->taken_counts);
	memsys_free(sn->ms);
	bpred_free(sn->bp);
	guest_free(sn->g);
	for (int i = 0; i < sn->n_blobs; i++)
		ivx_free(sn->blobs[i].data);
	ivx_free(sn);
}

/* An empty guest for the same program, to guest_copy into. */
static struct guest *blank_guest(const struct core *c, struct ivx_err *err)
{
	char *argv[] = { (char *)"snapshot", NULL };
	struct guest_options o = { .argc = 1, .argv = argv };
	return guest_new(guest_program(c->g), &o, err);
}

static int oom(struct core_snapshot *sn, struct ivx_err *err)
{
	core_snapshot_free(sn);
	return ivx_error(err, IVX_ESYS, "out of host memory for a snapshot");
}

struct core_snapshot *core_snapshot_save(const struct core *c, struct ivx_err *err)
{
	struct core_snapshot *sn = ivx_calloc(1, sizeof *sn);
	if (!sn) {
		oom(NULL, err);
		return NULL;
	}
	sn->s = c->s;
	sn->block_bytes = c->block_bytes;
	sn->block = ivx_malloc(c->block_bytes);
	sn->smiss = ivx_malloc((c->s.n_smiss ? c->s.n_smiss : 1) * sizeof *sn->smiss);
	sn->ms = memsys_new(&c->cfg, err);
	sn->bp = sn->ms ? bpred_new(&c->cfg, err) : NULL;
	size_t counts_bytes = c->n_commit_counts * sizeof *c->commit_counts;
	size_t head_bytes = c->head_counts ? (c->n_commit_counts + 1) * sizeof *c->head_counts : 0;
	if (c->commit_counts)
		sn->commit_counts = ivx_malloc(counts_bytes ? counts_bytes : 1);
	if (c->head_counts)
		sn->head_counts = ivx_malloc(head_bytes);
	if (c->taken_counts)
		sn->taken_counts = ivx_malloc(counts_bytes ? counts_bytes : 1);
	int no_memory = !sn->block || !sn->smiss || (c->commit_counts && !sn->commit_counts) ||
			(c->head_counts && !sn->head_counts) || (c->taken_counts && !sn->taken_counts);
	if (no_memory || !sn->bp) {
		if (no_memory)
			oom(sn, err);
		else
			core_snapshot_free(sn);
		return NULL;
	}
	memcpy(sn->block, c->block, c->block_bytes);
	memcpy(sn->smiss, c->smiss, c->s.n_smiss * sizeof *sn->smiss);
	if (c->commit_counts)
		memcpy(sn->commit_counts, c->commit_counts, counts_bytes);
	if (c->head_counts)
		memcpy(sn->head_counts, c->head_counts, head_bytes);
	if (c->taken_counts)
		memcpy(sn->taken_counts, c->taken_counts, counts_bytes);
	if (memsys_copy(sn->ms, c->ms) < 0 || bpred_copy(sn->bp, c->bp) < 0) {
		core_snapshot_free(sn);
		ivx_error(err, IVX_ESYS, "snapshot: copying the memory system or predictor failed");
		return NULL;
	}
	sn->g = blank_guest(c, err);
	/* (without the blank guest's own regions, the copy makes fresh
	 * buffers and stores only the pages that are not all zero) */
	if (sn->g)
		mem_unmap_all(guest_mem(sn->g));
	if (!sn->g || guest_copy(sn->g, c->g, err) < 0) {
		core_snapshot_free(sn);
		return NULL;
	}
	sn->bytes = sizeof *sn + c->block_bytes + c->s.n_smiss * sizeof *sn->smiss + counts_bytes + head_bytes +
		    memsys_state_bytes(sn->ms) + bpred_state_bytes(sn->bp) +
		    mem_fixed_bytes() + guest_mem(sn->g)->copied_bytes;
	for (int i = 0; i < c->n_obs; i++) {
		const struct core_observer *o = &c->obs[i];
		if (!o->state_size || !o->save)
			continue;
		struct obs_blob *b = &sn->blobs[sn->n_blobs++];
		b->ctx = o->ctx;
		b->size = o->state_size(o->ctx);
		b->data = ivx_malloc(b->size ? b->size : 1);
		if (!b->data) {
			oom(sn, err);
			return NULL;
		}
		o->save(o->ctx, b->data);
		sn->bytes += b->size;
	}
	return sn;
}

int core_snapshot_restore(struct core *c, const struct core_snapshot *sn, struct ivx_err *err)
{
	if (sn->block_bytes != c->block_bytes || !sn->commit_counts != !c->commit_counts ||
	    !sn->head_counts != !c->head_counts || !sn->taken_counts != !c->taken_counts)
		return ivx_error(err, IVX_EUSAGE, "snapshot was taken of a differently configured core");
	if (core_smiss_reserve(c, sn->s.n_smiss) < 0)
		return ivx_error(err, IVX_ESYS, "out of host memory restoring a snapshot");
	int rc = guest_copy(c->g, sn->g, err);
	if (rc < 0)
		return rc;
	if (memsys_copy(c->ms, sn->ms) < 0 || bpred_copy(c->bp, sn->bp) < 0)
		return ivx_error(err, IVX_EUSAGE, "snapshot was taken of a differently configured core");
	memcpy(c->block, sn->block, c->block_bytes);
	memcpy(c->smiss, sn->smiss, sn->s.n_smiss * sizeof *c->smiss);
	if (c->commit_counts)
		memcpy(c->commit_counts, sn->commit_counts, c->n_commit_counts * sizeof *c->commit_counts);
	if (c->head_counts)
		memcpy(c->head_counts, sn->head_counts, (c->n_commit_counts + 1) * sizeof *c->head_counts);
	if (c->taken_counts)
		memcpy(c->taken_counts, sn->taken_counts, c->n_commit_counts * sizeof *c->taken_counts);
	c->s = sn->s;
	c->cc_current = 0;
	c->idle_repeatable = 0;   /* the observers' states are the snapshot's now */
	c->commit_from = 0;       /* ... so ask the commit subscribers again */
	for (int i = 0; i < c->n_commit_sub; i++)
		c->commit_sub[i].from = 0;
	for (int i = 0; i < c->n_obs; i++) {
		const struct core_observer *o = &c->obs[i];
		if (!o->restore)
			continue;
		for (int j = 0; j < sn->n_blobs; j++)
			if (sn->blobs[j].ctx == o->ctx && o->state_size(o->ctx) == sn->blobs[j].size)
				o->restore(o->ctx, sn->blobs[j].data);
	}
	return IVX_OK;
}

size_t core_snapshot_bytes(const struct core_snapshot *sn)
{
	return sn->bytes;
}

const struct guest *core_snapshot_guest(const struct core_snapshot *sn)
{
	return sn->g;
}
