/*
 * coproc_fates.h — `ivx coproc --fates`: what became of each load's
 * executions (why a load was never sampled, why its samples misled),
 * counted from the co-processor's diagnostics hook. CLI-side only: the
 * counts are not part of the co-processor's state.
 */
#ifndef IVX_CLI_COPROC_FATES_H
#define IVX_CLI_COPROC_FATES_H

#include <stdint.h>
#include <stdio.h>
#include "coproc/coproc.h"

/* the engine's fates, with ignored split: the load's own bit (it is masked
 * or held) or another load's (a hash conflict) */
enum { FATE_IGNORED_OTHER = COPROC_NFATES, FATE_N };

struct coproc_fates;
struct coproc_fates *coproc_fates_new(struct coproc *cp);
void coproc_fates_free(struct coproc_fates *f);
/* Per load: the JSON members `"fates":{...}`, `recorded_top_share` and
 * `recorded_true_top_share` (the largest value's and the true top value's
 * share of its records), `masked_true_top_share` (of its executions while
 * its own ignore bit was set), `eligible_top_share` and
 * `eligible_true_top_share` (of its executions that passed both filters),
 * with a leading comma, for a load whose true top value is `top`; and, to
 * take apart how the records differ from the eligible executions (branch
 * lvp8), `tagged_top_share` (the largest value's share of the tagged
 * executions: recorded or dropped), `tagged_eligible_top_share` and
 * `recorded_eligible_top_share` (the eligible executions' top value's
 * share of the tagged and of the recorded ones) and `sampled_top_share`
 * (the mean largest-value share of uniformly random samples of as many
 * records from the eligible executions). Nothing if the load was never
 * seen by the hook. */
void coproc_fates_json(struct coproc_fates *f, FILE *out, uint64_t pc, uint64_t top);
/* The fate counts of pc into n[FATE_N]; 0 if none. */
int coproc_fates_get(const struct coproc_fates *f, uint64_t pc, uint64_t n[FATE_N]);

#endif
