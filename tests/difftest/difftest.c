/*
 * difftest.c — differential random tester: ivx's functional emulator
 * against qemu-aarch64 on random A64 integer blocks.
 *
 *   difftest [-s SEED] [-n BLOCKS] [--first I] [--batch B] [--ivx PATH]
 *            [--qemu PATH] [--work DIR] [--forms a,b] [--qemu-only]
 *            [--check-enc] [--list] [--max-reduce K] [--timeout S]
 *            [--elf OUT] [-v]        (docs/difftest.md)
 *
 * Blocks first..first+n-1 of the seed are laid out B per ELF (dt_elf.c)
 * and each ELF runs under both emulators; their outputs are one fixed-size
 * record per block, compared record by record. A failing block is reduced:
 * all its prefixes (0..n instructions) go into one more ELF, and the first
 * prefix whose records differ names the first differing instruction, which
 * is reported with its encoding, disassembly, the operand values before it
 * and every register, flag and memory difference after it. The last line is
 * "N passed, M failed"; the exit status is 1 when anything failed.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dt.h"

struct dt_opts {
	uint64_t seed, first, count;
	int batch, timeout, max_reduce, qemu_only, check_enc, list, verbose;
	long min_insns;             /* fail if a selected form got fewer instructions */
	const char *ivx, *qemu, *work, *elf;
	uint64_t mask[2];
};

struct dt_ctx {
	struct dt_opts o;
	csh cs;
	char path[4096];
	long passed, failed;
	char sigs[64][64];          /* signatures already reported in full */
	int nsigs, reduced;
	long bad_encodings;         /* --check-enc: words capstone disagrees with */
	long form_count[DT_MAX_FORMS]; /* instructions generated per form */
};

/* --- disassembly -------------------------------------------------------- */

static void dt_disasm(struct dt_ctx *c, uint32_t w, uint64_t pc, char *mn, size_t mnsz, char *txt, size_t tsz)
{
	cs_insn *in;
	uint8_t bytes[4];
	memcpy(bytes, &w, 4);
	if (cs_disasm(c->cs, bytes, 4, pc, 1, &in) == 1) {
		snprintf(mn, mnsz, "%s", in->mnemonic);
		snprintf(txt, tsz, "%s %s", in->mnemonic, in->op_str);
		cs_free(in, 1);
	} else {
		snprintf(mn, mnsz, "(invalid)");
		snprintf(txt, tsz, "(capstone: invalid)");
	}
}

static int dt_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	if (strcmp(list, "*") == 0)             /* forms drawn through ivx's decoder */
		return 1;
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && memcmp(p, word, n) == 0)
			return 1;
		p += len;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/* Block addresses used when no ELF is involved (listing, encoding check). */
#define DT_FAKE_BASE 0x410000ull
#define DT_FAKE_POOL (DT_FAKE_BASE - 0x100)   /* any address works for checking encodings */
#define DT_POOL_OF(base) ((base) - 4 * (DT_PROLOGUE_WORDS + DT_POOL_WORDS))
static uint64_t dt_end_of(uint64_t base, int n) { return base + 4 * (uint64_t)(n + DT_EPILOGUE_WORDS); }
static uint64_t dt_fake_end(const struct dt_block *b) { return dt_end_of(DT_FAKE_BASE, b->n); }

static void dt_list(struct dt_ctx *c, const struct dt_block *b, uint64_t base, int mark)
{
	uint64_t end = dt_end_of(base, b->n), pool = DT_POOL_OF(base);
	for (int i = 0; i < b->n; i++) {
		uint32_t w = dt_elf_encode(b, i, base, end, pool);
		char mn[32], txt[224];
		dt_disasm(c, w, base + 4 * (uint64_t)i, mn, sizeof mn, txt, sizeof txt);
		printf("  %s%3d  %08" PRIx64 "  %08x  %-40s %s%s\n", i == mark ? "=>" : "  ", i,
		       base + 4 * (uint64_t)i, w, txt, dt_forms[b->insn[i].form].name,
		       b->insn[i].setup ? " (setup)" : "");
	}
}

