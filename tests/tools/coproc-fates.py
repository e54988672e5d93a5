#!/usr/bin/env python3
"""coproc-fates.py — where a value profile's error comes from, from the
JSON of `ivx coproc --program value[_topk] --fates --json J ...`.

Splits the execution-weighted invariance error (points, as weighted_error)
  never sampled:  by what became of those loads' executions (outside the PC
                  filter's partition, behind another load's ignore bit,
                  skipped by the random tagger, dropped at a full buffer,
                  written as a record but never harvested from a slot,
                  class filter off);
  over / under:   sampled loads' error, in its direction, as the sum of
                  three differences of the top value's share: the
                  executions that passed both filters against all of them
                  (the filters' time windows), the records written against
                  those (sampling inside the windows) and the estimate
                  against the records (the co-processor and handler: lost
                  records, few samples, counting); and the part of loads
                  with 1-3 samples. The sampling part (b) is taken apart in
                  turn: the random tagger (the eligible executions' top
                  value's share among the tagged ones against among the
                  eligible), drops at a full buffer (its share among the
                  records against among the tagged), and the records'
                  largest share against that value's (a small sample's
                  largest share exceeds the distribution's: "size"), of
                  which "expected" is what uniformly random samples of as
                  many records give on average.
Usage: coproc-fates.py J.json [J2.json ...]   (several: summed)
"""
import json, sys

FATES = ["partition", "ignored_other", "untagged", "dropped", "recorded", "off", "ignored_own"]


def analyse(paths):
    tot = 0.0
    never = {k: 0.0 for k in FATES}
    split = {"over": 0.0, "under": 0.0}
    # sampled loads' error, in the direction of the error: the executions
    # that passed both filters against the run (windows), the records
    # against those (sampling inside the windows), the estimate against the
    # records (the co-processor: lost records, few samples, counting)
    parts = {s: {"windows": 0.0, "sampling": 0.0, "coproc": 0.0, "few": 0.0, "own": 0.0, "w": 0.0,
                 "tagger": 0.0, "drops": 0.0, "size": 0.0, "expected": 0.0}
             for s in split}
    for p in paths:
        d = json.load(open(p))
        loads = d["loads"]
        n = sum(l["executions"] for l in loads)
        for l in loads:
            x = l["executions"] / n / len(paths) * 100
            t, e = l["invariance_true"], l["invariance_est"]
            err = abs(e - t) * x
            tot += err
            f = l.get("fates", {})
            seen = sum(f.get(k, 0) for k in FATES) or 1
            if not l["samples"]:
                for k in FATES:
                    never[k] += err * f.get(k, 0) / seen
                continue
            side = "over" if e > t else "under"
            sign = 1 if side == "over" else -1
            split[side] += err
            a = parts[side]
            el = l.get("eligible_top_share", t)
            rec = l.get("recorded_top_share", el)
            a["windows"] += sign * (el - t) * x
            a["sampling"] += sign * (rec - el) * x
            a["coproc"] += sign * (e - rec) * x
            tg = l.get("tagged_eligible_top_share", el)
            re_ = l.get("recorded_eligible_top_share", tg)
            a["tagger"] += sign * (tg - el) * x
            a["drops"] += sign * (re_ - tg) * x
            a["size"] += sign * (rec - re_) * x
            a["expected"] += sign * (l.get("sampled_top_share", el) - el) * x
            if l["samples"] < 4:
                a["few"] += err
            a["own"] += x * f.get("ignored_own", 0) / seen
            a["w"] += x
    print("error %.2f points: never sampled %.2f, under %.2f, over %.2f" % (
        tot, sum(never.values()), split["under"], split["over"]))
    print("  never sampled, by the fate of their executions: " +
          ", ".join("%s %.2f" % (k, never[k]) for k in FATES if never[k] >= 0.005))
    for side in ("over", "under"):
        a = parts[side]
        if not a["w"]:
            continue
        print("  %s: filter windows (passed both filters vs the run) %.2f, sampling in them (records vs passed) "
              "%.2f, co-processor (estimate vs records) %.2f; loads with 1-3 samples %.2f; "
              "their executions while masked or held %.1f%%"
              % (side, a["windows"], a["sampling"], a["coproc"], a["few"], 100 * a["own"] / a["w"]))
        print("    sampling in the windows: random tagger %.2f, drops %.2f, sample size %.2f "
              "(uniformly random samples of as many records: %.2f)"
              % (a["tagger"], a["drops"], a["size"], a["expected"]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: coproc-fates.py J.json [J2.json ...]")
    analyse(sys.argv[1:])
