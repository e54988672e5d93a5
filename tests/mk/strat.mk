# strat.mk — stratified sampling (engine/strat/, ivx strat, docs/strat.md).
#
#   strat-cli       ivx strat end to end: outputs, determinism, --charge,
#                   the Monte Carlo classes, bad specs and options
#   strat-bench     what a compressor costs in timing-mode speed (ratio)
#   strat-cost      the same cost in host instructions under callgrind:
#                   repeatable, unlike time (not in make bench: needs valgrind)
#   strat-validate  the paper's results: Monte Carlo, the workloads, A16,
#                   edge + call; writes docs/strat-results.md and the plots
# The unit tests (tests/unit/test_strat_*.c, with the spec fuzz harness
# tests/fuzz/strat_spec.c replayed) run with `make unit`.
.PHONY: strat-cli strat-bench strat-cost strat-validate
strat-cli: $(BUILD)/ivx
	@tests/strat-cli.sh $(BUILD)/ivx

strat-bench: $(BUILD)/ivx
	@tests/strat-bench.sh $(BUILD)/ivx

strat-cost: $(BUILD)/ivx
	@tests/strat-cost.sh $(BUILD)/ivx

strat-validate: $(BUILD)/ivx
	@tests/strat-validate.sh $(BUILD)/ivx

TEST_TARGETS     += strat-cli
CHECK_TARGETS    += strat-cli
BENCH_TARGETS    += strat-bench
VALIDATE_TARGETS += strat-validate
