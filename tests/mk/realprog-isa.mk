# realprog-isa.mk — real programs against the instruction set: a C program
# using floating point, glibc's SIMD string functions, libm, <fenv.h> and
# atomics, built by the test with aarch64-linux-gnu-gcc -static (-O2 and
# -O3), must print under `ivx run --functional` and `ivx run` exactly what
# it prints under qemu-aarch64 (tests/realprog-isa.sh); so must
# tests/guests/isa_neon_ext.c, the AdvSIMD/crypto forms through intrinsics;
# tests/guests/abi_real.c, libc_sys.c, libc_files.c and libc_dev.c, guest
# ABI corners and the answers glibc functions get from the system calls ivx
# answers itself, through the sandbox or from its virtual /dev/null, zero,
# random and urandom (whose bytes must also follow --seed).
.PHONY: test-realprog-isa
REALPROG_ISA_CC ?= aarch64-linux-gnu-gcc

test-realprog-isa: $(BUILD)/ivx
	@tests/realprog-isa.sh $(BUILD)/ivx $(REALPROG_ISA_CC) $(BUILD)/tests/realprog-isa

TEST_TARGETS += test-realprog-isa
