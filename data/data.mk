# data.mk — rules for the guest programs (see docs/workloads.md).
#
#   make data     rebuild every guest ELF under data/bin/ and data/bin/MANIFEST
#
# The ELFs are committed, so running ivx or its tests needs no cross
# compiler; only `make data` (and tests/data-repro.sh, which rebuilds into a
# temporary directory and compares) does. Output is byte-for-byte
# reproducible with the same toolchain: no build-id, no debug info (so no
# paths), deterministic archives, fixed link order.
#
#   data/bin/workloads/NAME      data/workloads/NAME.c at -O2
#   data/bin/workloads/NAME.On   the same at -On, for NAME in DATA_VARIANTS_On
#   data/bin/kernels/NAME        data/kernels/NAME.S (no runtime)
#   data/bin/selftest/NAME       data/selftest/NAME.c: tests of the runtime
#   data/bin/MANIFEST            one line per run: path | args | test args | exit
#
# DATA_OUT and DATA_OBJ move the outputs and objects elsewhere (the
# reproducibility test uses them).

DATA_CROSS   ?= aarch64-linux-gnu-
DATA_CC      ?= $(DATA_CROSS)gcc
DATA_AR      ?= $(DATA_CROSS)ar
DATA_OBJDUMP ?= $(DATA_CROSS)objdump
DATA_READELF ?= $(DATA_CROSS)readelf
DATA_OUT     ?= data/bin
DATA_OBJ     ?= $(BUILD)/data

# Workloads also built at other optimisation levels, so the instruction mix
# the emulator sees spans -O0 (stack-heavy) to -O3 (unrolled, inlined).
# (interp is not in the -O3 list: GCC 12 emits the same bytes as at -O2.)
DATA_VARIANT_OPTS := O0 O1 O3
DATA_VARIANTS_O0  := crc interp matmul qsort
DATA_VARIANTS_O1  := crc interp matmul qsort
DATA_VARIANTS_O3  := crc hashtab matmul qsort

# -ffreestanding: no libc, no hosted assumptions; with -nostdinc and GCC's
# own include directory the only headers are stdint/stdarg/stddef and ours.
# -mgeneral-regs-only: no FP/SIMD registers anywhere (checked after linking
# by data/tools/check-elf.sh). Branch protection and outline atomics off so
# no PAC/BTI hints and no libgcc helper calls appear.
DATA_GCC_INC  = $(shell $(DATA_CC) -print-file-name=include)
DATA_ARCH     := -mgeneral-regs-only -mbranch-protection=none -mno-outline-atomics
DATA_CFLAGS   = -std=gnu11 -ffreestanding -nostdinc -isystem $(DATA_GCC_INC) \
                -Idata/runtime $(DATA_ARCH) -fno-pie -fno-stack-protector \
                -fno-asynchronous-unwind-tables -fno-unwind-tables \
                -ffile-prefix-map=$(CURDIR)/= -Wall -Wextra
DATA_RT_CFLAGS = $(DATA_CFLAGS) -O2 -fno-tree-loop-distribute-patterns
DATA_LDFLAGS  := -static -nostdlib -no-pie -Wl,--build-id=none -Wl,-z,noexecstack

