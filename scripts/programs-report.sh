#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# programs-report.sh RAW.csv [CSV]: the real programs' tables from the raw
# data of bench/programs/bench.sh (one line per run, from the patched and,
# when it ran, the stock kernel), on stdout; with CSV, also one line per
# cell into CSV.  Everything is recomputed from RAW.csv: the tables in
# docs/results/NAME-programs.txt come back from NAME-programs-raw.csv.
#
# Per program and cache (warm, cold) two panels in the seed's layout:
# system-wide settings (global orders, patched and stock kernel) and
# per-process ones (launcher, shim).  Rows: minor faults, major faults,
# fault_around tracepoint events (mean, stddev of the mean in % as
# perf stat --repeat prints it), time, its stddev, %chg to the patched
# kernel's Baseline of the same cache.  Then one line per program for the
# shim's cost, for auto against the best fixed order, and for the self-sizing
# window as the system default (auto-system) against the stock default
# (Baseline, the system default untouched) and the best fixed order:
#
#   auto-system: PROGRAM GUEST CLOCK +X.X% vs stock default (stddev Y.Y%), best fixed order K +Z.Z%
#
# (or "auto-system: PROGRAM GUEST CLOCK SKIP (why)" on a kernel that
# refuses it).
set -eu
[ $# -ge 1 ] || { echo "usage: programs-report.sh RAW.csv [CSV]" >&2; exit 2; }
raw=$1 csv=${2:-/dev/null}

awk -F, -v csvout="$csv" '
function label(k, s,   o) {
	o = s; sub(/^[a-z]*:/, "", o)
	if (s == "base") return (k == "stock" ? "stock Base" : "Baseline")
	if (s ~ /^global:/) return (k == "stock" ? "stock glob " o : "global " o)
	if (s ~ /^order:/) return "-o " o
	if (s == "auto") return "-a (auto)"
	if (s == "auto-system") return "auto-system"
	if (s == "rules") return "shim rules"
	if (s == "nomatch") return "shim nomatch"
	return s
}
function desc(p) {
	if (p == "sqlite") return "sqlite3 -readonly: 1000 point lookups by key through mmap (PRAGMA mmap_size), 70 MB database"
	if (p == "pystart") return "python3 -c pass: interpreter startup"
	if (p == "python") return "python3 imports.py: startup and an import-heavy script"
	if (p == "cc") return "make + gcc -O2: zlib examples " cc
	if (p == "rg") return "rg --mmap over a 60 MB text file, two matching lines"
	if (p == "git") return "git grep -F over HEAD of a packed repository of the image'"'"'s Python sources"
	if (p == "sqlite-pk") return "sqlite3 -readonly: 4000 point lookups by rowid in one statement through mmap, 70 MB database"
	if (p == "pyimport") return "python3 -c '"'"'import numpy, yaml, requests, jinja2'"'"': a large package set"
	return p
}
# rel(sum, sumsq, n): stddev of the mean in % of the mean.
function rel(s, q, n,   m, v) {
	if (n < 2) return 0
	m = s / n
	v = (q - s * s / n) / (n - 1)
	if (v < 0) v = 0
	return m == 0 ? 0 : 100 * sqrt(v / n) / m
}
function pct(x) { return sprintf("( +- %5.2f%% )", x) }
function cell(k, c, p, s) { return k SUBSEP c SUBSEP p SUBSEP s }
/^# programs-meta: guest=/ {
	n = split($0, w, " ")
	for (i = 3; i <= n; i++) {
		split(w[i], kv, "=")
		meta[kv[1]] = kv[2]
		if (kv[1] == "guest") guest = kv[2]
		if (kv[1] == "kernel") kern = kv[2]
		if (kv[1] == "cc") { cc = kv[2]; gsub(/:/, " ", cc) }
		if (kv[1] == "clock") clock = kv[2]
	}
	# Each description of a run, once: joined raw files (programs run in
	# separate boots, with other repeats) keep theirs.
	ml = substr($0, 18)
	if (!(ml in mlseen)) { mlseen[ml] = 1; metaline[++nml] = ml }
	next
}
/^# programs-meta: auto-system=skip / { autoskip = substr($0, 35); next }
/^#/ || /^guest,/ || NF < 11 { next }
{
	k = $2; c = $3; p = $4; s = $5
	key = cell(k, c, p, s)
	if (!(p in pseen)) { pseen[p] = 1; prog[++np] = p }
	if (!(c in cseen)) { cseen[c] = 1; cache[++nc] = c }
	have[key] = 1
	if ($7 == "skip") { skipped[key] = 1; next }
	runs[key]++
	if ($7 != "ok") { bad[key]++; badnote[key] = $7; next }
	cnt[key]++
	t[key] += $8; t2[key] += $8 * $8
	mi[key] += $9; mi2[key] += $9 * $9
	ma[key] += $10; ma2[key] += $10 * $10
	if ($11 != "") { fa[key] += $11; fa2[key] += $11 * $11; hasfa[key] = 1 }
	if (s ~ /^global:/) { o = s; sub(/^global:/, "", o); if (!((k, o) in oseen)) { oseen[k, o] = 1; gord[k, ++ngo[k]] = o } }
}
function row(name, arr, arr2, isfa, cols, nc,   i, key, line, sdl, v) {
	line = sprintf("%-24s", name); sdl = sprintf("%-24s", " stddev")
	for (i = 1; i <= nc; i++) {
		key = cols[i]
		if (key == "n/a" || !(key in cnt) || (isfa && !(key in hasfa))) {
			line = line sprintf("%-16s", "n/a"); sdl = sdl sprintf("%-16s", "")
			continue
		}
		v = arr[key] / cnt[key]
		line = line sprintf("%-16.0f", v)
		sdl = sdl sprintf("%-16s", pct(rel(arr[key], arr2[key], cnt[key])))
	}
	print line; print sdl
}
function panel(title, c, p, cols, nc,   i, key, hdr, tl, sdl, chg, base, b) {
	base = cell("patched", c, p, "base")
	hdr = sprintf("%-24s", "FAULT_AROUND_ORDER")
	for (i = 1; i <= nc; i++) hdr = hdr sprintf("%-16s", collabel[i])
	print hdr
	printf "%s (%s cache, %s)    [%s]\n", p, c, title, desc(p)
	row("minor-faults", mi, mi2, 0, cols, nc)
	row("major-faults", ma, ma2, 0, cols, nc)
	row("fault_around events", fa, fa2, 1, cols, nc)
	tl = sprintf("%-24s", "times in seconds"); sdl = sprintf("%-24s", " stddev for time")
	chg = sprintf("%-24s", " %chg time to baseline")
	b = (base in cnt) ? t[base] / cnt[base] : 0
	for (i = 1; i <= nc; i++) {
		key = cols[i]
		if (key == "n/a" || !(key in cnt)) {
			tl = tl sprintf("%-16s", "n/a"); sdl = sdl sprintf("%-16s", ""); chg = chg sprintf("%-16s", "")
			continue
		}
		tl = tl sprintf("%-16.9f", t[key] / cnt[key])
		sdl = sdl sprintf("%-16s", pct(rel(t[key], t2[key], cnt[key])))
		chg = chg sprintf("%-16s", (key == base || b == 0) ? "" : sprintf("%.1f%%", 100 * (t[key] / cnt[key] - b) / b))
	}
	print tl; print sdl; print chg
	for (i = 1; i <= nc; i++)
		if (cols[i] in bad)
			printf " %s: %d of %d run(s) left out (%s)\n", collabel[i], bad[cols[i]], runs[cols[i]], badnote[cols[i]]
	print ""
}
# cmp_line(what, key, base): "+X.X% +- Y.Y%" of key against base.
function chgerr(key, base,   a, b, ea, eb) {
	a = t[key] / cnt[key]; b = t[base] / cnt[base]
	ea = rel(t[key], t2[key], cnt[key]); eb = rel(t[base], t2[base], cnt[base])
	return sprintf("%+.2f%% +- %.2f%%", 100 * (a - b) / b, sqrt(ea * ea + eb * eb) * a / b)
}
END {
	printf "# real programs in the %s guest (Debian 12 programs, perf stat per run)\n", guest
	for (i = 1; i <= nml; i++) printf "# %s\n", metaline[i]
	print "caveat: qemu -icount: a nanosecond is one guest instruction, not hardware time; the hash MMU'"'"'s H_ENTER/H_REMOVE hcalls run in qemu outside that count, so hash PTE inserts are nearly free"
	print "caveat: cold cache: the programs image is a virtio disk; under -icount the guest'"'"'s idle time while it waits for the disk follows the host'"'"'s clock, so cold times include host-dependent I/O waits"
	print "times: perf stat duration_time (seconds of guest time, mean); stddev: of the mean, in % of the mean, as perf stat --repeat prints it;"
	print "%chg: against the patched kernel'"'"'s Baseline of the same cache (for stock columns: the stock kernel against the patched one)"
	print "MADV_SEQ, MADV_RAND: n/a: a user cannot apply them to a program without changing it: process_madvise(2) on another process accepts neither (7.2: COLD, PAGEOUT, WILLNEED, COLLAPSE only) and the shim'"'"'s rules set fault-around hints only; fio (MADV_SEQUENTIAL for fio-seq, MADV_RANDOM for fio-rand, its fadvise_hint) and lmdb-nordahead (MADV_RANDOM, MDB_NORDAHEAD) advise their maps themselves, in every column"
	print ""
	if (csvout != "/dev/null")
		print "kernel,cache,program,setting,runs,ok_runs,seconds,seconds_stddev_pct,minor_faults,minor_stddev_pct,major_faults,major_stddev_pct,fault_around,fault_around_stddev_pct,chg_time_pct" >csvout
	if (csvout != "/dev/null") close(csvout)
	for (ci = 1; ci <= nc; ci++) {
		c = cache[ci]
		for (pi = 1; pi <= np; pi++) {
			p = prog[pi]
			if (!(cell("patched", c, p, "base") in have) && !(cell("stock", c, p, "base") in have))
				continue
			# Panel 1: system-wide.
			m = 0
			delete cols; delete collabel
			cols[++m] = cell("patched", c, p, "base"); collabel[m] = "Baseline"
			for (i = 1; i <= ngo["patched"]; i++) {
				key = cell("patched", c, p, "global:" gord["patched", i])
				if (key in have) { cols[++m] = key; collabel[m] = label("patched", "global:" gord["patched", i]) }
			}
			key = cell("patched", c, p, "auto-system")
			if ((key in have) && !(key in skipped)) { cols[++m] = key; collabel[m] = "auto-system" }
			key = cell("stock", c, p, "base")
			title = "system default and global orders"
			if (key in have) { cols[++m] = key; collabel[m] = "stock Base"; title = title ", patched and stock kernel" }
			for (i = 1; i <= ngo["stock"]; i++) {
				key = cell("stock", c, p, "global:" gord["stock", i])
				if (key in have) { cols[++m] = key; collabel[m] = label("stock", "global:" gord["stock", i]) }
			}
			panel(title, c, p, cols, m)
			# Panel 2: per process (patched kernel only).
			m = 0
			delete cols; delete collabel
			cols[++m] = cell("patched", c, p, "base"); collabel[m] = "Baseline"
			split("order:0 order:1 order:2 order:3 order:4 order:5 order:6 order:7 order:8 order:9 auto rules nomatch", ps, " ")
			for (i = 1; i <= 13; i++) {
				key = cell("patched", c, p, ps[i])
				if (key in have) { cols[++m] = key; collabel[m] = label("patched", ps[i]) }
			}
			if (c == "warm") {
				cols[++m] = "n/a"; collabel[m] = "MADV_SEQ"
				cols[++m] = "n/a"; collabel[m] = "MADV_RAND"
			}
			if (m > 1) panel("per process: launcher and shim, patched kernel", c, p, cols, m)
		}
	}
	# Summary lines, warm cache.
	for (pi = 1; pi <= np; pi++) {
		p = prog[pi]
		base = cell("patched", "warm", p, "base")
		if (!(base in cnt)) continue
		r = cell("patched", "warm", p, "rules"); nm = cell("patched", "warm", p, "nomatch")
		if ((r in cnt) && (nm in cnt))
			printf "shim: %s %s rules %s, no match %s vs Baseline (target 2%%)\n", p, guest, chgerr(r, base), chgerr(nm, base)
	}
	for (pi = 1; pi <= np; pi++) {
		p = prog[pi]
		a = cell("patched", "warm", p, "auto")
		if (!(a in cnt)) continue
		# The fixed orders: every global column, and Baseline, which
		# is the default order.
		best = cell("patched", "warm", p, "base"); bo = meta["default_order"]
		for (i = 1; i <= ngo["patched"]; i++) {
			key = cell("patched", "warm", p, "global:" gord["patched", i])
			if ((key in cnt) && t[key] / cnt[key] < t[best] / cnt[best]) { best = key; bo = gord["patched", i] }
		}
		printf "auto: %s %s %+.1f%% vs best fixed order %s (stddev %.1f%%)\n", p, guest,
			100 * (t[a] / cnt[a] - t[best] / cnt[best]) / (t[best] / cnt[best]), bo, rel(t[a], t2[a], cnt[a])
	}
	# auto-system against the stock default (Baseline) and against the
	# fixed order (global or Baseline, the default order) that was fastest.
	for (pi = 1; pi <= np; pi++) {
		p = prog[pi]
		a = cell("patched", "warm", p, "auto-system")
		base = cell("patched", "warm", p, "base")
		if (a in skipped) {
			printf "auto-system: %s %s %s SKIP (%s)\n", p, guest, clock, autoskip
			continue
		}
		if (!(a in have) || !(base in cnt)) continue
		if (!(a in cnt)) {
			printf "auto-system: %s %s %s not measured (%s)\n", p, guest, clock, badnote[a]
			continue
		}
		best = base; bo = meta["default_order"]
		for (i = 1; i <= ngo["patched"]; i++) {
			key = cell("patched", "warm", p, "global:" gord["patched", i])
			if ((key in cnt) && t[key] / cnt[key] < t[best] / cnt[best]) { best = key; bo = gord["patched", i] }
		}
		b = t[base] / cnt[base]
		printf "auto-system: %s %s %s %+.1f%% vs stock default (stddev %.1f%%), best fixed order %s %+.1f%%\n",
			p, guest, clock, 100 * (t[a] / cnt[a] - b) / b, rel(t[a], t2[a], cnt[a]), bo,
			100 * (t[best] / cnt[best] - b) / b
	}
	if (csvout == "/dev/null") exit
	for (key in runs) {
		split(key, f, SUBSEP)
		base = cell("patched", f[2], f[3], "base")
		if (key in cnt) {
			chg = (base in cnt && key != base) ? sprintf("%.2f", 100 * (t[key] / cnt[key] - t[base] / cnt[base]) / (t[base] / cnt[base])) : ""
			printf "%s,%s,%s,%s,%d,%d,%.9f,%.2f,%.1f,%.2f,%.1f,%.2f,%s,%s,%s\n", f[1], f[2], f[3], f[4], runs[key], cnt[key],
				t[key] / cnt[key], rel(t[key], t2[key], cnt[key]), mi[key] / cnt[key], rel(mi[key], mi2[key], cnt[key]),
				ma[key] / cnt[key], rel(ma[key], ma2[key], cnt[key]),
				(key in hasfa) ? sprintf("%.1f", fa[key] / cnt[key]) : "", (key in hasfa) ? sprintf("%.2f", rel(fa[key], fa2[key], cnt[key])) : "",
				chg | "sort >>" csvout
		} else {
			printf "%s,%s,%s,%s,%d,0,,,,,,,,,\n", f[1], f[2], f[3], f[4], runs[key] | "sort >>" csvout
		}
	}
}' "$raw"
