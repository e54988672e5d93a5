# tests.mk — the test suite. Each area adds a file tests/mk/NAME.mk that
# appends its phony targets to TEST_TARGETS (run by `make test`),
# CHECK_TARGETS (run by `make check` with sanitizers), BENCH_TARGETS and
# VALIDATE_TARGETS.
TEST_TARGETS     :=
CHECK_TARGETS    :=
BENCH_TARGETS    :=
VALIDATE_TARGETS :=

CMOCKA_LIBS := $(shell $(PKGCONF) --libs cmocka 2>/dev/null)
UNIT_SRC    := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# The test programs link libivx.a's ordinary code (its objects are fat,
# see Makefile), not its LTO code: an LTO link of every test program took
# 5-20 s, several minutes of `make test`; build/ivx itself is linked with
# LTO and the end-to-end tests run that.
TEST_LINK_LTO := $(if $(LTO),-fno-lto)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_LINK_LTO) -MMD -MP -o $@ $< $(BUILD)/libivx.a $(LDFLAGS) $(CMOCKA_LIBS) $(LDLIBS)

# Tests of the front end (explorer sessions, commands, panes, layouts) are
# in tests/unit/front/ and link the front-end library whole (see Makefile,
# FRONT_LINK), which brings the built-in default program with it.
FRONT_UNIT_SRC := $(sort $(wildcard tests/unit/front/test_*.c))
FRONT_UNIT_BIN := $(FRONT_UNIT_SRC:tests/unit/front/%.c=$(BUILD)/tests/front/%)

$(BUILD)/tests/front/%: tests/unit/front/%.c $(BUILD)/libivxfront.a $(BUILD)/libivx.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_LINK_LTO) -Itests/unit -MMD -MP -o $@ $< $(FRONT_LINK) $(BUILD)/libivx.a \
	    $(LDFLAGS) $(CMOCKA_LIBS) $(LDLIBS)

-include $(UNIT_BIN:=.d) $(FRONT_UNIT_BIN:=.d)

.PHONY: unit
unit: $(UNIT_BIN) $(FRONT_UNIT_BIN) $(BUILD)/ivx
	@tests/tools/run-units.sh $(UNIT_BIN) $(FRONT_UNIT_BIN)

-include $(sort $(wildcard tests/mk/*.mk))

test: deps-test
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit $(TEST_TARGETS)

check: deps-test
	@$(MAKE) --no-print-directory BUILD=build-san OPT=-O1 LTO= \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	    all unit $(CHECK_TARGETS)

bench: deps-test
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory $(BENCH_TARGETS)

validate: deps-test
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory $(VALIDATE_TARGETS)
