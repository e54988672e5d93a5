# cost.mk — `ivx cost`: the true cost of miss events (each sampled event
# run with and without it), checked on the micro-kernels.
.PHONY: test-cost-cli
test-cost-cli: $(BUILD)/ivx
	@tests/cost-cli.sh $(BUILD)/ivx

TEST_TARGETS  += test-cost-cli
CHECK_TARGETS += test-cost-cli
