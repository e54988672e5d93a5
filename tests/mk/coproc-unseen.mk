# coproc-unseen.mk — the value profilers on the held-out real programs
# (data/real/cases-unseen-coproc).
#
#   coproc-unseen-cases     (make test, no simulation) the set is well formed
#                           and shares no case with data/real/cases; so is
#                           data/real/cases-fresh-coproc, with none of the
#                           earlier sets
#   coproc-validate-unseen  opt-in, in neither `make test` nor `make validate`:
#                           tests/coproc-validate.sh's small-input table for
#                           value_topk.s (seeds 1-3) and value.s (seed 1) on
#                           the unseen set and a per-seed summary, written
#                           into docs/coproc.md (section "An unseen set");
#                           about 8 minutes
.PHONY: coproc-unseen-cases coproc-validate-unseen
coproc-unseen-cases:
	@tests/coproc-unseen-cases.sh $(BUILD)/ivx

coproc-validate-unseen: $(BUILD)/ivx
	@tests/coproc-validate-unseen.sh $(BUILD)/ivx

TEST_TARGETS += coproc-unseen-cases
