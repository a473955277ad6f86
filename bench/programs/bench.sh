#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: the real programs' benchmark in the guest (busybox sh), run by
# run-bench for faultaround.bench=programs.  For each program of
# workloads.sh and each setting, REPEAT runs, each under Debian's
# perf stat (one run per perf, so every run's figures are kept):
#
#   perf stat -x, -e duration_time,minor-faults,major-faults[,fault_around:fault_around]
#
# Prints on stdout, for scripts/bench.sh to extract, between
# "# fabench-programs-begin" and "# fabench-programs-end": "# programs-meta:" lines
# and one CSV line per run (scripts/programs-report.sh makes the tables):
#
#   guest,kernel,cache,program,setting,run,status,seconds,minor_faults,major_faults,fault_around
#
# kernel: patched (the series' sysfs directory exists) or stock.  cache:
# warm (the page cache holds everything after one unmeasured run) or cold
# (sync and drop_caches before every run, outside the timed region).
# setting: base (the system default, untouched), global:K (the system
# default set to order K: sysfs default_bytes, or debugfs
# fault_around_bytes on stock, put back afterwards), auto-system (the
# system default set to the adaptive order, "auto" written to
# default_bytes, put back afterwards; on a kernel that refuses it one
# "skip" line per program and cache, the reason in a "# programs-meta:
# auto-system=skip" line), order:K ("faultaround -o K --", the process
# default), auto ("faultaround -a --"), rules and nomatch (the preload
# shim, "faultaround -r RULES --", with rules that match the program's
# files or a rule that matches none).  The stock kernel runs base and
# global:K only.  The cold cache runs fewer settings
# (below), and not the compile.  status: ok, or what went wrong
# (exit code, output differs from the first run's).  seconds: perf's
# duration_time, which under qemu -icount shift=0 is guest instructions.
#
#   bench.sh [-r REPEAT] [-p PROGRAMS] [-c CACHES] [-s WARM] [-S COLD] [-g GUEST]
#     PROGRAMS: comma list of sqlite,pystart,python,cc,rg,git,sqlite-pk,
#       pyimport,fio-seq,fio-rand,lmdb,lmdb-nordahead,weights (default: all)
#     CACHES:   warm,cold (default: both)
#     WARM, COLD: comma lists of settings for each cache, K a number or
#       mid (the default order, or 3 where that is 0) or max; default
#       WARM base,global:0,global:mid,global:max,auto-system,order:0,order:mid,order:max,auto,rules,nomatch
#       COLD base,global:0,global:max,auto-system,auto
#     (the stock kernel skips what needs the series: auto-system, order,
#     auto, rules, nomatch)
#
# The clock (icount under qemu -icount, mttcg without it, wall on
# hardware) is told by run-bench through FA_EMULATED, as fabench is.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/workloads.sh"

repeat=5 programs=sqlite,pystart,python,cc,rg,git,sqlite-pk,pyimport,fio-seq,fio-rand,lmdb,lmdb-nordahead,weights caches=warm,cold guest=$(uname -m)
warm_settings=base,global:0,global:mid,global:max,auto-system,order:0,order:mid,order:max,auto,rules,nomatch
cold_settings=base,global:0,global:max,auto-system,auto
while getopts r:p:c:s:S:g: opt; do
	case $opt in
	r) repeat=$OPTARG ;;
	p) programs=$OPTARG ;;
	c) caches=$OPTARG ;;
	s) warm_settings=$OPTARG ;;
	S) cold_settings=$OPTARG ;;
	g) guest=$OPTARG ;;
	*) echo "usage: bench.sh [-r REPEAT] [-p PROGRAMS] [-c CACHES] [-s WARM] [-S COLD] [-g GUEST]" >&2; exit 2 ;;
	esac
done
limit=${BENCH_TIMEOUT:-600}
out=/tmp/programs-bench
rm -rf $out && mkdir -p $out
# The smoke test's rules: data files no fault-around, programs and
# libraries 64K (the system default on every guest here, so the column
# measures what the shim costs, not another window).  nomatch: one rule
# that no file matches, the shim's cheapest path with rules set.
rules="$DATA/*=0;*=64K"
nomatch_rules="/nonexistent/*=0"
# The zlib example compiled per run (one of the nine: a run stays short).
cc_progs="zpipe"

