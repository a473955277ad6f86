#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# peer-stress-report.py NAME STOCK.console PATCHED.console RAW.csv: the
# stress-ng metrics of every stress round (scripts/peer-guest.sh,
# peer.stress_rounds=) of the two kernels side by side, per stressor the
# mean and sample standard deviation of its bogo ops and of its bogo ops/s
# (real time) over the rounds, and the churner's counts.  Writes every
# round's figures to RAW.csv.  The stress-ng lines look like
#
#   # peer-stress-ng: stress-ng: metrc: [3142] mmap   1  30.42  1.89  2.95  0.03  0.21
import csv
import re
import statistics
import sys

METRIC = re.compile(r'^# peer-stress-ng: stress-ng: metrc: \[\d+\] (\S+)\s+(\d+)\s+'
                    r'([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$')
CHURN = re.compile(r'^# peer-churn: churn: (.*)$')


def rounds(path):
    """Per round: {stressor: (bogo ops, bogo ops/s real)} and the churn line."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('# peer-stress: BEGIN'):
                out.append({'metrics': {}, 'churn': None})
            elif out and (m := METRIC.match(line)):
                out[-1]['metrics'][m.group(1)] = (int(m.group(2)), float(m.group(6)))
            elif out and (m := CHURN.match(line)):
                out[-1]['churn'] = m.group(1)
    return out


def mean_sd(values):
    if not values:
        return '-'
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f'{statistics.mean(values):.2f} ± {sd:.2f}'


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: peer-stress-report.py NAME STOCK.console PATCHED.console RAW.csv')
    name, raw = sys.argv[1], sys.argv[4]
    runs = {'stock': rounds(sys.argv[2]), 'patched': rounds(sys.argv[3])}
    stressors = []
    for r in runs['stock'] + runs['patched']:
        stressors += [s for s in r['metrics'] if s not in stressors]

    with open(raw, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['guest', 'kernel', 'round', 'stressor', 'bogo_ops', 'bogo_ops_per_s_real'])
        for k, rs in runs.items():
            for i, r in enumerate(rs, 1):
                for s, (ops, rate) in r['metrics'].items():
                    w.writerow([name, k, i, s, ops, rate])

    print(f'rounds: stock {len(runs["stock"])}, patched {len(runs["patched"])} '
          '(mean ± sample standard deviation over the rounds)')
    print()
    print('| stressor | stock bogo ops | patched bogo ops | stock bogo ops/s | patched bogo ops/s | patched/stock |')
    print('|---|---|---|---|---|---|')
    for s in stressors:
        ops = {k: [r['metrics'][s][0] for r in rs if s in r['metrics']] for k, rs in runs.items()}
        rate = {k: [r['metrics'][s][1] for r in rs if s in r['metrics']] for k, rs in runs.items()}
        ratio = '-'
        if rate['stock'] and rate['patched'] and statistics.mean(rate['stock']) > 0:
            ratio = f'{statistics.mean(rate["patched"]) / statistics.mean(rate["stock"]):.2f}'
        print(f'| {s} | {mean_sd(ops["stock"])} | {mean_sd(ops["patched"])} | '
              f'{mean_sd(rate["stock"])} | {mean_sd(rate["patched"])} | {ratio} |')
    print()
    for k, rs in runs.items():
        for i, r in enumerate(rs, 1):
            print(f'churn, {k}, round {i}: {r["churn"] or "(no churn line)"}')


if __name__ == '__main__':
    main()
