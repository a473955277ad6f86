#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-trials.sh VARIANT RUNS [LOAD]: boot the short peer pass of make
# check (scripts/peer-check.sh) RUNS times on one pseries radix kernel,
# VARIANT "debug" (the series) or "debug-stock" (its unpatched twin), with
# the stress load LOAD (fit, the default, or overfill), and print one line
# a run: its tests, its kernel reports, the wrong bytes its readers saw
# (stress-ng's --verify failures and the churner's pattern checks), ext4
# losing data, and the most of the ext4 and of memory the load took.
# Consoles and lines in build/results/trials/VARIANT-LOAD*; the last line
# adds them up.  Categories, settings and stress as in make check unless
# PEER_CHECK_CATS, PEER_CHECK_SETTINGS or PEER_CHECK_STRESS say otherwise.
#
#   PEER_CHECK_BUILT=1        boot what is built, build nothing
#   PEER_TRIALS_UNTIL_LOST=1  stop after the first boot in which ext4 lost
#                             data (to show it with the overfill load)
#   PEER_TRIALS_TAG           names a series of trials apart from others on
#                             the same kernel and load
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

variant=${1:?VARIANT (debug or debug-stock)}
runs=${2:?RUNS}
load=${3:-fit}
dir=$BUILD/results/trials
name=$variant-$load${PEER_TRIALS_TAG:+-$PEER_TRIALS_TAG}
sum=$dir/$name.txt
mkdir -p "$dir"

if [ "${PEER_CHECK_BUILT:-0}" != 1 ]; then
	PEER_CHECK_BUILD_ONLY=1 "$top/scripts/peer-check.sh" ppc64le radix "$variant" || exit 1
fi

: >"$sum"
bad=0 wrong_total=0 lost_total=0 reports_total=0
for i in $(seq 1 "$runs"); do
	t=$SECONDS
	PEER_CHECK_BUILT=1 PEER_CHECK_LOAD=$load PEER_CHECK_NAME=trials/$name-$i \
		"$top/scripts/peer-check.sh" ppc64le radix "$variant" >/dev/null 2>&1
	rc=$?
	c=$dir/$name-$i.console
	read -r p f s <"$dir/$name-$i.counts" 2>/dev/null || { p=0 f=1 s=0; }
	reports=$(grep -E "$kernel_report_re" "$c" | grep -cvE "$kernel_benign_re" || true)
	oom=$(grep -cE 'invoked oom-killer' "$c" || true)
	lost=$(grep -cE 'Data will be lost' "$c" || true)
	wrong=$(grep -cE '^# peer-(stress-ng: .*(error in data|data mismatch|verif)|churn: .*reads [0-9]+, not [0-9]+)' "$c" || true)
	failed=$(grep -cE '^# peer-stress-ng: stress-ng: fail:' "$c" || true)
	full=$(grep -cE 'error 28|No space left|filesystem is full' "$c" || true)
	fit=$(sed -n 's/^# peer-stress: peak ext4 used .* kB (\([0-9]*\)%), least MemAvailable .* kB (\([0-9]*\)%), most Mlocked \([0-9]*\) kB/ext4 \1% mem-available \2% mlocked \3kB/p' "$c")
	line="run $i $name rc=$rc tests $p/$f/$s reports $reports oom $oom stress-ng-fail $failed enospc $full ext4-data-lost $lost wrong-bytes $wrong ${fit:-no-sample} $((SECONDS - t))s"
	echo "$line" | tee -a "$sum"
	[ $rc = 0 ] || bad=$((bad + 1))
	wrong_total=$((wrong_total + wrong)) lost_total=$((lost_total + lost))
	reports_total=$((reports_total + reports))
	# Stop at the first boot where ext4 lost data, when that is the point.
	[ "${PEER_TRIALS_UNTIL_LOST:-0}" = 1 ] && [ "$lost" -gt 0 ] && { runs=$i; break; }
done
echo "trials $name: $runs runs, $bad failed, $reports_total report lines, $lost_total ext4 data-loss lines, $wrong_total wrong-byte lines" | tee -a "$sum"
