/*
 * dcpi_opts.c — parsing of the sampling options (see dcpi_opts.h).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "dcpi_opts.h"

static int number(const char *opt, const char *s, uint64_t max, uint64_t *out, struct ivx_err *err)
{
	if (cli_parse_u64(s, out) < 0 || *out > max)
		return ivx_error(err, IVX_EUSAGE, "%s: '%s' is not a number up to %llu", opt, s,
				 (unsigned long long)max);
	return IVX_OK;
}

static int parse_cost(struct dcpi_config *c, const char *s, struct ivx_err *err)
{
	unsigned h, m, i, d;
	char tail;
	if (sscanf(s, "%u:%u:%u:%u%c", &h, &m, &i, &d, &tail) != 4 || h > 1000000 || m > 1000000 ||
	    i > 1000000 || d > 1000000)
		return ivx_error(err, IVX_EUSAGE, "--cost: '%s' is not HIT:MISS:INTR:DRAIN (cycles, up to 10^6)", s);
	c->cost_hit = h;
	c->cost_miss = m;
	c->cost_intr = i;
	c->cost_drain_entry = d;
	return IVX_OK;
}

/* The options, in the order `sampling` lists them; `valued` takes a value. */
enum sampling_option {
	OPT_EVENTS, OPT_PERIOD, OPT_SKID, OPT_COUNTERS, OPT_MUX_CYCLES, OPT_CHARGE, OPT_NO_TRUTH,
	OPT_COST, OPT_TABLE_BUCKETS, OPT_BUFFER_ENTRIES, OPT_SEED, N_OPTIONS
};

static const struct {
	const char *name;
	int valued;
} options[N_OPTIONS] = {
	[OPT_EVENTS] = { "--events", 1 },
	[OPT_PERIOD] = { "--period", 1 },
	[OPT_SKID] = { "--skid", 1 },
	[OPT_COUNTERS] = { "--counters", 1 },
	[OPT_MUX_CYCLES] = { "--mux-cycles", 1 },
	[OPT_CHARGE] = { "--charge", 0 },
	[OPT_NO_TRUTH] = { "--no-truth", 0 },
	[OPT_COST] = { "--cost", 1 },
	[OPT_TABLE_BUCKETS] = { "--table-buckets", 1 },
	[OPT_BUFFER_ENTRIES] = { "--buffer-entries", 1 },
	[OPT_SEED] = { "--seed", 1 },
};

const char *dcpi_opts_name(int i)
{
	return i >= 0 && i < N_OPTIONS ? options[i].name : NULL;
}

int dcpi_opts_parse(struct dcpi_config *c, int argc, char **argv, int i, struct ivx_err *err)
{
	const char *a = argv[i];
	int k = 0;
	while (k < N_OPTIONS && strcmp(a, options[k].name))
		k++;
	if (k == N_OPTIONS)
		return 0;
	if (k == OPT_CHARGE || k == OPT_NO_TRUTH) {
		if (k == OPT_CHARGE)
			c->charge = 1;
		else
			c->truth_capacity = 0;
		return 1;
	}
	if (i + 1 >= argc)
		return ivx_error(err, IVX_EUSAGE, "option %s needs a value", a);
	const char *v = argv[i + 1];
	uint64_t n;
	int rc = IVX_OK;
	switch ((enum sampling_option)k) {
	case OPT_EVENTS: rc = dcpi_parse_events(v, &c->events, err); break;
	case OPT_PERIOD: rc = dcpi_parse_period(c, v, err); break;
	case OPT_SKID: if ((rc = number(a, v, 1000000, &n, err)) == 0) c->skid = (uint32_t)n; break;
	case OPT_COUNTERS:
		if ((rc = number(a, v, DCPI_MAX_COUNTERS, &n, err)) == 0 && !n)
			rc = ivx_error(err, IVX_EUSAGE, "--counters: at least 1");
		c->counters = (int)n;
		break;
	case OPT_MUX_CYCLES:
		if ((rc = number(a, v, UINT32_MAX, &n, err)) == 0 && !n)
			rc = ivx_error(err, IVX_EUSAGE, "--mux-cycles: at least 1");
		c->mux_cycles = n;
		break;
	case OPT_COST: rc = parse_cost(c, v, err); break;
	case OPT_TABLE_BUCKETS: if ((rc = number(a, v, 1u << 24, &n, err)) == 0) c->table_buckets = (uint32_t)n; break;
	case OPT_BUFFER_ENTRIES: if ((rc = number(a, v, 1u << 24, &n, err)) == 0) c->buffer_entries = (uint32_t)n; break;
	case OPT_SEED: if ((rc = number(a, v, UINT64_MAX, &n, err)) == 0) c->seed = n; break;
	case OPT_CHARGE: case OPT_NO_TRUTH: case N_OPTIONS: break;
	}
	return rc < 0 ? -1 : 2;
}

void dcpi_opts_describe(const struct dcpi_config *c, char *buf, size_t n)
{
	size_t k = 0;
	k += (size_t)snprintf(buf + k, n - k, "events");
	for (int e = 0; e < DCPI_EVENT_COUNT && k < n; e++)
		if (c->events >> e & 1)
			k += (size_t)snprintf(buf + k, n - k, " %s:%llu-%llu", dcpi_event_name(e),
					      (unsigned long long)(c->period[e] - c->delta[e]),
					      (unsigned long long)c->period[e]);
	if (k < n)
		snprintf(buf + k, n - k, "; %d counters, skid %u, seed %llu%s", c->counters, c->skid,
			 (unsigned long long)c->seed, c->charge ? ", charged" : "");
}

const char *dcpi_opts_setting(const struct dcpi_config *c, int i, char *buf, size_t n)
{
	if (i < 0 || i >= N_OPTIONS)
		return NULL;
	size_t k = 0;
	buf[0] = 0;
	switch ((enum sampling_option)i) {
	case OPT_EVENTS:
	case OPT_PERIOD:
		for (int e = 0; e < DCPI_EVENT_COUNT && k < n; e++)
			if (c->events >> e & 1) {
				if (i == OPT_EVENTS)
					k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", dcpi_event_name(e));
				else
					k += (size_t)snprintf(buf + k, n - k, "%s%s=%llu:%llu", k ? " " : "",
							      dcpi_event_name(e), (unsigned long long)c->period[e],
							      (unsigned long long)c->delta[e]);
			}
		break;
	case OPT_SKID: snprintf(buf, n, "%u", c->skid); break;
	case OPT_COUNTERS: snprintf(buf, n, "%d", c->counters); break;
	case OPT_MUX_CYCLES: snprintf(buf, n, "%llu", (unsigned long long)c->mux_cycles); break;
	case OPT_CHARGE: snprintf(buf, n, "%s", c->charge ? "on" : "off"); break;
	case OPT_NO_TRUTH: snprintf(buf, n, "%s", c->truth_capacity ? "off" : "on"); break;
	case OPT_COST: snprintf(buf, n, "%u:%u:%u:%u", c->cost_hit, c->cost_miss, c->cost_intr, c->cost_drain_entry); break;
	case OPT_TABLE_BUCKETS: snprintf(buf, n, "%u", c->table_buckets); break;
	case OPT_BUFFER_ENTRIES: snprintf(buf, n, "%u", c->buffer_entries); break;
	case OPT_SEED: snprintf(buf, n, "%llu", (unsigned long long)c->seed); break;
	case N_OPTIONS: break;
	}
	return options[i].name;
}
