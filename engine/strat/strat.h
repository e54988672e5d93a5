/*
 * strat.h — hardware stream compressors for profiling (Sastry, Bodík and
 * Smith, "Rapid Profiling via Stratified Sampling", ISCA 2001), and the
 * software that folds their messages into a profile.
 *
 * A selector turns retired instructions into two-word tuples <pc, value>
 * (the profile's tag rides in the pc's top byte); a compressor turns the
 * tuple stream into messages <tuple, count>; software receives the
 * messages in interrupt batches and adds them up. This header has the
 * pieces, each usable alone (unit tests, the Monte Carlo experiment):
 *
 *   hash       the paper's stratifying hash: byte randomisation, flip,
 *              xor folding (strat_hash_index, strat_hash_tag)
 *   spec       the compressor's description as text, e.g. "H[P256]2048+A16"
 *              (grammar in strat_spec.c); parsed once, validated
 *   comp       a running compressor built from a spec: R, D (countdown
 *              random), P, C (counter), H[X]n, T (tagged), A (second
 *              level), and two modern baselines CM (Count-Min) and SS
 *              (Space-Saving); deterministic from a seed; snapshot-able
 *   prof       the exact profile next to the profiler's estimate, and the
 *              error metric of the paper's section 5.3.1
 *   run        the instrument on the core: selection at retirement, the
 *              message queue, interrupts and their cost (strat_run.h)
 *
 * Engine code: no printing, no exit; errors as struct ivx_err.
 */
#ifndef IVX_STRAT_H
#define IVX_STRAT_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"

/* ---- tuples and messages --------------------------------------------- */

/* A profile's tag goes into bits 56..63 of the tuple's pc (guest
 * addresses are below 2^48), so tuples of several profiles never compare
 * equal and software tells them apart by that byte. */
#define STRAT_TAG_SHIFT 56
static inline uint64_t strat_tag_pc(uint64_t pc, unsigned tag)
{
	return pc ^ ((uint64_t)tag << STRAT_TAG_SHIFT);
}

struct strat_msg {
	uint64_t pc, val;     /* the tuple */
	uint64_t count;       /* occurrences it stands for */
};

/* ---- the hash (section 3.5) and the generator ------------------------- */

/* Each byte of w through the fixed 256-entry random table. */
uint64_t strat_randomize(uint64_t w);
/* w with its bytes in reverse order. */
uint64_t strat_flip(uint64_t w);
/* w cut into `bits`-bit chunks, xored together (bits 1..32; 0 gives 0). */
uint32_t strat_xor_fold(uint64_t w, int bits);
/* xor-fold(flip(randomize(pc)) ^ randomize(w), bits): the stratum. */
uint32_t strat_hash_index(uint64_t pc, uint64_t w, int bits);
/* The same hash for the per-tuple path. The fold is linear over xor, so
 * the index is the xor of 16 byte-table entries already folded to `bits`
 * bits: rows 0-7 for the pc's bytes (flipped), 8-15 for the value's.
 * strat_hash_fold_table gives the table of a width (1..32; NULL outside),
 * built once and shared (a constant of the hardware, like the byte table). */
typedef uint32_t strat_fold_table[16][256];
const strat_fold_table *strat_hash_fold_table(int bits);
static inline uint32_t strat_hash_index_t(const strat_fold_table *t, uint64_t pc, uint64_t w)
{
	const uint32_t (*r)[256] = *t;
	return r[0][pc & 0xff] ^ r[1][(pc >> 8) & 0xff] ^ r[2][(pc >> 16) & 0xff] ^ r[3][(pc >> 24) & 0xff] ^
	       r[4][(pc >> 32) & 0xff] ^ r[5][(pc >> 40) & 0xff] ^ r[6][(pc >> 48) & 0xff] ^ r[7][pc >> 56] ^
	       r[8][w & 0xff] ^ r[9][(w >> 8) & 0xff] ^ r[10][(w >> 16) & 0xff] ^ r[11][(w >> 24) & 0xff] ^
	       r[12][(w >> 32) & 0xff] ^ r[13][(w >> 40) & 0xff] ^ r[14][(w >> 48) & 0xff] ^ r[15][w >> 56];
}
/* xor-fold(pc ^ w, bits): the tagged compressor's partial tag (section 4.1). */
uint32_t strat_hash_tag(uint64_t pc, uint64_t w, int bits);
/* The randomisation table (for the documentation and tests). */
const uint8_t *strat_random_table(void);

/* xorshift64* generator: the only source of randomness (seeded). */
uint64_t strat_rng_next(uint64_t *state);
/* Uniform in [0, n) (n >= 1). */
uint64_t strat_rng_below(uint64_t *state, uint64_t n);
/* A state for seed s (never 0). */
uint64_t strat_rng_seed(uint64_t s);

/* ---- specs ------------------------------------------------------------- */

enum strat_kind {
	STRAT_R,      /* R_r: each tuple with probability 1/r */
	STRAT_D,      /* countdown random: a countdown from uniform [1, 2r] */
	STRAT_P,      /* P_r: every r-th tuple */
	STRAT_T,      /* tagged compressor (section 4) */
	STRAT_A,      /* A_k: associative table of k counters */
	STRAT_CM,     /* Count-Min sketch, w x d counters (baseline) */
	STRAT_SS,     /* Space-Saving, k monitored tuples (baseline) */
};

