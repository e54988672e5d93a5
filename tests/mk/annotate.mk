# annotate.mk — dcpicalc in the explorer (`annotate`, the annotate pane).
#
#   annotate-cli   the explorer's live annotation equals `ivx dcpicalc` on
#                  a database of the same run (samples, frequency, CPI)
# The batch goldens (tests/golden/annotate*.ivx) run with ui-golden.
.PHONY: annotate-cli
annotate-cli: $(BUILD)/ivx
	@tests/annotate-cli.sh $(BUILD)/ivx

TEST_TARGETS  += annotate-cli
CHECK_TARGETS += annotate-cli
