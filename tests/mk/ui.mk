# ui.mk — the explorer (ui/, src/explorer/, src/xcmd/).
#
#   test-ui-golden    batch scripts on the micro-kernels vs tests/golden/*.out
#   test-ui-end-parity  the instruments at the end of a run print the headless commands' numbers
#   test-ui-reverse   reverse execution reaches exactly the state first seen
#   test-ui-tmux      the real full-screen explorer driven in tmux
#   test-ui-scroll-tmux  PgUp/PgDn in the instruments' panes (coproc slots, sampler, strat), in tmux
#   test-ui-script-errors  broken and hostile batch scripts: one error line, no crash
#   golden-update     rewrite tests/golden/*.out (review the diff!)
#   bench-ui          continue vs headless speed, step + redraw time at 200x60
.PHONY: test-ui-golden test-ui-end-parity test-ui-reverse test-ui-tmux test-ui-scroll-tmux test-ui-script-errors golden-update bench-ui

test-ui-golden: $(BUILD)/ivx
	@tests/ui-golden.sh $(BUILD)/ivx

test-ui-end-parity: $(BUILD)/ivx
	@tests/ui-end-parity.sh $(BUILD)/ivx

test-ui-reverse: $(BUILD)/ivx
	@tests/ui-reverse.sh $(BUILD)/ivx

test-ui-tmux: $(BUILD)/ivx
	@tests/ui-tmux.sh $(BUILD)/ivx

test-ui-scroll-tmux: $(BUILD)/ivx
	@tests/ui-scroll-tmux.sh $(BUILD)/ivx

test-ui-script-errors: $(BUILD)/ivx
	@tests/script-errors.sh $(BUILD)/ivx

golden-update: $(BUILD)/ivx
	@tests/ui-golden.sh $(BUILD)/ivx --update

bench-ui: $(BUILD)/ivx
	@tests/ui-bench.sh $(BUILD)/ivx

TEST_TARGETS  += test-ui-golden test-ui-end-parity test-ui-reverse test-ui-tmux test-ui-scroll-tmux test-ui-script-errors
CHECK_TARGETS += test-ui-golden test-ui-end-parity test-ui-reverse test-ui-script-errors
BENCH_TARGETS += bench-ui