fail() { echo "# programs-meta: error=$*"; echo "# fabench-programs-end"; exit 1; }

echo "# fabench-programs-begin"
grep -q " $PROGRAMS ext4 " /proc/mounts || fail "no programs image at $PROGRAMS"

# The machine: page size, fault-around knob, its orders.
psize=$(/faultaround/bench/fabench --print-page-size) || fail "fabench does not run"
sysfs=/sys/kernel/mm/faultaround
if [ -d $sysfs ]; then
	kernel=patched knob=$sysfs/default_bytes
	maxo=$(cat $sysfs/max_order)
else
	kernel=stock knob=/sys/kernel/debug/fault_around_bytes
	# What fault_around_bytes accepts: one page table of PTEs.
	case $psize in
	65536) if grep -qi '^MMU.*hash' /proc/cpuinfo; then maxo=8; else maxo=5; fi ;;
	*) maxo=9 ;;
	esac
fi
[ -w "$knob" ] || fail "no writable fault-around knob ($knob)"
orig=$(cat "$knob")
# order_of BYTES: the order a window of BYTES is (0 below one page).
order_of() {
	o=0 b=$(($1 / psize))
	while [ "$b" -gt 1 ]; do b=$((b / 2)); o=$((o + 1)); done
	echo $o
}
defo=$(order_of "$orig")
# 0, the default, the maximum; on 64K pages the default is 0, so order 3
# (the 2014 POWER7 pick) stands in the middle.
mid=$defo
[ "$mid" = 0 ] && mid=3
events=duration_time,minor-faults,major-faults
tp=/sys/kernel/tracing/events/fault_around/fault_around
[ -d "$PROGRAMS$tp" ] && events=$events,fault_around:fault_around

case ${FA_EMULATED:-} in
mttcg) clock=mttcg ;;
'' | 0) clock=wall ;;
*) clock=icount ;;
esac

echo "# programs-meta: guest=$guest kernel=$kernel release=$(uname -r) machine=$(uname -m) page_size=$psize max_order=$maxo default_bytes=$orig default_order=$defo orders=0:$mid:$maxo repeat=$repeat events=$events cc=$(echo "$cc_progs" | tr ' ' :) clock=$clock"
echo "# programs-meta: rules=$rules nomatch=$nomatch_rules"

setknob() { echo "$1" >"$knob" || fail "cannot write $1 to $knob"; }
trap 'echo "$orig" >"$knob"' EXIT INT TERM

# Whether the kernel takes the adaptive order as the system default: write
# "auto", read it back, put the default back.  $auto_skip: why not, or "".
auto_skip=
if [ $kernel = stock ]; then
	auto_skip="stock kernel: no adaptive order"
elif ! err=$( { echo auto >"$knob"; } 2>&1 ); then
	auto_skip="$knob refuses auto: ${err##*: }"
elif [ "$(cat "$knob")" != auto ]; then
	auto_skip="$knob reads back '$(cat "$knob")' after auto was written"
fi
setknob "$orig"
if [ -n "$auto_skip" ]; then
	echo "# programs-meta: auto-system=skip $auto_skip"
else
	echo "# programs-meta: auto-system=ok"
fi
echo "guest,kernel,cache,program,setting,run,status,seconds,minor_faults,major_faults,fault_around"

# workload PROGRAM: the wl_* call of PROGRAM.
workload() {
	case $1 in
	sqlite) echo "wl_sqlite lookups" ;;
	pystart) echo "wl_pystart" ;;
	python) echo "wl_python" ;;
	cc) echo "wl_cc /tmp/cc-bench -s $cc_progs" ;;
	rg) echo "wl_rg" ;;
	git) echo "wl_git" ;;
	sqlite-pk) echo "wl_sqlite_pk pk" ;;
	pyimport) echo "wl_pyimport" ;;
	fio-seq) echo "wl_fio seq" ;;
	fio-rand) echo "wl_fio rand" ;;
	lmdb) echo "wl_lmdb 4000" ;;
	lmdb-nordahead) echo "wl_lmdb 4000 nordahead" ;;
	weights) echo "wl_weights" ;;
	*) fail "unknown program '$1'" ;;
	esac
}