/* Every generated word must disassemble to a mnemonic its form allows. */
static long dt_check_encodings(struct dt_ctx *c, const struct dt_block *b, uint64_t index)
{
	long bad = 0;
	for (int i = 0; i < b->n; i++) {
		const struct dt_insn *in = &b->insn[i];
		uint32_t w = dt_elf_encode(b, i, DT_FAKE_BASE, dt_fake_end(b), DT_FAKE_POOL);
		char mn[32], txt[224];
		dt_disasm(c, w, DT_FAKE_BASE + 4 * (uint64_t)i, mn, sizeof mn, txt, sizeof txt);
		/* setup: operand loads, and the FPCR read-modify-write before FJCVTZS */
		const char *allowed = in->setup ? "add sub mov movz movn movk adr mrs and msr" : dt_forms[in->form].mnemonics;
		if (!dt_word_in(allowed, mn)) {
			if (bad == 0 || c->o.verbose)
				printf("encoding check: block %" PRIu64 " insn %d: %08x = \"%s\" is not a %s form\n",
				       index, i, w, txt, dt_forms[in->form].name);
			bad++;
		}
	}
	return bad;
}

/* --- running --------------------------------------------------------------- */

/* Lay `bl` out in `path` and run qemu (and ivx when want_ivx) on it;
 * addr (optional) gets the blocks' body addresses. */
