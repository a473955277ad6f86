#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: "make bench".  For each guest (pseries radix, pseries hash,
# x86_64): build the kernel and initramfs, boot the guest in bench mode
# under qemu TCG with -icount (deterministic guest time), and extract from
# its console into build/bench/:
#   NAME.txt       fabench's tables (see docs/benchmarks.md)
#   NAME.csv       the same data, one line per cell
#   NAME-raw.csv   every run, one line each: "fabench --from-raw
#                  NAME-raw.csv" prints NAME.txt's tables again
#   NAME.svg       time relative to Baseline per workload, setting and
#                  mode, with error bars (gnuplot)
# and prints how long each guest and the whole run took.
#
#   BENCH_SWEEP=1  instead: the sweeps (faultaround.bench=sweep): density
#                  1/4..1/256, sizes, seq:rand mixes, every order; for each,
#                  NAME-sweep-{density,pages,mix}.{txt,csv,svg} and -raw.csv
#                  (needs pages >= 256: the sparsest density)
#   BENCH_COST=1   instead: boot the stock kernel (VARIANT=stock) and the
#                  patched one in cost mode (seq, touch, exec at the system
#                  default, no hint, BENCH_COST_REPEAT runs) and print the
#                  time change with its stddev: NAME-cost.txt
#   BENCH_SHIM=1   instead: what mmap costs through the preload shim
#                  (libfaultaround/test/bench.sh in the guest): NAME-shim.txt
#   BENCH_PROGRAMS=1  instead: Debian's programs under perf stat
#                  (faultaround.bench=programs, bench/programs/bench.sh) on
#                  the patched and then the stock kernel, warm and cold
#                  cache: NAME-programs.txt (scripts/programs-report.sh),
#                  NAME-programs.csv, NAME-programs-raw.csv (every run);
#                  BENCH_PROGRAMS_STOCK=0 skips the stock kernel,
#                  BENCH_PROGRAMS_LIST=sqlite,pystart,python,cc,rg and
#                  BENCH_PROGRAMS_CACHE=warm,cold pick a subset,
#                  BENCH_PROGRAMS_WARM=S,S... and BENCH_PROGRAMS_COLD the
#                  settings (bench/programs/bench.sh -s, -S)
#   BENCH_GUESTS="pseries-radix pseries-hash x86_64"   which guests
#   BENCH_REPEAT=5 BENCH_COST_REPEAT=30   runs per cell
#   BENCH_PAGES=N  pages per mapping (default: run-bench's choice)
#   QEMU_TIMEOUT   seconds per guest (default 3600)
#
# Helpers, usable on a saved console log:
#   bench.sh --extract CONSOLE NAME [OUTDIR [LABEL]]
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

# section CONSOLE PART LABEL: one of run-bench's sections, kernel log lines
# (which can land anywhere on the console) dropped.
section() {
	local console=$1 part=$2 sfx=${3:+ $3}
	sed -n "/^# fabench-$part-begin$sfx\$/,/^# fabench-$part-end$sfx\$/p" "$console" |
		grep -Ev "$klog" | grep -Ev "^# fabench-$part-(begin|end)" || true
}

# extract CONSOLE NAME OUTDIR [LABEL]: NAME[-LABEL].txt, .csv, -raw.csv and
# .svg from a console; checks that the raw data gives the tables again.
extract() {
	local console=$1 name=$2 dir=${3:-$outdir} label=${4:-}
	local base=$dir/$name${label:+-$label} fabench=$BUILD/host/bench/fabench
	local txt=$base.txt csv=$base.csv raw=$base-raw.csv

	mkdir -p "$dir"
	grep -q "^# fabench-tables-begin${label:+ $label}\$" "$console" ||
		{ warn "$name: no fabench output${label:+ for $label} in $console"; return 1; }
	{
		grep -m1 '^# faultaround-guest:' "$console" || true
		grep '^# fabench-run:' "$console" || true
		section "$console" tables "$label"
	} >"$txt"
	section "$console" csv "$label" |
		grep -E '^(# kernel|mode,|(global|hint|populate|advice|auto|cost),)' >"$csv" || true
	[ -s "$csv" ] || { warn "$name: no CSV between the markers in $console"; return 1; }
	section "$console" raw "$label" >"$raw"
	# The tables must come back from the raw data (a console line broken
	# by a kernel message would not): fabench built for this machine.
	if make -s -C "$top/bench" O="$BUILD/host/bench" LIBFA_O="$BUILD/host/libfaultaround" \
		"$fabench" >/dev/null 2>&1 &&
	   ! "$fabench" --from-raw "$raw" | cmp -s - <(section "$console" tables "$label"); then
		warn "${raw#"$top"/}: fabench --from-raw does not print the tables of ${txt#"$top"/}"
	fi
	case $label in
	sweep-*) "$top/scripts/bench-chart.sh" sweep "$csv" "$base.svg" "$name" "${label#sweep-}" ;;
	*) if grep -Eq '^(global|hint|populate|advice|auto),' "$csv"; then
		"$top/scripts/bench-chart.sh" bars "$csv" "$base.svg" "$name"
	   fi ;;
	esac
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
	make -s -C "$top" kernel initramfs ${BENCH_PROGRAMS:+programs} ARCH="$arch" \
		${variant:+VARIANT=$variant} || return 1
	# One vCPU: -icount runs vCPUs round-robin on one thread, which makes
	# guest time depend on scheduling.  RCU's stall detector measures that
	# emulated time against real work and fires spuriously: silence it.
	QEMU_SMP=1 QEMU_EXTRA="-icount shift=0" \
	QEMU_APPEND="faultaround.emulated=1 rcupdate.rcu_cpu_stall_suppress=1 faultaround.guest=$name $append${BENCH_PAGES:+ faultaround.pages=$BENCH_PAGES}" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" "$mode" ${variant:+"$variant"}
}

