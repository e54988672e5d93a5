/*
 * interp.c — a bytecode interpreter dispatched through a switch.
 *
 * A small register machine (8 registers, 32-bit instructions, 16 opcodes)
 * runs two programs: the total Collatz path length of 1..N, and an
 * insertion sort of a scrambled array in the machine's own memory. The
 * dispatch is `switch (op)` over dense opcodes, which GCC compiles into a
 * bounds check and a jump table: one indirect branch (BR) per bytecode,
 * whose target depends on the previous bytecode. Handlers are short, so
 * dispatch dominates.
 *
 * Personality: indirect-branch target mispredictions, loads from the
 * bytecode and jump table (L1 hits), short dependent chains.
 *
 * Scale s: s rounds, each a Collatz sum over 1..(32 + round % 32) and an
 * insertion sort of 40 values (about 7000 bytecodes). Default 180.
 */
#include "rt.h"

#define DEFAULT_SCALE 180
#define TEST_SCALE 1

enum op {
	OP_HALT, OP_LI, OP_MOV, OP_ADD, OP_ADDI, OP_SUB, OP_MUL, OP_AND,
	OP_SHRI, OP_LD, OP_ST, OP_JMP, OP_JZ, OP_JNZ, OP_JLT, OP_JODD,
};

/* Encoding: op in bits 0-7, a 8-11, b 12-15, c 16-19; imm = signed bits 16-31
 * for LI, ADDI, SHRI and jumps (jump offsets are relative to the next pc). */
#define I3(op, a, b, c) ((uint32_t)(op) | (uint32_t)(a) << 8 | (uint32_t)(b) << 12 | (uint32_t)(c) << 16)
#define II(op, a, b, imm) ((uint32_t)(op) | (uint32_t)(a) << 8 | (uint32_t)(b) << 12 | (uint32_t)(uint16_t)(imm) << 16)

struct vm {
	int64_t r[8];
	int64_t *mem;   /* word addressed */
	size_t mem_words;
	uint64_t executed;
};

static void vm_run(struct vm *vm, const uint32_t *code)
{
	size_t pc = 0;
	int64_t *r = vm->r;
	uint64_t n = 0;

	for (;;) {
		uint32_t w = code[pc++];
		unsigned a = (w >> 8) & 15, b = (w >> 12) & 15, c = (w >> 16) & 15;
		int64_t imm = (int16_t)(w >> 16);
		n++;
		switch (w & 0xff) {
		case OP_HALT: vm->executed += n; return;
		case OP_LI:   r[a] = imm; break;
		case OP_MOV:  r[a] = r[b]; break;
		case OP_ADD:  r[a] = r[b] + r[c]; break;
		case OP_ADDI: r[a] = r[b] + imm; break;
		case OP_SUB:  r[a] = r[b] - r[c]; break;
		case OP_MUL:  r[a] = r[b] * r[c]; break;
		case OP_AND:  r[a] = r[b] & r[c]; break;
		case OP_SHRI: r[a] = (int64_t)((uint64_t)r[b] >> (imm & 63)); break;
		case OP_LD:   r[a] = vm->mem[(uint64_t)r[b] % vm->mem_words]; break;
		case OP_ST:   vm->mem[(uint64_t)r[b] % vm->mem_words] = r[a]; break;
		case OP_JMP:  pc += imm; break;
		case OP_JZ:   if (r[a] == 0) pc += imm; break;
		case OP_JNZ:  if (r[a] != 0) pc += imm; break;
		case OP_JLT:  if (r[a] < r[b]) pc += imm; break;
		case OP_JODD: if (r[a] & 1) pc += imm; break;
		default:      rt_check(0, "bad opcode"); break;
		}
	}
}

