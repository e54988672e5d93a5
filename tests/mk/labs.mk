# labs.mk — the labs of docs/labs/ (issue 26 item 2).
#
#   test-labs     every transcript of every lab runs and prints what the lab says
#   labs-update   rewrite the labs' transcripts (review the diff!)
.PHONY: test-labs labs-update

test-labs: $(BUILD)/ivx
	@tests/labs.sh $(BUILD)/ivx

labs-update: $(BUILD)/ivx
	@tests/labs.sh $(BUILD)/ivx --update

TEST_TARGETS  += test-labs
CHECK_TARGETS += test-labs
