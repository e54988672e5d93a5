/*
 * xcmd_print.c — print EXPR: evaluate an explorer expression now.
 */
#include <stdio.h>
#include <string.h>
#include "explorer/explorer.h"
#include "explorer/explorer_expr.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "xcmd.h"

/* "d" for a binary digit string of v, for print/t */
static void binary(uint64_t v, char *buf)
{
	int n = 0, top = 63;
	while (top > 0 && !(v >> top & 1))
		top--;
	for (int i = top; i >= 0; i--)
		buf[n++] = (char)('0' + (v >> i & 1));
	buf[n] = 0;
}

static int print_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	const char *slash = strchr(argv[0], '/');
	char fmt = slash ? slash[1] : 0;
	if (slash && (!fmt || slash[2] || !strchr("xdutf", fmt)))
		return explorer_error(x, "print/FMT: FMT is one of x (hex), d (signed), u (unsigned), t (binary), "
				      "f (decimal number)");
	if (!*args)
		return explorer_error(x, "usage: print[/FMT] EXPR");
	struct xval v;
	if (xexpr_eval_arg(x, args, &v) < 0)
		return -1;
	if (v.is_str) {
		char shown[4 * sizeof v.str];   /* escaped: the string came from a script */
		explorer_escape(shown, sizeof shown, v.str);
		explorer_printf(x, "= \"%s\"\n", shown);
		return 0;
	}
	if (v.is_float && fmt != 'x' && fmt != 'd' && fmt != 'u' && fmt != 't') {
		explorer_printf(x, "= %.10g\n", v.fnum);
		return 0;
	}
	char bits[72];
	switch (fmt) {
	case 'x': explorer_printf(x, "= 0x%llx\n", (unsigned long long)v.num); return 0;
	case 'd': explorer_printf(x, "= %lld\n", (long long)v.num); return 0;
	case 'u': explorer_printf(x, "= %llu\n", (unsigned long long)v.num); return 0;
	case 't': binary((uint64_t)v.num, bits); explorer_printf(x, "= %s\n", bits); return 0;
	case 'f': explorer_printf(x, "= %.10g\n", (double)v.num); return 0;
	}
	uint64_t off;
	const struct symbol *s = symtab_lookup(program_symbols(x->prog), (uint64_t)v.num, &off);
	if (s && (off < s->size || (!s->size && off == 0)))
		explorer_printf(x, "= 0x%llx <%s+%llu>\n", (unsigned long long)v.num, s->name,
				(unsigned long long)off);
	else if (v.num >= 10 || v.num < -9)
		explorer_printf(x, "= %lld (0x%llx)\n", (long long)v.num, (unsigned long long)v.num);
	else
		explorer_printf(x, "= %lld\n", (long long)v.num);
	return 0;
}

static const struct xcmd print_cmd = {
	.name = "print", .aliases = "p inspect", .usage = "print[/FMT] EXPR", .flags = XCMD_FORMAT,
	.summary = "evaluate an expression",
	.help =
	"/FMT as in gdb: print/x hex, /d signed, /u unsigned, /t binary, /f decimal.\n"
	"C operators on 64-bit integers, numbers, \"strings\", and names; a number\n"
	"with a point is a double (print insns * 1.0 / cycle is the IPC):\n"
	"  cycle insns rob           position, committed instructions, ROB occupancy\n"
	"  pc sym seq                the ROB head's pc, its symbol name, its sequence number\n"
	"  x0..x30 w0..w30 sp lr fp nzcv   guest registers (the functional state at\n"
	"                            fetch, which runs ahead of commit)\n"
	"  stop_pc stop_seq          the instruction of the last stop (0: none)\n"
	"  SYMBOL                    a symbol's address;  *EXPR  8 bytes of guest memory\n"
	"In a condition, pc sym seq addr start end latency kind wrongpath mispredicted\n"
	"describe the event (or the instruction) being tested and cycle the cycle it\n"
	"happens in.\n"
	"A leading $ is allowed ($pc). sym and kind compare with == and != against\n"
	"\"strings\" or symbol names.",
	.complete = XC_EXPR, .exec = print_exec,
};
XCMD_REGISTER(print_cmd);
