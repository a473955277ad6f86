#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""peer-report.py NAME STOCK.console PATCHED.console [REPORT_RE BENIGN_RE]

The table of a peer run (scripts/peer-mm.sh): every test run_vmtests.sh
ran, its result on the stock kernel and in each setting of the patched one
(scripts/peer-guest.sh), then the line

    peer: mm-selftests NAME SETTING stock P/F/S patched P/F/S regressions N

for each setting of the patched kernel, then

    peer: mm-selftests NAME stock P/F/S patched P/F/S regressions N

where the patched counts add up every setting that ran (a test counts once
per setting) and N is the number of tests that pass on stock and fail,
hang or do not finish on patched in at least one setting; each is listed
with its output.  Exit status 1 when N > 0 or a guest did not finish.
"""
import re
import sys

TAP = re.compile(r'^(not ok|ok) \d+ (.*?)(?: # (SKIP|exit=\d+))?\s*$')


def parse(path, report_re, benign_re):
    """{setting: {'tests': {name: (result, output)}, 'end': bool, ...}}"""
    runs, cur, buf, order = {}, None, [], []
    skipped = {}
    done = False
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('FAULTAROUND-DONE'):
                done = True
            # A new boot (consoles of several guests, concatenated): what
            # follows belongs to none of the last guest's settings.
            if line.startswith('Linux version ') or line.startswith('Kernel command line:'):
                cur, buf = None, []
            m = re.match(r'^# peer-setting: (BEGIN|END|SKIPPED) ([^\s:]+):?\s*(.*)$', line)
            if m:
                what, s, rest = m.groups()
                if what == 'BEGIN':
                    cur = s
                    runs[s] = {'tests': {}, 'end': False, 'head': rest,
                               'reports': [], 'own': ''}
                    order.append(s)
                    buf = []
                elif what == 'END' and s in runs:
                    runs[s]['end'] = True
                    runs[s]['tail'] = rest
                    cur = None
                elif what == 'SKIPPED':
                    skipped[s] = rest
                continue
            if cur is None:
                continue
            if line.startswith('# peer-own: '):
                runs[cur]['own'] = line[len('# peer-own: '):]
                continue
            # Kernel reports, not the tests' own words (their lines start
            # with "# " or are TAP).
            if (re.search(report_re, line) and not re.search(benign_re, line)
                    and not line.startswith('# ') and not TAP.match(line)):
                runs[cur]['reports'].append(line)
            m = TAP.match(line)
            if m:
                ok, name, extra = m.groups()
                hung = any('PEER-TIMEOUT' in b for b in buf)
                if ok == 'ok':
                    res = 'SKIP' if extra == 'SKIP' else 'PASS'
                else:
                    res = 'HANG' if hung else 'FAIL'
                key, i = name, 2
                while key in runs[cur]['tests']:
                    key, i = '%s (%d)' % (name, i), i + 1
                runs[cur]['tests'][key] = (res, buf)
                buf = []
                continue
            buf.append(line)
    # A test that started and never reported: the guest stopped in it.
    for s in runs:
        if not runs[s]['end']:
            started = [b for b in buf if b.startswith('# running ')]
            if started:
                runs[s]['tests'][started[-1][len('# running '):].lstrip('./')] = ('NOT FINISHED', buf)
    return runs, order, skipped, done


STRESS = re.compile(r'^# peer-stress-ng: stress-ng: metrc: \[\d+\] (\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)')


def stress(path):
    """stress-ng's bogo-ops per stressor, the churner's line, the END line."""
    ops, churn, end, fails = {}, '', '', []
    with open(path, errors='replace') as f:
        for line in f:
            m = STRESS.match(line)
            if m:
                ops[m.group(1)] = (m.group(2), m.group(6))
            elif line.startswith('# peer-churn: '):
                churn += line[len('# peer-churn: '):]
            elif line.startswith('# peer-stress: END'):
                end = line.strip()[len('# peer-stress: END '):]
            elif line.startswith('# peer-stress-ng: ') and re.search(r'fail|verif', line):
                fails.append(line.strip())
    return ops, churn.strip(), end, fails


def counts(tests):
    c = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    for res, _ in tests.values():
        c['PASS' if res == 'PASS' else 'SKIP' if res == 'SKIP' else 'FAIL'] += 1
    return c


def main():
    name, stock_con, patched_con = sys.argv[1:4]
    report_re = sys.argv[4] if len(sys.argv) > 4 else r'Oops|BUG:|WARNING:|KASAN|Kernel panic|Call Trace:'
    benign_re = sys.argv[5] if len(sys.argv) > 5 else r'^$'
    st, st_order, _, st_done = parse(stock_con, report_re, benign_re)
    pa, pa_order, pa_skipped, pa_done = parse(patched_con, report_re, benign_re)
    stock = st.get('stock', {'tests': {}, 'end': False, 'reports': []})
    cols = [('stock', stock)] + [(s, pa[s]) for s in pa_order]
    names = list(stock['tests'])
    for _, r in cols[1:]:
        names += [n for n in r['tests'] if n not in names]

    out = ['## mm selftests on %s' % name, '']
    out.append('| test | ' + ' | '.join(c for c, _ in cols) + ' |')
    out.append('|---|' + '---|' * len(cols))
    for n in names:
        out.append('| %s | ' % n + ' | '.join(
            r['tests'].get(n, ('-',))[0] for _, r in cols) + ' |')
    out.append('')
    for c, r in cols:
        k = counts(r['tests'])
        out.append('- %s: %d passed, %d failed, %d skipped; %s; kernel reports %d%s' % (
            c, k['PASS'], k['FAIL'], k['SKIP'],
            'finished' if r['end'] else 'DID NOT FINISH',
            len(r['reports']), ('; faultaround_stock: ' + r['own']) if r.get('own') else ''))
    for s, why in pa_skipped.items():
        out.append('- %s: SKIPPED: %s' % (s, why))
    if not st_done or not pa_done:
        out.append('- a guest did not finish: stock %s, patched %s' % (
            'finished' if st_done else 'NOT FINISHED', 'finished' if pa_done else 'NOT FINISHED'))

    regressions = []
    for n in names:
        if stock['tests'].get(n, ('-',))[0] != 'PASS':
            continue
        for c, r in cols[1:]:
            res = r['tests'].get(n, ('NOT RUN', []))
            if res[0] in ('FAIL', 'HANG', 'NOT FINISHED') or (res[0] == 'NOT RUN' and not r['end']):
                regressions.append((n, c, res))
    reg_tests = sorted({n for n, _, _ in regressions})
    p = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    for _, r in cols[1:]:
        for k, v in counts(r['tests']).items():
            p[k] += v
    s = counts(stock['tests'])
    if regressions:
        out += ['', '### regressions', '']
        for n, c, (res, buf) in regressions:
            out.append('#### %s under %s: %s' % (n, c, res))
            out.append('```')
            out += [b for b in buf if not b.startswith('# peer-')][-60:]
            out.append('```')
    for c, r in cols:
        if r['reports']:
            out += ['', '### kernel reports under %s' % c, '```'] + r['reports'][:40] + ['```']
    so, sc, se, sf = stress(stock_con)
    po, pc, pe, pf = stress(patched_con)
    if se or pe:
        out += ['', '### stress-ng --verify next to the churner', '',
                '| stressor | stock bogo ops | stock bogo ops/s | patched bogo ops | patched bogo ops/s |',
                '|---|---|---|---|---|']
        for k in list(so) + [k for k in po if k not in so]:
            a, b = so.get(k, ('-', '-')), po.get(k, ('-', '-'))
            out.append('| %s | %s | %s | %s | %s |' % (k, a[0], a[1], b[0], b[1]))
        out += ['', '- stock: %s; %s' % (se or 'did not run', sc or 'no churner output'),
                '- patched: %s; %s' % (pe or 'did not run', pc or 'no churner output')]
        for line in sf + pf:
            out.append('- ' + line)
        stress_line = 'peer: stress %s stock %s patched %s verify-failures %d' % (
            name, (se or 'none').replace(' ', ','), (pe or 'none').replace(' ', ','), len(sf + pf))
        stress_ok = se.startswith('stress-ng rc=0 churn rc=0') and pe.startswith('stress-ng rc=0 churn rc=0') and not (sf or pf)
    else:
        stress_line, stress_ok = None, True
    out.append('')
    for c, r in cols[1:]:
        k = counts(r['tests'])
        out.append('peer: mm-selftests %s %s stock %d/%d/%d patched %d/%d/%d regressions %d' % (
            name, c, s['PASS'], s['FAIL'], s['SKIP'], k['PASS'], k['FAIL'], k['SKIP'],
            len({n for n, rc, _ in regressions if rc == c})))
    out.append('peer: mm-selftests %s stock %d/%d/%d patched %d/%d/%d regressions %d' % (
        name, s['PASS'], s['FAIL'], s['SKIP'], p['PASS'], p['FAIL'], p['SKIP'], len(reg_tests)))
    if stress_line:
        out.append(stress_line)
    print('\n'.join(out))
    return 1 if reg_tests or not st_done or not pa_done or not stress_ok else 0


if __name__ == '__main__':
    sys.exit(main())