static int dt_run_both(struct dt_ctx *c, const char *path, const struct dt_block *const *bl, int nb,
		       struct dt_result *q, struct dt_result *v, int want_ivx, uint64_t *addr)
{
	memset(q, 0, sizeof *q);
	memset(v, 0, sizeof *v);
	if (dt_elf_write(path, bl, nb, addr) != 0) {
		fprintf(stderr, "difftest: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *qa[] = { (char *)c->o.qemu, (char *)path, NULL };
	char *va[] = { (char *)c->o.ivx, "run", "--functional", (char *)path, NULL };
	if (dt_run(qa, c->o.timeout, q) != 0) {
		fprintf(stderr, "difftest: cannot run %s\n", c->o.qemu);
		return -1;
	}
	if (want_ivx && dt_run(va, c->o.timeout, v) != 0) {
		fprintf(stderr, "difftest: cannot run %s\n", c->o.ivx);
		dt_result_free(q);
		return -1;
	}
	return 0;
}

static int dt_has(const struct dt_result *r, int i) { return r->out_len >= (size_t)(i + 1) * DT_RECORD; }

/* Records of block i agree? Missing records never agree. */
static int dt_same(const struct dt_result *q, const struct dt_result *v, int i)
{
	return dt_has(q, i) && dt_has(v, i) &&
	       memcmp(q->out + (size_t)i * DT_RECORD, v->out + (size_t)i * DT_RECORD, DT_RECORD) == 0;
}

static uint64_t rd64(const uint8_t *p) { uint64_t x; memcpy(&x, p, 8); return x; }

static void dt_print_nzcv(const char *who, uint64_t f)
{
	printf(" %s %c%c%c%c", who, f >> 31 & 1 ? 'N' : '-', f >> 30 & 1 ? 'Z' : '-',
	       f >> 29 & 1 ? 'C' : '-', f >> 28 & 1 ? 'V' : '-');
	if (f & ~0xf0000000ull)
		printf("(+%#" PRIx64 ")", (uint64_t)(f & ~0xf0000000ull));
}

static void dt_print_diff(const uint8_t *q, const uint8_t *v)
{
	for (int r = 0; r < 31; r++)
		if (rd64(q + 8 * r) != rd64(v + 8 * r))
			printf("    x%-2d    qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", r, rd64(q + 8 * r), rd64(v + 8 * r));
	if (rd64(q + DT_OFF_NZCV) != rd64(v + DT_OFF_NZCV)) {
		printf("    nzcv  ");
		dt_print_nzcv("qemu", rd64(q + DT_OFF_NZCV));
		dt_print_nzcv(" ivx", rd64(v + DT_OFF_NZCV));
		printf("\n");
	}
	if (rd64(q + DT_OFF_TPIDR) != rd64(v + DT_OFF_TPIDR))
		printf("    tpidr  qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", rd64(q + DT_OFF_TPIDR), rd64(v + DT_OFF_TPIDR));
	if (rd64(q + DT_OFF_SP) != rd64(v + DT_OFF_SP))
		printf("    sp     qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", rd64(q + DT_OFF_SP), rd64(v + DT_OFF_SP));
	if (rd64(q + DT_OFF_MARK) != rd64(v + DT_OFF_MARK))
		printf("    path   qemu %s  ivx %s\n", rd64(q + DT_OFF_MARK) ? "branched to end" : "fell through",
		       rd64(v + DT_OFF_MARK) ? "branched to end" : "fell through");
	if (rd64(q + DT_OFF_FPCR) != rd64(v + DT_OFF_FPCR))
		printf("    fpcr   qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", rd64(q + DT_OFF_FPCR), rd64(v + DT_OFF_FPCR));
	if (rd64(q + DT_OFF_FPSR) != rd64(v + DT_OFF_FPSR))
		printf("    fpsr   qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", rd64(q + DT_OFF_FPSR), rd64(v + DT_OFF_FPSR));
	for (int r = 0; r < 32; r++) {
		const uint8_t *a = q + DT_OFF_V + 16 * r, *b = v + DT_OFF_V + 16 * r;
		if (memcmp(a, b, 16) != 0)
			printf("    v%-2d    qemu %016" PRIx64 "%016" PRIx64 "  ivx %016" PRIx64 "%016" PRIx64 "\n", r,
			       rd64(a + 8), rd64(a), rd64(b + 8), rd64(b));
	}
	int shown = 0, more = 0;
	for (int off = 0; off < DT_SCRATCH; off += 8) {
		const uint8_t *a = q + DT_DUMP_BYTES + off, *b = v + DT_DUMP_BYTES + off;
		if (memcmp(a, b, 8) == 0)
			continue;
		if (shown++ < 8)
			printf("    mem[x28+%3d] qemu %016" PRIx64 "  ivx %016" PRIx64 "\n", off, rd64(a), rd64(b));
		else
			more++;
	}
	if (more)
		printf("    ... %d more differing memory words\n", more);
}

static void dt_print_stderr(const char *who, const struct dt_result *r)
{
	if (r->status < 0)
		printf("    %s timed out (killed, see --timeout)", who);
	else
		printf("    %s exit status %d", who, r->status);
	if (r->err && r->err[0]) {
		const char *e = strchr(r->err, '\n');
		size_t n = e ? (size_t)(e - r->err) : strlen(r->err);
		printf(", stderr: %.*s", (int)(n < 200 ? n : 200), r->err);
	}
	printf("\n");
}

/* --- reduction ------------------------------------------------------------ */

/* The first prefix length whose records disagree (qemu_only: that qemu
 * fails on), or -1. */
static int dt_first_bad(const struct dt_ctx *c, const struct dt_result *q, const struct dt_result *v, int n)
{
	for (int k = 0; k <= n; k++)
		if (c->o.qemu_only ? !dt_has(q, k) : !dt_same(q, v, k))
			return k;
	return -1;
}

/* X register number of a capstone register (x0..x30, w0..w30), or -1. */
static int dt_cs_xreg(csh cs, unsigned reg)
{
	const char *n = reg ? cs_reg_name(cs, reg) : NULL;
	if (!n || (n[0] != 'x' && n[0] != 'w') || n[1] < '0' || n[1] > '9')
		return -1;
	return atoi(n + 1);
}

/* Print the general registers `w` names (per capstone), and NZCV, as they
 * were before it ran. */
static void dt_print_before(struct dt_ctx *c, const uint8_t *before, uint32_t w, uint64_t pc)
{
	int regs[8], nregs = 0;
	cs_insn *in;
	uint8_t bytes[4];
	memcpy(bytes, &w, 4);
	if (cs_disasm(c->cs, bytes, 4, pc, 1, &in) == 1) {
		const cs_arm64 *d = &in->detail->arm64;
		for (int i = 0; i < d->op_count && nregs < 6; i++) {
			const cs_arm64_op *op = &d->operands[i];
			if (op->type == ARM64_OP_REG)
				regs[nregs++] = dt_cs_xreg(c->cs, op->reg);
			else if (op->type == ARM64_OP_MEM) {
				regs[nregs++] = dt_cs_xreg(c->cs, op->mem.base);
				regs[nregs++] = dt_cs_xreg(c->cs, op->mem.index);
			}
		}
		cs_free(in, 1);
	}
	printf("  before:");
	for (int i = 0; i < nregs; i++) {
		int dup = regs[i] < 0;
		for (int j = 0; j < i; j++)
			dup |= regs[j] == regs[i];
		if (!dup)
			printf(" x%d=%#" PRIx64, regs[i], rd64(before + 8 * regs[i]));
	}
	dt_print_nzcv("nzcv", rd64(before + DT_OFF_NZCV));
	printf("  sp=%#" PRIx64 "\n", rd64(before + DT_OFF_SP));
}

static void dt_reduce(struct dt_ctx *c, uint64_t index)
{
	static struct dt_block full, pre[DT_MAX_INSNS + 1];
	const struct dt_block *bl[DT_MAX_INSNS + 1];
	dt_gen_block(&full, c->o.seed, index, c->o.mask);
	for (int k = 0; k <= full.n; k++) {
		dt_block_prefix(&pre[k], &full, k);
		bl[k] = &pre[k];
	}
	/* All prefixes in one ELF: one run of each emulator finds the first
	 * prefix that disagrees. */
	struct dt_result q, v, q1, v1, qb;
	memset(&q1, 0, sizeof q1);
	memset(&v1, 0, sizeof v1);
	memset(&qb, 0, sizeof qb);
	if (dt_run_both(c, c->path, bl, full.n + 1, &q, &v, !c->o.qemu_only, NULL) != 0)
		return;
	c->reduced++;
	int k = dt_first_bad(c, &q, &v, full.n);
	if (k < 0) {
		printf("block %" PRIu64 ": differs in its batch but not alone (state leaking between blocks?)\n", index);
		goto out;
	}

	/* Re-run prefix k alone (kept for reproduction) and prefix k-1 alone
	 * (the state before the instruction): single-block ELFs share their
	 * layout, so addresses in registers agree with the listing. */
	char keep[4200], mn[32], txt[224], sig[64];
	snprintf(keep, sizeof keep, "%s/fail-s%" PRIu64 "-b%" PRIu64 ".elf", c->o.work, c->o.seed, index);
	uint64_t addr[1];
	if (dt_run_both(c, keep, bl + k, 1, &q1, &v1, !c->o.qemu_only, addr) != 0)
		goto out;
	uint64_t base = addr[0], end = dt_end_of(base, k), pool = DT_POOL_OF(base);
	int at = k - 1;
	uint32_t w = at >= 0 ? dt_elf_encode(&pre[k], at, base, end, pool) : 0;
	if (at >= 0) {
		dt_disasm(c, w, base + 4 * (uint64_t)at, mn, sizeof mn, txt, sizeof txt);
		snprintf(sig, sizeof sig, "%s:%s", dt_forms[full.insn[at].form].name, mn);
	} else {
		snprintf(sig, sizeof sig, "prologue/epilogue");
		snprintf(txt, sizeof txt, "(empty block)");
	}
	if (!dt_has(&q1, 0)) {
		printf("\n=== block %" PRIu64 " (seed %" PRIu64 "): qemu fails after instruction %d: %s  (generator bug)\n",
		       index, c->o.seed, at, txt);
		dt_print_stderr("qemu", &q1);
		dt_list(c, &pre[k], base, at);
		goto out;
	}
	int seen = 0;
	for (int i = 0; i < c->nsigs; i++)
		seen |= strcmp(c->sigs[i], sig) == 0;
	if (seen && !c->o.verbose) {
		printf("block %" PRIu64 ": first difference at insn %d: %08x %s  [%s, as above]\n", index, at, w, txt, sig);
		goto out;
	}
	if (!seen && c->nsigs < 64)
		snprintf(c->sigs[c->nsigs++], sizeof c->sigs[0], "%s", sig);

	printf("\n=== block %" PRIu64 " (seed %" PRIu64 "): first difference at instruction %d of %d  [%s]\n",
	       index, c->o.seed, at, full.n, sig);
	if (at >= 0) {
		printf("  %08x  %s\n", w, txt);
		const struct dt_block *prev = &pre[k - 1];
		char bpath[4200];
		snprintf(bpath, sizeof bpath, "%s.before", c->path);
		struct dt_result vb;
		if (dt_run_both(c, bpath, &prev, 1, &qb, &vb, 0, NULL) == 0 && dt_has(&qb, 0))
			dt_print_before(c, qb.out, w, base + 4 * (uint64_t)at);
		unlink(bpath);
	}
	const struct dt_result *rq = &q1, *rv = &v1;
	int kk = 0;
	if (dt_same(&q1, &v1, 0)) {
		printf("  (prefix alone agrees; values below are from the run of all prefixes)\n");
		rq = &q;
		rv = &v;
		kk = k;
	}
	printf("  after (qemu vs ivx):\n");
	if (!dt_has(rv, kk)) {
		printf("    ivx produced no record\n");
		dt_print_stderr("ivx", rv);
	} else {
		dt_print_diff(rq->out + (size_t)kk * DT_RECORD, rv->out + (size_t)kk * DT_RECORD);
	}
	printf("  prefix:\n");
	dt_list(c, &pre[k], base, at);
	printf("  reproduce: %s run --functional %s | xxd  (vs %s %s | xxd; or difftest -s %" PRIu64 " --first %" PRIu64 " -n 1)\n",
	       c->o.ivx, keep, c->o.qemu, keep, c->o.seed, index);
out:
	dt_result_free(&q);
	dt_result_free(&v);
	dt_result_free(&q1);
	dt_result_free(&v1);
	dt_result_free(&qb);
}

/* --- harness self-test ------------------------------------------------------ */

/* Empty blocks must dump exactly their initial state under qemu: this checks
 * the prologue, the dump and the record layout, which a comparison alone
 * cannot (a prologue that loaded nothing would agree under both). */
static int dt_self_test(struct dt_ctx *c)
{
	enum { NB = 32 };
	static struct dt_block blocks[NB];
	const struct dt_block *bl[NB];
	for (int i = 0; i < NB; i++) {
		struct dt_block full;
		dt_gen_block(&full, c->o.seed, c->o.first + (uint64_t)i, c->o.mask);
		dt_block_prefix(&blocks[i], &full, 0);
		bl[i] = &blocks[i];
	}
	struct dt_result q, v;
	if (dt_run_both(c, c->path, bl, NB, &q, &v, 0, NULL) != 0)
		return -1;
	int bad = 0;
	for (int i = 0; i < NB && !bad; i++) {
		if (!dt_has(&q, i)) {
			printf("self-test: qemu produced no record for empty block %d\n", i);
			dt_print_stderr("qemu", &q);
			bad = 1;
			break;
		}
		const uint8_t *r = q.out + (size_t)i * DT_RECORD;
		for (int x = 0; x < 31; x++)
			if (x != DT_BASE_REG && rd64(r + 8 * x) != blocks[i].x[x]) {
				printf("self-test: block %d x%d = %#" PRIx64 ", initialised to %#" PRIx64 "\n",
				       i, x, rd64(r + 8 * x), blocks[i].x[x]);
				bad = 1;
			}
		if (rd64(r + DT_OFF_NZCV) != blocks[i].nzcv || rd64(r + DT_OFF_TPIDR) != blocks[i].tpidr ||
		    rd64(r + DT_OFF_MARK) != 0 || rd64(r + DT_OFF_SP) != rd64(r + 8 * DT_BASE_REG) + DT_SP_OFFSET ||
		    memcmp(r + DT_DUMP_BYTES, blocks[i].scratch, DT_SCRATCH) != 0 ||
		    rd64(r + DT_OFF_FPCR) != blocks[i].fpcr || rd64(r + DT_OFF_FPSR) != blocks[i].fpsr ||
		    memcmp(r + DT_OFF_V, blocks[i].v, sizeof blocks[i].v) != 0) {
			printf("self-test: block %d: NZCV, TPIDR_EL0, marker, SP, FPCR, FPSR, V or scratch not as initialised\n", i);
			bad = 1;
		}
	}
	if (q.out_len != NB * DT_RECORD || q.status != 0) {
		printf("self-test: qemu wrote %zu bytes (expected %d), exit status %d\n", q.out_len, NB * DT_RECORD, q.status);
		bad = 1;
	}
	dt_result_free(&q);
	return bad ? -1 : 0;
}

/* --- the main loop ---------------------------------------------------------- */

static void dt_fail(struct dt_ctx *c, uint64_t index, uint64_t *failures, int *nfail)
{
	c->failed++;
	if (*nfail < c->o.max_reduce)
		failures[(*nfail)++] = index;
	else if (c->o.verbose)
		printf("block %" PRIu64 ": differs (not reduced)\n", index);
}

static int dt_main_loop(struct dt_ctx *c)
{
	int nb_max = c->o.batch;
	struct dt_block *blocks = malloc(sizeof *blocks * (size_t)nb_max);
	const struct dt_block **bl = malloc(sizeof *bl * (size_t)nb_max);
	uint64_t *failures = malloc(sizeof *failures * (size_t)(c->o.max_reduce + 1));
	int nfail = 0, rc = 0, stuck = 0;   /* stuck: batches in a row ivx died in at once */
	long badenc = 0;
	uint64_t pos = c->o.first, end = c->o.first + c->o.count;
	if (!blocks || !bl || !failures)
		rc = -1;
	while (rc == 0 && pos < end) {
		int nb = (int)(end - pos < (uint64_t)nb_max ? end - pos : (uint64_t)nb_max);
		for (int i = 0; i < nb; i++) {
			dt_gen_block(&blocks[i], c->o.seed, pos + (uint64_t)i, c->o.mask);
			bl[i] = &blocks[i];
		}
		struct dt_result q, v;
		if (dt_run_both(c, c->path, bl, nb, &q, &v, !c->o.qemu_only, NULL) != 0) {
			rc = -1;
			break;
		}
		/* Blocks qemu ran to completion can be compared; qemu failing on
		 * one is a generator bug, reported for that block. */
		int qrec = (int)(q.out_len / DT_RECORD);
		int qok = qrec >= nb && q.status == 0;
		int ncmp = qok ? nb : (qrec < nb ? qrec : nb - 1), done = ncmp;
		for (int i = 0; i < ncmp; i++) {
			if (c->o.qemu_only || dt_same(&q, &v, i)) {
				c->passed++;
				continue;
			}
			dt_fail(c, pos + (uint64_t)i, failures, &nfail);
			if (!dt_has(&v, i)) {
				/* ivx stopped here: the rest of the batch never ran. */
				if (c->o.verbose)
					dt_print_stderr("ivx", &v);
				done = i + 1;
				break;
			}
		}
		if (!qok && done == ncmp) {
			printf("block %" PRIu64 ": qemu failed on it (generator bug?)\n", pos + (uint64_t)ncmp);
			dt_print_stderr("qemu", &q);
			dt_fail(c, pos + (uint64_t)ncmp, failures, &nfail);
			done = ncmp + 1;
		} else if (qok && !c->o.qemu_only && done == nb && (v.status != 0 || v.out_len != q.out_len)) {
			printf("batch at block %" PRIu64 ": ivx exit status %d and %zu output bytes (qemu: 0, %zu)\n",
			       pos, v.status, v.out_len, q.out_len);
			if (dt_same(&q, &v, nb - 1)) {   /* not counted as failed yet */
				c->passed--;
				dt_fail(c, pos + (uint64_t)nb - 1, failures, &nfail);
			}
		}
		for (int i = 0; i < done; i++) {
			for (int k = 0; k < blocks[i].n; k++)
				if (!blocks[i].insn[k].setup)
					c->form_count[blocks[i].insn[k].form]++;
			if (c->o.check_enc)
				badenc += dt_check_encodings(c, &blocks[i], pos + (uint64_t)i);
			if (c->o.list) {
				printf("block %" PRIu64 ":\n", pos + (uint64_t)i);
				dt_list(c, &blocks[i], DT_FAKE_BASE, -1);
			}
		}
		dt_result_free(&q);
		dt_result_free(&v);
		pos += (uint64_t)done;
		/* ivx dying on the first block of every batch would mean one run per
		 * block: after a few, count the rest as failed without running them. */
		stuck = (!c->o.qemu_only && done == 1 && nb > 1) ? stuck + 1 : 0;
		if (stuck == 3 && pos < end) {
			printf("ivx fails on the first block of every batch; the remaining %" PRIu64 " blocks are not run and count as failed\n",
			       end - pos);
			c->failed += (long)(end - pos);
			break;
		}
	}
	for (int i = 0; rc == 0 && i < nfail; i++)
		dt_reduce(c, failures[i]);
	if (c->failed > nfail)
		printf("(%ld more failing blocks not reduced; see --max-reduce)\n", c->failed - nfail);
	if (c->o.check_enc) {
		printf("encoding check: %ld instructions disagree with their form\n", badenc);
		c->bad_encodings = badenc;
	}
	free(blocks);
	free(bl);
	free(failures);
	return rc;
}

/* --- options ---------------------------------------------------------------- */

static void dt_usage(void)
{
	fprintf(stderr,
		"usage: difftest [-s SEED] [-n BLOCKS] [--first I] [--batch B] [--ivx PATH] [--qemu PATH]\n"
		"                [--work DIR] [--forms a,b,...] [--qemu-only] [--check-enc] [--list]\n"
		"                [--max-reduce K] [--timeout S] [--elf OUT] [--min-insns N] [-v]\n"
		"  --elf OUT        only write the selected blocks (at most --batch) to OUT and exit\n"
		"  --min-insns N    fail unless every selected form was tested with at least N instructions\n"
		"forms:");
	for (int f = 0; f < dt_nforms; f++)
		fprintf(stderr, " %s", dt_forms[f].name);
	fprintf(stderr, "\n");
}

static int dt_parse_forms(struct dt_opts *o, const char *list)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", list);
	o->mask[0] = o->mask[1] = 0;
	for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
		int found = 0;
		for (int f = 0; f < dt_nforms; f++)
			if (strcmp(dt_forms[f].name, s) == 0) {
				o->mask[f / 64] |= 1ull << (f % 64);
				found = 1;
			}
		if (!found) {
			fprintf(stderr, "difftest: unknown form '%s'\n", s);
			return -1;
		}
	}
	return 0;
}

