# realprog.mk — real programs as workloads (docs/workloads.md, "Real programs").
#
#   make realprogs         fetch Debian's sources of bzip2, gzip, lua5.4 and
#                          sqlite3, build them -O2 -static for AArch64, and
#                          fetch arm64 busybox-static, into data/real/out/
#                          (not in git; built once, then reused)
#   test-realprogs         (make test) the small inputs: each case against
#                          qemu-aarch64, functional and timing mode
#   test-realprogs-harness (make test) tests/realprogs.sh itself on local
#                          programs: match, not yet, differs, expect list
#   validate-realprogs     (make validate) the large inputs, and `ivx cpistack`
#                          of each program that runs
#
# Which cases must match is tests/realprogs.expect; the others are listed
# as "not yet" with ivx's reason (tests/realprogs.sh). `make run` never
# builds them.
# (libc6-dev-arm64-cross is only a Recommends of the cross compiler, and
# deps.sh installs without recommends: glibc programs need its headers)
REALPROGS_PKGS := dpkg-dev tcl xz-utils qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
.PHONY: realprogs realprogs-deps test-realprogs test-realprogs-harness validate-realprogs
realprogs-deps:
	@tests/tools/deps.sh $(REALPROGS_PKGS)

realprogs: realprogs-deps
	@data/real/build.sh

test-realprogs: $(BUILD)/ivx realprogs-deps
	@tests/realprogs.sh $(BUILD)/ivx small

test-realprogs-harness: $(BUILD)/ivx $(BUILD)/tests/guests/sys_stop realprogs-deps
	@tests/realprogs-harness.sh $(BUILD)/ivx $(BUILD)/tests/guests/sys_stop

validate-realprogs: $(BUILD)/ivx realprogs-deps
	@REALPROGS_REQUIRED=1 tests/realprogs.sh $(BUILD)/ivx large

TEST_TARGETS     += test-realprogs-harness test-realprogs
VALIDATE_TARGETS += validate-realprogs
