# attrib.mk — per-instruction cycle attribution on the out-of-order machine
# (engine/dcpi/attrib.c, `ivx attrib`, docs/attribution.md).
#
#   attrib-cli       the command end to end on kernels with a known answer
#                    (k3_long_dmiss's missing load owns the miss cycles under
#                    the oracle and TIP; k2's flushes go to branches), the
#                    oracle's accounting, determinism, JSON, bad options
#   attrib-bench     the attribution observer's cost in timing-mode speed
#   attrib-validate  each policy's error over the workload suite, written
#                    into docs/attribution.md (one run, 5M-cycle windows),
#                    then over whole runs with 4 seeds merged, the samples
#                    the 3% target is met with (printed only; ~17 min)
# The unit tests (tests/unit/test_attrib.c) run with `make unit`.
.PHONY: attrib-cli attrib-bench attrib-validate
attrib-cli: $(BUILD)/ivx
	@tests/attrib-cli.sh $(BUILD)/ivx

attrib-bench: $(BUILD)/ivx
	@tests/attrib-bench.sh $(BUILD)/ivx

attrib-validate: $(BUILD)/ivx
	@tests/attrib-validate.sh $(BUILD)/ivx
	@ATTRIB_VALIDATE_CYCLES=0 ATTRIB_VALIDATE_RUNS=4 ATTRIB_VALIDATE_DOC=/dev/null \
		tests/attrib-validate.sh $(BUILD)/ivx

TEST_TARGETS     += attrib-cli
CHECK_TARGETS    += attrib-cli
BENCH_TARGETS    += attrib-bench
VALIDATE_TARGETS += attrib-validate
