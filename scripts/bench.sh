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
#                  default, no hint, BENCH_COST_REPEAT runs per boot),
#                  BENCH_COST_BOOTS times each, alternating, and print
#                  the time change with the spread between boots and
#                  inside them: NAME-cost.txt (cost_boots below);
#                  BENCH_COST_PATCHED=nohints compares the patched kernel
#                  built without CONFIG_FAULT_AROUND_HINTS instead:
#                  NAME-cost-nohints.txt; BENCH_COST_ELSEWHERE=1 runs every boot
#                  with a process holding a default and hints beside the
#                  benchmark (faultaround.bench=cost-elsewhere):
#                  NAME-cost-hint-elsewhere.txt; BENCH_COST_WORKLOADS=LIST
#                  measures those workloads instead of seq,touch,exec;
#                  BENCH_COST_STOCK=VARIANT boots that stock variant
#                  (nouffd-stock: stock with nouffd.config, against
#                  BENCH_COST_PATCHED=nouffd);
#                  BENCH_COST_STOCK_BYTES=N boots stock with a fixed window
#                  of N bytes (4096: no fault-around, against which the
#                  self-sizing window's cost is measured on x86_64);
#                  BENCH_COST_PATCHED_BYTES=N the same for the patched
#                  boots (65536: the series without its self-sizing window;
#                  auto: the self-sizing window as the system default)
#   BENCH_STOCK=1  the full run on the unpatched kernel (VARIANT=stock):
#                  NAME-stock.txt, .csv, -raw.csv, .svg
#   BENCH_SHIM=1   instead: what mmap costs through the preload shim
#                  (libfaultaround/test/bench.sh in the guest): NAME-shim.txt
#   BENCH_CONCURRENCY=1  instead: the threaded workloads (faultaround.bench=
#                  concurrency) with BENCH_SMP vCPUs (default 2), booted
#                  twice: under -icount as everything else (the vCPUs run
#                  round robin on one host thread: times count the
#                  instructions of all vCPUs) into NAME-concurrency.{txt,csv}
#                  and -raw.csv, then without -icount (MTTCG: the vCPUs run
#                  in parallel, times are host wall time, noisy) with
#                  BENCH_MTTCG_REPEAT runs per cell (default 10) into
#                  NAME-concurrency-mttcg.*; BENCH_CLOCKS=icount or =mttcg
#                  runs one of the two (pseries runs -icount at shift=7:
#                  see boot())
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
#   BENCH_CALIBRATION=1  instead: on the stock kernel (VARIANT=stock), the
#                  workloads scripts/host-calibration.sh runs on the host
#                  (faultaround.bench=calibration): Baseline of every
#                  single-threaded workload, populate and advice, rand and
#                  mixed at densities 4..256, BENCH_REPEAT runs per cell:
#                  NAME-calibration-{base,columns}.{txt,csv} and -raw.csv
#   BENCH_GUESTS="pseries-radix pseries-hash x86_64"   which guests
#   BENCH_REPEAT=5 BENCH_COST_REPEAT=30   runs per cell
#   BENCH_PAGES=N  pages per mapping (default: run-bench's choice)
#   QEMU_TIMEOUT   seconds per guest (default 3600)
#
# Helpers, usable on a saved console log:
#   bench.sh --extract CONSOLE NAME [OUTDIR [LABEL]]
#   bench.sh --cost-boots NAME NAME-cost-stock-b*.csv NAME-cost-patched-b*.csv
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

