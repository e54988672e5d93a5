# dcpicalc.mk — the analysis half of DCPI (engine/dcpi/dcpicalc*.c,
# ivx dcpicalc).
#
#   dcpicalc-cli       golden dcpicalc output of four programs whose answer
#                      is known by construction (a D-miss per iteration, a
#                      multiply/divide chain, an I-cache conflict, branch
#                      mispredictions), what the JSON says of them, bad input
#   dcpicalc-merge     a database of two runs (two seeds): truth and samples
#                      add up, estimates are compared with the merged truth
#   dcpicalc-validate  accuracy over the workload suite on the in-order
#                      machine (frequencies, culprits, unexplained stalls,
#                      edges): the table in docs/dcpicalc.md; one run at
#                      P = 4096 and 1024, then 4 runs (seeds 1-4) merged
#                      at P = 4096, the samples the 90% target is met with
# The unit tests (tests/unit/test_dcpicalc.c) run with `make unit`.
.PHONY: dcpicalc-cli dcpicalc-merge dcpicalc-validate
dcpicalc-cli: $(BUILD)/ivx
	@tests/dcpicalc-cli.sh $(BUILD)/ivx

dcpicalc-merge: $(BUILD)/ivx
	@tests/dcpicalc-merge.sh $(BUILD)/ivx

dcpicalc-validate: $(BUILD)/ivx
	@tests/dcpicalc-validate.sh $(BUILD)/ivx
	@DCPICALC_VALIDATE_RUNS=4 tests/dcpicalc-validate.sh $(BUILD)/ivx 4096

TEST_TARGETS     += dcpicalc-cli dcpicalc-merge
CHECK_TARGETS    += dcpicalc-cli dcpicalc-merge
VALIDATE_TARGETS += dcpicalc-validate
