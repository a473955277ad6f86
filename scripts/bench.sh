#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: "make bench".  For each guest (pseries radix, pseries hash,
# x86_64): build the kernel and initramfs, boot the guest in bench mode
# under qemu TCG with -icount (deterministic guest time), and extract from
# its console into build/bench/:
#   NAME.txt   fabench's tables (see docs/benchmarks.md)
#   NAME.csv   the same data, one line per cell
#   NAME.svg   time relative to Baseline per workload and order (gnuplot)
#
#   BENCH_COST=1   instead: boot the stock kernel (VARIANT=stock) and the
#                  patched one in cost mode (seq, touch, exec at the system
#                  default, no hint, BENCH_COST_REPEAT runs) and print the
#                  time change with its stddev: NAME-cost.txt
#   BENCH_SHIM=1   instead: what mmap costs through the preload shim
#                  (libfaultaround/test/bench.sh in the guest): NAME-shim.txt
#   BENCH_GUESTS="pseries-radix pseries-hash x86_64"   which guests
#   BENCH_REPEAT=5 BENCH_COST_REPEAT=30   runs per cell
#   BENCH_PAGES=N  pages per mapping (default: run-bench's choice)
#   QEMU_TIMEOUT   seconds per guest (default 3600)
#
# Helpers, usable on a saved console log:
#   bench.sh --extract CONSOLE NAME [OUTDIR]
#   bench.sh --cost-compare STOCK.csv PATCHED.csv [NAME]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

outdir=$BUILD/bench
repeat=${BENCH_REPEAT:-5}
cost_repeat=${BENCH_COST_REPEAT:-30}
guests=${BENCH_GUESTS:-pseries-radix pseries-hash x86_64}
export QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600}

# Kernel log lines can land anywhere on the console: drop them.
klog='^\[ *[0-9]+\.[0-9]+\]'

# extract CONSOLE NAME OUTDIR: NAME.txt, NAME.csv and NAME.svg from a console.
extract() {
	local console=$1 name=$2 dir=${3:-$outdir}
	local txt=$dir/$name.txt csv=$dir/$name.csv

	mkdir -p "$dir"
	grep -q '^# fabench-tables-begin' "$console" ||
		{ warn "$name: no fabench output in $console"; return 1; }
	{
		grep -m1 '^# faultaround-guest:' "$console" || true
		grep '^# fabench-run:' "$console" || true
		sed -n '/^# fabench-tables-begin/,/^# fabench-tables-end/p' "$console" |
			grep -Ev "$klog" | grep -v '^# fabench-tables-'
	} >"$txt"
	sed -n '/^# fabench-csv-begin/,/^# fabench-csv-end/p' "$console" |
		grep -E '^(# kernel|mode,|(global|hint|cost),)' >"$csv" || true
	[ -s "$csv" ] || { warn "$name: no CSV between the markers in $console"; return 1; }
	if grep -Eq '^(global|hint),' "$csv"; then
		chart "$csv" "$dir/$name.svg" "$name" || return 1
	fi
	return 0
}