static int dt_parse(struct dt_opts *o, int argc, char **argv)
{
	const char *env = getenv("IVX");
	*o = (struct dt_opts){ .seed = 1, .count = 400, .batch = 250, .timeout = 120, .max_reduce = 20,
			       .ivx = env && *env ? env : "build/ivx", .qemu = "qemu-aarch64", .work = NULL,
			       .mask = { ~0ull, ~0ull } };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;
		if (!strcmp(a, "-s") || !strcmp(a, "--seed"))            { if (val) o->seed = strtoull(val, NULL, 0); }
		else if (!strcmp(a, "-n") || !strcmp(a, "--count"))      { if (val) o->count = strtoull(val, NULL, 0); }
		else if (!strcmp(a, "--first"))                          { if (val) o->first = strtoull(val, NULL, 0); }
		else if (!strcmp(a, "--batch"))                          { if (val) o->batch = atoi(val); }
		else if (!strcmp(a, "--timeout"))                        { if (val) o->timeout = atoi(val); }
		else if (!strcmp(a, "--max-reduce"))                     { if (val) o->max_reduce = atoi(val); }
		else if (!strcmp(a, "--min-insns"))                      { if (val) o->min_insns = atol(val); }
		else if (!strcmp(a, "--ivx"))                            { o->ivx = val; }
		else if (!strcmp(a, "--qemu"))                           { o->qemu = val; }
		else if (!strcmp(a, "--work"))                           { o->work = val; }
		else if (!strcmp(a, "--elf"))                            { o->elf = val; }
		else if (!strcmp(a, "--forms"))                          { if (val && dt_parse_forms(o, val)) return -1; }
		else {
			takes = 0;
			if (!strcmp(a, "--qemu-only"))       o->qemu_only = 1;
			else if (!strcmp(a, "--check-enc"))  o->check_enc = 1;
			else if (!strcmp(a, "--list"))       o->list = 1;
			else if (!strcmp(a, "-v"))           o->verbose = 1;
			else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { dt_usage(); exit(0); }
			else { dt_usage(); return -1; }
		}
		if (takes) {
			if (!val) { dt_usage(); return -1; }
			i++;
		}
	}
	if (o->batch < 1 || o->timeout < 1 || o->max_reduce < 0) {
		dt_usage();
		return -1;
	}
	return 0;
}

