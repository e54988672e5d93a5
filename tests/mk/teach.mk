# teach.mk — issue 26's findings (a teacher preparing a course), each checked.
#
#   test-teach    explorer and command-line messages, catchpoints that cannot hit
.PHONY: test-teach

test-teach: $(BUILD)/ivx
	@tests/teach.sh $(BUILD)/ivx

TEST_TARGETS  += test-teach
CHECK_TARGETS += test-teach
