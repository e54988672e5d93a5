# cli.mk — end-to-end checks of the command line (bad input, exit codes).
.PHONY: test-cli-errors test-cli-outputs
test-cli-errors: $(BUILD)/ivx
	@tests/cli-errors.sh $(BUILD)/ivx
# output files: never an input, whole or not at all
test-cli-outputs: $(BUILD)/ivx
	@tests/cli-outputs.sh $(BUILD)/ivx
TEST_TARGETS += test-cli-errors test-cli-outputs
CHECK_TARGETS += test-cli-errors test-cli-outputs
