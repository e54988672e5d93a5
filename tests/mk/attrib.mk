# attrib.mk — per-instruction cycle attribution on the out-of-order machine
# (engine/dcpi/attrib.c, `ivx attrib`, docs/attribution.md).
#
#   attrib-cli       the command end to end on kernels with a known answer
#                    (k3_long_dmiss's missing load owns the miss cycles under
#                    the oracle and TIP; k2's flushes go to branches), the
#                    oracle's accounting, determinism, JSON, bad options
#   attrib-bench     the attribution observer's cost in timing-mode speed
#   attrib-validate  each policy's error over the workload suite, written
#                    into docs/attribution.md
# The unit tests (tests/unit/test_attrib.c) run with `make unit`.
.PHONY: attrib-cli attrib-bench attrib-validate
attrib-cli: $(BUILD)/ivx
	@tests/attrib-cli.sh $(BUILD)/ivx

attrib-bench: $(BUILD)/ivx
	@tests/attrib-bench.sh $(BUILD)/ivx

attrib-validate: $(BUILD)/ivx
	@tests/attrib-validate.sh $(BUILD)/ivx

TEST_TARGETS     += attrib-cli
CHECK_TARGETS    += attrib-cli
BENCH_TARGETS    += attrib-bench
VALIDATE_TARGETS += attrib-validate