/* r1 = N on entry; r0 = sum of Collatz path lengths of 1..N on exit. */
static const uint32_t collatz[] = {
	/* 0 */ II(OP_LI, 0, 0, 0),          /* total = 0 */
	/* 1 */ II(OP_LI, 2, 0, 1),          /* i = 1 */
	/* 2 */ II(OP_LI, 4, 0, 1),          /* one = 1 */
	/* 3 */ I3(OP_MOV, 3, 2, 0),         /* loop: x = i */
	/* 4 */ I3(OP_SUB, 5, 3, 4),         /* inner: t = x - 1 */
	/* 5 */ II(OP_JZ, 5, 0, 8),          /* x == 1 -> next (14) */
	/* 6 */ II(OP_ADDI, 0, 0, 1),        /* total++ */
	/* 7 */ II(OP_JODD, 3, 0, 2),        /* x odd -> odd (10) */
	/* 8 */ II(OP_SHRI, 3, 3, 1),        /* x >>= 1 */
	/* 9 */ II(OP_JMP, 0, 0, -6),        /* -> inner (4) */
	/* 10 */ I3(OP_ADD, 6, 3, 3),        /* odd: t = 2x */
	/* 11 */ I3(OP_ADD, 3, 6, 3),        /* x = 3x */
	/* 12 */ II(OP_ADDI, 3, 3, 1),       /* x += 1 */
	/* 13 */ II(OP_JMP, 0, 0, -10),      /* -> inner (4) */
	/* 14 */ II(OP_ADDI, 2, 2, 1),       /* next: i++ */
	/* 15 */ I3(OP_SUB, 5, 1, 2),        /* t = N - i */
	/* 16 */ II(OP_LI, 6, 0, 0),
	/* 17 */ II(OP_JLT, 5, 6, 1),        /* N - i < 0 -> done (19) */
	/* 18 */ II(OP_JMP, 0, 0, -16),      /* -> loop (3) */
	/* 19 */ II(OP_HALT, 0, 0, 0),
};

/* Insertion sort of mem[0..r1-1] in place. */
static const uint32_t isort[] = {
	/* 0 */ II(OP_LI, 2, 0, 1),          /* i = 1 */
	/* 1 */ I3(OP_SUB, 5, 2, 1),         /* outer: t = i - n */
	/* 2 */ II(OP_LI, 6, 0, 0),
	/* 3 */ II(OP_JLT, 5, 6, 1),         /* i < n -> body */
	/* 4 */ II(OP_HALT, 0, 0, 0),
	/* 5 */ I3(OP_LD, 3, 2, 0),          /* key = mem[i] */
	/* 6 */ II(OP_ADDI, 4, 2, -1),       /* j = i - 1 */
	/* 7 */ II(OP_JLT, 4, 6, 6),         /* inner: j < 0 -> place (14) */
	/* 8 */ I3(OP_LD, 7, 4, 0),          /* v = mem[j] */
	/* 9 */ II(OP_JLT, 7, 3, 4),         /* v < key -> place (14) */
	/* 10 */ II(OP_ADDI, 5, 4, 1),
	/* 11 */ I3(OP_ST, 7, 5, 0),         /* mem[j+1] = v */
	/* 12 */ II(OP_ADDI, 4, 4, -1),      /* j-- */
	/* 13 */ II(OP_JMP, 0, 0, -7),       /* -> inner (7) */
	/* 14 */ II(OP_ADDI, 5, 4, 1),       /* place: */
	/* 15 */ I3(OP_ST, 3, 5, 0),         /* mem[j+1] = key */
	/* 16 */ II(OP_ADDI, 2, 2, 1),       /* i++ */
	/* 17 */ II(OP_JMP, 0, 0, -17),      /* -> outer (1) */
};

int main(int argc, char **argv)
{
	unsigned long s = rt_arg_scale(argc, argv, DEFAULT_SCALE);
	struct vm vm = { .mem_words = 256 };
	struct rt_rng rng;
	uint64_t h = RT_CHECKSUM_INIT;

	vm.mem = calloc(vm.mem_words, sizeof *vm.mem);
	rt_check(vm.mem, "out of memory");
	rt_rng_seed(&rng, 3);

	for (unsigned long rep = 0; rep < s; rep++) {
		memset(vm.r, 0, sizeof vm.r);
		vm.r[1] = 32 + (int64_t)(rep % 32);
		vm_run(&vm, collatz);
		h = rt_mix(h, (uint64_t)vm.r[0]);

		size_t n = 40;
		for (size_t i = 0; i < n; i++)
			vm.mem[i] = (int64_t)rt_rng_below(&rng, 100000);
		memset(vm.r, 0, sizeof vm.r);
		vm.r[1] = (int64_t)n;
		vm_run(&vm, isort);
		for (size_t i = 1; i < n; i++)
			rt_check(vm.mem[i - 1] <= vm.mem[i], "vm sorted the array");
		h = rt_mix(h, (uint64_t)vm.mem[n / 2]);
	}
	printf("interp bytecodes=%lu checksum=%016lx\n", (unsigned long)vm.executed, h);
	return 0;
}