# chart CSV SVG TITLE: clustered bars of time / Baseline, one panel per mode.
chart() {
	local csv=$1 svg=$2 title=$3 tmp mode modes=() n gp
	tmp=$(mktemp -d)
	for mode in global hint; do
		grep -q "^$mode," "$csv" || continue
		# Rows: workloads; columns: Baseline, orders (and the split hint).
		awk -F, -v mode="$mode" '
		$1 != mode { next }
		{
			wl = $2; col = $3
			if (!(wl in wseen)) { wseen[wl] = 1; wls[++nw] = wl }
			if (!(col in cseen)) { cseen[col] = 1; cols[++nc] = col }
			if (col == "Baseline") base[wl] = $10
			t[wl, col] = ($5 == "ok") ? $10 : ""
		}
		END {
			line = "workload"
			for (c = 1; c <= nc; c++) line = line " \"" cols[c] "\""
			print line
			for (w = 1; w <= nw; w++) {
				line = wls[w]
				for (c = 1; c <= nc; c++) {
					v = t[wls[w], cols[c]]
					if (v == "" || base[wls[w]] == "" || base[wls[w]] + 0 <= 0)
						line = line " -"
					else
						line = line " " sprintf("%.4f", v / base[wls[w]])
				}
				print line
			}
		}' "$csv" >"$tmp/$mode.dat"
		modes+=("$mode")
	done
	[ ${#modes[@]} -gt 0 ] || { rm -rf "$tmp"; return 0; }
	command -v gnuplot >/dev/null || { warn "gnuplot missing: no chart"; rm -rf "$tmp"; return 0; }
	{
		echo "set terminal svg size 1100,$((380 * ${#modes[@]})) dynamic noenhanced font 'sans,10'"
		echo "set output '$svg'"
		echo "set multiplot layout ${#modes[@]},1 title '$title: elapsed time relative to Baseline (lower is better)'"
		echo "set style data histograms"
		echo "set style histogram clustered gap 1"
		echo "set style fill solid 0.85 border -1"
		echo "set datafile missing '-'"
		echo "set key outside right title 'order'"
		echo "set ylabel 'time / Baseline'"
		echo "set yrange [0:*]"
		echo "set grid ytics"
		for mode in "${modes[@]}"; do
			n=$(head -1 "$tmp/$mode.dat" | wc -w)
			echo "set title 'mode $mode'"
			echo "plot for [i=2:$n] '$tmp/$mode.dat' using i:xtic(1) title columnheader(i)"
		done
		echo "unset multiplot"
	} >"$tmp/plot.gp"
	gp=0
	gnuplot "$tmp/plot.gp" 2>"$tmp/gp.err" || gp=$?
	[ "$gp" = 0 ] || { warn "gnuplot failed for $svg:"; sed 's/^/    /' "$tmp/gp.err" >&2; }
	rm -rf "$tmp"
	return "$gp"
}

# cost_compare STOCK.csv PATCHED.csv NAME: time change patched vs stock.
cost_compare() {
	local stock=$1 patched=$2 name=${3:-guest}
	awk -F, -v name="$name" '
	FNR == 1 { file++ }
	$1 != "cost" || $5 != "ok" { next }
	file == 1 { st[$2] = $10; ssd[$2] = $11; sf[$2] = $8; if (!($2 in seen)) { seen[$2] = 1; wl[++n] = $2 } }
	file == 2 { pt[$2] = $10; psd[$2] = $11; pf[$2] = $8; if (!($2 in seen)) { seen[$2] = 1; wl[++n] = $2 } }
	END {
		printf "%s: cost of the series with no hint set (patched vs stock kernel)\n", name
		printf "%-10s %16s %12s %16s %12s %10s %10s %12s %12s\n", "workload", "stock s", "stddev",
		       "patched s", "stddev", "%chg", "+-", "faults st", "faults pa"
		for (i = 1; i <= n; i++) {
			w = wl[i]
			if (!(w in st) || !(w in pt) || st[w] <= 0) {
				printf "%-10s not measured on both kernels\n", w
				continue
			}
			chg = 100 * (pt[w] - st[w]) / st[w]
			# Relative errors of the two means add in quadrature.
			err = sqrt(ssd[w] * ssd[w] + psd[w] * psd[w]) * pt[w] / st[w]
			printf "%-10s %16.9f %11.2f%% %16.9f %11.2f%% %9.2f%% %9.2f%% %12.0f %12.0f\n",
			       w, st[w], ssd[w], pt[w], psd[w], chg, err, sf[w], pf[w]
		}
	}' "$stock" "$patched"
}

guest_args() {	# NAME -> "ARCH MMU"
	case $1 in
	pseries-radix) echo "ppc64le radix" ;;
	pseries-hash) echo "ppc64le hash" ;;
	x86_64) echo "x86_64 none" ;;
	*) die "unknown guest '$1' (pseries-radix, pseries-hash, x86_64)" ;;
	esac
}

