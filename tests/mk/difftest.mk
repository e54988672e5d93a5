# difftest.mk — the differential random tester (tests/difftest/, see
# docs/difftest.md): random A64 integer blocks run under ivx and under
# qemu-aarch64, every register, NZCV and the touched memory compared.
#
#   make difftest-quick                 fixed seed, 500 blocks (part of `make test`)
#   make difftest-fp-quick              fixed seed, 400 blocks of FP/SIMD/atomic forms only (`make test`)
#   make difftest [N=100000] [SEED=s]   long run; SEED defaults to the time
#   make difftest-fp-validate           every FP/SIMD/atomic form alone, at least
#                                       100,000 instructions each (`make validate`)

# ivx's decoder is linked in: the FP/SIMD forms keep only encodings it implements.
DIFFTEST_SRC  := $(sort $(wildcard tests/difftest/*.c)) $(wildcard engine/isa/isa*.c) engine/isa/mem.c engine/base/err.c engine/base/alloc.c
DIFFTEST_BIN  := $(BUILD)/tests/difftest
DIFFTEST_WORK := $(BUILD)/tests/difftest.work
DIFFTEST_N    := $(if $(N),$(N),100000)
DIFFTEST_SEED := $(if $(SEED),$(SEED),$(shell date +%s))

$(DIFFTEST_BIN): $(DIFFTEST_SRC) tests/difftest/dt.h $(wildcard engine/isa/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(DIFFTEST_SRC) $(LDFLAGS) $(PC_LIBS) -lm

DIFFTEST_FP_FORMS := fp_dp1 fp_dp2 fp_dp3 fp_cmp fp_csel fp_imm fp_cvt fp_fixed fpcr \
    simd_3same simd_fp3 simd_misc simd_across simd_copy simd_perm simd_imm simd_shift \
    simd_diff simd_elem simd_scalar simd_sat simd_fpest simd_crypto ld_fp ld_fp_pair ld_fp_literal ld_simd ld_atomic
DIFFTEST_FP_MIN   := 100000
DIFFTEST_FP_SEED  := $(if $(SEED),$(SEED),1)
comma := ,
empty :=
space := $(empty) $(empty)

.PHONY: difftest-quick difftest-check difftest-fp-quick difftest-fp-validate
difftest-quick: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed 1 -n 500 --check-enc --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

difftest-fp-quick: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed 1 -n 400 --forms $(subst $(space),$(comma),$(DIFFTEST_FP_FORMS)) --check-enc \
	    --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

# One run per form, so each is compared over at least DIFFTEST_FP_MIN
# instructions of its own (blocks start from random FPCR values, so every
# rounding mode, flush-to-zero and default-NaN setting is in each).
difftest-fp-validate: $(DIFFTEST_BIN) $(BUILD)/ivx
	@for f in $(DIFFTEST_FP_FORMS); do \
	    if out=$$($(DIFFTEST_BIN) --seed $(DIFFTEST_FP_SEED) -n 9000 --batch 1000 --forms $$f \
	            --min-insns $(DIFFTEST_FP_MIN) --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)); then \
	        echo "difftest-fp-validate: $$(printf '%s\n' "$$out" | tail -2 | tr '\n' ' ')"; \
	    else \
	        printf '%s\n' "$$out" | tail -40; exit 1; \
	    fi; \
	done

# Under `make check` the sanitized ivx runs a smaller set.
difftest-check: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed 1 -n 150 --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

difftest: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed $(DIFFTEST_SEED) -n $(DIFFTEST_N) --batch 1000 --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

TEST_TARGETS  += difftest-quick difftest-fp-quick
VALIDATE_TARGETS += difftest-fp-validate
CHECK_TARGETS += difftest-check
