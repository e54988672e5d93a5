# coproc.mk — the profiling co-processor (engine/coproc/, ivx coproc,
# ivx coproc-asm, data/coproc/, docs/coproc.md).
#
#   coproc-cli          the two commands end to end (tests/coproc-cli.sh)
#   coproc-fuzz-replay  the assembler's fuzz harness (tests/fuzz/coproc_asm.c)
#                       built with $(CC) and fed its seed corpus, the
#                       shipped programs (data/coproc, not copied) and
#                       their listings (tests/coproc-listings: whole
#                       programs, where the harness cannot read lib/)
#   coproc-bench        timing-mode speed with the value program / without
#   coproc-validate     value-profile error and overhead against the exact
#                       profile and the sampling baseline over the suite
#   coproc-validate-ours  the issue's target for value_topk_young.s
#                       (--estimate shrink) on the six sets of
#                       real-program runs (tests/coproc-validate-ours.sh)
# The unit tests (tests/unit/test_coproc*.c) run with `make unit`.
.PHONY: coproc-cli coproc-fuzz-replay coproc-bench coproc-validate coproc-validate-ours
coproc-cli: $(BUILD)/ivx
	@tests/coproc-cli.sh $(BUILD)/ivx

$(BUILD)/tests/fuzz/coproc_asm_replay: tests/fuzz/coproc_asm.c tests/fuzz/coproc_asm_replay.c $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_LINK_LTO) -o $@ tests/fuzz/coproc_asm.c tests/fuzz/coproc_asm_replay.c $(BUILD)/libivx.a \
	    $(LDFLAGS) $(LDLIBS)

coproc-fuzz-replay: $(BUILD)/tests/fuzz/coproc_asm_replay
	@$(BUILD)/tests/fuzz/coproc_asm_replay tests/fuzz/corpus/coproc_asm data/coproc tests/coproc-listings

coproc-bench: $(BUILD)/ivx
	@tests/coproc-bench.sh $(BUILD)/ivx

coproc-validate: $(BUILD)/ivx
	@tests/coproc-validate.sh $(BUILD)/ivx

coproc-validate-ours: $(BUILD)/ivx
	@tests/coproc-validate-ours.sh $(BUILD)/ivx

TEST_TARGETS     += coproc-cli coproc-fuzz-replay
CHECK_TARGETS    += coproc-cli coproc-fuzz-replay
BENCH_TARGETS    += coproc-bench
VALIDATE_TARGETS += coproc-validate coproc-validate-ours
