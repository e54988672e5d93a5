# sweep.mk — `ivx sweep` (docs/sweep.md): sweeps under GNU parallel and as a
# Slurm job array.
#
#   test-sweep-cli    (make test) specs, jobs, result lines, merge, bad specs,
#                     quoting; the Slurm scripts' array tasks run by hand
#   test-sweep-slurm  (make test) the same sweep submitted to a real one-node
#                     Slurm that the test starts on localhost (munge,
#                     slurmctld, slurmd in a temporary directory); skipped,
#                     saying why, when Slurm is not installed or cannot start.
#                     `make sweep-slurm-deps` installs it (Debian packages).
# GNU parallel is in DEB_TEST_PKGS (Makefile): make test installs it.
SWEEP_SLURM_PKGS := slurmctld slurmd slurm-client munge
.PHONY: test-sweep-cli test-sweep-slurm sweep-slurm-deps
test-sweep-cli: $(BUILD)/ivx
	@tests/sweep-cli.sh $(BUILD)/ivx

test-sweep-slurm: $(BUILD)/ivx
	@tests/sweep-slurm.sh $(BUILD)/ivx

sweep-slurm-deps:
	@tests/tools/deps.sh $(SWEEP_SLURM_PKGS)

TEST_TARGETS  += test-sweep-cli test-sweep-slurm
CHECK_TARGETS += test-sweep-cli
