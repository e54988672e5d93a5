# annotate.mk — dcpicalc in the explorer (`annotate`, the annotate pane).
#
#   annotate-cli   the explorer's live annotation equals `ivx dcpicalc` on
#                  a database of the same run (samples, frequency, CPI)
#   annotate-tmux  the pane in the real explorer (tmux): live annotation,
#                  the hottest / next-hot / back-to-pc keys
#   annotate-bench what the sampler and the wait-truth observer cost on the
#                  explorer's `continue` (CPU time; make bench)
# The batch goldens (tests/golden/annotate*.ivx) run with ui-golden.
.PHONY: annotate-cli annotate-tmux annotate-bench
annotate-cli: $(BUILD)/ivx
	@tests/annotate-cli.sh $(BUILD)/ivx

annotate-tmux: $(BUILD)/ivx
	@tests/annotate-tmux.sh $(BUILD)/ivx

annotate-bench: $(BUILD)/ivx
	@tests/annotate-bench.sh $(BUILD)/ivx

TEST_TARGETS  += annotate-cli annotate-tmux
BENCH_TARGETS += annotate-bench
CHECK_TARGETS += annotate-cli
