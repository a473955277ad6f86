#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench.sh O [N] [REPEATS]: what mmap costs through the preload shim, against
# plain mmap, in the two cases the shim treats differently (bench_mmap.c).
O=$1 N=${2:-20000} R=${3:-10}
B=$O/test/bench_mmap
SHIM=$O/libfaultaround-preload.so
NOMATCH='*.db=0;/usr/lib/*=64K'
MATCH="$NOMATCH;fa_bench*=64K"
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG
echo "# kernel $(uname -r), hints supported: $([ -r /sys/kernel/mm/faultaround/max_order ] && echo yes || echo no)"
for mode in repeat first; do
	echo "# $mode: $([ $mode = repeat ] && echo "mmap+munmap of a file mapped before" ||
		echo "open+mmap+munmap+close of a file never mapped before")"
	"$B" "$N" "$R" "no shim" $mode
	env LD_PRELOAD="$SHIM" "$B" "$N" "$R" "shim, no variables" $mode
	env LD_PRELOAD="$SHIM" FAULTAROUND_RULES="$NOMATCH" "$B" "$N" "$R" "shim, rules, no match" $mode 2> /dev/null
	env LD_PRELOAD="$SHIM" FAULTAROUND_RULES="$MATCH" "$B" "$N" "$R" "shim, rules, match" $mode 2> /dev/null
done
echo "# components (no shim)"
"$B" "$N" "$R" "" components