DATA_RT_SRC  := $(sort $(wildcard data/runtime/*.c))
DATA_RT_OBJ  := $(DATA_RT_SRC:data/runtime/%.c=$(DATA_OBJ)/runtime/%.o)
DATA_CRT0    := $(DATA_OBJ)/runtime/crt0.o
DATA_RT_LIB  := $(DATA_OBJ)/librt.a

DATA_WL_NAMES := $(sort $(basename $(notdir $(wildcard data/workloads/*.c))))
DATA_K_NAMES  := $(sort $(basename $(notdir $(wildcard data/kernels/*.S))))
DATA_ST_NAMES := $(sort $(basename $(notdir $(wildcard data/selftest/*.c))))

DATA_WL_BIN  := $(DATA_WL_NAMES:%=$(DATA_OUT)/workloads/%) \
                $(foreach o,$(DATA_VARIANT_OPTS),$(DATA_VARIANTS_$(o):%=$(DATA_OUT)/workloads/%.$(o)))
DATA_K_BIN   := $(DATA_K_NAMES:%=$(DATA_OUT)/kernels/%)
DATA_ST_BIN  := $(DATA_ST_NAMES:%=$(DATA_OUT)/selftest/%)
DATA_ALL     := $(DATA_WL_BIN) $(DATA_K_BIN) $(DATA_ST_BIN) $(DATA_OUT)/MANIFEST

data: $(DATA_ALL)

# The rules that build guest programs exist only when `make data` is asked
# for. Otherwise the committed ELFs are plain files: a fresh clone's
# checkout timestamps must never make `make run` want a cross compiler.
ifneq ($(filter data,$(MAKECMDGOALS)),)

# ---- runtime -----------------------------------------------------------
$(DATA_OBJ)/runtime/%.o: data/runtime/%.c data/data.mk
	@mkdir -p $(dir $@)
	$(DATA_CC) $(DATA_RT_CFLAGS) -MMD -MP -c -o $@ $<

$(DATA_CRT0): data/runtime/crt0.S data/data.mk
	@mkdir -p $(dir $@)
	$(DATA_CC) $(DATA_ARCH) -c -o $@ $<

# D: zero timestamps, uids and modes in the archive
$(DATA_RT_LIB): $(DATA_RT_OBJ)
	@rm -f $@
	$(DATA_AR) rcsD $@ $^

# ---- workloads -----------------------------------------------------------
# C programs on the runtime. $(1): directory under data/ (and data/bin/),
# $(2): optimisation level, $(3): output suffix ("" or ".On")
define DATA_C_RULES
$(DATA_OBJ)/$(1)/%$(3).o: data/$(1)/%.c data/data.mk
	@mkdir -p $$(dir $$@)
	$$(DATA_CC) $$(DATA_CFLAGS) -$(2) -MMD -MP -c -o $$@ $$<

$(DATA_OUT)/$(1)/%$(3): $(DATA_OBJ)/$(1)/%$(3).o $(DATA_CRT0) $(DATA_RT_LIB) data/tools/check-elf.sh
	@mkdir -p $$(dir $$@)
	$$(DATA_CC) $$(DATA_LDFLAGS) -o $$@.tmp $(DATA_CRT0) $$< $(DATA_RT_LIB)
	@DATA_OBJDUMP=$$(DATA_OBJDUMP) DATA_READELF=$$(DATA_READELF) data/tools/check-elf.sh $$@.tmp
	@mv $$@.tmp $$@
endef
$(eval $(call DATA_C_RULES,workloads,O2,))
$(foreach o,$(DATA_VARIANT_OPTS),$(eval $(call DATA_C_RULES,workloads,$(o),.$(o))))
$(eval $(call DATA_C_RULES,selftest,O2,))

# ---- micro-kernels -------------------------------------------------------
$(DATA_OBJ)/kernels/%.o: data/kernels/%.S data/data.mk
	@mkdir -p $(dir $@)
	$(DATA_CC) $(DATA_ARCH) -Idata/kernels -MMD -MP -c -o $@ $<

$(DATA_OUT)/kernels/%: $(DATA_OBJ)/kernels/%.o data/tools/check-elf.sh
	@mkdir -p $(dir $@)
	$(DATA_CC) $(DATA_LDFLAGS) -o $@.tmp $<
	@DATA_OBJDUMP=$(DATA_OBJDUMP) DATA_READELF=$(DATA_READELF) data/tools/check-elf.sh $@.tmp
	@mv $@.tmp $@

# ---- manifest --------------------------------------------------------------
$(DATA_OUT)/MANIFEST: data/tools/manifest.sh data/data.mk \
		$(wildcard data/workloads/*.c data/kernels/*.S data/selftest/*.c)
	@mkdir -p $(dir $@)
	DATA_CC=$(DATA_CC) data/tools/manifest.sh \
	    $(foreach o,$(DATA_VARIANT_OPTS),"$(o):$(DATA_VARIANTS_$(o))") > $@.tmp
	@mv $@.tmp $@

-include $(wildcard $(DATA_OBJ)/runtime/*.d $(DATA_OBJ)/workloads/*.d \
                   $(DATA_OBJ)/kernels/*.d $(DATA_OBJ)/selftest/*.d)
endif
