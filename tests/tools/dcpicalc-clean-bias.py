#!/usr/bin/env python3
"""dcpicalc-clean-bias.py [--any] JSON... -- do the CYCLES samples of stall-free
issue points match the truth, or is there a bias beyond sampling noise?

Each JSON is `ivx dcpicalc --truth --json` of one procedure in one run (one
seed per database, so that the spread between runs can be measured). A
clean point is an instruction whose true CPI equals its best case M (m > 0):
its expected samples are its true head cycles over the run's mean period.
With --any every instruction counts, whatever its true CPI (its head
cycles are known all the same): what the samples should be, not what the
estimator uses.
Per point this prints the mean over the runs of samples / expected, and
t = (mean - 1) / (spread between runs / sqrt(runs)): a Student t with
runs - 1 degrees of freedom when the point is unbiased, whatever the
sampler's correlations, so the mean t^2 over the points is about
(runs - 1) / (runs - 3); and z, the total samples' distance from the
total expected in Poisson standard deviations (mean z^2 about 1 if the
samples are Poisson and unbiased). Then the points pooled by position: the first
instruction of a block entered mostly by a taken branch (true edge
counts), of one entered mostly by falling through, or inside a block; and
whether the instruction before it in the address order stalled (true
CPI >= 4); with the pooled ratio and its Poisson error. docs/dcpicalc.md
("Merged runs", hashtab.O3) shows a use.
"""
import collections
import json
import math
import sys


def main(files):
    anyp = bool(files) and files[0] == '--any'
    if anyp:
        files = files[1:]
    if len(files) < 2:
        sys.exit("usage: dcpicalc-clean-bias.py [--any] JSON JSON... (one run each)")
    ratios = collections.defaultdict(list)
    sums = collections.defaultdict(lambda: [0, 0.0])
    kind = {}
    for f in files:
        with open(f) as fh:
            d = json.load(fh)
        if 'instructions' not in d:   # (an --all table: no instructions)
            print("%s: not one procedure's --truth JSON, skipped" % f, file=sys.stderr)
            continue
        period = d['period']
        starts = {b['start'] for b in d['blocks']}
        end_of = {b['start']: b['end'] for b in d['blocks']}
        taken = collections.Counter()   # block start -> true entries by a taken branch
        for e in d['edges']:
            if e['from'] != 'entry' and e['freq_true'] and end_of.get(e['from'], -8) + 4 != e['to']:
                taken[e['to']] += e['freq_true']
        prev = None
        for i in d['instructions']:
            p, prev = prev, i
            if i['cpi_true'] is None:
                continue
            if not anyp and (i['m'] < 1 or abs(i['cpi_true'] - i['m']) > 1e-3):
                continue
            expected = i['cpi_true'] * i['freq_true'] / period
            if expected < 30:
                continue
            key = (d['image'].rsplit('/', 1)[-1] + ':' + d['procedure'], i['pc'])
            ratios[key].append(i['samples'] / expected)
            s = sums[key]
            s[0] += i['samples']
            s[1] += expected
            after = p is not None and p['cpi_true'] is not None and p['cpi_true'] >= 4
            if i['pc'] not in starts:
                where = 'inside'
            elif 2 * taken[i['pc']] > i['freq_true']:
                where = 'block-first, taken'
            else:
                where = 'block-first, fall-through'
            kind[key] = where + (', after a stall' if after else '')
    rows = []
    for key, l in ratios.items():
        n = len(l)
        if n < 2:
            continue
        m = sum(l) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in l) / (n - 1))
        t = (m - 1) / (sd / math.sqrt(n)) if sd else 0.0
        S, E = sums[key]
        rows.append((t, key, m, n, (S - E) / math.sqrt(E)))
    rows.sort()
    print("%-20s %-10s %-40s %5s %7s %7s %7s" % ("image:procedure", "pc", "position", "runs", "ratio", "t", "z"))
    for t, key, m, n, z in rows:
        print("%-20s %-10x %-40s %5d %7.3f %+7.2f %+7.2f" % (key[0], key[1], kind[key], n, m, t, z))
    if rows:
        # t over n runs has n - 1 degrees of freedom: its variance is
        # (n - 1) / (n - 3), not 1, when no point is biased
        n = min(r[3] for r in rows)
        expect = "%.2f" % ((n - 1) / (n - 3)) if n > 3 else "undefined below 4 runs"
        print("points %d, mean t^2 %.2f (no bias: %s), mean z^2 %.2f (Poisson: 1)" %
              (len(rows), sum(r[0] ** 2 for r in rows) / len(rows), expect,
               sum(r[4] ** 2 for r in rows) / len(rows)))
    groups = collections.defaultdict(lambda: [0, 0.0, 0])
    for key, (s, e) in sums.items():
        g = groups[kind[key]]
        g[0] += s
        g[1] += e
        g[2] += 1
    for k, (s, e, n) in sorted(groups.items()):
        print("%-40s points %3d  samples %8d  expected %10.1f  ratio %.4f +- %.4f" %
              (k, n, s, e, s / e, 1 / math.sqrt(e)))


if __name__ == '__main__':
    main(sys.argv[1:])
