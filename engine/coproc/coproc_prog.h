/*
 * coproc_prog.h — a profiling co-processor program: its microcode and the
 * settings it downloads with it (which instruction classes to tag, which
 * record fields to collect, the DFE table, the constant, base-address and
 * branch-target registers, the initial PC filter, handler parameters).
 *
 * A program is written in the assembly language of docs/coproc.md and
 * assembled by coproc_asm; coproc_disasm_insn lists one microinstruction
 * back. Each microinstruction holds one operation and one branch slot
 * (`-> [cond] target`), the target being a label, a branch-target register,
 * DONE (this record is finished: pop it, start the next) or INTERRUPT
 * (stop and interrupt the main processor).
 */
#ifndef IVX_COPROC_PROG_H
#define IVX_COPROC_PROG_H

#include <stddef.h>
#include <stdint.h>
#include "base/err.h"
#include "core/events.h"

#define COPROC_MAX_UCODE 1024    /* the largest microcode array the assembler accepts */
#define COPROC_NV 8              /* value registers v0..v7 (64-bit) */
#define COPROC_NI 8              /* index registers i0..i7 (.iwidth bits, saturating) */
#define COPROC_NC 16             /* constant registers c0..c15 (set at load time) */
#define COPROC_NB 4              /* base address registers b0..b3 */
#define COPROC_NT 4              /* branch target registers t0..t3 */
#define COPROC_MAX_PARAMS 40
#define COPROC_MAX_LABELS 128
#define COPROC_MAX_FILES 64      /* a program's file and every file it includes */
#define COPROC_LABEL_MAX 23      /* characters in a label name */
/* The largest co-processor parts, for -C and for a program's size
 * parameters alike (.param buffer_entries, cam_entries, data_words,
 * profile_entries). */
#define COPROC_MAX_BUFFER 4096
#define COPROC_MAX_CAM 1024
#define COPROC_MAX_DATA 65536
#define COPROC_MAX_PROFILE 1048576

/* Operations. */
enum cp_op {
	CP_NOP, CP_MOV, CP_ADD, CP_SUB, CP_AND, CP_OR, CP_XOR, CP_SHL, CP_SHR, CP_CMP,
	CP_LOOKUP,  /* lookup D, S: CAM search; D = matching entry; flag hit */
	CP_CAMW,    /* camw I, S: entry I := S, valid */
	CP_CAMINV,  /* caminv I */
	CP_LD,      /* ld D, [bN + I] */
	CP_ST,      /* st [bN + I], S */
	CP_INC,     /* inc [bN + I]: saturating read-modify-write +1; flags z, sat */
	CP_ADDS,    /* adds [bN + I], S: saturating read-modify-write +S */
	CP_RAND,    /* rand D, S: D = LFSR step & S (a mask) */
	CP_HASH,    /* hash D, S: the PC filter's hash of S */
	CP_OP_COUNT
};

/* Branch conditions (flags of the latest operation that sets them). */
enum cp_cond { CPC_ALWAYS, CPC_Z, CPC_NZ, CPC_LT, CPC_GE, CPC_HIT, CPC_MISS, CPC_SAT, CPC_NSAT, CPC_COUNT };

/* Branch slot target kinds. */
enum cp_target { CPT_NONE, CPT_LABEL, CPT_DONE, CPT_INTERRUPT, CPT_TREG };

/* Operand codes: registers, the DFE's fields of the record at the head of
 * the sample buffer, or the instruction's immediate. */
enum {
	CPR_V = 0, CPR_I = 8, CPR_C = 16, CPR_B = 32, CPR_T = 36,
	CPR_F_PC = 40, CPR_F_VALUE, CPR_F_ADDR, CPR_F_TARGET, CPR_F_TAKEN, CPR_F_KIND,
	CPR_F_WEIGHT,   /* 2^k: the random tagger tagged 1 in 2^k when it tagged the record */
	CPR_IMM = 63,
	CPR_NONE = 255,
};

/* Record fields a program asks the core to collect (.fields). */
enum { CPF_PC = 1, CPF_VALUE = 2, CPF_ADDR = 4, CPF_TARGET = 8, CPF_TAKEN = 16 };

