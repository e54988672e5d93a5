/*
 * config.h — the machine description.
 *
 * A plain struct of parameters with defaults equal to Table 2 of Eyerman et
 * al. (ASPLOS 2006), read from INI files with libinih and overridable one
 * key at a time ("section.key=value"). Keys are listed in one table (name,
 * type, range, help) in config.c, which drives parsing, validation, `-o`,
 * completion in the explorer and the documentation.
 */
#ifndef IVX_CONFIG_H
#define IVX_CONFIG_H

/* The largest width of each stage (fetch, decode, issue, commit). */
#define CONFIG_MAX_WIDTH 64

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

struct cache_config {
	uint32_t size;          /* bytes */
	uint32_t assoc;         /* ways (1 = direct mapped) */
	uint32_t line;          /* bytes per line */
	uint32_t latency;       /* hit latency in cycles */
	uint32_t mshrs;         /* outstanding misses (0 = blocking: not allowed) */
};

struct tlb_config {
	uint32_t entries;
	uint32_t assoc;
	uint32_t page;          /* bytes */
	uint32_t miss_latency;  /* page-walk cycles */
};

struct machine_config {
	/* [core] */
	int inorder;             /* core.mode = ooo | inorder */
	uint32_t fetch_width;
	uint32_t decode_width;   /* decode / rename / dispatch */
	uint32_t issue_width;
	uint32_t commit_width;
	uint32_t frontend_depth; /* stages between fetch and dispatch */
	uint32_t fetch_buffer;   /* instructions buffered between fetch and decode */
	uint32_t rob_size;
	uint32_t lsq_size;
	uint32_t iq_size;        /* issue queue entries */
	/* [units]: counts of functional units, [latency]: their latencies */
	uint32_t alu_units, mul_units, div_units, mem_ports;
	uint32_t alu_latency, mul_latency, div_latency, load_latency;
	/* FP/SIMD: a pool of pipelined units shared by FP, FMA and SIMD ops,
	 * and non-pipelined FP dividers (divide and square root) */
	uint32_t fp_units, fdiv_units;
	uint32_t fp_latency, fma_latency, fdiv_latency, simd_latency;
	uint32_t long_latency_threshold; /* ops at least this long count as long-latency */
	/* [l1i] [l1d] [l2] */
	struct cache_config l1i, l1d, l2;
	uint32_t memory_latency; /* [memory] latency */
	/* [itlb] [dtlb] */
	struct tlb_config itlb, dtlb;
	/* [bpred] */
	uint32_t bimodal_entries, gshare_entries, gshare_history, chooser_entries;
	uint32_t btb_entries, btb_assoc, ras_entries;
	/* [perfect]: each component can be made perfect independently */
	int perfect_bpred, perfect_l1i, perfect_l2i, perfect_itlb;
	int perfect_l1d, perfect_l2d, perfect_dtlb;
	/* [wrongpath] */
	int wrong_path_memory;   /* wrong-path fetches and loads touch caches/TLBs */
	/* [sim] */
	uint64_t deadlock_cycles; /* no commit for this long stops the run */
	/* [penalty]: average penalties the naive CPI methods multiply by */
	uint32_t penalty_l1i, penalty_l2i, penalty_itlb, penalty_l1d, penalty_l2d;
	uint32_t penalty_dtlb, penalty_bpred, penalty_fu;
	/* Bit i set: the i-th penalty (in the order above) was set by a file or
	 * -o; the others follow the latencies they stand for (docs/config.md). */
	uint32_t penalty_explicit;
};

/* Fill with the defaults (Table 2). */
void config_defaults(struct machine_config *c);

/* Read an INI file on top of *c. Errors are "file:line: message". */
int config_load(struct machine_config *c, const char *path, struct ivx_err *err);
/* The same from len bytes of INI text in memory; `name` stands for the
 * file in messages. */
int config_load_text(struct machine_config *c, const char *text, size_t len, const char *name,
		     struct ivx_err *err);

/* Apply "section.key=value". Errors name the key and what was expected. */
int config_set(struct machine_config *c, const char *assignment, struct ivx_err *err);

/* Reject configurations that cannot work (ROB smaller than the width, a
 * zero-sized or non-power-of-two cache, ...), with the reason. */
int config_validate(const struct machine_config *c, struct ivx_err *err);
/* The machine of a command line: the defaults, then the file `path` (NULL
 * for none), then each "section.key=value" of overrides in order, then
 * config_validate. A refusal of config_validate then says where the key it
 * is about was last set: "FILE:LINE: l1d.size=3 is not a multiple of ..."
 * or "-o l1d.size=3: l1d.size=3 is not ..." (no prefix for a default). */
int config_build(struct machine_config *c, const char *path, const char *const *overrides, int n_overrides,
		 struct ivx_err *err);
/* The longest a healthy core of machine c can go without committing:
 * config_validate refuses a sim.deadlock_cycles not above it. */
uint64_t config_longest_commit_gap(const struct machine_config *c);

/* CTR_EL0 of machine c, as its guest reads it (isa_ctr_el0): the smallest
 * instruction and data lines of L1 and L2, the largest line written back.
 * ISA_CTR_VALUE for the defaults. core_new gives it to the guest. */
uint64_t config_ctr_el0(const struct machine_config *c);

/* The known keys, "section.key", for completion and docs; NULL past the end. */
const char *config_key_name(size_t i);
const char *config_key_help(size_t i);
/* The i-th value word of a key that takes words (core.mode: ooo, inorder;
 * a boolean: on, off), for completion; NULL past the end or for a number. */
const char *config_key_value_word(const char *key, int i);
/* Current value of a key as text (e.g. for `info config`), 0 or error. */
int config_get(const struct machine_config *c, const char *key, char *buf, size_t n, struct ivx_err *err);

#endif
