# layers.mk — the folder architecture (tests/tools/check-layers.sh): engine/
# folders include only the layers below them, instruments only the core's
# public headers, and nothing in engine/ includes curses, src/ or ui/.
.PHONY: test-layers
test-layers:
	@tests/tools/check-layers.sh

TEST_TARGETS += test-layers