/* One stage of a spec. The first stage is the compressor proper; the
 * later ones (only A) compress its messages further, losslessly. */
struct strat_stage {
	int kind;             /* enum strat_kind */
	int counter;          /* C: messages carry the count since the last one */
	uint32_t rate;        /* R, D, P, T: r (T: the hit counter's maximum) */
	uint32_t strata;      /* H[..]n: n (a power of two); 1 = not stratified */
	uint32_t entries;     /* T: table entries; A, SS: k; CM: width */
	uint32_t ways;        /* T: associativity; CM: depth */
	uint32_t tag_bits;    /* T: partial tag bits */
};

#define STRAT_MAX_STAGES 4
#define STRAT_SPEC_MAX 128   /* longest spec text accepted */

struct strat_spec {
	int n_stages;
	struct strat_stage stage[STRAT_MAX_STAGES];
};

/* Parse text into *spec. 0, or IVX_EUSAGE with a one-line message
 * naming the position and what was expected. */
int strat_spec_parse(const char *text, struct strat_spec *spec, struct ivx_err *err);
/* The canonical text of a spec ("H[P256]2048+A16"). */
void strat_spec_format(const struct strat_spec *spec, char *buf, size_t size);
/* Bits of hardware state the spec's first stage keeps (counters, tags,
 * sketch cells, monitored tuples at 128 bits each), for equal-memory
 * comparisons. */
uint64_t strat_spec_bits(const struct strat_spec *spec);

/* ---- compressors ---------------------------------------------------------- */

struct strat_comp;

/* Where messages go. `sample` gets every message the first stage sends
 * (what the profile is built from: later stages are lossless); `message`
 * every message that leaves the last stage (what software is sent). */
struct strat_sink {
	void *ctx;
	void (*sample)(void *ctx, const struct strat_msg *m);
	void (*message)(void *ctx, const struct strat_msg *m);
};

struct strat_comp *strat_comp_new(const struct strat_spec *spec, uint64_t seed, struct ivx_err *err);
void strat_comp_free(struct strat_comp *c);
void strat_comp_set_sink(struct strat_comp *c, const struct strat_sink *sink);
/* One tuple in. */
void strat_comp_push(struct strat_comp *c, uint64_t pc, uint64_t val);
/* End of stream: the second-level tables send what they hold. */
void strat_comp_flush(struct strat_comp *c);
const struct strat_spec *strat_comp_spec(const struct strat_comp *c);

/* Sketch baselines send nothing: software reads them at the end. Their
 * estimate of a tuple's count, and of all tuples with this pc. Only for
 * CM and SS (0 otherwise). */
int strat_comp_is_sketch(const struct strat_comp *c);
uint64_t strat_comp_query(const struct strat_comp *c, uint64_t pc, uint64_t val);
uint64_t strat_comp_query_pc(const struct strat_comp *c, uint64_t pc);
/* The deterministic bound on a sketch's over-estimate of any count after
 * n tuples (Count-Min: e*n/w, holding with probability 1 - e^-d;
 * Space-Saving: n/k, always). */
double strat_comp_sketch_bound(const struct strat_comp *c, uint64_t n);

/* The counter table, for the explorer's heat strip: cells of the first
 * stage (strata for H, entries for T, 1 otherwise), their counter
 * (fill), its maximum, and for T the state and evictions. */
struct strat_cell {
	uint32_t count;       /* the counter now (P: position, C: since last, T: hits) */
	uint32_t max;         /* the counter's threshold (r) */
	uint32_t messages;    /* messages this cell has sent */
	uint32_t evictions;   /* T: E4 transitions; 0 otherwise */
	int state;            /* T: enum strat_tstate; 0 otherwise */
};
enum strat_tstate { STRAT_EMPTY, STRAT_VALID, STRAT_EVICT };
uint32_t strat_comp_cells(const struct strat_comp *c);
void strat_comp_cell(const struct strat_comp *c, uint32_t i, struct strat_cell *out);

struct strat_comp_stats {
	uint64_t tuples;      /* pushed */
	uint64_t samples;     /* first-stage messages */
	uint64_t messages;    /* messages out of the last stage */
	uint64_t t_replaced;  /* T: E5 (a tuple's counts given to another) */
	uint64_t t_evicted;   /* T: E6 (deferred eviction reported) */
};
void strat_comp_stats(const struct strat_comp *c, struct strat_comp_stats *out);

/* Snapshots: the whole running state (generator, counters, tables) in a
 * blob of constant size. */
size_t strat_comp_state_size(const struct strat_comp *c);
void strat_comp_save(const struct strat_comp *c, void *blob);
void strat_comp_restore(struct strat_comp *c, const void *blob);

/* Tagged compressor policy (section 4.1, Figure 6), exposed for tests. */
struct strat_tpolicy {
	uint32_t evict_hits;  /* ShouldEvict: hits in Evict state reach this */
	uint32_t miss_max;    /* ShouldReplace: the miss counter reaches this */
};
void strat_comp_tpolicy(const struct strat_comp *c, struct strat_tpolicy *out);

#endif
