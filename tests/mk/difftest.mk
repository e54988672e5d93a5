# difftest.mk — the differential random tester (tests/difftest/, see
# docs/difftest.md): random A64 integer blocks run under ivx and under
# qemu-aarch64, every register, NZCV and the touched memory compared.
#
#   make difftest-quick                 fixed seed, 500 blocks (part of `make test`)
#   make difftest [N=100000] [SEED=s]   long run; SEED defaults to the time

# ivx's decoder is linked in: the FP/SIMD forms keep only encodings it implements.
DIFFTEST_SRC  := $(sort $(wildcard tests/difftest/*.c)) $(wildcard engine/isa/isa*.c) engine/isa/mem.c engine/base/err.c
DIFFTEST_BIN  := $(BUILD)/tests/difftest
DIFFTEST_WORK := $(BUILD)/tests/difftest.work
DIFFTEST_N    := $(if $(N),$(N),100000)
DIFFTEST_SEED := $(if $(SEED),$(SEED),$(shell date +%s))

$(DIFFTEST_BIN): $(DIFFTEST_SRC) tests/difftest/dt.h $(wildcard engine/isa/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(DIFFTEST_SRC) $(LDFLAGS) $(PC_LIBS) -lm

.PHONY: difftest-quick difftest-check
difftest-quick: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed 1 -n 500 --check-enc --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

# Under `make check` the sanitized ivx runs a smaller set.
difftest-check: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed 1 -n 150 --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

difftest: $(DIFFTEST_BIN) $(BUILD)/ivx
	$(DIFFTEST_BIN) --seed $(DIFFTEST_SEED) -n $(DIFFTEST_N) --batch 1000 --ivx $(BUILD)/ivx --work $(DIFFTEST_WORK)

TEST_TARGETS  += difftest-quick
CHECK_TARGETS += difftest-check
