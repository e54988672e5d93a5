# coproc-unseen.mk — the value profilers on the held-out real programs
# (data/real/cases-unseen), opt-in: in neither `make test` nor `make validate`.
#
#   coproc-validate-unseen  tests/coproc-validate.sh's small-input table for
#                           value_topk.s (seeds 1-3) and value.s (seed 1) on
#                           the unseen set, and a per-seed summary, written
#                           into docs/coproc.md (section "An unseen set")
.PHONY: coproc-validate-unseen
coproc-validate-unseen: $(BUILD)/ivx
	@tests/coproc-validate-unseen.sh $(BUILD)/ivx
