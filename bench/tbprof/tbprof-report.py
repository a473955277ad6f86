#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest kernel instructions per function, from tbprof.so's output.

  tbprof-report.py [--top N] [--per N] [--only F,F...] SYSTEM.MAP A.prof [B.prof]

With one profile: each function's instructions and calls (executions of
its lowest-addressed block that ran, its entry), the largest first.  With
two: the instructions of each in both and B - A, the largest changes
first; --per N also divides the change by N (a count of faults, say).
A block is counted in the function its start lies in: code inlined into
a function is that function's.
"""
import bisect
import os
import sys
import tempfile


def load_map(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in "tTwW":
                syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return [s[0] for s in syms], [s[1] for s in syms]


def load_profile(path, smap):
    addrs, names = smap
    instr, entry = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            p = line.split()
            if len(p) != 3:
                sys.exit("%s:%d: not 'vaddr insns execs'" % (path, n))
            va, insns, execs = int(p[0], 16), int(p[1]), int(p[2])
            i = bisect.bisect_right(addrs, va) - 1
            name = names[i] if i >= 0 else "?"
            instr[name] = instr.get(name, 0) + insns * execs
            first = entry.get(name)
            if first is None or va < first[0]:
                entry[name] = [va, execs]
            elif va == first[0]:
                first[1] += execs
    return instr, {k: v[1] for k, v in entry.items()}


def report(argv, out):
    top, per, only, args = 25, None, None, []
    it = iter(argv)
    for a in it:
        if a == "--top":
            top = int(next(it))
        elif a == "--per":
            per = float(next(it))
        elif a == "--only":
            only = next(it).split(",")
        else:
            args.append(a)
    if len(args) not in (2, 3):
        sys.exit(__doc__.strip())
    smap = load_map(args[0])
    a, calls = load_profile(args[1], smap)
    if len(args) == 2:
        out.write("total %d\n" % sum(a.values()))
        names = only or sorted(a, key=lambda k: -a[k])[:top]
        for k in names:
            out.write("%-44s %14d instructions %10d calls\n" % (k, a.get(k, 0), calls.get(k, 0)))
        return
    b, _ = load_profile(args[2], smap)
    ta, tb = sum(a.values()), sum(b.values())
    line = "total %d %d %+d" % (ta, tb, tb - ta)
    out.write(line + (" (%+.1f per %g)\n" % ((tb - ta) / per, per) if per else "\n"))
    names = only or sorted(set(a) | set(b), key=lambda k: -abs(b.get(k, 0) - a.get(k, 0)))[:top]
    for k in names:
        d = b.get(k, 0) - a.get(k, 0)
        out.write("%-44s %14d %14d %+12d" % (k, a.get(k, 0), b.get(k, 0), d))
        out.write(" %+9.1f\n" % (d / per) if per else "\n")


def self_test():
    import io
    tests = []
    with tempfile.TemporaryDirectory() as d:
        def w(name, text):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
            return os.path.join(d, name)
        m = w("System.map", "ffffffff81000000 T f\nffffffff81000100 t g\nffffffff81000200 D data\n")
        pa = w("a.prof", "ffffffff81000000 4 10\nffffffff81000010 2 5\nffffffff81000100 3 7\n")
        pb = w("b.prof", "ffffffff81000000 4 10\nffffffff81000010 2 5\nffffffff81000010 2 1\n"
               "ffffffff81000104 3 9\n")
        s = io.StringIO()
        report([m, pa], s)
        lines = s.getvalue().splitlines()
        tests.append(("one profile: the total", lines[0] == "total 71"))
        tests.append(("one profile: f's instructions and calls",
                      lines[1].split()[1:] == ["50", "instructions", "10", "calls"]))
        tests.append(("one profile: g's calls are its first block's",
                      lines[2].split()[1:4:2] == ["21", "7"]))
        s = io.StringIO()
        report([m, pa, pb, "--per", "2"], s)
        lines = s.getvalue().splitlines()
        tests.append(("two profiles: the totals and change per 2",
                      lines[0] == "total 71 79 +8 (+4.0 per 2)"))
        g = [l for l in lines if l.startswith("g ")][0].split()
        tests.append(("two profiles: a block translated twice counts twice",
                      [l for l in lines if l.startswith("f ")][0].split()[1:4] == ["50", "52", "+2"]))
        tests.append(("two profiles: g's change", g[1:4] == ["21", "27", "+6"]))
    print("TAP version 13\n1..%d" % len(tests))
    bad = 0
    for n, (name, ok) in enumerate(tests, 1):
        print("%s %d tbprof-report: %s" % ("ok" if ok else "not ok", n, name))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    report(sys.argv[1:], sys.stdout)
