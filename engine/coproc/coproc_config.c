/*
 * coproc_config.c — the co-processor's sizes and costs as "key=value"
 * settings (ivx coproc -C KEY=VALUE, the explorer's `coproc set`).
 *
 * The paper's transcription lost its numbers; the defaults below are our
 * choices, explained in docs/coproc.md (Configuration).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coproc.h"

void coproc_config_defaults(struct coproc_config *c)
{
	memset(c, 0, sizeof *c);
	c->buffer = 32;
	c->cam = 128;
	c->data = 1024;
	c->ucode = 256;
	c->ignore = 4096;
	c->clock_div = 1;
	c->policy = COPROC_DROP;
	c->int_cycles = 400;
	c->slot_cycles = 20;
	c->mask_cycles = 10;
	c->mispredict = 2;
	c->watchdog = 10000;
	c->timer = 50000;
	c->resample = 0;
	c->profile = 4096;
	c->seed = 1;
	c->tagrate = 0;
}

const char *coproc_policy_name(uint32_t policy)
{
	return policy == COPROC_STALL ? "stall" : policy == COPROC_REPLACE ? "replace" : "drop";
}

const char *coproc_config_value_word(const char *key, int i)
{
	if (strcmp(key, "policy") || i < COPROC_STALL || i > COPROC_REPLACE)
		return NULL;
	return coproc_policy_name((uint32_t)i);
}

struct key {
	const char *name;
	size_t off;
	int is64;
	uint64_t lo, hi;
	const char *help;
};

#define K32(f, lo, hi, h) { #f, offsetof(struct coproc_config, f), 0, lo, hi, h }
#define K64(f, lo, hi, h) { #f, offsetof(struct coproc_config, f), 1, lo, hi, h }
static const struct key keys[] = {
	K32(buffer, 1, COPROC_MAX_BUFFER, "sample buffer records"),
	K32(cam, 1, COPROC_MAX_CAM, "associative array (CAM) entries = slots"),
	K32(data, 16, COPROC_MAX_DATA, "data array words (64-bit)"),
	K32(ucode, 16, COPROC_MAX_UCODE, "microcode array words"),
	K32(ignore, 64, 65536, "PC filter ignore-bit table entries (a power of two)"),
	K32(clock_div, 1, 16, "core cycles per co-processor cycle"),
	K32(policy, 0, 2,
	    "full sample buffer: stall (retirement waits), drop (count and discard the new record) or replace "
	    "(it takes a random queued record's place)"),
	K32(int_cycles, 0, 1000000, "interrupt handler: fixed cost in core cycles"),
	K32(slot_cycles, 0, 100000, "interrupt handler: cost per slot or entry read"),
	K32(mask_cycles, 0, 100000, "interrupt handler: cost per ignore bit set"),
	K32(mispredict, 0, 64, "co-processor cycles lost to a mispredicted microbranch"),
	K32(watchdog, 16, 100000000, "co-processor cycles one record may take before it is abandoned"),
	K64(timer, 1000, 1000000000000ull, "main-processor timer period in cycles (low-yield partitions, completion)"),
	K64(resample, 0, 1000000000000ull,
	    "cycles between re-samplings: masked loads are unmasked to be re-checked (0: never; checked at timer ticks)"),
	K32(profile, 16, COPROC_MAX_PROFILE, "entries of the in-memory profile the handler builds"),
	K64(seed, 0, UINT64_MAX, "LFSR seed"),
	K32(tagrate, 0, 65536,
	    "tag 1 in N of the instructions the filters pass, at random (a power of two; 0: adapt N to the buffer's "
	    "drops)"),
};
#define NKEYS (int)(sizeof keys / sizeof keys[0])

const char *coproc_config_key(int i) { return i >= 0 && i < NKEYS ? keys[i].name : NULL; }
const char *coproc_config_help(int i) { return i >= 0 && i < NKEYS ? keys[i].help : NULL; }

int coproc_config_get(const struct coproc_config *c, int i, char *buf, size_t n)
{
	if (i < 0 || i >= NKEYS)
		return -1;
	const char *base = (const char *)c + keys[i].off;
	if (!strcmp(keys[i].name, "policy"))
		snprintf(buf, n, "%s", coproc_policy_name(c->policy));
	else if (keys[i].is64)
		snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)base);
	else
		snprintf(buf, n, "%u", *(const uint32_t *)base);
	return 0;
}

int coproc_config_set(struct coproc_config *c, const char *a, struct ivx_err *err)
{
	const char *eq = strchr(a, '=');
	if (!eq)
		return ivx_error(err, IVX_EUSAGE, "coproc setting '%s' is not KEY=VALUE", a);
	size_t kl = (size_t)(eq - a);
	const char *v = eq + 1;
	for (int i = 0; i < NKEYS; i++) {
		if (strlen(keys[i].name) != kl || strncmp(keys[i].name, a, kl))
			continue;
		uint64_t x;
		if (!strcmp(keys[i].name, "policy")) {
			if (!strcmp(v, "stall"))
				x = COPROC_STALL;
			else if (!strcmp(v, "drop"))
				x = COPROC_DROP;
			else if (!strcmp(v, "replace"))
				x = COPROC_REPLACE;
			else
				return ivx_error(err, IVX_EUSAGE, "coproc policy: '%s' is not stall, drop or replace", v);
		} else {
			char *end;
			if (!*v || *v == '-')
				return ivx_error(err, IVX_EUSAGE, "coproc %s: '%s' is not a number", keys[i].name, v);
			/* decimal or 0x hex (a leading zero is not octal), with the
			 * command line's k/M/G suffixes (10^3, 10^6, 10^9) */
			errno = 0;
			int hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
			x = strtoull(v, &end, hex ? 16 : 10);
			uint64_t mul = *end == 'k' || *end == 'K' ? 1000 : *end == 'M' ? 1000000 : *end == 'G' ? 1000000000 : 1;
			if (mul > 1 && end > v && !hex)
				end++;
			if (*end || end == v)
				return ivx_error(err, IVX_EUSAGE, "coproc %s: '%s' is not a number", keys[i].name, v);
			if (x > UINT64_MAX / mul)
				errno = ERANGE;
			x *= mul;
			if (errno == ERANGE || x < keys[i].lo || x > keys[i].hi)
				return ivx_error(err, IVX_EUSAGE, "coproc %s: %s is outside %llu..%llu", keys[i].name, v,
						 (unsigned long long)keys[i].lo, (unsigned long long)keys[i].hi);
			if ((!strcmp(keys[i].name, "ignore") || !strcmp(keys[i].name, "tagrate")) && (x & (x - 1)))
				return ivx_error(err, IVX_EUSAGE, "coproc %s: %llu is not a power of two", keys[i].name,
						 (unsigned long long)x);
		}
		char *base = (char *)c + keys[i].off;
		if (keys[i].is64)
			*(uint64_t *)base = x;
		else
			*(uint32_t *)base = (uint32_t)x;
		return 0;
	}
	return ivx_error(err, IVX_EUSAGE, "unknown coproc setting '%.*s' (see ivx coproc --help)", (int)kl, a);
}