struct cp_uinsn {
	uint8_t op;       /* enum cp_op */
	uint8_t dst;      /* operand code or CPR_NONE */
	uint8_t a, b;     /* sources */
	uint8_t base;     /* memory ops: base register number 0..3 */
	uint8_t cond;     /* enum cp_cond */
	uint8_t tkind;    /* enum cp_target */
	uint16_t target;  /* CPT_LABEL: microcode address; CPT_TREG: register */
	int64_t imm;
	uint32_t line;    /* source line, in the file that holds it (the program's or an included one) */
};

struct coproc_prog {
	char name[32];
	char handler[16];              /* "value", "edge", "callstack", "none" */
	uint32_t classes;              /* bit k: tag instructions of insn_kind k */
	uint32_t fields;               /* CPF_* */
	int n_insns;
	struct cp_uinsn insn[COPROC_MAX_UCODE];
	int16_t dfe[INSN_KIND_COUNT];  /* routine start per class, -1: none (DONE at once) */
	uint64_t creg[COPROC_NC];
	uint32_t breg[COPROC_NB];
	uint16_t treg[COPROC_NT];
	int iwidth;                    /* index register width in bits (1..32) */
	int cwidth;                    /* data-array counter saturation width (1..63) */
	int awidth;                    /* ... of `adds` (0: cwidth); wider for weighted counts */
	int pc_width;                  /* initial PC filter mask width */
	uint32_t pc_match;             /* ... and match value */
	int n_params;
	struct { char name[24]; int64_t value; } param[COPROC_MAX_PARAMS];
	int n_labels;
	struct { char name[COPROC_LABEL_MAX + 1]; uint16_t addr; } label[COPROC_MAX_LABELS];
};

/* Assemble `len` bytes of source named `file` (for messages). Errors are
 * "file:line: message" (IVX_EINPUT). An `.include` is an error: the
 * source has no files beside it (coproc_asm_reading gives it some). */
int coproc_asm(const char *src, size_t len, const char *file, struct coproc_prog *out, struct ivx_err *err);

/* How `.include "FILE"` reads FILE: path is FILE joined to the including
 * file's directory. Sets *text (from ivx_malloc; the assembler frees it)
 * and *len and returns 0, or returns a negative status with err's message
 * ("PATH: cannot open: REASON"). ctx is the caller's. */
typedef int coproc_read_fn(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err);

/* coproc_asm with `.include` reading through read(read_ctx, ...). An error
 * in an included file is "included.s:LINE: message (included from
 * file:LINE)"; includes nested more than 8 deep, or a file including
 * itself, are errors. */
int coproc_asm_reading(const char *src, size_t len, const char *file, coproc_read_fn *read, void *read_ctx,
		       struct coproc_prog *out, struct ivx_err *err);

/* A coproc_read_fn for the host's files (ctx unused): at most 1 MB. */
int coproc_read_host_file(void *ctx, const char *path, char **text, size_t *len, struct ivx_err *err);

/* The program in the host file at path, its includes read by
 * include_read(include_ctx, ...) (NULL: coproc_read_host_file). */
int coproc_asm_file(const char *path, coproc_read_fn *include_read, void *include_ctx, struct coproc_prog *out,
		    struct ivx_err *err);

/* One microinstruction as text (no address, no newline) into buf. */
void coproc_disasm_insn(const struct coproc_prog *p, int addr, char *buf, size_t n);

/* Program p as source that assembles to the same program (every setting
 * as a directive, each microinstruction with its label and its address
 * in a comment), headed by a comment naming `path`. Written into buf as
 * snprintf does (NUL-terminated, cut at n); returns the whole length. */
size_t coproc_prog_listing(const struct coproc_prog *p, const char *path, char *buf, size_t n);

/* The label at addr, or NULL. */
const char *coproc_prog_label_at(const struct coproc_prog *p, int addr);

/* A handler parameter (.param), or `dflt` when the program sets none. */
int64_t coproc_prog_param(const struct coproc_prog *p, const char *name, int64_t dflt);

/* Names used by the assembler and the listings. */
const char *coproc_op_name(int op);
const char *coproc_cond_name(int cond);
const char *coproc_field_name(int bit);   /* CPF_* bit -> "pc", ... */

#endif
