# ivx — the interval-analysis explorer.
#
#   make run     install what is missing, build, start ivx on the default program
#   make test    install what is missing, build, run the whole test suite
#   make check   the unit and end-to-end tests under ASan+UBSan
#   make bench   simulated MIPS / cycles per second per workload
#   make validate  long validations (CPI-stack accuracy tables)
#   make data    rebuild the guest programs in data/ (needs aarch64-linux-gnu-gcc)
#
# BUILD=dir puts every object and binary under dir (default build/), so
# several trees (plain, sanitized, clang) can coexist.

BUILD   ?= build
CC      ?= gcc
PKGCONF ?= pkg-config
SAN     ?=

LIBS_PC  := capstone libelf inih libedit ncursesw
PC_CFLAGS := $(shell $(PKGCONF) --cflags $(LIBS_PC) 2>/dev/null)
PC_LIBS   := $(shell $(PKGCONF) --libs $(LIBS_PC) 2>/dev/null)

OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Iengine -Isrc -Iui $(PC_CFLAGS) $(SAN)
LDFLAGS += $(SAN)
# Link-time optimisation (gcc): the core's stages, the memory system and
# the observers they call are optimised as one program, which makes every
# mode faster (docs/machine.md, Implementation notes). gcc's linker
# plugin then optimises every program linked with libivx.a, the tests'
# too. The objects are "fat" (LTO code and ordinary code), so a linker
# without that plugin still links them. `make LTO=` builds without LTO
# (in a fresh BUILD dir: objects are not rebuilt when flags change);
# `make check` builds without it.
LTO     ?= $(if $(shell $(CC) -v 2>&1 | grep '^gcc version'),-flto=auto -ffat-lto-objects)
LDLIBS  += $(PC_LIBS) -lm -lpthread

ENGINE_SRC := $(sort $(wildcard engine/*/*.c))
FRONT_SRC  := $(sort $(wildcard src/*.c src/*/*.c ui/*.c))
FRONT_ASM  := $(sort $(wildcard src/*/*.S))
MAIN_SRC   := src/main.c
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
FRONT_OBJ  := $(filter-out $(MAIN_SRC:%.c=$(BUILD)/%.o),$(FRONT_SRC:%.c=$(BUILD)/%.o)) \
              $(FRONT_ASM:%.S=$(BUILD)/%.o)
MAIN_OBJ   := $(MAIN_SRC:%.c=$(BUILD)/%.o)
DEPFILES   := $(ENGINE_OBJ:.o=.d) $(FRONT_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

.PHONY: all run test check bench validate deps data clean difftest
all: $(BUILD)/ivx

$(BUILD)/libivx.a: $(ENGINE_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The front end (src/ and ui/ but main.c) is a library too, so unit tests
# and fuzz harnesses can drive explorer sessions, commands and panes.
# Commands (XCMD_REGISTER) and panes (PANE_REGISTER) register themselves
# by putting a pointer in a linker section ("ivx_xcmds", "ivx_panes"),
# and nothing refers to those objects by name: an ordinary archive link
# would leave them out. Everything that links the front end therefore takes
# the whole archive (FRONT_LINK). We keep the sections rather than an
# explicit table because adding a command or a pane stays a one-file change
# with no list to keep in step.
$(BUILD)/libivxfront.a: $(FRONT_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

FRONT_LINK = -Wl,--whole-archive $(BUILD)/libivxfront.a -Wl,--no-whole-archive

$(BUILD)/ivx: $(MAIN_OBJ) $(BUILD)/libivxfront.a $(BUILD)/libivx.a
	$(CC) $(LDFLAGS) $(OPT) $(LTO) -o $@ $(MAIN_OBJ) $(FRONT_LINK) $(BUILD)/libivx.a $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO) -MMD -MP -c -o $@ $<

# The built-in default program, embedded by src/cli/default_prog.S.
DEFAULT_PROG ?= data/bin/workloads/interp
$(BUILD)/src/cli/default_prog.o: src/cli/default_prog.S $(DEFAULT_PROG)
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ -DIVX_DEFAULT_PROG_PATH='"$(DEFAULT_PROG)"' \
	    -DIVX_DEFAULT_PROG_NAME='"$(notdir $(DEFAULT_PROG))"' $<

-include $(DEPFILES)

# Packages a fresh Debian 12 needs. `deps` installs the missing ones when
# root, otherwise prints the apt-get line and stops. The tests' own: qemu and
# the cross compiler (differential runs, guest programs), tmux (the
# explorer's screen), python3 (checks that read JSON outputs), GNU parallel
# (ivx sweep, and make validate's sweeps).
DEB_PKGS := gcc make pkg-config libc6-dev libcapstone-dev libelf-dev libcmocka-dev \
            libinih-dev libedit-dev libncurses-dev
DEB_TEST_PKGS := qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross tmux python3 parallel
deps:
	@tests/tools/deps.sh $(DEB_PKGS)
deps-test:
	@tests/tools/deps.sh $(DEB_PKGS) $(DEB_TEST_PKGS)

run: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/ivx $(ARGS)

clean:
	rm -rf $(BUILD) build-*

include data/data.mk
include tests/tests.mk