outdir=$BUILD/bench
repeat=${BENCH_REPEAT:-5}
cost_repeat=${BENCH_COST_REPEAT:-30}
nboots=${BENCH_COST_BOOTS:-3}
# BENCH_STOCK=1: the full run on the stock kernel (populate, advice and
# global through debugfs; hint and auto cells say the kernel lacks them).
variant=
[ "${BENCH_STOCK:-0}" = 1 ] && variant=stock
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
		grep -E '^(# kernel|mode,|(global|hint|populate|advice|auto|auto-system|cost),)' >"$csv" || true
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
	concurrency*) ;;	# no chart: one bar per workload cannot show threads
	calibration-*) ;;	# charted with the host's runs (host-calibration.sh)
	*) if grep -Eq '^(global|hint|populate|advice|auto|auto-system),' "$csv"; then
		"$top/scripts/bench-chart.sh" bars "$csv" "$base.svg" "$name"
	   fi ;;
	esac
}

# cost_boots NAME STOCK.csv... PATCHED.csv...: the cost of the series
# over several boots of each kernel.  Per workload and kernel: the mean of
# the boots' means, the spread between boots (standard deviation of the
# boot means, % of their mean) next to the typical spread inside one boot
# (the mean of the boots' stddev of the mean, as perf stat prints it); the
# %chg of the means, its standard error from the between-boot spread of
# both kernels (sd / sqrt(boots), in quadrature), the smallest change the
# method resolves (two such standard errors, or two in-boot ones if those
# are larger) and the change in guest instructions per fault (under
# -icount a nanosecond is an instruction).
cost_boots() {
	local name=$1 arch=x86_64 cfg o line=
	shift
	# What changes the fault path's instruction count, as built.
	case $name in pseries-*) arch=ppc64le ;; esac
	cfg=$BUILD/kernel/$arch/.config
	for o in JUMP_LABEL TRANSPARENT_HUGEPAGE PREEMPT_DYNAMIC MEMCG FAULT_AROUND_HINTS; do
		if grep -q "^CONFIG_$o=y" "$cfg" 2>/dev/null; then line+=" CONFIG_$o=y"; else line+=" CONFIG_$o=n"; fi
	done
	# Only where the tables come from the kernels in build/ now.
	[ "${COST_LIVE:-0}" = 1 ] && echo "$name: kernels built with$line"
	awk -F, -v name="$name" -v what="${COST_WHAT:-patched}" \
		-v set="${COST_SET:-with no hint set}" '
	BEGIN { kernel = "stock" }
	FNR == 1 && FILENAME ~ /-patched[a-z-]*-b[0-9]+(-raw)?\.csv$/ { kernel = "patched" }
	FNR == 1 && FILENAME ~ /-stock-b[0-9]+(-raw)?\.csv$/ { kernel = "stock" }
	$1 != "cost" || $5 != "ok" { next }
	{
		k = kernel SUBSEP $2
		nb[k]++; sum[k] += $10; sq[k] += $10 * $10; insd[k] += $11; faults[k] = $8
		if (!($2 in seen)) { seen[$2] = 1; wl[++n] = $2 }
	}
	function mean(k) { return sum[k] / nb[k] }
	function spread(k,   m, v) {	# sample sd of the boot means, % of their mean
		m = mean(k)
		if (nb[k] < 2 || m <= 0)
			return 0
		v = (sq[k] - nb[k] * m * m) / (nb[k] - 1)
		return v > 0 ? 100 * sqrt(v) / m : 0
	}
	END {
		printf "%s: cost of the series %s (%s vs stock kernel), boots per kernel as counted\n", name, set, what
		printf "%-10s %5s %14s %8s %8s %14s %8s %8s %8s %7s %9s %9s %9s\n", "workload", "boots",
		       "stock s", "between", "in-boot", "patched s", "between", "in-boot", "%chg", "+-",
		       "resolves", "faults", "instr/flt"
		for (i = 1; i <= n; i++) {
			w = wl[i]; s = "stock" SUBSEP w; p = "patched" SUBSEP w
			if (!(s in nb) || !(p in nb)) {
				printf "%-10s not measured on both kernels\n", w
				continue
			}
			sm = mean(s); pm = mean(p)
			chg = 100 * (pm - sm) / sm
			se = sqrt(spread(s) ^ 2 / nb[s] + spread(p) ^ 2 / nb[p])
			ib = sqrt((insd[s] / nb[s]) ^ 2 + (insd[p] / nb[p]) ^ 2)
			res = 2 * (se > ib ? se : ib)
			printf "%-10s %2d/%-2d %14.9f %7.2f%% %7.2f%% %14.9f %7.2f%% %7.2f%% %7.2f%% %6.2f%% %8.2f%% %9.0f %9.1f\n",
			       w, nb[s], nb[p], sm, spread(s), insd[s] / nb[s], pm, spread(p), insd[p] / nb[p],
			       chg, se, res, faults[p], (pm - sm) * 1e9 / faults[p]
		}
		print "between: sd of the boot means; in-boot: mean stddev of the mean inside a boot; +-: standard error"
		print "of %chg from the between-boot spreads; resolves: the smallest %chg this run can tell from zero"
		print "(2x the larger of the between-boot and in-boot errors); instr/flt: (patched - stock) guest"
		print "instructions per minor fault (qemu -icount: a nanosecond is an instruction)"
	}' "$@"
}

