# core.mk — the core model's end-to-end tests and benchmark.
#
#   test-core-run   tests/core-run.sh: timing-mode output equals functional
#                   mode on every program, JSON, Kanata, limits (make test)
#   bench-core      tests/bench.sh: timing-model cycles/s and MIPS, and
#                   functional MIPS, per workload (make bench)
#
# The unit tests (tests/unit/test_core_*.c, including the interval-analysis
# checks on the micro-kernels) run with every other unit test.
.PHONY: test-core-run bench-core
test-core-run: $(BUILD)/ivx
	@tests/core-run.sh $(BUILD)/ivx

bench-core: $(BUILD)/ivx
	@tests/bench.sh $(BUILD)/ivx

TEST_TARGETS  += test-core-run
CHECK_TARGETS += test-core-run
BENCH_TARGETS += bench-core
