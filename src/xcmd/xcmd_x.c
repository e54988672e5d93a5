/*
 * xcmd_x.c — gdb's `x/NFU ADDR`: examine guest memory. N items (default 1)
 * in format F (x hex, d signed, u unsigned; default x) of unit U (b 1, h 2,
 * w 4, g 8 bytes; default w), several to a line with the address and its
 * symbol. Memory is the functional state at fetch, which runs ahead of
 * commit (as `info registers`).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "guest/guest.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "isa/mem.h"
#include "xcmd.h"

#define X_MAX_ITEMS 4096

static int x_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	uint64_t count = 1;
	char fmt = 'x', unit = 'w';
	const char *slash = strchr(argv[0], '/');
	if (slash) {
		const char *p = slash + 1;
		if (isdigit((unsigned char)*p)) {
			count = 0;
			for (; isdigit((unsigned char)*p); p++)   /* (every digit read: a long N is too large, not a letter) */
				if (count <= X_MAX_ITEMS)
					count = count * 10 + (uint64_t)(*p - '0');
		}
		for (; *p; p++) {
			if (strchr("xdu", *p))
				fmt = *p;
			else if (strchr("bhwg", *p))
				unit = *p;
			else
				return explorer_error(x, "x/NFU: unknown letter '%c' (F: x d u; U: b h w g)", *p);
		}
		if (count == 0 || count > X_MAX_ITEMS)
			return explorer_error(x, "x/NFU: N from 1 to %d", X_MAX_ITEMS);
	}
	if (!*args)
		return explorer_error(x, "usage: x[/NFU] ADDR  (as gdb: x/4xg sp)");
	uint64_t addr;
	if (explorer_parse_addr(x, args, &addr) < 0)
		return -1;
	int size = unit == 'b' ? 1 : unit == 'h' ? 2 : unit == 'w' ? 4 : 8;
	int per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
	char line[512];
	size_t used = 0;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t a = addr + i * (uint64_t)size, v = 0, bad;
		if (mem_read_bytes(guest_mem(x->guest), a, &v, (size_t)size, 0, &bad) < 0) {
			if (used)
				explorer_printf(x, "%s\n", line);
			return explorer_error(x, "cannot access memory at address 0x%llx", (unsigned long long)bad);
		}
		if (i % (uint64_t)per_line == 0) {
			if (used)
				explorer_printf(x, "%s\n", line);
			used = (size_t)snprintf(line, sizeof line, "0x%llx", (unsigned long long)a);
			/* the symbol, when the address is inside one (not the stack) */
			uint64_t off;
			const struct symbol *sym = symtab_lookup(program_symbols(x->prog), a, &off);
			if (sym && (off < sym->size || (!sym->size && off < 0x1000)))
				used += (size_t)snprintf(line + used, sizeof line - used, " <%s+%llu>", sym->name,
							 (unsigned long long)off);
			used += (size_t)snprintf(line + used, sizeof line - used, ":");
		}
		int64_t sv = size == 8 ? (int64_t)v : size == 4 ? (int32_t)v : size == 2 ? (int16_t)v : (int8_t)v;
		if (fmt == 'x')
			used += (size_t)snprintf(line + used, sizeof line - used, "\t0x%0*llx", size * 2,
						 (unsigned long long)v);
		else if (fmt == 'd')
			used += (size_t)snprintf(line + used, sizeof line - used, "\t%lld", (long long)sv);
		else
			used += (size_t)snprintf(line + used, sizeof line - used, "\t%llu", (unsigned long long)v);
	}
	if (used)
		explorer_printf(x, "%s\n", line);
	return 0;
}

static const struct xcmd x_cmd = {
	.name = "x", .usage = "x[/NFU] ADDR", .flags = XCMD_FORMAT,
	.summary = "examine guest memory, as gdb's x (x/4xg sp)",
	.help =
	"N items (default 1) of format F (x hex, d signed, u unsigned; default x) and\n"
	"unit U (b 1, h 2, w 4, g 8 bytes; default w) from ADDR, an expression\n"
	"(x/8xb k_buf, x/2dg sp+16). Memory is the functional state at fetch, which\n"
	"runs ahead of commit, as `info registers`.",
	.complete = XC_EXPR, .exec = x_exec,
};
XCMD_REGISTER(x_cmd);
