# charge.mk — what each accounting method charged each miss event, and
# `info cost` (issue 26 item 5, issue 25 item 2's explorer part).
#
#   test-charge   info cost's errors; its true cost equals ivx cost's on the same event
#                 (the outputs themselves: tests/golden/info-cost.ivx)
.PHONY: test-charge

test-charge: $(BUILD)/ivx
	@tests/charge-cli.sh $(BUILD)/ivx

TEST_TARGETS  += test-charge
CHECK_TARGETS += test-charge
