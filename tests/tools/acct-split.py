#!/usr/bin/env python3
"""acct-split.py DIR [REF] — the counters' maximum component error per
group of programs, from the result lines tests/acct-validate.sh keeps
(ACCT_VALIDATE_KEEP=DIR: DIR/suite.jsonl, DIR/kernels.jsonl), for the
reference REF (paper, the default, or fu).

The groups are the tuning set the ivx counters' rules were chosen on and
the held-out set they were not (docs/validation.md, fixed before tuning):
  tuning    the workloads of data/bin/MANIFEST; the real programs on the
            odd lines of data/real/cases (TUNE_REAL below)
  held-out  the other real programs; every micro-kernel run
Prints one Markdown table: rows per group and start (cold / warm), the
average and worst error of each method, and the worst row's program."""
import json
import os
import sys

TUNE_REAL = {"bzip2-compress", "gzip-compress", "lua", "busybox-sort", "busybox-wc"}
METHODS = ("fmt", "sfmt", "ivx")


def rows(path, ref):
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            p = d["point"]
            if p.get("ref", "paper") != ref or d.get("status") != "ok":
                continue
            yield p, d["result"]["methods"]


def group(p, real):
    name = p["program"]
    if "start" not in p:
        return "held-out", "micro-kernels", "whole"
    if name in real:
        return ("tuning" if name in TUNE_REAL else "held-out"), "real programs", p["start"]
    return "tuning", "workloads", p["start"]


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: acct-split.py DIR [paper|fu]")
    d, ref = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "paper")
    # the real programs are the suite's programs that are not workloads
    with open("data/bin/MANIFEST") as f:
        work = {l.split("|")[0].strip().replace("workloads/", "") for l in f if l.startswith("workloads/")}
    groups = {}
    for fn in ("suite.jsonl", "kernels.jsonl"):
        path = os.path.join(d, fn)
        if not os.path.exists(path):
            continue
        for p, m in rows(path, ref):
            real = set() if p["program"] in work or "start" not in p else {p["program"]}
            groups.setdefault(group(p, real), []).append((p["program"], m))
    print("| set | programs | start | rows | " + " | ".join("%s average | %s worst" % (m, m) for m in METHODS) + " |")
    print("|---|---|---|---:|" + "---:|---:|" * len(METHODS))
    order = sorted(groups, key=lambda g: (g[0] != "tuning", g[1], g[2]))
    for g in order:
        rs = groups[g]
        cells = []
        for m in METHODS:
            es = [(r[m]["max_error"], n) for n, r in rs if m in r]
            worst = max(es)
            cells.append("%.2f%%" % (100 * sum(e for e, _ in es) / len(es)))
            cells.append("%.2f%% (%s)" % (100 * worst[0], worst[1]))
        print("| %s | %s | %s | %d | %s |" % (g[0], g[1], g[2], len(rs), " | ".join(cells)))


main()
