# acct.mk — CPI-stack accounting (engine/acct/, ivx cpistack / refstack).
#
#   acct-cli       the two commands end to end: text, JSON, SVG, bad input
#   acct-bench     what the six accounting units cost in timing-mode speed
#   acct-cost      the same cost in host instructions under callgrind:
#                  repeatable, unlike time (not in make bench: needs valgrind)
#   acct-validate  accuracy against the reference stacks over the whole suite
#                  and the real programs, both references, cold and warm, as two
#                  `ivx sweep`s;
#                  writes docs/validation.md (ACCT_VALIDATE_FF, _INSNS: window;
#                  _JOBS; _KEEP=DIR keeps the specs and result lines)
# The unit tests (tests/unit/test_acct_*.c) run with `make unit`.
.PHONY: acct-cli acct-bench acct-cost acct-validate
acct-cli: $(BUILD)/ivx
	@tests/acct-cli.sh $(BUILD)/ivx

acct-bench: $(BUILD)/ivx
	@tests/acct-bench.sh $(BUILD)/ivx

$(BUILD)/tests/acct_cost: tests/tools/acct_cost.c $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libivx.a $(LDFLAGS) $(LDLIBS)

acct-cost: $(BUILD)/tests/acct_cost
	@tests/acct-cost.sh $(BUILD)/tests/acct_cost

acct-validate: $(BUILD)/ivx
	@tests/acct-validate.sh $(BUILD)/ivx

TEST_TARGETS     += acct-cli
CHECK_TARGETS    += acct-cli
BENCH_TARGETS    += acct-bench
VALIDATE_TARGETS += acct-validate
