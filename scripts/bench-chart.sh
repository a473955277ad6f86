#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-chart.sh: gnuplot charts of fabench's CSV (one line per cell:
# mode,workload,column,order,status,runs,pages,faults_mean,faults_stddev_pct,
# time_mean_s,time_stddev_pct,time_chg_pct,faults_expected,density,mix,note).
# Every value is the time relative to the Baseline of its own block, with
# error bars of one standard deviation of the mean (the cell's and its
# Baseline's relative stddevs added in quadrature).
#
#   bench-chart.sh bars CSV SVG TITLE
#       clustered bars per workload, one panel per mode (make bench)
#   bench-chart.sh sweep CSV SVG TITLE density|pages|mix
#       one panel per workload, the swept value on x, one line per setting:
#       every global order, the hint split, advice, populate, auto,
#       auto-system
#       (BENCH_SWEEP=1 make bench)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

# The awk part both charts share: Baseline per block, ratio and error.
ratio_awk='
function keyof(m, w, x) { return m SUBSEP w SUBSEP x }
function ratio(t, b) { return t / b }
function err(t, sd, b, bsd) { return t / b * sqrt(sd * sd + bsd * bsd) / 100 }
'

# bars CSV SVG TITLE
bars() {
	local csv=$1 svg=$2 title=$3 tmp mode modes=() n
	tmp=$(mktemp -d)
	for mode in global hint populate advice auto auto-system; do
		grep -q "^$mode," "$csv" || continue
		# Rows: workloads; columns: (value, error) per setting.
		awk -F, -v mode="$mode" "$ratio_awk"'
		$1 != mode { next }
		{
			wl = $2; col = $3
			# advice: the column is named after the advice that fits
			if (mode == "advice" && col != "Baseline") col = "MADV_SEQUENTIAL / RANDOM"
			if (!(wl in wseen)) { wseen[wl] = 1; wls[++nw] = wl }
			if (!(col in cseen)) { cseen[col] = 1; cols[++nc] = col }
			if (col == "Baseline" && $5 == "ok") { bt[wl] = $10; bsd[wl] = $11 }
			if ($5 == "ok") { t[wl, col] = $10; sd[wl, col] = $11 }
		}
		END {
			line = "workload"
			for (c = 1; c <= nc; c++) line = line " \"" cols[c] "\" err"
			print line
			for (w = 1; w <= nw; w++) {
				line = wls[w]
				for (c = 1; c <= nc; c++) {
					k = wls[w] SUBSEP cols[c]
					if (!(k in t) || !(wls[w] in bt) || bt[wls[w]] <= 0)
						line = line " - -"
					else
						line = line sprintf(" %.4f %.4f", ratio(t[k], bt[wls[w]]),
							err(t[k], sd[k], bt[wls[w]], bsd[wls[w]]))
				}
				print line
			}
		}' "$csv" >"$tmp/$mode.dat"
		modes+=("$mode")
	done
	[ ${#modes[@]} -gt 0 ] || { rm -rf "$tmp"; return 0; }
	{
		echo "set terminal svg size 1100,$((380 * ${#modes[@]})) dynamic noenhanced font 'sans,10'"
		echo "set output '$svg'"
		echo "set multiplot layout ${#modes[@]},1 title '$title: elapsed time relative to Baseline (lower is better; bars: stddev of the mean)'"
		echo "set style data histograms"
		echo "set style histogram errorbars gap 1 lw 1"
		echo "set style fill solid 0.85 border -1"
		echo "set datafile missing '-'"
		echo "set key outside right"
		echo "set ylabel 'time / Baseline'"
		echo "set yrange [0:*]"
		echo "set grid ytics"
		for mode in "${modes[@]}"; do
			n=$(head -1 "$tmp/$mode.dat" | wc -w)
			echo "set title 'mode $mode'"
			echo "plot for [i=2:$((n - 1)):2] '$tmp/$mode.dat' using i:i+1:xtic(1) title columnheader(i)"
		done
		echo "unset multiplot"
	} >"$tmp/plot.gp"
	run_gnuplot "$tmp" "$svg"
}

# sweep CSV SVG TITLE DIM: the gnuplot script, data inline, from awk.
sweep() {
	local csv=$1 svg=$2 title=$3 dim=$4 tmp
	case $dim in
	density) field=14 ;;
	pages) field=7 ;;
	mix) field=15 ;;
	*) die "sweep: unknown dimension '$dim' (density, pages, mix)" ;;
	esac
	tmp=$(mktemp -d)
	awk -F, -v f="$field" -v dim="$dim" -v svg="$svg" -v title="$title" "$ratio_awk"'
	/^#/ || $1 == "mode" || $1 == "cost" { next }
	{
		m = $1; w = $2; col = $3; x = $f
		if (!(x in xseen)) { xseen[x] = ++nx; xs[nx] = x }
		if (!(w in wseen)) { wseen[w] = ++nw; wls[nw] = w }
		if (col == "Baseline") {
			if ($5 == "ok") { bt[keyof(m, w, x)] = $10; bsd[keyof(m, w, x)] = $11 }
			next
		}
		# The settings worth a line: every global order and the rest
		# but the hint orders (the global ones, per mapping).
		if (m == "global") s = "order " col
		else if (m == "hint" && col ~ /^seq=/) s = "hint split " col
		else if (m == "hint") next
		else s = m == "advice" ? "advice" : col
		if (!((w, s) in sseen)) { sseen[w, s] = 1; ns[w]++; ser[w, ns[w]] = s }
		if ($5 == "ok") { t[w, s, x] = $10; sd[w, s, x] = $11; mo[w, s, x] = m }
	}
	END {
		printf "set terminal svg size 1100,%d dynamic noenhanced font \"sans,10\"\n", 420 * nw
		printf "set output \"%s\"\n", svg
		printf "set multiplot layout %d,1 title \"%s: time relative to Baseline over %s (lower is better; bars: stddev of the mean)\"\n", nw, title, dim
		printf "set key outside right\nset ylabel \"time / Baseline\"\nset grid ytics\n"
		printf "set xlabel \"%s\"\nset xrange [-0.3:%f]\nset xtics (", dim == "density" ? "one random lookup per N pages" : dim == "pages" ? "pages per mapping" : "mixed: seq:rand mapping sizes", nx - 0.7
		for (i = 1; i <= nx; i++) printf("%s\"%s\" %d", (i > 1 ? ", " : ""), xs[i], i - 1)
		printf ")\n"
		for (j = 1; j <= nw; j++) {
			w = wls[j]; plot = ""
			for (k = 1; k <= ns[w]; k++) {
				s = ser[w, k]; name = "$d" j "_" k; rows = ""
				for (i = 1; i <= nx; i++) {
					x = xs[i]; b = keyof(mo[w, s, x], w, x)
					if ((w, s, x) in t && b in bt && bt[b] > 0)
						rows = rows sprintf("%d %.4f %.4f\n", i - 1, ratio(t[w, s, x], bt[b]),
							err(t[w, s, x], sd[w, s, x], bt[b], bsd[b]))
				}
				if (rows == "") continue
				printf "%s << EOD\n%sEOD\n", name, rows
				plot = plot (plot == "" ? "" : ", ") sprintf("%s using 1:2:3 with yerrorlines lw %d title \"%s\"", name, s ~ /^order/ ? 1 : 2, s)
			}
			printf "set title \"%s\"\n", w
			if (plot != "") printf "plot %s\n", plot
		}
		printf "unset multiplot\n"
	}' "$csv" >"$tmp/plot.gp"
	run_gnuplot "$tmp" "$svg"
}

run_gnuplot() {
	local tmp=$1 svg=$2 rc=0
	if ! command -v gnuplot >/dev/null; then
		warn "gnuplot missing (make deps installs gnuplot-nox): no $svg"
		rm -rf "$tmp"
		return 0
	fi
	# Settings that were skipped everywhere leave a series without points.
	gnuplot "$tmp/plot.gp" 2>"$tmp/gp.all" || rc=$?
	grep -v 'Skipping data file with no valid points' "$tmp/gp.all" >"$tmp/gp.err" || true
	if [ "$rc" != 0 ] || [ -s "$tmp/gp.err" ]; then
		warn "gnuplot for ${svg#"$top"/}:"
		sed 's/^/    /' "$tmp/gp.err" >&2
	fi
	rm -rf "$tmp"
	return "$rc"
}

case ${1:-} in
bars) [ $# = 4 ] || die "usage: bench-chart.sh bars CSV SVG TITLE"; bars "$2" "$3" "$4" ;;
sweep) [ $# = 5 ] || die "usage: bench-chart.sh sweep CSV SVG TITLE DIM"; sweep "$2" "$3" "$4" "$5" ;;
*) die "usage: bench-chart.sh bars|sweep CSV SVG TITLE [DIM]" ;;
esac
