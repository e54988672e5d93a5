# compare.mk — `ivx compare` (two runs side by side, golden outputs in
# tests/compare/) and the explorer's `export svg|png` (pictures for
# slides, tests/golden/export-*.ivx checked for well-formed SVG).
.PHONY: test-compare-cli test-export-svg compare-golden-update
test-compare-cli: $(BUILD)/ivx
	@tests/compare-cli.sh $(BUILD)/ivx

# rewrite tests/compare/*.out (review the diff!)
compare-golden-update: $(BUILD)/ivx
	@tests/compare-cli.sh $(BUILD)/ivx --update

TEST_TARGETS  += test-compare-cli
CHECK_TARGETS += test-compare-cli

# the exported files themselves (ui-golden compares what the script prints)
test-export-svg: $(BUILD)/ivx
	@tests/export-svg.sh $(BUILD)/ivx

TEST_TARGETS  += test-export-svg
CHECK_TARGETS += test-export-svg
