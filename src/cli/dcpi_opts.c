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

int dcpi_opts_parse(struct dcpi_config *c, int argc, char **argv, int i, struct ivx_err *err)
{
	const char *a = argv[i];
	if (!strcmp(a, "--charge")) {
		c->charge = 1;
		return 1;
	}
	if (!strcmp(a, "--no-truth")) {
		c->truth_capacity = 0;
		return 1;
	}
	static const char *const valued[] = { "--events", "--period", "--skid", "--counters", "--mux-cycles",
					      "--cost", "--table-buckets", "--buffer-entries", "--seed", NULL };
	int k = 0;
	while (valued[k] && strcmp(a, valued[k]))
		k++;
	if (!valued[k])
		return 0;
	if (i + 1 >= argc)
		return ivx_error(err, IVX_EUSAGE, "option %s needs a value", a);
	const char *v = argv[i + 1];
	uint64_t n;
	int rc = IVX_OK;
	switch (k) {
	case 0: rc = dcpi_parse_events(v, &c->events, err); break;
	case 1: rc = dcpi_parse_period(c, v, err); break;
	case 2: if ((rc = number(a, v, 1000000, &n, err)) == 0) c->skid = (uint32_t)n; break;
	case 3:
		if ((rc = number(a, v, DCPI_MAX_COUNTERS, &n, err)) == 0 && !n)
			rc = ivx_error(err, IVX_EUSAGE, "--counters: at least 1");
		c->counters = (int)n;
		break;
	case 4:
		if ((rc = number(a, v, UINT32_MAX, &n, err)) == 0 && !n)
			rc = ivx_error(err, IVX_EUSAGE, "--mux-cycles: at least 1");
		c->mux_cycles = n;
		break;
	case 5: rc = parse_cost(c, v, err); break;
	case 6: if ((rc = number(a, v, 1u << 24, &n, err)) == 0) c->table_buckets = (uint32_t)n; break;
	case 7: if ((rc = number(a, v, 1u << 24, &n, err)) == 0) c->buffer_entries = (uint32_t)n; break;
	case 8: if ((rc = number(a, v, UINT64_MAX, &n, err)) == 0) c->seed = n; break;
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
	static const char *const names[] = { "--events", "--period", "--skid", "--counters", "--mux-cycles",
					     "--charge", "--no-truth", "--cost", "--table-buckets",
					     "--buffer-entries", "--seed" };
	if (i < 0 || i >= (int)(sizeof names / sizeof names[0]))
		return NULL;
	size_t k = 0;
	buf[0] = 0;
	switch (i) {
	case 0:
	case 1:
		for (int e = 0; e < DCPI_EVENT_COUNT && k < n; e++)
			if (c->events >> e & 1) {
				if (i == 0)
					k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", dcpi_event_name(e));
				else
					k += (size_t)snprintf(buf + k, n - k, "%s%s=%llu:%llu", k ? " " : "",
							      dcpi_event_name(e), (unsigned long long)c->period[e],
							      (unsigned long long)c->delta[e]);
			}
		break;
	case 2: snprintf(buf, n, "%u", c->skid); break;
	case 3: snprintf(buf, n, "%d", c->counters); break;
	case 4: snprintf(buf, n, "%llu", (unsigned long long)c->mux_cycles); break;
	case 5: snprintf(buf, n, "%s", c->charge ? "on" : "off"); break;
	case 6: snprintf(buf, n, "%s", c->truth_capacity ? "off" : "on"); break;
	case 7: snprintf(buf, n, "%u:%u:%u:%u", c->cost_hit, c->cost_miss, c->cost_intr, c->cost_drain_entry); break;
	case 8: snprintf(buf, n, "%u", c->table_buckets); break;
	case 9: snprintf(buf, n, "%u", c->buffer_entries); break;
	case 10: snprintf(buf, n, "%llu", (unsigned long long)c->seed); break;
	}
	return names[i];
}