/* --elf: lay the selected blocks out in one ELF for running by hand. */
static int dt_write_only(const struct dt_opts *o)
{
	int nb = (int)(o->count < (uint64_t)o->batch ? o->count : (uint64_t)o->batch);
	struct dt_block *blocks = malloc(sizeof *blocks * (size_t)(nb ? nb : 1));
	const struct dt_block **bl = malloc(sizeof *bl * (size_t)(nb ? nb : 1));
	int rc = blocks && bl ? 0 : 2;
	for (int i = 0; rc == 0 && i < nb; i++) {
		dt_gen_block(&blocks[i], o->seed, o->first + (uint64_t)i, o->mask);
		bl[i] = &blocks[i];
	}
	if (rc == 0 && dt_elf_write(o->elf, bl, nb, NULL) != 0) {
		fprintf(stderr, "difftest: cannot write %s: %s\n", o->elf, strerror(errno));
		rc = 2;
	}
	free(blocks);
	free(bl);
	return rc;
}

int main(int argc, char **argv)
{
	static struct dt_ctx c;
	if (dt_parse(&c.o, argc, argv) != 0)
		return 2;
	if (c.o.elf)
		return dt_write_only(&c.o);
	char tmpl[4096] = "";
	if (!c.o.work) {
		const char *tmp = getenv("TMPDIR");
		snprintf(tmpl, sizeof tmpl, "%s/ivx-difftest.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(tmpl)) {
			perror("difftest: mkdtemp");
			return 2;
		}
		c.o.work = tmpl;
	} else if (mkdir(c.o.work, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "difftest: cannot create %s: %s\n", c.o.work, strerror(errno));
		return 2;
	}
	if (!c.o.qemu_only && access(c.o.ivx, X_OK) != 0) {
		fprintf(stderr, "difftest: %s is not executable (set --ivx or $IVX)\n", c.o.ivx);
		return 2;
	}
	if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &c.cs) != CS_ERR_OK) {
		fprintf(stderr, "difftest: capstone init failed\n");
		return 2;
	}
	cs_option(c.cs, CS_OPT_DETAIL, CS_OPT_ON);   /* operand registers for reports */
	snprintf(c.path, sizeof c.path, "%s/batch-%d.elf", c.o.work, (int)getpid());
	int rc = dt_self_test(&c);
	if (rc == 0)
		rc = dt_main_loop(&c);
	cs_close(&c.cs);
	unlink(c.path);
	if (c.o.verbose) {
		printf("instructions per form:");
		for (int f = 0; f < dt_nforms; f++)
			printf(" %s=%ld", dt_forms[f].name, c.form_count[f]);
		printf("\n");
	}
	if (rc != 0)
		return 2;
	if (c.failed == 0 && tmpl[0] && c.o.work == tmpl)
		rmdir(tmpl);
	printf("%ld passed, %ld failed\n", c.passed, c.failed);
	int short_forms = 0;
	for (int f = 0; f < dt_nforms && c.o.min_insns; f++) {
		if (!(c.o.mask[f / 64] >> (f % 64) & 1))
			continue;
		if (c.form_count[f] < c.o.min_insns) {
			printf("form %s: %ld instructions, fewer than --min-insns %ld\n", dt_forms[f].name,
			       c.form_count[f], c.o.min_insns);
			short_forms++;
		} else {
			printf("form %s: %ld instructions\n", dt_forms[f].name, c.form_count[f]);
		}
	}
	return c.failed || c.bad_encodings || short_forms ? 1 : 0;
}