# boot NAME VARIANT APPEND [MODE]: build and boot one guest in MODE (bench);
# the console goes to build/results/NAME[-VARIANT]MODE.console (qemu-run.sh).
boot() {
	local name=$1 variant=$2 append=$3 mode=${4:-bench} arch mmu
	read -r arch mmu < <(guest_args "$name")
	info "$name${variant:+ ($variant)}: building kernel and initramfs"
	make -s -C "$top" kernel initramfs ARCH="$arch" ${variant:+VARIANT=$variant} || return 1
	# One vCPU: -icount runs vCPUs round-robin on one thread, which makes
	# guest time depend on scheduling.  RCU's stall detector measures that
	# emulated time against real work and fires spuriously: silence it.
	QEMU_SMP=1 QEMU_EXTRA="-icount shift=0" \
	QEMU_APPEND="faultaround.emulated=1 rcupdate.rcu_cpu_stall_suppress=1 $append${BENCH_PAGES:+ faultaround.pages=$BENCH_PAGES}" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" "$mode" ${variant:+"$variant"}
}

case ${1:-} in
--extract)
	[ $# -ge 3 ] || die "usage: bench.sh --extract CONSOLE NAME [OUTDIR]"
	extract "$2" "$3" "${4:-$outdir}"
	exit
	;;
--cost-compare)
	[ $# -ge 3 ] || die "usage: bench.sh --cost-compare STOCK.csv PATCHED.csv [NAME]"
	cost_compare "$2" "$3" "${4:-guest}"
	exit
	;;
'') ;;
*) die "usage: bench.sh [--extract CONSOLE NAME [OUTDIR] | --cost-compare STOCK.csv PATCHED.csv [NAME]]" ;;
esac

mkdir -p "$outdir"
failed=()
done_files=()
for name in $guests; do
	guest_args "$name" >/dev/null
	if [ "${BENCH_SHIM:-0}" = 1 ]; then
		c=$BUILD/results/${name}shimbench.console
		if boot "$name" "" "" shimbench &&
		   grep -q '^# first:' "$c"; then
			grep -m1 '^# faultaround-guest:' "$c" >"$outdir/$name-shim.txt"
			sed -n '/^# kernel /,/^FAULTAROUND-DONE/p' "$c" |
				grep -Ev "$klog|^FAULTAROUND-DONE|^clocksource" >>"$outdir/$name-shim.txt"
			cat "$outdir/$name-shim.txt"
			done_files+=("$outdir/$name-shim.txt")
		else
			failed+=("$name (shim)")
		fi
		continue
	fi
	if [ "${BENCH_COST:-0}" = 1 ]; then
		ok=1
		for variant in stock patched; do
			v=$variant; [ "$v" = patched ] && v=
			if boot "$name" "$v" "faultaround.bench=cost faultaround.repeat=$cost_repeat"; then
				c=$BUILD/results/$name${v:+-$v}bench.console
				cp "$c" "$outdir/$name-cost-$variant.console"
				extract "$c" "$name-cost-$variant" "$outdir" || ok=0
			else
				ok=0
			fi
		done
		if [ $ok = 1 ]; then
			cost_compare "$outdir/$name-cost-stock.csv" "$outdir/$name-cost-patched.csv" "$name" |
				tee "$outdir/$name-cost.txt"
			done_files+=("$outdir/$name-cost.txt")
		else
			failed+=("$name (cost)")
		fi
		continue
	fi
	if boot "$name" "" "faultaround.bench=full faultaround.repeat=$repeat" &&
	   extract "$BUILD/results/${name}bench.console" "$name" "$outdir"; then
		cat "$outdir/$name.txt"
		done_files+=("$outdir/$name".{txt,csv,svg})
	else
		failed+=("$name")
	fi
done

info "results in ${outdir#"$top"/}/:"
for f in "${done_files[@]}"; do
	[ -e "$f" ] && info "  ${f#"$top"/}"
done
if [ ${#failed[@]} -gt 0 ]; then
	warn "failed: ${failed[*]} (consoles in build/results/)"
	exit 1
fi
