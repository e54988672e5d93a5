/*
 * dcpi_opts.h — the sampling options `ivx profile` and the explorer's
 * `sampling` command share (--events, --period, --skid, --counters, ...),
 * parsed into a struct dcpi_config.
 */
#ifndef IVX_DCPI_OPTS_H
#define IVX_DCPI_OPTS_H

#include "dcpi/dcpi.h"

/* Parse the option at argv[i] (argv[i+1] its value): 2 or 1 consumed,
 * 0 if it is not a sampling option, or -1 with err filled. */
int dcpi_opts_parse(struct dcpi_config *c, int argc, char **argv, int i, struct ivx_err *err);

/* One line describing the configuration (events, counters, periods, skid). */
void dcpi_opts_describe(const struct dcpi_config *c, char *buf, size_t n);

/* Option i ("--skid"), with its value in c written to buf as the option
 * takes it ("6"; "on"/"off" for --charge and --no-truth; --period as
 * EVENT=P:DP for each sampled event); NULL past the end. Every option
 * dcpi_opts_parse knows, in its order: the explorer's `sampling` lists
 * them. */
const char *dcpi_opts_setting(const struct dcpi_config *c, int i, char *buf, size_t n);

/* Option i's name ("--skid"), in the same order; NULL past the end (for
 * completion, where no configuration is at hand). */
const char *dcpi_opts_name(int i);

#define DCPI_OPTS_HELP \
	"  --events LIST       events to sample: cycles, imiss, dmiss, branchmp,\n" \
	"                      dtbmiss, retired (default cycles,imiss)\n" \
	"  --period P[:DP]     CYCLES period uniform in [P-DP, P] (default 65536:4096,\n" \
	"                      the paper's 60K-64K); the other events get P/16:DP/16.\n" \
	"                      EVENT=P[:DP] sets one event's period (repeatable);\n" \
	"                      DP defaults to P/16\n" \
	"  --skid N            cycles from overflow to interrupt (default 6)\n" \
	"  --counters N        hardware counters, 1-3 (default 2); with more events\n" \
	"                      than counters the last one is multiplexed\n" \
	"  --mux-cycles N      cycles per multiplexing slice (default 65536)\n" \
	"  --charge            charge handler and daemon cycles to the program\n" \
	"  --no-truth          keep no truth (cycles at the head, exact events)\n" \
	"  --cost HIT:MISS:INTR:DRAIN  cycles per sample on a hash hit / miss, per\n" \
	"                      interrupt delivery, per drained entry (416:700:214:175)\n" \
	"  --table-buckets N   driver hash buckets of 4 entries (default 4096)\n" \
	"  --buffer-entries N  entries per overflow buffer (default 8192)\n"

#endif