case ${1:-} in
--extract)
	[ $# -ge 3 ] || die "usage: bench.sh --extract CONSOLE NAME [OUTDIR [LABEL]]"
	extract "$2" "$3" "${4:-$outdir}" "${5:-}"
	exit
	;;
--cost-compare)
	[ $# -ge 3 ] || die "usage: bench.sh --cost-compare STOCK.csv PATCHED.csv [NAME]"
	cost_compare "$2" "$3" "${4:-guest}"
	exit
	;;
'') ;;
*) die "usage: bench.sh [--extract CONSOLE NAME [OUTDIR [LABEL]] | --cost-compare STOCK.csv PATCHED.csv [NAME]]" ;;
esac

# mm:ss of a number of seconds.
duration() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

mkdir -p "$outdir"
failed=()
done_files=()
times=()
total_start=$SECONDS
for name in $guests; do
	guest_args "$name" >/dev/null
	guest_start=$SECONDS
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
	elif [ "${BENCH_PROGRAMS:-0}" = 1 ]; then
		raw=$outdir/$name-programs-raw.csv
		: >"$raw"
		ok=1
		variants=patched
		[ "${BENCH_PROGRAMS_STOCK:-1}" = 1 ] && variants="patched stock"
		for variant in $variants; do
			v=$variant; [ "$v" = patched ] && v=
			c=$BUILD/results/$name${v:+-$v}bench.console
			# x86_64: the clocksource watchdog once marked the TSC
			# unstable against refined-jiffies during the programs'
			# disk I/O under -icount, leaving perf's duration_time with
			# a 4 ms resolution; tsc=reliable keeps the TSC.
			tsc=
			[ "$name" = x86_64 ] && tsc=" tsc=reliable"
			if boot "$name" "$v" "faultaround.bench=programs faultaround.repeat=$repeat$tsc${BENCH_PROGRAMS_LIST:+ faultaround.programs=$BENCH_PROGRAMS_LIST}${BENCH_PROGRAMS_CACHE:+ faultaround.cache=$BENCH_PROGRAMS_CACHE}${BENCH_PROGRAMS_WARM:+ faultaround.warm=$BENCH_PROGRAMS_WARM}${BENCH_PROGRAMS_COLD:+ faultaround.cold=$BENCH_PROGRAMS_COLD}" &&
			   grep -q '^# fabench-programs-end$' "$c" &&
			   ! grep '^# programs-meta: error=' "$c"; then
				cp "$c" "$outdir/$name-programs-$variant.console"
				# One header line for both kernels' runs.
				first=1
				[ -s "$raw" ] && first=0
				# Only the data: the pseries console also carries
				# kernel lines without a timestamp ("drop_caches: 3").
				section "$c" programs "" | grep -E "^(# programs-meta|guest,|$name,)" |
					awk -v first=$first '/^guest,/ && !first { next } { print }' >>"$raw"
			else
				ok=0
			fi
		done
		if [ $ok = 1 ]; then
			"$top/scripts/programs-report.sh" "$raw" "$outdir/$name-programs.csv" >"$outdir/$name-programs.txt"
			cat "$outdir/$name-programs.txt"
			done_files+=("$outdir/$name-programs"{.txt,.csv,-raw.csv})
		else
			failed+=("$name (programs)")
		fi
	elif [ "${BENCH_COST:-0}" = 1 ]; then
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
	elif [ "${BENCH_SWEEP:-0}" = 1 ]; then
		c=$BUILD/results/${name}bench.console
		if boot "$name" "" "faultaround.bench=sweep faultaround.repeat=$repeat"; then
			cp "$c" "$outdir/$name-sweep.console"
			for dim in density pages mix; do
				if extract "$c" "$name" "$outdir" "sweep-$dim"; then
					done_files+=("$outdir/$name-sweep-$dim"{.txt,.csv,-raw.csv,.svg})
				else
					failed+=("$name (sweep $dim)")
				fi
			done
		else
			failed+=("$name (sweep)")
		fi
	elif boot "$name" "" "faultaround.bench=full faultaround.repeat=$repeat" &&
	     extract "$BUILD/results/${name}bench.console" "$name" "$outdir"; then
		cat "$outdir/$name.txt"
		done_files+=("$outdir/$name"{.txt,.csv,-raw.csv,.svg})
	else
		failed+=("$name")
	fi
	times+=("$name $(duration $((SECONDS - guest_start)))")
done

info "results in ${outdir#"$top"/}/:"
for f in "${done_files[@]}"; do
	[ -e "$f" ] && info "  ${f#"$top"/}"
done
for t in "${times[@]}"; do
	info "wall time: $t"
done
info "wall time: total $(duration $((SECONDS - total_start)))"
if [ ${#failed[@]} -gt 0 ]; then
	warn "failed: ${failed[*]} (consoles in build/results/)"
	exit 1
fi
