# speed.mk — the timing model's speed work must not change what it computes.
#
#   test-timing-equiv   tests/timing-equiv.sh: cycles, commits and the hash
#                       of every event, cycle record and accounting stack of
#                       a few programs (both core modes) against the committed
#                       tests/golden/timing-equiv.txt (make test)
#   timing-fingerprint  the same over every workload and kernel, to compare
#                       two builds (TF_CYCLES, TF_OUT; not in make test)
.PHONY: test-timing-equiv timing-fingerprint

$(BUILD)/tests/event_hash: tests/tools/event_hash.c $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libivx.a $(LDFLAGS) $(LDLIBS)

test-timing-equiv: $(BUILD)/tests/event_hash
	@tests/timing-equiv.sh $(BUILD)/tests/event_hash

timing-fingerprint: $(BUILD)/tests/event_hash
	@tests/tools/timing-fingerprint.sh $(BUILD)/tests/event_hash

TEST_TARGETS  += test-timing-equiv
CHECK_TARGETS += test-timing-equiv
