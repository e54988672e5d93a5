/*
 * xcmd_print.c — print EXPR: evaluate an explorer expression now.
 */
#include "explorer/explorer.h"
#include "explorer/explorer_expr.h"
#include "guest/program.h"
#include "guest/symtab.h"
#include "xcmd.h"

static int print_exec(struct explorer *x, int argc, char **argv, const char *args)
{
	if (!*args)
		return explorer_error(x, "usage: print EXPR");
	struct xval v;
	if (xexpr_eval_arg(x, args, &v) < 0)
		return -1;
	if (v.is_str) {
		char shown[4 * sizeof v.str];   /* escaped: the string came from a script */
		explorer_escape(shown, sizeof shown, v.str);
		explorer_printf(x, "= \"%s\"\n", shown);
		return 0;
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
	.name = "print", .aliases = "p inspect", .usage = "print EXPR",
	.summary = "evaluate an expression",
	.help =
	"C operators on 64-bit integers, numbers, \"strings\", and names:\n"
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
