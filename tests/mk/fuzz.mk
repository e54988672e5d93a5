# fuzz.mk — fuzzing the input parsers and the command interpreter
# (tests/fuzz/, docs/testing.md).
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_HARNESSES="elf config"]
#                   build the harnesses with clang, libFuzzer, ASan and
#                   UBSan (in build-fuzz/) and run each for FUZZ_SECONDS;
#                   installs clang if missing. New corpus entries go to
#                   build-fuzz/corpus/HARNESS, crashes to
#                   build-fuzz/artifacts/HARNESS (copy them into
#                   tests/fuzz/regress/HARNESS once fixed).
#   test-fuzz-replay
#                   (make test, make check) the same harness code built with
#                   $(CC) and a plain main() that feeds it the seed corpus and
#                   every regression input: no clang needed.
#
# Harnesses: elf (program_load_image), config (INI file + -o overrides),
# xcmd (explorer commands, one per line), script (xcmd_run_script).

FUZZ_ALL       := elf config xcmd script
# The instruments' parsers: each instrument's tests replay its harness
# (tests/fuzz/NAME.c) in make test; make fuzz runs them with the others.
FUZZ_EXTRA     := coproc_asm dcpi_db strat_spec
FUZZ_HARNESSES ?= $(FUZZ_ALL) $(FUZZ_EXTRA)
FUZZ_SECONDS   ?= 60
# Harnesses that drive an explorer session link the front end too.
FUZZ_FRONT     := xcmd script
FUZZ_DIR       := build-fuzz
FUZZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Longest input per harness. libFuzzer's default is the largest seed, too
# short for the text harnesses to reach an over-long script line (4096).
FUZZ_MAXLEN_elf    := 65536
FUZZ_MAXLEN_config := 8192
FUZZ_MAXLEN_xcmd   := 8192
FUZZ_MAXLEN_script := 8192

fuzz_libs = $(if $(filter $(1),$(FUZZ_FRONT)),$(FRONT_LINK)) $(BUILD)/libivx.a

# ---- replay with the ordinary compiler ----------------------------------
FUZZ_REPLAY := $(FUZZ_ALL:%=$(BUILD)/tests/fuzz/replay-%)

$(BUILD)/tests/fuzz/replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/fuzz_session.h \
		$(BUILD)/libivx.a $(BUILD)/libivxfront.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_LINK_LTO) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay_main.c $(call fuzz_libs,$*) \
	    $(LDFLAGS) $(LDLIBS)

.PHONY: test-fuzz-replay fuzz fuzz-build fuzz-run
test-fuzz-replay: $(FUZZ_REPLAY)
	@for h in $(FUZZ_ALL); do \
	    $(BUILD)/tests/fuzz/replay-$$h tests/fuzz/corpus/$$h tests/fuzz/regress/$$h || exit 1; \
	done

TEST_TARGETS  += test-fuzz-replay
CHECK_TARGETS += test-fuzz-replay

# ---- libFuzzer -----------------------------------------------------------
# The libraries are built with -fsanitize=fuzzer-no-link (coverage for
# libFuzzer, no main); only the harness links libFuzzer's main.
$(FUZZ_DIR)/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_session.h $(FUZZ_DIR)/libivx.a $(FUZZ_DIR)/libivxfront.a
	clang $(CFLAGS) -fsanitize=fuzzer -o $@ tests/fuzz/fuzz_$*.c \
	    $(patsubst $(BUILD)/%,$(FUZZ_DIR)/%,$(call fuzz_libs,$*)) $(LDFLAGS) $(LDLIBS)

$(FUZZ_DIR)/fuzz-%: tests/fuzz/%.c $(FUZZ_DIR)/libivx.a
	clang $(CFLAGS) -fsanitize=fuzzer -o $@ tests/fuzz/$*.c $(FUZZ_DIR)/libivx.a $(LDFLAGS) $(LDLIBS)

fuzz-build:
	@tests/tools/deps.sh clang libclang-rt-14-dev
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) CC=clang OPT=-O1 LTO= \
	    SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz-%)

# Each harness in turn, FUZZ_SECONDS each; the first finding stops `make fuzz`.
fuzz-run:
	@for h in $(FUZZ_HARNESSES); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$h $(FUZZ_DIR)/artifacts/$$h && \
	    echo "fuzz: $$h for $(FUZZ_SECONDS) s" && \
	    case $$h in elf) len=$(FUZZ_MAXLEN_elf);; config) len=$(FUZZ_MAXLEN_config);; \
	        xcmd) len=$(FUZZ_MAXLEN_xcmd);; *) len=$(FUZZ_MAXLEN_script);; esac; \
	    seeds=""; for d in tests/fuzz/corpus/$$h tests/fuzz/regress/$$h; do [ -d $$d ] && seeds="$$seeds $$d"; done; \
	    $(FUZZ_DIR)/fuzz-$$h -max_total_time=$(FUZZ_SECONDS) -max_len=$$len -timeout=10 -rss_limit_mb=3072 \
	        -artifact_prefix=$(FUZZ_DIR)/artifacts/$$h/ -print_final_stats=1 \
	        $(FUZZ_DIR)/corpus/$$h $$seeds || exit 1; \
	done

fuzz: fuzz-build
	@$(MAKE) --no-print-directory fuzz-run
