# dcpi.mk — DCPI on the simulated machine (engine/dcpi/, ivx profile,
# dcpiprof, dcpistats).
#
#   dcpi-cli       the three commands end to end: epochs, merging, seeds,
#                  truth, JSON, corrupt/truncated/foreign files, bad options
#   dcpi-fuzz-replay  the database reader's fuzz harness (tests/fuzz/dcpi_db.c)
#                  built with gcc as a replay of every truncation and bit
#                  flip of a valid profile (no libFuzzer needed)
#   dcpi-tmux      the sampler pane in the real explorer, in tmux
#   dcpi-bench     sampling's cost in timing-mode speed (ratio in one run)
#   dcpi-validate  estimated vs true procedure shares as samples accumulate
# The unit tests (tests/unit/test_dcpi_*.c) run with `make unit`.
.PHONY: dcpi-cli dcpi-fuzz-replay dcpi-tmux dcpi-bench dcpi-validate
dcpi-cli: $(BUILD)/ivx
	@tests/dcpi-cli.sh $(BUILD)/ivx

$(BUILD)/tests/dcpi_db_replay: tests/fuzz/dcpi_db.c $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_LINK_LTO) -DDCPI_FUZZ_REPLAY -o $@ $< $(BUILD)/libivx.a $(LDFLAGS) $(LDLIBS)

dcpi-fuzz-replay: $(BUILD)/tests/dcpi_db_replay
	@$(BUILD)/tests/dcpi_db_replay

dcpi-tmux: $(BUILD)/ivx
	@tests/dcpi-tmux.sh $(BUILD)/ivx

dcpi-bench: $(BUILD)/ivx
	@tests/dcpi-bench.sh $(BUILD)/ivx

dcpi-validate: $(BUILD)/ivx
	@tests/dcpi-validate.sh $(BUILD)/ivx

TEST_TARGETS     += dcpi-cli dcpi-fuzz-replay dcpi-tmux
CHECK_TARGETS    += dcpi-cli dcpi-fuzz-replay
BENCH_TARGETS    += dcpi-bench
VALIDATE_TARGETS += dcpi-validate
