# data.mk — tests of the guest programs in data/ (see docs/workloads.md).
#
#   data-repro  rebuild every ELF of data/bin/ into a temporary directory and
#               compare byte for byte (needs aarch64-linux-gnu-gcc)
#   data-qemu   run every program of data/bin/MANIFEST with its test arguments
#               under qemu-aarch64 and under `ivx run --functional`; stdout and
#               exit status must match
.PHONY: data-repro data-qemu
data-repro:
	@tests/data-repro.sh

data-qemu: $(BUILD)/ivx
	@tests/data-qemu.sh $(BUILD)/ivx

TEST_TARGETS  += data-repro data-qemu
CHECK_TARGETS += data-qemu
