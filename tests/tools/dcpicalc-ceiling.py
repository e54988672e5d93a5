#!/usr/bin/env python3
"""dcpicalc-ceiling.py IVX DIR PERIOD WORKLOAD... -- the noise ceiling of
dcpicalc's frequency estimates on profiles kept by tests/dcpicalc-validate.sh
(DCPICALC_VALIDATE_DIR=DIR: one database DIR/W-PERIOD per workload).

If every frequency class were estimated from exactly the instructions whose
true CPI equals their best case M (m > 0: the stall-free issue points, with
no schedule error), the estimate would be their samples over their M, a
Poisson count N with relative standard deviation 1/sqrt(N), within 5% of
the truth with probability erf(0.05 sqrt(N / 2)). This prints, per workload
and for all of them (weighted by CYCLES samples, as the validation table),
the expected share of samples within 5% under that estimate: what the
samples of stall-free points alone can give, without the flow equations,
the callers or a model of the stalls. The classes and the truth are
`ivx dcpicalc --estimator ivx --json`'s (per procedure with samples).
"""
import collections
import json
import math
import os
import subprocess
import sys
import tempfile


def procedures(ivx, db):
    out = subprocess.run([ivx, 'dcpicalc', '--db', db, '--all', '--estimator', 'ivx'],
                         capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines()[1:]:
        if not line or line[0] == ' ' or line.startswith(('TOTAL', 'true ')):
            if line.startswith('TOTAL'):
                break
            continue
        names.append(line.split()[0])
    return names


def workload(ivx, db, tmp):
    samples = expected = 0.0
    for name in procedures(ivx, db):
        r = subprocess.run([ivx, 'dcpicalc', '--db', db, '--estimator', 'ivx', '--json', tmp, name],
                           capture_output=True)
        if r.returncode:
            continue
        j = json.load(open(tmp))
        cls_of = {}
        for b in j['blocks']:
            for pc in range(b['start'], b['end'] + 4, 4):
                cls_of[pc] = b['class']
        clean, total = collections.Counter(), collections.Counter()
        for x in j['instructions']:
            c = cls_of.get(x['pc'])
            total[c] += x['samples']
            if x['m'] and x['cpi_true'] is not None and abs(x['cpi_true'] - x['m']) <= 0.05 * x['m']:
                clean[c] += x['samples']
        for c, s in total.items():
            n = clean[c]
            samples += s
            expected += s * (math.erf(0.05 * math.sqrt(n / 2.0)) if n > 0 else 0.0)
    return samples, expected


def main():
    if len(sys.argv) < 5:
        sys.exit('usage: dcpicalc-ceiling.py IVX DIR PERIOD WORKLOAD...')
    ivx, d, period = sys.argv[1], sys.argv[2], sys.argv[3]
    fd, tmp = tempfile.mkstemp(suffix='.json')
    os.close(fd)
    try:
        all_s = all_e = 0.0
        print('%-10s %8s %8s' % ('workload', 'samples', 'ceiling'))
        for w in sys.argv[4:]:
            s, e = workload(ivx, '%s/%s-%s' % (d, w, period), tmp)
            all_s += s
            all_e += e
            print('%-10s %8d %7.1f%%' % (w, s, 100.0 * e / s if s else 0))
        print('%-10s %8d %7.1f%%' % ('ALL', all_s, 100.0 * all_e / all_s if all_s else 0))
    finally:
        os.unlink(tmp)


if __name__ == '__main__':
    main()