# expected PROGRAM: the host's answer for PROGRAM's benchmark run, made
# with the image (gen-data.sh), or nothing where the host has none.
expected() {
	case $1 in
	sqlite-pk) echo "$PROGRAMS$DATA/pk.expected" ;;
	fio-seq | fio-rand) echo "$PROGRAMS$DATA/$1.expected" ;;
	lmdb | lmdb-nordahead) echo "$PROGRAMS$DATA/lmdb.expected" ;;
	weights) echo "$PROGRAMS$DATA/weights.expected" ;;
	esac
}

# one PROGRAM LAUNCHER: one run of PROGRAM under perf stat, after LAUNCHER
# (words before perf in the chroot).  Sets $status and $fig
# ("seconds,minor,major,fault_around").
one() {
	rm -rf "$PROGRAMS/tmp/cc-bench" "$PROGRAMS/tmp/perf-stat.csv"
	[ "$cache" = cold ] && sync && echo 3 >/proc/sys/vm/drop_caches
	# shellcheck disable=SC2046
	RUN="$2 perf stat -x, -o /tmp/perf-stat.csv -e $events --" \
		timeout "$limit" sh "$here/workloads.sh" $(workload "$1") >$out/run 2>$out/run.err
	rc=$?
	status=ok
	if [ $rc != 0 ]; then
		status="exit $rc"
		sed 's/^/# programs-meta: stderr: /' $out/run.err | tail -5
	elif [ -f "$out/$1.ref" ] && ! cmp -s $out/run "$out/$1.ref"; then
		status="output differs"
	fi
	fig=$(awk -F, '
		$3 == "duration_time" { t = $1 }
		$3 == "minor-faults" { mi = $1 }
		$3 == "major-faults" { ma = $1 }
		$3 == "fault_around:fault_around" { fa = $1 }
		END { printf "%.9f,%s,%s,%s", t / 1e9, mi, ma, fa }' "$PROGRAMS/tmp/perf-stat.csv" 2>/dev/null)
	case $fig in ,*|*,,*) [ "$status" = ok ] && status="no perf figures" ;; esac
}

# measure PROGRAM SETTING: REPEAT runs, one raw line each.
measure() {
	launcher=
	case $2 in
	base) ;;
	global:*) setknob $((psize << ${2#global:})) ;;
	auto-system)
		if [ -n "$auto_skip" ]; then
			echo "$guest,$kernel,$cache,$1,$2,0,skip,,,,"
			return
		fi
		setknob auto ;;
	order:*) launcher="$FA -o ${2#order:} --" ;;
	auto) launcher="$FA -a --" ;;
	rules) launcher="$FA -r $rules --" ;;
	nomatch) launcher="$FA -r $nomatch_rules --" ;;
	esac
	r=1
	while [ $r -le "$repeat" ]; do
		one "$1" "$launcher"
		echo "$guest,$kernel,$cache,$1,$2,$r,$status,$fig"
		r=$((r + 1))
	done
	setknob "$orig"
}

for prog in $(echo "$programs" | tr , ' '); do
	# One unmeasured run: fills the page cache, gives the reference output,
	# which must be the host's answer where there is one.
	cache=warm
	one "$prog" ""
	want=$(expected "$prog")
	if [ "$status" = ok ] && [ -n "$want" ] && ! cmp -s $out/run "$want"; then
		status="output differs from the host's (${want#"$PROGRAMS"})"
	fi
	[ "$status" = ok ] || echo "# programs-meta: $prog: first run: $status"
	cp $out/run "$out/$prog.ref"
	for cache in $(echo "$caches" | tr , ' '); do
		# Every cold run reads the program back from the disk: fewer
		# settings, and no compile (gcc's cc1 alone is 30 MB).
		[ "$cache" = cold ] && [ "$prog" = cc ] && continue
		settings=$warm_settings
		[ "$cache" = cold ] && settings=$cold_settings
		for s in $(echo "$settings" | tr , ' '); do
			case $s in
			*:mid) s=${s%:mid}:$mid ;;
			*:max) s=${s%:max}:$maxo ;;
			esac
			case $kernel:$s in
			stock:order:* | stock:auto | stock:auto-system | stock:rules | stock:nomatch) continue ;;
			esac
			measure "$prog" "$s"
		done
	done
done
echo "# fabench-programs-end"
