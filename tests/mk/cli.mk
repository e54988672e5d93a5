# cli.mk — end-to-end checks of the command line (bad input, exit codes).
.PHONY: test-cli-errors
test-cli-errors: $(BUILD)/ivx
	@tests/cli-errors.sh $(BUILD)/ivx
TEST_TARGETS += test-cli-errors
CHECK_TARGETS += test-cli-errors