guest_args() {	# NAME -> "ARCH MMU"
	case $1 in
	pseries-radix) echo "ppc64le radix" ;;
	pseries-hash) echo "ppc64le hash" ;;
	x86_64) echo "x86_64 none" ;;
	*) die "unknown guest '$1' (pseries-radix, pseries-hash, x86_64)" ;;
	esac
}

# The host's TSC rate in kHz.  Without -icount, qemu's x86 TCG reads the
# host's TSC for the guest's (cpu_get_ticks()); the guest kernel has no
# HPET or PM timer to calibrate it against, which it needs when the host is
# too busy for its PIT calibration: it then marks the TSC unstable and
# times every run with 4 ms jiffies.  So an MTTCG x86_64 guest is told the
# rate (tsc_early_khz=).
host_tsc_khz() {
	local exe=$BUILD/host/tsc-khz
	[ "$(uname -m)" = x86_64 ] || return 1
	if [ ! -x "$exe" ]; then
		mkdir -p "$BUILD/host"
		gcc -O2 -x c -o "$exe" - <<'EOF' || return 1
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>
int main(void)
{
	struct timespec a, b, d = { 0, 200000000 };
	unsigned long long t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	nanosleep(&d, NULL);
	t1 = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f\n", (double)(t1 - t0) * 1e6 /
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)));
	return 0;
}
EOF
	fi
	"$exe"
}

