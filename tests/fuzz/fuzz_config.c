/*
 * fuzz_config.c — libFuzzer harness: machine configurations.
 *
 * The input is an INI file, optionally followed by a line "%%" and then
 * `-o` overrides, one "section.key=value" a line (at most 64, as on the
 * command line). The file is read with
 * config_load_text on top of the defaults, each override applied with
 * config_set, and the result checked with config_validate; every key is
 * then read back with config_get. Each refusal must carry a one-line
 * message, and a configuration that validates must keep the invariants
 * the core relies on (checked below).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/config.h"

/* The command line takes at most this many -o (RUNOPTS_MAX_OVERRIDES). */
#define FUZZ_MAX_OVERRIDES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must_have_message(const struct ivx_err *err)
{
	if (!err->msg[0] || strchr(err->msg, '\n'))
		abort();
}

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct machine_config c;
	struct ivx_err err = { 0 };
	config_defaults(&c);
	/* Split off the overrides at the first "\n%%\n" (or a leading "%%\n"). */
	size_t ini_len = size, ov_at = size;
	if (size >= 3 && !memcmp(data, "%%\n", 3)) {
		ini_len = 0, ov_at = 3;
	} else {
		for (size_t i = 0; i + 4 <= size; i++)
			if (!memcmp(data + i, "\n%%\n", 4)) {
				ini_len = i + 1, ov_at = i + 4;
				break;
			}
	}
	if (config_load_text(&c, (const char *)data, ini_len, "fuzz.ini", &err) < 0) {
		must_have_message(&err);
		return 0;
	}
	char line[512];
	int overrides = 0;
	for (size_t at = ov_at; at < size && overrides < FUZZ_MAX_OVERRIDES; overrides++) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t take = len < sizeof line ? len : sizeof line - 1;
		memcpy(line, data + at, take);
		line[take] = 0;
		at += len + 1;
		if (config_set(&c, line, &err) < 0)
			must_have_message(&err);
	}
	if (config_validate(&c, &err) < 0) {
		must_have_message(&err);
		return 0;
	}
	/* What the core model builds its structures from. */
	if (!c.rob_size || !c.fetch_width || !c.commit_width || !c.issue_width)
		abort();
	if (!pow2(c.l1i.line) || !pow2(c.l1d.line) || !pow2(c.l2.line))
		abort();
	char buf[128];
	for (size_t i = 0; config_key_name(i); i++)
		if (config_get(&c, config_key_name(i), buf, sizeof buf, &err) < 0)
			abort();   /* every listed key can be read back */
	return 0;
}
