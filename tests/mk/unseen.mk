# unseen.mk — the CPI-stack counters on a third, held-out set of real-program
# runs (data/real/cases-unseen; docs/validation.md, "The unseen set").
#
#   acct-validate-unseen  (make validate) each case checked against
#                         qemu-aarch64, then `ivx cpistack` cold and warm,
#                         with the paper's reference and --ref-fu, as one
#                         `ivx sweep`; writes its tables into
#                         docs/validation.md. Needs `make realprogs`; says
#                         NOT RUN without it.
#   acct-validate-fresh   (make validate) the same script on the fourth
#                         held-out set (data/real/cases-fresh, scripts in
#                         data/real/fresh/), windows of 3M instructions
#   acct-validate-fp      (make validate) and on the fifth: the C programs
#                         of data/real/fp/ (data/real/cases-fp), built with
#                         the cross compiler into data/real/out/fp-bin
.PHONY: acct-validate-unseen acct-validate-fresh acct-validate-fp
# Both scripts rewrite docs/validation.md: under `make -j validate` this one
# waits for acct-validate when that is a goal too.
acct-validate-unseen: $(BUILD)/ivx realprogs-deps $(filter acct-validate,$(MAKECMDGOALS))
	@tests/acct-validate-unseen.sh $(BUILD)/ivx

acct-validate-fresh: $(BUILD)/ivx realprogs-deps $(filter acct-validate acct-validate-unseen,$(MAKECMDGOALS))
	@ACCT_UNSEEN_CASES=data/real/cases-fresh ACCT_UNSEEN_SCRIPTS=data/real/fresh ACCT_UNSEEN_SET=fresh \
		ACCT_VALIDATE_INSNS=3M tests/acct-validate-unseen.sh $(BUILD)/ivx

FP_BIN := $(patsubst data/real/fp/%.c,data/real/out/fp-bin/%,$(wildcard data/real/fp/*.c))
data/real/out/fp-bin/%: data/real/fp/%.c | realprogs-deps
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc -O3 -static -o $@ $< -lm

acct-validate-fp: $(BUILD)/ivx realprogs-deps $(FP_BIN) \
		$(filter acct-validate acct-validate-unseen acct-validate-fresh,$(MAKECMDGOALS))
	@ACCT_UNSEEN_CASES=data/real/cases-fp ACCT_UNSEEN_SCRIPTS=data/real/fp ACCT_UNSEEN_SET=FP \
		ACCT_UNSEEN_PROGS=data/real/out/fp-bin ACCT_VALIDATE_INSNS=3M tests/acct-validate-unseen.sh $(BUILD)/ivx

VALIDATE_TARGETS += acct-validate-unseen acct-validate-fresh acct-validate-fp