# boot NAME VARIANT APPEND [MODE [SMP [CLOCK]]]: build and boot one guest
# in MODE (bench) with SMP vCPUs (1) under CLOCK icount (qemu -icount) or
# mttcg (no -icount, parallel vCPUs); the console goes to
# build/results/NAME[-VARIANT]MODE.console (qemu-run.sh).
boot() {
	local name=$1 variant=$2 append=$3 mode=${4:-bench} smp=${5:-1} clock=${6:-icount}
	local arch mmu extra="-icount shift=0" emulated=1 khz
	read -r arch mmu < <(guest_args "$name")
	info "$name${variant:+ ($variant)}: building kernel and initramfs"
	make -s -C "$top" kernel initramfs ${BENCH_PROGRAMS:+programs} ARCH="$arch" \
		${variant:+VARIANT=$variant} || return 1
	if [ "$clock" = mttcg ]; then
		extra= emulated=mttcg
		if [ "$arch" = x86_64 ]; then
			khz=$(host_tsc_khz) || die "cannot measure the host's TSC rate"
			append+=" tsc_early_khz=$khz"
		fi
	fi
	# One vCPU unless asked: -icount runs vCPUs round-robin on one
	# thread, which makes guest time depend on scheduling.  RCU's stall
	# detector measures that emulated time against real work and fires
	# spuriously: silence it.
	# The TSC counts guest instructions under -icount; the clocksource
	# watchdog, comparing it with jiffies that a loaded host delays, once
	# marked it unstable and the run fell back to jiffies (see run-bench).
	# With two vCPUs the guest also checks the TSCs against each other
	# and, under -icount's round robin, found them unstable; both read
	# qemu's one clock.
	[ "$arch" = x86_64 ] && append="tsc=reliable $append"
	if [ "$smp" -gt 1 ]; then
		# One vCPU per socket: the x86_64 guest has no ACPI and finds
		# its CPUs in SeaBIOS's MP table, which lists only the first CPU
		# of each package, and qemu's -smp N alone makes N cores of one
		# package.
		smp="$smp,sockets=$smp,cores=1,threads=1"
		# qemu's single-threaded TCG switches vCPUs when its kick
		# timer fires, every 100 ms of virtual time (TCG_KICK_PERIOD
		# in accel/tcg/tcg-accel-ops-rr.h): 10^8 instructions at
		# shift=0, which a pseries vCPU waiting on the other one spins
		# through, and the guest's output slowed to a trickle.  At
		# shift=7 the period is 781250 instructions and the guest runs;
		# fabench divides its times by 2^7, so a nanosecond is still
		# an instruction.  x86_64 runs, and was measured, at shift=0.
		if [ "$arch" = ppc64le ] && [ "$clock" = icount ]; then
			extra="-icount shift=7"
			append+=" faultaround.icount_shift=7"
		fi
	fi
	QEMU_SMP=$smp QEMU_EXTRA=$extra \
	QEMU_APPEND="faultaround.emulated=$emulated rcupdate.rcu_cpu_stall_suppress=1 faultaround.guest=$name $append${BENCH_PAGES:+ faultaround.pages=$BENCH_PAGES}" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" "$mode" ${variant:+"$variant"}
}

