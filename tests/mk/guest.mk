# guest.mk — the system calls and the file sandbox, end to end.
#
#   test-guest-syscalls  tests/guests/sys_check.c (built here with the
#                        project's runtime and aarch64-linux-gnu-gcc) checks
#                        ~100 system-call behaviours and sandbox escapes from
#                        inside the guest, in functional and timing mode, with
#                        openat2 and with the component walk; the script checks
#                        determinism and what reached the host; sys_stop.c the
#                        calls that end a run; sys_copy.c file offsets across
#                        reverse stepping in the explorer; sys_mkdir.c what
#                        `info cost` may replay; sys_append.c file sizes
#                        across reverse stepping and `ivx cost`;
#                        sys_manyfiles.c a guest using up the descriptors
#   test-guest-busybox   busybox's cat, cp, cd, mkdir, rm, mv, ln and touch
#                        inside an rw grant, and their escape attempts (out
#                        of the grants, into a nested read-only grant, through
#                        symlinks); not run without data/real/out (make realprogs)
.PHONY: test-guest-syscalls test-guest-busybox
GUEST_TEST_DIR := $(BUILD)/tests/guests
GUEST_TEST_CC  ?= aarch64-linux-gnu-gcc
GUEST_TEST_CFLAGS = -std=gnu11 -O2 -ffreestanding -nostdinc \
    -isystem $(shell $(GUEST_TEST_CC) -print-file-name=include) -Idata/runtime \
    -mgeneral-regs-only -mbranch-protection=none -mno-outline-atomics -fno-pie \
    -fno-stack-protector -fno-tree-loop-distribute-patterns -static -nostdlib -no-pie \
    -Wl,--build-id=none -Wall -Wextra

$(GUEST_TEST_DIR)/%: tests/guests/%.c tests/guests/raw_syscall.h $(wildcard data/runtime/*.c data/runtime/*.h) data/runtime/crt0.S tests/mk/guest.mk
	@mkdir -p $(dir $@)
	$(GUEST_TEST_CC) $(GUEST_TEST_CFLAGS) -o $@ data/runtime/crt0.S $(wildcard data/runtime/*.c) $<

test-guest-syscalls: $(BUILD)/ivx $(GUEST_TEST_DIR)/sys_check $(GUEST_TEST_DIR)/sys_stop $(GUEST_TEST_DIR)/sys_copy \
                     $(GUEST_TEST_DIR)/sys_mkdir $(GUEST_TEST_DIR)/sys_append $(GUEST_TEST_DIR)/sys_manyfiles
	@tests/guest-syscalls.sh $(BUILD)/ivx $(GUEST_TEST_DIR)/sys_check $(GUEST_TEST_DIR)/sys_stop \
	    $(GUEST_TEST_DIR)/sys_copy $(GUEST_TEST_DIR)/sys_mkdir $(GUEST_TEST_DIR)/sys_append \
	    $(GUEST_TEST_DIR)/sys_manyfiles

test-guest-busybox: $(BUILD)/ivx
	@tests/guest-busybox.sh $(BUILD)/ivx data/real/out/bin/busybox

TEST_TARGETS  += test-guest-syscalls test-guest-busybox
CHECK_TARGETS += test-guest-syscalls test-guest-busybox