case ${1:-} in
--extract)
	[ $# -ge 3 ] || die "usage: bench.sh --extract CONSOLE NAME [OUTDIR [LABEL]]"
	extract "$2" "$3" "${4:-$outdir}" "${5:-}"
	exit
	;;
--cost-boots)
	[ $# -ge 3 ] || die "usage: bench.sh --cost-boots NAME STOCK.csv... PATCHED.csv..."
	shift
	cost_boots "$@"
	exit
	;;
'') ;;
*) die "usage: bench.sh [--extract CONSOLE NAME [OUTDIR [LABEL]] | --cost-boots NAME STOCK.csv... PATCHED.csv...]" ;;
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
			# (x86_64 boots with tsc=reliable, see boot(): without it
			# perf's duration_time once fell to 4 ms steps.)
			if boot "$name" "$v" "faultaround.bench=programs faultaround.repeat=$repeat${BENCH_PROGRAMS_LIST:+ faultaround.programs=$BENCH_PROGRAMS_LIST}${BENCH_PROGRAMS_CACHE:+ faultaround.cache=$BENCH_PROGRAMS_CACHE}${BENCH_PROGRAMS_WARM:+ faultaround.warm=$BENCH_PROGRAMS_WARM}${BENCH_PROGRAMS_COLD:+ faultaround.cold=$BENCH_PROGRAMS_COLD}" &&
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
		# The kernels alternate, boot after boot, so that a drift of the
		# host cannot favour one of them.
		ok=1 stock_csvs=() patched_csvs=()
		pv=${BENCH_COST_PATCHED:-}	# the patched kernel's variant
		sv=${BENCH_COST_STOCK:-stock}	# the stock kernel's variant
		cost_mode=cost cost_name=cost${pv:+-$pv}
		if [ "${BENCH_COST_ELSEWHERE:-0}" = 1 ]; then
			cost_mode=cost-elsewhere cost_name=cost-hint-elsewhere${pv:+-$pv}
		fi
		for boot in $(seq 1 "$nboots"); do
			for variant in stock patched; do
				v=$sv; [ "$variant" = patched ] && v=$pv
				label=$variant; [ "$variant" = patched ] && label=patched${pv:+-$pv}
				fixed=
				[ $variant = stock ] && fixed=${BENCH_COST_STOCK_BYTES:+ faultaround.fixed_bytes=$BENCH_COST_STOCK_BYTES}
				[ $variant = patched ] && fixed=${BENCH_COST_PATCHED_BYTES:+ faultaround.fixed_bytes=$BENCH_COST_PATCHED_BYTES}
				if boot "$name" "$v" "faultaround.bench=$cost_mode faultaround.repeat=$cost_repeat${BENCH_COST_WORKLOADS:+ faultaround.workloads=$BENCH_COST_WORKLOADS}$fixed"; then
					c=$BUILD/results/$name${v:+-$v}bench.console
					cp "$c" "$outdir/$name-$cost_name-$label-b$boot.console"
					extract "$c" "$name-$cost_name-$label-b$boot" "$outdir" || ok=0
					if [ $variant = stock ]; then
						stock_csvs+=("$outdir/$name-$cost_name-$label-b$boot.csv")
					else
						patched_csvs+=("$outdir/$name-$cost_name-$label-b$boot.csv")
					fi
				else
					ok=0
				fi
			done
		done
		if [ $ok = 1 ]; then
			what=patched
			[ "$pv" = nohints ] && what="patched without CONFIG_FAULT_AROUND_HINTS"
			set="with no hint set"
			[ "$cost_mode" = cost-elsewhere ] &&
				set="with no hint in the measured process while another holds a process default"
			COST_LIVE=1 COST_SET=$set COST_WHAT=$what cost_boots "$name" "${stock_csvs[@]}" "${patched_csvs[@]}" |
				tee "$outdir/$name-$cost_name.txt"
			done_files+=("$outdir/$name-$cost_name.txt" "$outdir/$name-$cost_name"-*-b*-raw.csv)
		else
			failed+=("$name (cost)")
		fi
	elif [ "${BENCH_CONCURRENCY:-0}" = 1 ]; then
		for clock in ${BENCH_CLOCKS:-icount mttcg}; do
			case $clock in
			icount|mttcg) ;;
			*) die "BENCH_CLOCKS: unknown '$clock' (icount, mttcg)" ;;
			esac
			label=concurrency r=$repeat
			[ "$clock" = mttcg ] && label=concurrency-mttcg r=${BENCH_MTTCG_REPEAT:-10}
			c=$BUILD/results/${name}bench.console
			if boot "$name" "" "faultaround.bench=concurrency faultaround.repeat=$r" \
				bench "${BENCH_SMP:-2}" "$clock" &&
			   cp "$c" "$outdir/$name-$label.console" &&
			   extract "$c" "$name" "$outdir" "$label"; then
				cat "$outdir/$name-$label.txt"
				done_files+=("$outdir/$name-$label"{.txt,.csv,-raw.csv})
			else
				failed+=("$name ($label)")
			fi
		done
	elif [ "${BENCH_CALIBRATION:-0}" = 1 ]; then
		c=$BUILD/results/$name-stockbench.console
		if boot "$name" stock "faultaround.bench=calibration faultaround.repeat=$repeat"; then
			cp "$c" "$outdir/$name-calibration.console"
			for part in base columns; do
				if extract "$c" "$name" "$outdir" "calibration-$part"; then
					done_files+=("$outdir/$name-calibration-$part"{.txt,.csv,-raw.csv})
				else
					failed+=("$name (calibration $part)")
				fi
			done
		else
			failed+=("$name (calibration)")
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
	elif boot "$name" "$variant" "faultaround.bench=full faultaround.repeat=$repeat" &&
	     extract "$BUILD/results/$name${variant:+-$variant}bench.console" \
		"$name${variant:+-$variant}" "$outdir"; then
		cat "$outdir/$name${variant:+-$variant}.txt"
		done_files+=("$outdir/$name${variant:+-$variant}"{.txt,.csv,-raw.csv,.svg})
	else
		failed+=("$name${variant:+ ($variant)}")
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
